#include "monitor.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/error.hpp"

namespace bolt {

Monitor::Monitor(bool active, const std::string& csv_path, std::int64_t continue_from_step)
    : active_(active), csv_path_(csv_path) {
  if (!active_) return;
  std::vector<std::string> kept;
  if (continue_from_step >= 0) {
    std::ifstream previous(csv_path);
    std::string line;
    // The header, and the rows up to the restart's step. Anything else -- blank lines, a row cut
    // short by a run that died while writing it -- is no row of this run's history.
    while (std::getline(previous, line)) {
      if (line.empty()) continue;
      if (!std::isdigit(static_cast<unsigned char>(line[0]))) {
        if (kept.empty()) kept.push_back(line);
        continue;
      }
      char* end = nullptr;
      const long long step = std::strtoll(line.c_str(), &end, 10);
      if (*end == ',' && step <= continue_from_step && !kept.empty()) kept.push_back(line);
    }
  }
  csv_.open(csv_path, std::ios::trunc);
  require(csv_.good(), "cannot write the monitor file ", csv_path);
  for (const auto& line : kept) csv_ << line << "\n";
  header_written_ = !kept.empty();
  csv_.precision(12);
}

void Monitor::write(const MonitorRow& row) {
  if (!active_) return;
  if (!header_written_) {
    csv_ << "step,time,residual,mass_error,momentum_change,energy_change";
    for (const auto& [name, value] : row.diagnostics) csv_ << "," << name;
    csv_ << ",ms_per_step,updates_per_second,eta_s\n";
    header_written_ = true;
  }
  csv_ << row.step << "," << row.time << "," << row.residual << "," << row.mass_error << ","
       << row.momentum_change << "," << row.energy_change;
  for (const auto& [name, value] : row.diagnostics) csv_ << "," << value;
  csv_ << "," << row.ms_per_step << "," << row.updates_per_second << "," << row.eta_seconds << "\n";
  csv_.flush();
  const bool written = csv_.good();
  const int error = errno;
  csv_.clear();  // the next row is tried again (-out_on_error continue)

  std::printf("step %8lld  t %10.4f  res %9.3e  mass %9.2e  mom %9.2e  energy %9.2e",
              static_cast<long long>(row.step), row.time, row.residual, row.mass_error,
              row.momentum_change, row.energy_change);
  for (const auto& [name, value] : row.diagnostics) std::printf("  %s %.6g", name.c_str(), value);
  std::printf("  %.3f ms/step  %.3g upd/s  ETA %.0f s\n", row.ms_per_step, row.updates_per_second,
              row.eta_seconds);
  std::fflush(stdout);
  require(written, csv_path_, ": cannot write the monitor row of step ", row.step, " (",
          std::strerror(error), ")");
}

}  // namespace bolt
