// The iterative solver's accelerator (-iter_accel): PETSc's SNESANDERSON or SNESNGMRES on the
// fixed point M = S(M), with the sweep (and the synthetic correction, if on) as S, x - S(x) as
// the function; and the guard that keeps it to physical states.
#include <petscsnes.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "iterative_steady.hpp"
#include "core/error.hpp"
#include "kernels/macroscopic.hpp"

namespace bolt {

namespace {

void check_petsc(PetscErrorCode status, const char* what) {
  require(status == 0, "-iter_accel: PETSc failed in ", what, " (error ", int(status), ")");
}

}  // namespace

bool IterativeSteady::physical(const double* x) const {
  for (std::int64_t c = 0; c < cells_; ++c) {
    if (!solid_.empty() && solid_[c]) continue;
    const double* m = x + c * kRawMoments;
    if (!(m[kM0] > 0.0) || !std::isfinite(m[kM0])) return false;
    Macroscopic gas;
    density_velocity_temperature(m[kM0], m + kM1, m[kM2] + m[kM2 + 1] + m[kM2 + 2], gas);
    if (!(gas.T > 0.0) || !std::isfinite(gas.T)) return false;
  }
  return true;
}

double IterativeSteady::sweep_from(const double* x, double* out) {
  unpack(x);
  const double change = iterate();
  const std::vector<double> next = pack();
  std::copy(next.begin(), next.end(), out);
  return change;
}

int IterativeSteady::advance(int count, const std::function<bool()>& stop) {
  const std::int64_t start = sweeps_;
  if (accelerator_ == Accelerator::none) {
    for (int i = 0; i < count && !stop(); ++i)
      if (iterate() < tolerance_) break;
    return int(sweeps_ - start);
  }
  // The accelerator's unknowns are the state; its function x - S(x). The history starts anew
  // with each call (each stretch between the monitor's stops).
  const PetscInt n = PetscInt(pack().size());
  if (!snes_) {
    check_petsc(VecCreateSeq(PETSC_COMM_SELF, n, &x_), "VecCreateSeq");
    check_petsc(VecDuplicate(x_, &r_), "VecDuplicate");
    check_petsc(SNESCreate(PETSC_COMM_SELF, &snes_), "SNESCreate");
    check_petsc(SNESSetType(snes_, accelerator_ == Accelerator::anderson ? SNESANDERSON : SNESNGMRES),
                "SNESSetType");
    const auto function = [](SNES, Vec x, Vec f, void* context) -> PetscErrorCode {
      auto* self = static_cast<IterativeSteady*>(context);
      const PetscScalar* in = nullptr;
      PetscScalar* out = nullptr;
      PetscCall(VecGetArrayRead(x, &in));
      PetscCall(VecGetArray(f, &out));
      if (self->physical(in)) {
        self->sweep_from(in, out);
      } else {
        // The accelerator extrapolated past a physical state (a density or temperature not
        // positive): sweep from the last sweep's state instead, and end this solve at its
        // convergence test; advance() starts the accelerator again from that sweep.
        self->restart_accelerator_ = true;
        self->sweep_from(self->pack().data(), out);
      }
      PetscInt size = 0;
      PetscCall(VecGetLocalSize(x, &size));
      for (PetscInt i = 0; i < size; ++i) out[i] = in[i] - out[i];  // x - S(x)
      PetscCall(VecRestoreArray(f, &out));
      PetscCall(VecRestoreArrayRead(x, &in));
      return 0;
    };
    check_petsc(SNESSetFunction(snes_, r_, function, this), "SNESSetFunction");
    const auto test = [](SNES, PetscInt, PetscReal, PetscReal, PetscReal, SNESConvergedReason* reason,
                         void* context) -> PetscErrorCode {
      auto* self = static_cast<IterativeSteady*>(context);
      // A signal ends the stretch after this sweep, like the plain iteration's.
      if (self->last_change_ < self->tolerance_)
        *reason = SNES_CONVERGED_FNORM_ABS;
      else if (self->restart_accelerator_ || (*self->stop_)())
        *reason = SNES_CONVERGED_ITS;
      else
        *reason = SNES_CONVERGED_ITERATING;
      return 0;
    };
    check_petsc(SNESSetConvergenceTest(snes_, test, this, nullptr), "SNESSetConvergenceTest");
    // The history depth through the options database (SNESANDERSON and SNESNGMRES read it there).
    const std::string depth = std::to_string(history_);
    check_petsc(SNESSetOptionsPrefix(snes_, "bolt_iter_"), "SNESSetOptionsPrefix");
    PetscOptionsSetValue(nullptr, "-bolt_iter_snes_anderson_m", depth.c_str());
    PetscOptionsSetValue(nullptr, "-bolt_iter_snes_ngmres_m", depth.c_str());
    check_petsc(SNESSetFromOptions(snes_), "SNESSetFromOptions");
    PetscOptionsClearValue(nullptr, "-bolt_iter_snes_anderson_m");
    PetscOptionsClearValue(nullptr, "-bolt_iter_snes_ngmres_m");
  }
  // Each SNES iteration sweeps once (the function), and so does its start; stop() is asked
  // after each.
  stop_ = &stop;
  for (;;) {
    const std::int64_t left = count - (sweeps_ - start);
    if (left <= 0 || stop()) break;
    const std::vector<double> from = pack();
    PetscScalar* x = nullptr;
    check_petsc(VecGetArray(x_, &x), "VecGetArray");
    std::copy(from.begin(), from.end(), x);
    check_petsc(VecRestoreArray(x_, &x), "VecRestoreArray");
    // The first sweep is the function at the starting point: left - 1 iterations after it.
    check_petsc(SNESSetTolerances(snes_, 0.0, 0.0, 0.0, PetscInt(left - 1), PetscInt(100 * left)),
                "SNESSetTolerances");
    check_petsc(SNESSolve(snes_, nullptr, x_), "SNESSolve");
    // Only an extrapolation past a physical state starts the accelerator again (from the last
    // sweep, with a new history).
    const bool restart = restart_accelerator_ && last_change_ >= tolerance_;
    restart_accelerator_ = false;
    if (!restart) break;
  }
  // The state is the last sweep's result (what the fields show), whatever the accelerator's
  // own iterate.
  return int(sweeps_ - start);
}

}  // namespace bolt
