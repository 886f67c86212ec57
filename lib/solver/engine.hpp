#pragma once
// The phase-space state and the explicit step of the model equations behind one interface, so that
// host code (options, I/O, diagnostics) never sees a backend or a precision. One implementation,
// ExplicitEngine<Real, Exec>, is compiled for the CPU (OpenMP) and for CUDA.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/backend.hpp"
#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"
#include "kernels/boundary_fill.hpp"
#include "kernels/relaxation.hpp"
#include "kernels/streaming.hpp"
#include "models/mc_collision.hpp"
#include "parallel/communicator.hpp"

namespace bolt {

enum class Splitting { lie, strang };

struct FaceSpec {
  FaceKind kind = FaceKind::wall;
  double accommodation = 1.0;
  double velocity[3] = {0.0, 0.0, 0.0};  // wall velocity or inflow velocity
  double temperature = 1.0;              // wall or inflow temperature
  double density = 1.0;                  // inflow density
};

struct EngineConfig {
  Backend backend = Backend::cpu;
  Precision precision = Precision::double_;
  PhysicalGrid grid;            // the cells this engine owns (a slice of the whole grid)
  VelocityGrid velocities;      // every velocity of the run
  // The velocities this engine owns: [velocity_lo, velocity_lo + velocity_count) of
  // `velocities`; count 0 means all. With a part, moments are summed over the velocity group.
  int velocity_lo = 0, velocity_count = 0;
  ModelKind model = ModelKind::bgk;
  RelaxationParams relaxation;  // relaxation.dt is the time step
  McModelParams mc;             // hs_mc: samples, seed, eps, correction (delta, omega above)
  int order = 1;
  Limiter limiter = Limiter::van_leer;
  Splitting splitting = Splitting::lie;
  std::array<std::array<FaceSpec, 2>, 3> faces;  // [axis][side]; used on active axes only
  // World rank across each face ([axis][side]), -1 where the face is a boundary: ghosts of a
  // face with a neighbour come from that rank (halo exchange), not from `faces`.
  std::array<std::array<int, 2>, 3> neighbour{{{-1, -1}, {-1, -1}, {-1, -1}}};
  // Required when there are neighbours or the velocities are split (MPI for the CPU backend,
  // NCCL for CUDA).
  std::shared_ptr<Communicator> communicator;
  int team_size = 256;                           // GPU threads per cell
};

class Engine {
 public:
  virtual ~Engine() = default;
  // f of the owned interior cells and velocities, cell-major (x fastest), velocity fastest.
  virtual void set_state(const std::vector<double>& f) = 0;
  virtual std::vector<double> state() const = 0;
  virtual void step(int count) = 0;
  // kFieldCount macroscopic fields per interior cell (kernels/cell_moments.hpp).
  virtual std::vector<double> fields() = 0;
  // Fluxes through a face: 5 per interior position on the face (kernels/boundary_fill.hpp),
  // summed over the velocity group (collective over it).
  virtual std::vector<double> face_fluxes(int axis, int side) = 0;
  virtual void synchronize() = 0;
  // Bytes of f read + written by one fused step (the minimum traffic the benchmark counts).
  virtual double bytes_per_step() const = 0;
  // Numbers of the collision model for the monitor (name, value; this rank), e.g. the size of
  // the Monte Carlo conservation correction. Empty for the relaxation models.
  virtual std::vector<std::pair<std::string, double>> model_diagnostics() { return {}; }
  // The step number the state belongs to (a restart sets it): hs_mc keys its samples by it.
  virtual void set_step(std::int64_t /*step*/) {}
};

std::unique_ptr<Engine> make_engine(const EngineConfig& config);

// Backend factories (engine_cpu.cpp, engine_cuda.cu).
std::unique_ptr<Engine> make_cpu_engine(const EngineConfig& config);
std::unique_ptr<Engine> make_cuda_engine(const EngineConfig& config);

}  // namespace bolt
