#pragma once
// The phase-space state and the explicit step of the model equations behind one interface, so that
// host code (options, I/O, diagnostics) never sees a backend or a precision. One implementation,
// ExplicitEngine<Real, Exec>, is compiled for the CPU (OpenMP) and for CUDA.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/backend.hpp"
#include "core/host_values.hpp"
#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"
#include "kernels/boundary_fill.hpp"
#include "kernels/streaming.hpp"
#include "models/collision_model.hpp"
#include "parallel/communicator.hpp"

namespace bolt {

// Part of a face of the engine's box, in its interior cell coordinates along the face's two other
// axes, (axis + 1) % 3 and (axis + 2) % 3. Its ghosts come from another rank's cells (peer >= 0:
// a halo message each way, keyed by the tags) or from the boundary condition `spec` (kind
// periodic: this box's own opposite face).
struct FaceSegmentConfig {
  std::array<int, 2> lo{0, 0}, count{0, 0};  // count {0, 0}: the whole padded face
  int peer = -1;
  int send_tag = 0, receive_tag = 0;
  FaceSpec spec;
};

struct EngineConfig {
  Backend backend = Backend::cpu;
  Precision precision = Precision::double_;
  PhysicalGrid grid;            // the cells this engine owns (a slice of the whole grid)
  VelocityGrid velocities;      // every velocity of the run
  // The velocities this engine owns: [velocity_lo, velocity_lo + velocity_count) of
  // `velocities`; count 0 means all. With a part, moments are summed over the velocity group.
  int velocity_lo = 0, velocity_count = 0;
  std::shared_ptr<const CollisionModel> model;  // -model_type with its options (model_registry)
  GasParams gas;
  double dt = 0.0;  // the time step
  int order = 1;
  Limiter limiter = Limiter::van_leer;
  Splitting splitting = Splitting::lie;
  std::array<std::array<FaceSpec, 2>, 3> faces;  // [axis][side]; used on active axes only
  // [axis][side]: the segments of each face of an active axis; an empty list is the whole face
  // with the condition of `faces`.
  std::array<std::array<std::vector<FaceSegmentConfig>, 2>, 3> segments;
  // Required when a segment has a peer or the velocities are split (MPI for the CPU backend,
  // NCCL for CUDA).
  std::shared_ptr<Communicator> communicator;
  int team_size = 256;                           // GPU threads per cell
  bool team_size_chosen = false;                 // bolt's choice of team_size, not the user's
};

// Writes f of one interior cell (x fastest) at its owned velocities into `row`.
using StateRows = std::function<void(std::int64_t cell, double* row)>;

class Engine {
 public:
  virtual ~Engine() = default;
  // f of the owned interior cells and velocities, cell-major (x fastest), velocity fastest.
  virtual void set_state(std::span<const double> f) = 0;
  // The same, row by row on the host's threads straight into the layout of f: no second copy of
  // a GPU-sized state on the host.
  virtual void set_state(const StateRows& rows) = 0;
  // f into `f` and, where `stored` is given, the stored state itself (f, or a model's own
  // variable such as hs_mc's h) in the same layout, exactly: what a restart of the same model
  // and precision continues from. Both from one copy of the state off the GPU.
  virtual void copy_state(HostValues& f, HostValues* stored) const = 0;
  // f alone, as a plain vector (tests, the diagnostics' gathered f).
  std::vector<double> state() const {
    HostValues f;
    copy_state(f, nullptr);
    return {f.begin(), f.end()};
  }
  virtual void set_stored_state(std::span<const double> values) = 0;
  // `count` steps of a box without halo segments (tests, benchmarks); a rank's boxes with halos
  // step together through Subdomains.
  virtual void step(int count) = 0;
  // One step in two halves, for a rank advancing several boxes together (Subdomains): the first
  // relaxes (Strang), fills the boundary ghosts and packs the halos, appending its messages; the
  // rank exchanges every box's messages at once; the second unpacks, streams and relaxes.
  virtual void begin_step(std::vector<Message>& sends, std::vector<Message>& receives) = 0;
  // Optional, between the two: streams and relaxes the cells that read no halo ghost, so that
  // it overlaps the messages; end_step then does the rest.
  virtual void stream_interior() = 0;
  virtual void end_step() = 0;
  // The halves begin_step .. end_step a step takes: one per streaming pass of the collision
  // model (two for Strang's A(dt/2) C(dt) A(dt/2) where the model streams twice).
  virtual int substeps() const { return 1; }
  // kFieldCount macroscopic fields per interior cell (kernels/cell_moments.hpp).
  virtual std::vector<double> fields() = 0;
  // Fluxes through a face: 5 per interior position on the face (kernels/boundary_fill.hpp),
  // summed over the velocity group (collective over it).
  virtual std::vector<double> face_fluxes(int axis, int side) = 0;
  virtual void synchronize() = 0;
  // Bytes of f read + written by one fused step (the minimum traffic the benchmark counts).
  virtual double bytes_per_step() const = 0;
  // Numbers of the collision model for the monitor (name, value; this rank), e.g. the size of
  // the Monte Carlo conservation correction.
  virtual std::vector<std::pair<std::string, double>> model_diagnostics() { return {}; }
  // The collision model's running totals (CollisionOperator::counters), and their restoring.
  virtual std::vector<double> model_counters() { return {}; }
  virtual void set_model_counters(const std::vector<double>& /*values*/) {}
  // The step number the state belongs to (a restart sets it): random samples are keyed by it.
  virtual void set_step(std::int64_t /*step*/) {}
};

std::unique_ptr<Engine> make_engine(const EngineConfig& config);

// Backend factories (engine_cpu.cpp, engine_cuda.cu).
std::unique_ptr<Engine> make_cpu_engine(const EngineConfig& config);
std::unique_ptr<Engine> make_cuda_engine(const EngineConfig& config);

}  // namespace bolt
