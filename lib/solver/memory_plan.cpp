#include "solver/memory_plan.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace bolt {

namespace {

// The value of `key` (in kB) in a /proc file of "key: value kB" lines, in bytes; 0 when absent.
double proc_bytes(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    double kib = 0.0;
    if (fields >> name >> kib && name == key) return kib * 1024.0;
  }
  return 0.0;
}

}  // namespace

double host_available_bytes(int ranks_per_node) {
  double available = proc_bytes("/proc/meminfo", "MemAvailable:") / std::max(ranks_per_node, 1);
  // A limit on the address space (ulimit -v) bounds this process whatever the node has free.
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const double room =
        std::max(0.0, double(limit.rlim_cur) - proc_bytes("/proc/self/status", "VmSize:"));
    available = available > 0.0 ? std::min(available, room) : room;
  }
  return available;
}

std::string gib(double bytes) {
  std::ostringstream out;
  out.precision(bytes < 10.0 * kGiB ? 3 : 4);
  out << bytes / kGiB << " GiB";
  return out.str();
}

double host_peak_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) * 1024.0;  // kilobytes on Linux
}

double host_resident_bytes() { return proc_bytes("/proc/self/status", "VmRSS:"); }

}  // namespace bolt
