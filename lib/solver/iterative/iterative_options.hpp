#pragma once
// The iterative solver's own options (-iter_), read by its registry entry (iterative_type.cpp).

namespace bolt {

// How the iterative solver speeds up its fixed point M = S(M) of the moments (-iter_accel):
// plain source iteration, or PETSc's SNESANDERSON / SNESNGMRES with the sweep as the function.
enum class Accelerator { none, anderson, ngmres };

struct IterationOptions {
  double tolerance = 1e-6;  // relative change of density, momentum and energy per iteration
  int max_iterations = 10000;
  Accelerator accelerator = Accelerator::none;
  int history = 10;        // iterates the accelerator combines
  bool synthetic = false;  // GSIS-type macroscopic correction after each sweep
  long long batch = 0;     // velocities swept at once per rank (0: as memory allows)
  int lines = 0;           // GPU: warps sweeping a warp of velocities (0: the sweep chooses)
};

}  // namespace bolt
