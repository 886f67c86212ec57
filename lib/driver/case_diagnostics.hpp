#pragma once
// The case-specific numbers of the monitor line and the summary: drag and vortex flow rate of
// the cavity, shock thickness and flux constancy, wall shear of Couette flow, wall heat flux,
// Euler-limit error of the Riemann tube, stresses of the homogeneous relaxation.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "decomposition/geometry.hpp"
#include "solver/domain_view.hpp"
#include "case/run_options.hpp"
#include "io/checkpoint.hpp"

namespace bolt {

using NamedValues = std::vector<std::pair<std::string, double>>;

// What the diagnostics remember between monitor lines: the shock tube's shock positions, the
// cavity's drag and flow rate. A checkpoint carries the samples of the regular rows (multiples of
// -out_monitor_every; not those of a run's last step or of a stop, which an uninterrupted run
// does not have), so that the summary of a continued run averages what the uninterrupted one's
// does.
struct CaseHistory {
  std::vector<double> time, shock_x, drag, drag_top_row, flow_rate;
  std::size_t regular = 0;  // the samples up to the last regular row
};

// The samples of the regular rows as a checkpoint's history entries, and back (throws
// bolt::Error naming `file` when they are missing or of unequal lengths).
void save_case_history(const CaseHistory& history, CheckpointHistory& saved);
CaseHistory restore_case_history(const CheckpointHistory& saved, const std::string& file);

// Cheap numbers for every monitor line.
NamedValues monitor_diagnostics(const RunOptions& run, const PhysicalGrid& grid,
                                const Geometry& geometry, DomainView& domain,
                                const std::vector<double>& fields, double time,
                                CaseHistory& history);

// Everything for the final summary (adds profiles where the case has them). The cavity also gets
// D(t), G(t) and their mean and standard deviation over the monitor lines in the second half of
// the run (t >= time / 2): the steady state of a run long enough to reach it.
nlohmann::json summary_diagnostics(const RunOptions& run, const PhysicalGrid& grid,
                                   const Geometry& geometry, const VelocityGrid& velocities,
                                   double dt, DomainView& domain, const std::vector<double>& fields,
                                   double time, CaseHistory& history);

}  // namespace bolt
