// The iterative solver's accelerator (-iter_accel): PETSc's SNESANDERSON or SNESNGMRES on the
// fixed point M = S(M), with the sweep (and the synthetic correction, if on) as S, x - S(x) as
// the function; and the guard that keeps it to physical states.
#include <petscsnes.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "solver/iterative/iterative_steady.hpp"
#include "core/petsc_check.hpp"
#include "core/phase_events.hpp"
#include "core/solver_options.hpp"
#include "core/threaded_vec.hpp"
#include "kernels/macroscopic.hpp"

namespace bolt {

namespace {

constexpr PetscChecker check{"-iter_accel"};

constexpr const char* kOptionsPrefix = "bolt_iter_";
const bool kOptionsPrefixRegistered =
    register_solver_options_prefix(kOptionsPrefix, {"iter_accel", {"anderson", "ngmres"}});

// BoltAccelerator (core/phase_events.hpp) is the solve's own work: on in SNESSolve, paused while
// its function sweeps and the driver's hooks run (they have phases of their own) and after the
// march's last stretch, so that it lies inside the driver's BoltStep like the other phases.
void time_accelerator(bool& running, bool on) {
  if (running == on) return;
  const int event = phase_event("BoltAccelerator");
  if (on)
    begin_phase(event, "BoltAccelerator");
  else
    end_phase(event);
  running = on;
}

}  // namespace

bool IterativeSteady::physical(const double* x) const {
  bool all = true;
#pragma omp parallel for schedule(static) reduction(&& : all)
  for (std::int64_t c = 0; c < cells_; ++c) {
    if (!solid_.empty() && solid_[c]) continue;
    const double* m = x + c * kRawMoments;
    Macroscopic gas{};
    density_velocity_temperature(m[kM0], m + kM1, m[kM2] + m[kM2 + 1] + m[kM2 + 2], gas);
    all = all && is_gas(gas);
  }
  return all;
}

double IterativeSteady::sweep_from(const double* x, double* out) {
  unpack(x);
  const double change = iterate();
  pack(out);
  return change;
}

int IterativeSteady::advance(int count, const std::function<bool()>& stop) {
  const std::int64_t start = sweeps_;
  if (accelerator_ == Accelerator::none) {
    for (int i = 0; i < count && !stop(); ++i)
      if (iterate() < tolerance_) break;
    return int(sweeps_ - start);
  }
  bool given = false;  // one stretch of `count` sweeps
  march([&] { return given ? 0 : (given = true, count); }, [](int) { return true; }, stop);
  return int(sweeps_ - start);
}

void IterativeSteady::march(const std::function<int()>& next, const std::function<bool(int)>& after,
                            const std::function<bool()>& stop) {
  if (accelerator_ == Accelerator::none) {
    Solver::march(next, after, stop);
    return;
  }
  // The accelerator's unknowns are the state; its function x - S(x). One solve runs the whole
  // march, the driver's hooks called from its function after each stretch, so that its history
  // lasts from one stop to the next.
  const PetscInt n = PetscInt(pack().size());
  if (!snes_) {
    check(VecCreateSeq(PETSC_COMM_SELF, n, &x_), "VecCreateSeq");
    // The accelerator's history (its work vectors are duplicates of x_) on every thread.
    use_threaded_operations(x_);
    check(VecDuplicate(x_, &r_), "VecDuplicate");
    check(SNESCreate(PETSC_COMM_SELF, &snes_), "SNESCreate");
    check(SNESSetType(snes_, accelerator_ == Accelerator::anderson ? SNESANDERSON : SNESNGMRES),
                "SNESSetType");
    const auto function = [](SNES, Vec x, Vec f, void* context) -> PetscErrorCode {
      auto* self = static_cast<IterativeSteady*>(context);
      time_accelerator(self->march_.timing, false);
      const PetscScalar* in = nullptr;
      PetscScalar* out = nullptr;
      PetscCall(VecGetArrayRead(x, &in));
      PetscCall(VecGetArray(f, &out));
      PetscInt size = 0;
      PetscCall(VecGetLocalSize(x, &size));
      if (self->march_.done) {
        // Past the march's end (a line search's further evaluations): no more sweeps, a zero
        // function that the convergence test ends on.
        std::fill_n(out, size, 0.0);
      } else {
        if (self->physical(in)) {
          self->sweep_from(in, out);
        } else {
          // The accelerator extrapolated past a physical state (a density or temperature not
          // positive): sweep from the last sweep's state instead, and end this solve at its
          // convergence test; march() starts the accelerator again from that sweep.
          self->restart_accelerator_ = true;
          self->sweep_from(self->pack().data(), out);
        }
#pragma omp parallel for schedule(static)
        for (PetscInt i = 0; i < size; ++i) out[i] = in[i] - out[i];  // x - S(x)
        self->after_sweep();
      }
      PetscCall(VecRestoreArray(f, &out));
      PetscCall(VecRestoreArrayRead(x, &in));
      time_accelerator(self->march_.timing, !self->march_.done);
      return 0;
    };
    check(SNESSetFunction(snes_, r_, function, this), "SNESSetFunction");
    const auto test = [](SNES, PetscInt, PetscReal, PetscReal, PetscReal, SNESConvergedReason* reason,
                         void* context) -> PetscErrorCode {
      auto* self = static_cast<IterativeSteady*>(context);
      if (self->last_change_ < self->tolerance_)
        *reason = SNES_CONVERGED_FNORM_ABS;
      else if (self->march_.done || self->restart_accelerator_)
        *reason = SNES_CONVERGED_ITS;
      else
        *reason = SNES_CONVERGED_ITERATING;
      return 0;
    };
    check(SNESSetConvergenceTest(snes_, test, this, nullptr), "SNESSetConvergenceTest");
    // The history depth through the options database (SNESANDERSON and SNESNGMRES read it there).
    const std::string depth = std::to_string(history_);
    check(SNESSetOptionsPrefix(snes_, kOptionsPrefix), "SNESSetOptionsPrefix");
    PetscOptionsSetValue(nullptr, "-bolt_iter_snes_anderson_m", depth.c_str());
    PetscOptionsSetValue(nullptr, "-bolt_iter_snes_ngmres_m", depth.c_str());
    check(SNESSetFromOptions(snes_), "SNESSetFromOptions");
    PetscOptionsClearValue(nullptr, "-bolt_iter_snes_anderson_m");
    PetscOptionsClearValue(nullptr, "-bolt_iter_snes_ngmres_m");
    // The march may end inside the first solve: check now, all but the end-of-solve viewers.
    reject_unused_solver_options(kOptionsPrefix, "-iter_accel solver", false);
    // The march ends the solve (its convergence test), never the solver's own limits.
    check(SNESSetTolerances(snes_, 0.0, 0.0, 0.0, PETSC_MAX_INT, PETSC_MAX_INT),
                "SNESSetTolerances");
  }
  march_ = {&next, &after, &stop, next(), 0, false};
  march_.done = march_.left <= 0;
  while (!march_.done) {
    time_accelerator(march_.timing, true);
    const std::vector<double> from = pack();
    PetscScalar* x = nullptr;
    check(VecGetArray(x_, &x), "VecGetArray");
    std::copy(from.begin(), from.end(), x);
    check(VecRestoreArray(x_, &x), "VecRestoreArray");
    check(SNESSolve(snes_, nullptr, x_), "SNESSolve");
    time_accelerator(march_.timing, false);
    // Only an extrapolation past a physical state starts the accelerator again (from the last
    // sweep, with a new history); convergence ends the stretch and the driver's next() the march.
    restart_accelerator_ = false;
  }
  // The state is the last sweep's result (what the fields show), whatever the accelerator's
  // own iterate.
  march_ = {};
}

// After each sweep of the accelerated march: at the end of a stretch, on convergence or on a
// signal, the driver's hooks, then its next stretch.
void IterativeSteady::after_sweep() {
  ++march_.taken;
  const bool converged = last_change_ < tolerance_;
  if (march_.taken < march_.left && !converged && !(*march_.stop)()) return;
  const int taken = march_.taken;
  march_.taken = 0;
  march_.left = (*march_.after)(taken) ? (*march_.next)() : 0;
  march_.done = march_.left <= 0;
}

}  // namespace bolt
