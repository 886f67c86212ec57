#include "monitor.hpp"

#include <cstdio>
#include <filesystem>

#include "core/error.hpp"

namespace bolt {

Monitor::Monitor(bool active, const std::string& csv_path, bool append) : active_(active) {
  if (!active_) return;
  const bool exists = std::filesystem::exists(csv_path);
  csv_.open(csv_path, append ? std::ios::app : std::ios::trunc);
  require(csv_.good(), "cannot write the monitor file ", csv_path);
  header_written_ = append && exists;
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

  std::printf("step %8lld  t %10.4f  res %9.3e  mass %9.2e  mom %9.2e  energy %9.2e",
              static_cast<long long>(row.step), row.time, row.residual, row.mass_error,
              row.momentum_change, row.energy_change);
  for (const auto& [name, value] : row.diagnostics) std::printf("  %s %.6g", name.c_str(), value);
  std::printf("  %.3f ms/step  %.3g upd/s  ETA %.0f s\n", row.ms_per_step, row.updates_per_second,
              row.eta_seconds);
  std::fflush(stdout);
}

}  // namespace bolt
