#pragma once
// The monitor line, every -out_monitor_every steps: printed on rank 0 and appended to
// <out_dir>/monitor.csv. Columns (docs/output.md): step, time, residual, mass_error,
// momentum_change, energy_change, the case diagnostics (name = value), ms_per_step,
// updates_per_second (phase-space cell updates), eta_s.
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace bolt {

struct MonitorRow {
  std::int64_t step = 0;
  double time = 0.0;
  double residual = 0.0;
  double mass_error = 0.0;       // (M - M0) / M0
  double momentum_change = 0.0;  // |P - P0| / (M0 * c0)
  double energy_change = 0.0;    // (E - E0) / E0
  std::vector<std::pair<std::string, double>> diagnostics;
  double ms_per_step = 0.0;
  double updates_per_second = 0.0;
  double eta_seconds = 0.0;
};

class Monitor {
 public:
  // Opens (rank 0 only) the CSV. A restarted run passes its restart step: the rows up to it are
  // kept and later ones (from a run that died after its last checkpoint) dropped.
  Monitor(bool active, const std::string& csv_path, std::int64_t continue_from_step = -1);
  // Prints the row and appends it to the CSV; a failed append (disk full) throws, naming the
  // file and the system's error, after the row is printed.
  void write(const MonitorRow& row);

 private:
  bool active_;
  std::string csv_path_;
  bool header_written_ = false;
  std::ofstream csv_;
};

}  // namespace bolt
