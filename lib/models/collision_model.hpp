#pragma once
// A collision model as the run sees it (-model_type and the model's own options): what it needs
// of the decomposition and the time step, with no backend and no precision. The registry
// (model_registry.hpp) reads it from the options and makes its operator (collision_operator.hpp)
// for the engine's backend and precision. Nothing outside the registry branches on a model.
#include <cstdint>
#include <string>
#include <string_view>

namespace bolt {

// The gas every model shares (units of docs/physics.md).
struct GasParams {
  double delta = 1.0;  // rarefaction parameter p0 L / (mu0 c0)
  double omega = 0.5;  // viscosity exponent, mu = mu0 (T/T0)^omega
};

enum class Splitting { lie, strang };

struct VelocityGrid;

// What the accuracy of a model's step depends on beyond dt (case_setup.cpp fills it).
struct StepAccuracy {
  GasParams gas;
  double dt = 0.0;
  // Largest collision frequency of the states the run starts from or lets in.
  double max_frequency = 0.0;
  // The time over which an error of the collision step accumulates: the run's, or, where walls
  // or open faces carry the gas's heat away, the time heat takes to reach them.
  double span = 0.0;
  // Largest |(energy / mass) - 1| of the Maxwellians of those states summed on the velocity grid.
  double energy_error = 0.0;
  double tolerance = 0.0;  // -vgrid_tolerance
  const VelocityGrid* velocities = nullptr;
};

class CollisionModel {
 public:
  virtual ~CollisionModel() = default;
  // The registered name (-model_type).
  virtual std::string_view name() const = 0;
  // The variable the engine stores where it is not f (a checkpoint then holds it beside f, for
  // a bit-identical restart), else empty.
  virtual std::string stored_variable() const { return {}; }
  // Why every velocity of a cell must be on one rank (no velocity decomposition), or empty.
  virtual std::string whole_rows_reason() const { return {}; }
  // Why the model cannot run with this splitting of streaming and collision, or empty.
  virtual std::string splitting_refusal(Splitting /*splitting*/) const { return {}; }
  // Values per cell the velocity decomposition sums over the ranks each step.
  virtual int sums_per_cell() const = 0;
  // Collision frequency of gas in equilibrium at density n and temperature T (time-step limit).
  virtual double collision_frequency(const GasParams& gas, double n, double T) const = 0;
  // The Prandtl number the model gives the gas (the iterative solver's synthetic correction).
  // 1, BGK's, unless a model says otherwise; only the relaxation models run in that solver.
  virtual double prandtl() const { return 1.0; }
  // Bytes the operator keeps beside f for a box of `cells` cells (pre-run memory plan).
  virtual double operator_bytes(std::int64_t /*cells*/) const { return 0.0; }
  // Why the model cannot take the time step dt, naming the options, or empty.
  virtual std::string time_step_refusal(double /*dt*/) const { return {}; }
  // Why the model's step would be inaccurate beyond repair for this run (the collision step too
  // large for the method, an error that accumulates past -vgrid_tolerance), naming the options,
  // or empty.
  virtual std::string accuracy_refusal(const StepAccuracy& /*step*/) const { return {}; }
  // Why the model cannot run on a reduced velocity set (the Chu reduction, docs/physics.md), or
  // empty. The collision integrals of the full Boltzmann equation need the 3-D velocity space.
  virtual std::string reduction_refusal() const {
    return "-model_type " + std::string(name()) + " needs the full 3-D velocity space";
  }
  // The body force's acceleration along each axis (no velocity axis along it can be reduced).
  virtual double body_force(int /*axis*/) const { return 0.0; }
  // A term of the model that a too large step breaks first, for the numerical guard's message
  // (e.g. "the body force's explicit term (-model_force: |g| dt = 2 c0)"), or empty.
  virtual std::string step_failure_hint(double /*dt*/) const { return {}; }
};

}  // namespace bolt
