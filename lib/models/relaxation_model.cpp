#include "relaxation_model.hpp"

#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "core/option_reader.hpp"

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

double RelaxationModel::collision_frequency(const GasParams& gas, double n, double T) const {
  const double scale = kind_ == RelaxationKind::esbgk ? options_.prandtl : 1.0;
  return scale * gas.delta * n * std::pow(T, 1.0 - gas.omega);
}

std::shared_ptr<const CollisionModel> read_relaxation_model(MPI_Comm comm, std::string_view name,
                                                            RelaxationKind kind) {
  OptionReader o(comm, "Relaxation models: bgk, shakhov, esbgk (-model_)");
  RelaxationOptions r;
  r.prandtl = o.real("model_prandtl", "Prandtl number of Shakhov and ES-BGK", 2.0 / 3.0);
  if (kind == RelaxationKind::esbgk)
    require(r.prandtl >= 2.0 / 3.0, "-model_prandtl ", r.prandtl,
            ": ES-BGK needs Pr >= 2/3 for a positive-definite Gaussian");
  require(r.prandtl > 0.0, "-model_prandtl ", r.prandtl, ": must be positive");
  const bool conservative = o.flag(
      "model_conservative",
      "conservative discrete equilibrium: effective n, u, T by Newton so discrete moments match",
      false);
  const int iterations =
      o.integer("model_newton_iterations", "Newton steps of the conservative equilibrium", 4, 1, 20);
  r.conservative_iterations = conservative ? iterations : 0;
  const auto force = o.reals("model_force", "uniform body-force acceleration (units c0^2/L)", {0, 0, 0});
  for (int a = 0; a < 3; ++a) r.force[a] = force[a];
  return std::make_shared<RelaxationModel>(name, kind, r);
}

}  // namespace bolt
