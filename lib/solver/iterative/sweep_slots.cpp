#include "solver/iterative/sweep_slots.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/sweep.hpp"
#include "solver/iterative/sweep_engine.hpp"

namespace bolt {

SweepSlots make_sweep_slots(const PhysicalGrid& grid, const VelocityGrid& velocities, int lo,
                            int count, int warp,
                            const std::array<std::array<bool, 2>, 3>& specular) {
  std::vector<int> group[8];
  for (int v = 0; v < count; ++v) {
    int octant = 0;
    for (int a = 0; a < 3; ++a)
      if (grid.cells(a) > 1 && velocities.xi[a][lo + v] < 0.0) octant |= 1 << a;
    group[octant].push_back(v);
  }
  // The symmetry faces an octant's velocities enter through: a low face those going up the axis
  // (bit clear), a high face those going down (bit set).
  const auto entered = [&](int octant) {
    int faces = 0;
    for (int a = 0; a < 3; ++a)
      faces += specular[a][(octant >> a) & 1 ? 1 : 0] ? 1 : 0;
    return faces;
  };
  SweepSlots slots;
  for (int phase = 0; phase <= 3; ++phase) {
    for (int octant = 0; octant < 8; ++octant) {
      const std::vector<int>& members = group[octant];
      if (members.empty() || entered(octant) != phase) continue;
      for (int v : members) {
        slots.velocity.push_back(v);
        // One of the two is 0 (VelocityGrid::h_weight): a g node's weight, or an h node's.
        slots.weight.push_back(velocities.weight[lo + v] + velocities.h_weight_of(lo + v));
      }
      for (std::size_t pad = members.size(); pad % warp != 0; ++pad) {
        slots.velocity.push_back(members.front());
        slots.weight.push_back(0.0);
      }
    }
    if (slots.phase_end.empty() || std::int64_t(slots.velocity.size()) > slots.phase_end.back())
      slots.phase_end.push_back(std::int64_t(slots.velocity.size()));
  }
  return slots;
}

std::int64_t sweep_slot_count(const PhysicalGrid& grid, const VelocityGrid& velocities, int lo,
                              int count) {
  return std::int64_t(make_sweep_slots(grid, velocities, lo, count, 32).velocity.size());
}

int sweep_sum_copies(Backend backend, const PhysicalGrid& grid) {
  if (backend == Backend::cpu) return 1;
  const double bytes = double(grid.interior_cells()) * double(kRawMoments) * sizeof(double);
  return int(std::max(1.0, std::min(32.0, std::floor(2.0 * 1024 * 1024 * 1024 / bytes))));
}

std::vector<unsigned char> sweep_cell_flags(const PhysicalGrid& grid,
                                            const std::vector<unsigned char>& solid) {
  const int n[3] = {grid.cells(0), grid.cells(1), grid.cells(2)};
  const std::int64_t stride[3] = {1, n[0], std::int64_t(n[0]) * n[1]};
  std::vector<unsigned char> flags(std::size_t(stride[2]) * n[2], 0);
  const auto is_solid = [&](std::int64_t c) { return !solid.empty() && solid[c] != 0; };
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) {
        const int at[3] = {i, j, k};
        const std::int64_t cell = i + stride[1] * j + stride[2] * k;
        unsigned value = is_solid(cell) ? kSolidCell : 0u;
        for (int a = 0; a < 3; ++a) {
          if (n[a] == 1) continue;
          if (at[a] == 0 || at[a] == n[a] - 1) value |= kOuterFaceCell;
          if (at[a] > 0 && is_solid(cell - stride[a])) value |= 1u << (2 * a);
          if (at[a] < n[a] - 1 && is_solid(cell + stride[a])) value |= 1u << (2 * a + 1);
        }
        flags[std::size_t(cell)] = static_cast<unsigned char>(value);
      }
  return flags;
}

double sweep_slice_bytes(const PhysicalGrid& grid, Precision precision, int order) {
  SweepGrid<> g{};
  for (int a = 0; a < 3; ++a) g.n[a] = grid.cells(a);
  return double(g.slice_size()) * g.slice_arrays(order) *
         (precision == Precision::single ? 4.0 : 8.0);
}

double sweep_sums_bytes(const PhysicalGrid& grid, bool solids) {
  const double cells = double(grid.interior_cells());
  double values = cells * (double(kRawMoments) + (solids ? 6.0 : 0.0));
  for (int a = 0; a < 3; ++a)
    if (grid.cells(a) > 1)
      values += 2.0 * double(grid.cells((a + 1) % 3)) * grid.cells((a + 2) % 3) * kFaceSums;
  return values * sizeof(double);
}

double sweep_fixed_bytes(const PhysicalGrid& grid, int velocity_count, Precision precision,
                         int copies, bool solids) {
  const double cells = double(grid.interior_cells());
  const double real = precision == Precision::single ? 4.0 : 8.0;
  double faces = 0.0;
  for (int a = 0; a < 3; ++a)
    if (grid.cells(a) > 1)
      // Per side: the wall density per transverse position, the ghost table per velocity.
      faces += 2.0 * (double(grid.cells((a + 1) % 3)) * grid.cells((a + 2) % 3) * 8.0 +
                      velocity_count * real);
  const double cell =
      precision == Precision::single ? sizeof(SweepCell<float>) : sizeof(SweepCell<double>);
  const double per_cell = cell + 1.0 + double(kRawMoments) * 8.0 + (solids ? 6.0 * 8.0 : 0.0);
  return cells * per_cell + copies * sweep_sums_bytes(grid, solids) + faces +
         velocity_count * (8.0 * 8.0 + 2.0 * 8.0);
}

}  // namespace bolt

namespace bolt {

SweepEngineFactory sweep_engine_factory(const CollisionModel& model, Backend backend) {
  if (backend == Backend::cpu) return cpu_sweep_engine_factory(model.name());
#ifdef BOLT_HAVE_CUDA
  return cuda_sweep_engine_factory(model.name());
#else
  fail("-backend cuda: this bolt was built without the CUDA backend (no nvcc at build time)");
#endif
}

std::unique_ptr<SweepEngine> make_sweep_engine(const SweepConfig& config) {
  const SweepEngineFactory make = sweep_engine_factory(*config.model, config.backend);
  require(make != nullptr, "-solver iterative: -model_type ", config.model->name(),
          " is not a relaxation model (bgk, shakhov, esbgk)");
  return make(config);
}

}  // namespace bolt
