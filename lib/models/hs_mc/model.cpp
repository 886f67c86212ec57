#include "models/hs_mc/model.hpp"

#include <petscsys.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/option_reader.hpp"
#include "kernels/hs_mc/collision.hpp"
#include "models/hs_mc/options.hpp"

namespace bolt {

std::string McModel::splitting_refusal(Splitting splitting) const {
  if (splitting == Splitting::strang)
    return "-ts_splitting strang: hs_mc streams, then collides (paper 000); use lie";
  return {};
}

// The BGK frequency of the same viscosity: the time-step limit the paper's runs were set with.
double McModel::collision_frequency(const GasParams& gas, double n, double T) const {
  return gas.delta * n * std::pow(T, 1.0 - gas.omega);
}

namespace {

// The relaxation models' options that hs_mc has no counterpart of: ignoring them would change
// the physics without a word.
void refuse_relaxation_options() {
  PetscReal force[3] = {0.0, 0.0, 0.0};
  PetscInt count = 3;
  PetscBool set = PETSC_FALSE;
  PetscOptionsGetRealArray(nullptr, nullptr, "-model_force", force, &count, &set);
  require(!set || (force[0] == 0.0 && force[1] == 0.0 && force[2] == 0.0),
          "-model_force: not available with -model_type hs_mc");
  PetscBool conservative = PETSC_FALSE;
  PetscOptionsGetBool(nullptr, nullptr, "-model_conservative", &conservative, &set);
  require(!conservative, "-model_conservative: a relaxation-model option; hs_mc conserves "
          "through its own correction (-mc_correction)");
}

}  // namespace

std::shared_ptr<const CollisionModel> read_mc_model(MPI_Comm comm, bool chosen) {
  if (chosen) refuse_relaxation_options();
  OptionReader o(comm, "Monte Carlo Boltzmann collision, -model_type hs_mc (-mc_)");
  McParams m;
  m.samples = o.integer("mc_samples", "collision samples N_t per step, shared by every cell", 1024,
                        1, 1 << 28);
  m.seed = std::uint32_t(o.integer("mc_seed", "random seed (Philox key with the step number)", 1,
                                   0, std::numeric_limits<int>::max()));
  m.epsilon = o.positive_real(
      "mc_epsilon", "deviation scale eps of f = Phi0 (1 + eps h) (e.g. the lid speed)", 1.0);
  const std::string correction = o.choice(
      "mc_correction",
      "conservation correction: batched 5x5 solve in the kernel, petsc on the host, or none",
      "batched", {"batched", "petsc", "none"});
  m.correction = correction == "batched"  ? McCorrection::batched
                 : correction == "petsc" ? McCorrection::external
                                         : McCorrection::none;
  m.expected_self_loss =
      o.choice("mc_self_loss",
               "self term of the linear loss: expected (its mean; stable in rarely sampled tail "
               "cells) or sampled (paper 000 Eq. 24; unstable there at large delta)",
               "expected", {"expected", "sampled"}) == "expected";
  m.sampling_temperature = o.positive_real(
      "mc_sampling_temperature",
      "temperature (T0) of the Maxwellian the collision pairs v, v1 are drawn from, with "
      "importance weights: 1 is Phi0 (paper 000); above 1 samples the tails of the velocity box "
      "more often, with smaller increments there",
      1.0);
  require(m.sampling_temperature >= 1.0, "-mc_sampling_temperature ", m.sampling_temperature,
          ": must be at least 1 (below 1 the importance weights grow in the tails of the box)");
  m.team_size = o.integer("mc_team_size",
                          "GPU threads of a collision team (multiple of 32; fewer when the "
                          "kernel's registers allow fewer; 0: 512 when two teams fit on one "
                          "multiprocessor, else 1024)",
                          0, 0, 1024);
  require(m.team_size % 32 == 0, "-mc_team_size ", m.team_size,
          ": must be 0 (automatic) or a multiple of 32");
  m.cells_per_team = o.integer("mc_cells_per_team",
                               "spatial cells a GPU collision team shares the samples between "
                               "(0: as many as fit in shared memory; at most " +
                                   std::to_string(kMcMaxCellsPerTeam) + ")",
                               0, 0, kMcMaxCellsPerTeam);
  return std::make_shared<McModel>(m);
}

}  // namespace bolt
