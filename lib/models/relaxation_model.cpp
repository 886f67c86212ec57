#include "relaxation_model.hpp"

#include <cmath>
#include <sstream>

namespace bolt {

std::string RelaxationModel::whole_rows_reason() const {
  if (options_.conservative_iterations > 0)
    return "-model_conservative needs every velocity of a cell";
  return {};
}

namespace {

double force_size(const RelaxationOptions& o) {
  return std::sqrt(o.force[0] * o.force[0] + o.force[1] * o.force[1] + o.force[2] * o.force[2]);
}

// The body force enters as dt 2 (g . c) / T f_M per step: beyond |g| dt of a quarter of the
// thermal speed (T0 units: c0 at T = 1) it turns f negative over the bulk of the velocities.
constexpr double kLargestForceStep = 0.25;

}  // namespace

std::string RelaxationModel::time_step_refusal(double dt) const {
  const double step = force_size(options_) * dt;
  if (step <= kLargestForceStep) return {};
  std::ostringstream out;
  out << "-model_force " << options_.force[0] << "," << options_.force[1] << ","
      << options_.force[2] << " with the time step " << dt << ": |g| dt = " << step
      << " c0, the explicit force term allows at most " << kLargestForceStep
      << "; lower -ts_dt or -ts_max_courant";
  return out.str();
}

std::string RelaxationModel::step_failure_hint(double dt) const {
  const double g = force_size(options_);
  if (g == 0.0) return {};
  std::ostringstream out;
  out << "the body force's explicit term (-model_force: |g| dt = " << g * dt << " c0)";
  return out.str();
}

}  // namespace bolt
