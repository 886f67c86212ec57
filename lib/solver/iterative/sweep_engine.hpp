#pragma once
// The numerical core of the iterative steady solver (paper 004) behind one interface, so that the
// iteration (app/iterative_steady.hpp) never sees a backend or a precision: one source iteration
// from the moments of every cell to the moments of the next, sweeping this rank's velocities in
// batches (kernels/sweep.hpp). f is never stored whole: the engine holds the moments, the cells'
// targets, and one slice per velocity of the batch. SweepEngineImpl<Real, Exec, Evaluator> is
// compiled for the CPU (OpenMP) and for CUDA, for every relaxation evaluator of the registry.
#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/backend.hpp"
#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"
#include "kernels/boundary_fill.hpp"
#include "kernels/streaming.hpp"
#include "models/collision_model.hpp"
#include "parallel/communicator.hpp"

namespace bolt {

struct SweepConfig {
  Backend backend = Backend::cpu;
  Precision precision = Precision::double_;
  PhysicalGrid grid;          // the whole grid (the sweep crosses it)
  VelocityGrid velocities;    // every velocity of the run
  int velocity_lo = 0, velocity_count = 0;  // this rank's; count 0: all
  std::shared_ptr<const CollisionModel> model;  // a relaxation model (sweep_engine_factory)
  GasParams gas;
  std::array<std::array<FaceSpec, 2>, 3> faces;  // [axis][side], active axes only
  // [cell] 1 inside a solid box (kernels/sweep.hpp, SweepSolids); empty: no solids.
  std::vector<unsigned char> solid;
  double solid_temperature = 1.0;
  // Sums the moments over the ranks that split the velocities (null on one rank).
  std::shared_ptr<Communicator> communicator;
  int order = 1;              // 1: upwind, 2: limited upwind-biased (kernels/sweep.hpp)
  Limiter limiter = Limiter::van_leer;  // of order 2
  std::int64_t batch = 0;     // velocity slots swept at once (0: every slot)
  int lines = 0;              // GPU: lines swept at once per warp of velocities (0: chosen)
};

// [axis][side] -> one value per transverse position of the face ((axis + 1) % 3 fastest).
using FaceArrays = std::array<std::array<std::vector<double>, 2>, 3>;

struct SweepResult {
  std::vector<double> moments;  // [cell][kRawMoments], summed over the velocity group
  FaceArrays face_sums;         // [transverse][kFaceSums] of each outer face
  std::vector<double> solid_outflux;  // [cell][6] with solids: the flux into each solid side
};

class SweepEngine {
 public:
  virtual ~SweepEngine() = default;
  // One source iteration from `moments` ([cell][kRawMoments]), the walls' densities (FaceArrays
  // of the wall faces, else empty) and, with solids, their walls' ([cell][6]), into `result`,
  // whose vectors keep their memory from one call to the next: a run's sweeps allocate no host
  // memory (fresh pages of a grid's moments cost more than their download). Collective over the
  // velocity group.
  virtual void iterate(const std::vector<double>& moments, const FaceArrays& wall_density,
                       const std::vector<double>& solid_density, SweepResult& result) = 0;
  SweepResult iterate(const std::vector<double>& moments, const FaceArrays& wall_density,
                      const std::vector<double>& solid_density) {
    SweepResult result;
    iterate(moments, wall_density, solid_density, result);
    return result;
  }
  // Velocity slots of one iteration (this rank's velocities, each octant padded to whole warps)
  // and of one batch.
  virtual std::int64_t slots() const = 0;
  virtual std::int64_t batch() const = 0;
  // GPU: the lines per warp of velocities of the last batch; 0 on the CPU.
  virtual int lines() const = 0;
  // Bytes one iteration moves at the least: each cell's target read and moments added per warp
  // of velocities, and each slice element (of each of the order's arrays) read and written.
  virtual double bytes_per_iteration() const = 0;
};

// Slots of `velocities` [lo, lo + count) grouped by the signs of their components on the grid's
// active axes (an octant sweeps in one direction), each group padded to whole warps of 32.
std::int64_t sweep_slot_count(const PhysicalGrid& grid, const VelocityGrid& velocities, int lo,
                              int count);
// Copies of the moment sums the GPU's warps add into (warp w into copy w % copies), so that the
// warps sweeping the same cell at the same moment -- every warp of an octant walks the cells in
// the same order -- do not all queue on the same addresses; the copies are added up after the
// sweep. 32 where the copies' moments take at most 2 GiB, fewer on large grids; 1 on the CPU (its
// threads sum privately).
int sweep_sum_copies(Backend backend, const PhysicalGrid& grid);
// Bytes per velocity slot of a batch: its slice (second order: its arrays, SweepGrid::slice_arrays).
double sweep_slice_bytes(const PhysicalGrid& grid, Precision precision, int order);
// Bytes of one copy of a sweep's sums: the moments, the active faces' sums and, with solids, the
// outflux into each solid side of a cell.
double sweep_sums_bytes(const PhysicalGrid& grid, bool solids);
// Bytes of the arrays independent of the batch: targets, flags, the moments in, `copies` copies
// of the sums, the faces' densities and ghost tables, the solids' densities, the velocity tables.
double sweep_fixed_bytes(const PhysicalGrid& grid, int velocity_count, Precision precision,
                         int copies, bool solids);

// Makes the engine of a relaxation model for the config's precision: SweepEngineImpl of the
// evaluator the model's registry entry names (models/model_registry.hpp).
using SweepEngineFactory = std::unique_ptr<SweepEngine> (*)(const SweepConfig& config);
// The factory of `model` on `backend`, or null for a model with no evaluator (the full-Boltzmann
// models): the sweep relaxes each velocity to a target built from its cell's moments.
SweepEngineFactory sweep_engine_factory(const CollisionModel& model, Backend backend);
// The engine of config.model (which must have a factory) on config.backend.
std::unique_ptr<SweepEngine> make_sweep_engine(const SweepConfig& config);
// sweep_engine_factory for one backend (sweep_engine_cpu.cpp, sweep_engine_cuda.cu).
SweepEngineFactory cpu_sweep_engine_factory(std::string_view model);
SweepEngineFactory cuda_sweep_engine_factory(std::string_view model);

}  // namespace bolt
