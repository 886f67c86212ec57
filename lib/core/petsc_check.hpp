#pragma once
// A failed PETSc call as an Error naming the solver that made it and the call. Each file that
// calls PETSc keeps one, named for its solver:
//   constexpr PetscCheck check{"synthetic correction"};
//   check(KSPSolve(ksp, b, x), "KSPSolve");
#include <petscsys.h>

#include "core/error.hpp"

namespace bolt {

struct PetscCheck {
  const char* solver;

  void operator()(PetscErrorCode code, const char* call) const {
    if (code != 0) fail(solver, ": PETSc ", call, " failed (error ", int(code), ")");
  }
};

}  // namespace bolt
