#pragma once
// The options of hs_mc, the semi-regular Monte Carlo collision of paper 000 (-mc_, read by
// read_mc_model): one struct, which the model holds (McModel), the operator's configuration
// carries (McConfig) and the device state reads (McDevice); the kernels take views made from it
// (McSampleParams, McStepTables).
#include <cstdint>

#include "kernels/hs_mc/correction.hpp"

namespace bolt {

struct McParams {
  int samples = 1024;      // N_t collision samples per step, shared by every cell
  std::uint32_t seed = 1;  // Philox key, with the step number
  double epsilon = 1.0;    // f = Phi0 (1 + eps h); the nonlinear term is eps h h1
  McCorrection correction = McCorrection::batched;  // external: PETSc on the host
  // The self term of the linear loss in expectation (default), or sampled as in paper 000
  // (-mc_self_loss; kernels/hs_mc/collision.hpp).
  bool expected_self_loss = true;
  // v, v1 drawn from the Maxwellian of this temperature (McDraw); 1: Phi0 (paper 000).
  double sampling_temperature = 1.0;
  int team_size = 0;       // GPU threads of a collision team; 0: mc_team_layout chooses
  int cells_per_team = 0;  // cells a collision team works on; 0: as many as fit
};

}  // namespace bolt
