#pragma once
// The solver seam (DESIGN.md, "The two seams"): what the driver's loop (simulation.cpp) asks of
// a method that advances the state -- the explicit split time march (explicit_march.hpp) or the
// iterative steady solver of paper 004 (iterative_steady.hpp). The loop's hooks (monitor lines,
// fields, checkpoints, signals, the summary, the numerical guard) are shared; a solver only
// advances, reports its fields, and saves and restores its state.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solver/domain_view.hpp"
#include "io/checkpoint.hpp"
#include "parallel/communicator.hpp"

namespace bolt {

// Where a solver's state lies in a checkpoint: rows of `columns` values per cell of each owned
// box, this rank holding the columns [columns_lo, columns_lo + columns_count).
struct StateLayout {
  std::vector<OwnedBox> boxes;
  VelocityRange columns;
  int width = 0;  // columns per cell over all ranks (the checkpoint's nv)
};

class Solver {
 public:
  virtual ~Solver() = default;
  // "explicit" or "iterative" (-solver).
  virtual const char* name() const = 0;
  // What one unit of `advance` is called in the monitor and the summary.
  virtual const char* unit() const = 0;
  // Up to `count` steps or iterations, fewer where stop() (asked between them, the same on every
  // rank) says so or the iteration has converged; returns how many were taken. Collective.
  virtual int advance(int count, const std::function<bool()>& stop) = 0;
  // The driver's loop: stretch after stretch of `next()` units (0: none left), each followed by
  // `after(taken)` -- the driver's hooks (monitor, fields, checkpoints, signals) -- which says
  // whether to go on. The default advances stretch by stretch; a solver whose iteration carries
  // a state beyond its own (the iterative accelerator's history) runs the hooks from inside it,
  // so that the driver's stops do not start that state anew. Collective.
  virtual void march(const std::function<int()>& next, const std::function<bool(int)>& after,
                     const std::function<bool()>& stop) {
    for (int count = next(); count > 0; count = next())
      if (!after(advance(count, stop))) return;
  }
  // The time one unit advances (0 for a steady iteration).
  virtual double time_step() const = 0;
  // The whole domain as the diagnostics see it (fields, face fluxes, f).
  virtual DomainView& domain() = 0;
  // The convergence measure after `units` steps or iterations since `before` (fields of the whole
  // grid), and whether it says the run has reached its steady state.
  virtual double residual(const std::vector<double>& now, const std::vector<double>& before,
                          int units) const = 0;
  virtual bool converged(double residual) const = 0;
  // The residual converged() stops below; 0 where the run ends only at its last unit.
  virtual double tolerance() const = 0;

  // The state a checkpoint holds and a restart gives back (the unit count is the step).
  virtual StateLayout state_layout() const = 0;
  // f into `f`; and where the state is stored as another variable than f (hs_mc's deviation h,
  // which f rounds), its values in the same layout into `stored` (left empty otherwise), taken
  // together: one copy off the GPU.
  virtual void save_state(BoxValues& f, BoxValues& stored) = 0;
  virtual void restore(const BoxValues& state, std::int64_t unit) = 0;
  // The stored variable's name (empty: f itself) and the restoring of its values. A checkpoint
  // holds both; a restart of the same model and precision continues from these bit-identically.
  virtual std::string stored_variable() const { return {}; }
  virtual void restore_stored(const BoxValues& state, std::int64_t unit) { restore(state, unit); }

  // The collision model's running totals a checkpoint carries (the same on every rank;
  // collective), and their restoring.
  virtual std::vector<double> model_counters() { return {}; }
  virtual void restore_model_counters(const std::vector<double>& /*values*/) {}

  // Phase-space updates of one unit (all ranks), and the bytes this rank moves per unit (the
  // bandwidth the benchmark counts).
  virtual double updates_per_unit() const = 0;
  virtual double bytes_per_unit() const = 0;
  // Time spent in halo exchanges and moment sums since the last call (waits for the work).
  virtual CommunicationTimes take_communication_times() = 0;
  // The likely cause of a state the numerical guard refuses, and what to change (the end of its
  // message).
  virtual std::string failure_hint() const = 0;
  // The collision model's numbers for the monitor (this rank).
  virtual std::vector<std::pair<std::string, double>> model_diagnostics() { return {}; }
  // The solver's own numbers for the summary (iterations, accelerator).
  virtual std::vector<std::pair<std::string, double>> summary_numbers() const { return {}; }
};

}  // namespace bolt
