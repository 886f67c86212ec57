#include "solver/memory_plan.hpp"

#include <sys/resource.h>

#include <fstream>
#include <sstream>
#include <string>

namespace bolt {

double host_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0.0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024.0;
    meminfo.ignore(256, '\n');
  }
  return 0.0;
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

}  // namespace bolt
