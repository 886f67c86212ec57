#pragma once
// The collision operator of one engine (a box and a velocity range, one backend and precision):
// everything the explicit engine asks of a model. The engine owns f, its ghosts, halos and
// streaming tables; the operator says how its stored state maps to f, what the boundaries put in
// the ghosts, and does the step's work on the cells (streaming with it, so that a model can fuse
// both into one pass over f). Made by the registry (model_operators.hpp) from the run's
// CollisionModel.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collision_model.hpp"
#include "core/backend.hpp"
#include "grid/velocity_grid.hpp"
#include "kernels/boundary_fill.hpp"
#include "kernels/maxwellian.hpp"
#include "kernels/streaming.hpp"
#include "kernels/views.hpp"

namespace bolt {

// What the engine tells an operator when it makes it.
struct OperatorSetup {
  Backend backend = Backend::cpu;
  std::shared_ptr<const CollisionModel> model;
  GasParams gas;
  double dt = 0.0;  // the time step
  Splitting splitting = Splitting::lie;
  const VelocityGrid* velocities = nullptr;  // every velocity of the run
  int velocity_lo = 0, velocity_count = 0;   // the engine's own
  std::int64_t cells = 0;                    // interior cells of the engine's box
  int team_size = 256;                       // GPU threads per cell
  bool team_size_chosen = false;             // bolt's choice of team_size, not the user's
  // Sums values in place over the ranks that own the other velocities of the same cells (set
  // when the velocities are split).
  std::function<void(double* values, std::size_t count)> sum_over_velocity_group;
  bool split() const { return velocities && velocity_count < velocities->size(); }
};

// One pass of the operator over cells: from f_in (ghosts filled) to f_out, which are the same
// array for a pass in place.
template <class Real>
struct CellPass {
  const Real* f_in;
  Real* f_out;
  Velocities<Real> vel;
  StreamTables<Real> stream;
  StreamRuns runs;     // the CPU's first-order rows by runs (none on the GPU)
  CellIndexer cells;   // the cells of this pass (the box, or a region of it)
  std::uint32_t step;  // number of the step the pass belongs to (keys random samples)
  int substep;         // streaming pass of the step, < CollisionOperator::substeps()
  // How many cells the step's passes before this one took (0: the step's first pass): where
  // the cells' own outputs of the step (hs_mc's correction records) start.
  std::int64_t first_cell;
};

// What the fills of a boundary face put in the ghosts (kernels/boundary_fill.hpp), in terms of
// the stored state, for the engine's velocities.
template <class Real>
struct FaceValues {
  std::vector<Real> equilibrium;  // the entering Maxwellian (a wall's at unit density)
  std::vector<Real> offset;       // empty, or the stored state's affine part at a wall
  double influx = 0.0;            // a wall's entering number flux at unit density
};

template <class Real, class Exec>
class CollisionOperator {
 public:
  virtual ~CollisionOperator() = default;

  // The stored state of `count` velocities from f, and back (v0: the first one's index among
  // the engine's velocities). f itself unless overridden.
  virtual void stored_of_f(const double* f, Real* stored, int v0, int count) const {
    for (int v = 0; v < count; ++v) stored[v] = Real(f[v]);
    (void)v0;
  }
  virtual void f_of_stored(const Real* stored, double* f, int v0, int count) const {
    for (int v = 0; v < count; ++v) f[v] = double(stored[v]);
    (void)v0;
  }
  // The weights that moments and wall fluxes of the stored state are summed with.
  virtual Velocities<Real> moment_view(const Velocities<Real>& vel) const { return vel; }
  // Raw moments of f (kernels/macroscopic.hpp order) from those of the stored state, in place.
  virtual void raw_of_f(double* /*raw*/) const {}
  // The 5 fluxes of f through a face from those of the stored state, in place.
  virtual void flux_of_f(int /*axis*/, int /*side*/, double* /*flux*/) const {}
  virtual FaceValues<Real> face_values(const FaceSpec& spec, int axis, int side) const = 0;

  // Streaming passes per step, each over dt / substeps() (the engine fills the ghosts and
  // exchanges the halos before each): 2 for Strang's A(dt/2) C(dt) A(dt/2).
  virtual int substeps() const { return 1; }
  // Before the ghosts of a step are filled, with the whole box in place (Strang's first half of
  // the collision; the preparation of a step's samples).
  virtual void begin_step(const CellPass<Real>& /*box*/) {}
  // Whether the cells may be passed in parts (the interior while the halos travel, then the
  // rest); otherwise the box is passed whole, after the halos.
  virtual bool passes_in_parts() const { return true; }
  // Streaming and collision of the pass's cells.
  virtual void pass(const CellPass<Real>& cells) = 0;
  // Running totals the monitor numbers are taken from, which a checkpoint carries (hs_mc: the
  // samples drawn and rejected), and their restoring.
  virtual std::vector<double> counters() { return {}; }
  virtual void set_counters(const std::vector<double>& /*values*/) {}
  // Numbers for the monitor (name, value; over this engine's cells).
  virtual std::vector<std::pair<std::string, double>> diagnostics() const { return {}; }
};

// The face values of a model whose stored state is f: the Maxwellian of the face's state, and a
// wall's entering flux summed over every velocity of the run.
template <class Real>
FaceValues<Real> maxwellian_face_values(const FaceSpec& spec, int axis, int side,
                                        const OperatorSetup& setup) {
  const VelocityGrid& vg = *setup.velocities;
  FaceValues<Real> out;
  const double n = spec.kind == FaceKind::wall ? 1.0 : spec.density;
  const double prefactor = maxwellian_prefactor(n, spec.temperature);
  const double outward = side == 0 ? -1.0 : 1.0;
  for (int v = 0; v < vg.size(); ++v) {
    const double value = maxwellian<double>(prefactor, 1.0 / spec.temperature, spec.velocity,
                                            vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]) *
                         vg.reduced_factor(v, spec.temperature);
    const double xn = outward * vg.xi[axis][v];
    if (xn < 0.0) out.influx += vg.weight[v] * (-xn) * value;
    if (v >= setup.velocity_lo && v < setup.velocity_lo + setup.velocity_count)
      out.equilibrium.push_back(Real(value));
  }
  return out;
}

}  // namespace bolt
