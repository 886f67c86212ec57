#pragma once
// The order in which a rank's velocities are swept: grouped by the signs of their components on
// the active axes (each group sweeps the grid in one direction), each group padded to whole
// warps with idle slots of weight 0, so that the threads of a warp walk the cells together.
// With symmetry (specular) faces the groups come in phases, swept one after the other: phase k
// enters through k of them, so the values it enters with were left by an earlier phase.
#include <array>
#include <cstdint>
#include <vector>

#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"

namespace bolt {

struct SweepSlots {
  std::vector<int> velocity;    // [slot] index into the rank's velocities [lo, lo + count)
  std::vector<double> weight;   // [slot] quadrature (or h) weight, 0 for idle slots
  std::vector<std::int64_t> phase_end;  // slot after each phase
};

// specular[a][s]: face (a, s) is a symmetry face.
SweepSlots make_sweep_slots(const PhysicalGrid& grid, const VelocityGrid& velocities, int lo,
                            int count, int warp,
                            const std::array<std::array<bool, 2>, 3>& specular = {});

// Per interior cell, the flags of kernels/sweep.hpp (kOuterFaceCell, kSolidCell, a solid on side
// 2 a + s); `solid` [cell] 1 inside a solid, empty: none.
std::vector<unsigned char> sweep_cell_flags(const PhysicalGrid& grid,
                                            const std::vector<unsigned char>& solid);

}  // namespace bolt
