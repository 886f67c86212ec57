#pragma once
// A failed PETSc call as an Error naming the solver that made it and the call. Each file that
// calls PETSc keeps one, named for its solver:
//   constexpr PetscChecker check{"synthetic correction"};
//   check(KSPSolve(ksp, b, x), "KSPSolve");
#include <petscsys.h>

#include "core/error.hpp"

namespace bolt {

struct PetscChecker {
  const char* solver;

  void operator()(PetscErrorCode code, const char* call) const {
    if (code != 0) fail(solver, ": PETSc ", call, " failed (error ", int(code), ")");
  }
};

}  // namespace bolt
