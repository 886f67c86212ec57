#pragma once
// Turns the run options into what the engine needs: grids, the time step, the boundary faces,
// and the initial distribution.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "decomposition/geometry.hpp"
#include "kernels/maxwellian.hpp"
#include "case/run_options.hpp"
#include "solver/explicit/engine.hpp"
#include "solver/explicit/time_step.hpp"

namespace bolt {

struct CaseSetup {
  RunOptions run;  // the options with what the set-up derived (e.g. discrete shock states)
  EngineConfig engine;  // of the whole grid
  Geometry geometry;
  TimeStep time_step;
};

CaseSetup make_case_setup(const RunOptions& options);

// One Maxwellian of the initial state: density, mean velocity, and a temperature per axis.
struct InitialMaxwellian {
  double n = 0.0;
  double u[3] = {0.0, 0.0, 0.0};
  double T[3] = {1.0, 1.0, 1.0};
  // Grad's 13-moment terms of an isotropic one (T[0] = T[1] = T[2]): stress P_ij - n T delta_ij
  // (xx, yy, zz, xy, xz, yz) and heat flux q; 0 for a Maxwellian.
  double stress[6] = {0, 0, 0, 0, 0, 0};
  double heat[3] = {0, 0, 0};
  // f = prefactor() exp(-sum_a (xi_a - u_a)^2 / T_a) (1 + grad_factor(c)).
  double prefactor() const { return n / std::sqrt(kPi * T[0] * kPi * T[1] * kPi * T[2]); }
  // Grad's correction at peculiar velocity c (bolt units, p = n T):
  // sigma_ij c_i c_j / (p T) + 2 q.c / (p T) (2 c^2 / (5 T) - 1).
  double grad_factor(const double c[3]) const {
    const double pT = n * T[0] * T[0], c2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    const double sc = stress[0] * c[0] * c[0] + stress[1] * c[1] * c[1] + stress[2] * c[2] * c[2] +
                      2.0 * (stress[3] * c[0] * c[1] + stress[4] * c[0] * c[2] +
                             stress[5] * c[1] * c[2]);
    const double qc = heat[0] * c[0] + heat[1] * c[1] + heat[2] * c[2];
    return (sc + 2.0 * qc * (0.4 * c2 / T[0] - 1.0)) / pT;
  }
  // The factor s of Grad's terms that keeps 1 + s grad_factor(c) >= 1/2 wherever |c_a| <=
  // largest[a]: 1 unless the terms are large against p T. Grad's expansion turns negative in the
  // tails there (the fields of a shock as the initial state), and f must stay positive; an
  // initial state from fields is a start, its stress and heat flux need not be exact where the
  // expansion fails. A bound from the box's extent, not the least value on the nodes: so it is
  // the same on every velocity rank.
  double grad_scale(const double largest[3]) const {
    const double* L = largest;
    const double c2 = L[0] * L[0] + L[1] * L[1] + L[2] * L[2];
    const double sc = std::abs(stress[0]) * L[0] * L[0] + std::abs(stress[1]) * L[1] * L[1] +
                      std::abs(stress[2]) * L[2] * L[2] +
                      2.0 * (std::abs(stress[3]) * L[0] * L[1] + std::abs(stress[4]) * L[0] * L[2] +
                             std::abs(stress[5]) * L[1] * L[2]);
    const double qc =
        std::abs(heat[0]) * L[0] + std::abs(heat[1]) * L[1] + std::abs(heat[2]) * L[2];
    const double bound = (sc + 2.0 * qc * std::max(1.0, 0.4 * c2 / T[0] - 1.0)) / (n * T[0] * T[0]);
    return bound > 0.5 ? 0.5 / bound : 1.0;
  }
};
// The initial state of interior cell `cell` of a grid: every -init_type is the sum of at most two
// Maxwellians; returns how many it wrote.
using InitialMaxwellians = std::function<int(std::int64_t cell, InitialMaxwellian out[2])>;
InitialMaxwellians initial_state_maxwellians(const RunOptions& run, const PhysicalGrid& grid);

// f of the initial state, row by row (Engine::set_state): the interior cells of `grid` at the
// velocities [velocity_lo, velocity_lo + velocity_count) of `velocities`.
StateRows initial_state_rows(const RunOptions& run, const PhysicalGrid& grid,
                             const VelocityGrid& velocities, int velocity_lo, int velocity_count);

// The raw moments (kernels/cell_moments.hpp) of the initial f of every interior cell, summed on
// the whole velocity set: [cell][kRawMoments]. On a full Cartesian box the sums factorise by axis
// (a Maxwellian with a temperature per axis is a product over the axes), which costs tens of
// terms per cell instead of a row of every velocity.
std::vector<double> initial_raw_moments(const RunOptions& run, const PhysicalGrid& grid,
                                        const VelocityGrid& velocities);

// Largest collision frequency of the states a run starts from or lets in (time-step limit).
double max_collision_frequency(const RunOptions& run);

}  // namespace bolt
