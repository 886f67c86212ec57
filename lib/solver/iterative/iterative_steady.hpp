#pragma once
// The iterative steady solver of paper 004 as a Solver: source iteration on the moments,
//   M_{k+1} = S(M_k),
// where S sweeps every discrete velocity through space against the targets of M_k
// (lib/solver/sweep_engine.hpp) and returns the moments of the result. The state is the moments
// of every cell and the walls' densities -- never f. Walls take their density from the leaving
// flux of the previous iteration; a closed domain (walls and symmetry only) is rescaled to its
// initial mass after every iteration (paper 004). Optionally the fixed point is accelerated by
// PETSc's SNESANDERSON or SNESNGMRES with x - S(x) as the function (-iter_accel), and each sweep
// optionally followed by a synthetic macroscopic correction (-iter_synthetic,
// lib/solver/synthetic_correction.hpp), which makes S the corrected sweep.
//
// Ranks split the velocities (each sweeps its batch over the whole grid) and sum the moments.
#include <petscsnes.h>

#include <memory>
#include <vector>

#include "core/memory.hpp"
#include "solver/iterative/iterative_options.hpp"
#include "solver/solver.hpp"
#include "decomposition/partition.hpp"
#include "case/case_setup.hpp"
#include "solver/iterative/sweep_engine.hpp"
#include "solver/iterative/synthetic_correction.hpp"

namespace bolt {

// The sweep's configuration of this rank (its velocity batch of the whole grid).
SweepConfig sweep_config(const CaseSetup& setup, const IterationOptions& options,
                         const Partition& partition, std::shared_ptr<Communicator> communicator,
                         std::int64_t batch);

// Why the iterative solver cannot run this case (empty: it can): what it does not support yet,
// naming the option.
std::string iterative_refusal(const RunOptions& run, const CaseSetup& setup);

class IterativeSteady : public Solver {
 public:
  // The per-cell columns of a checkpoint: the moments, then the wall density on each of the
  // cell's six sides that is an outer wall or a solid's (0 elsewhere).
  static constexpr int kStateColumns = kRawMoments + 6;

  // batch: velocity slots swept at once (check_iterative_plan).
  IterativeSteady(const CaseSetup& setup, const IterationOptions& options,
                  const Partition& partition, std::shared_ptr<Communicator> communicator,
                  std::int64_t batch);
  ~IterativeSteady() override;

  const char* name() const override { return "iterative"; }
  const char* unit() const override { return "iteration"; }
  int advance(int count, const std::function<bool()>& stop) override;
  void march(const std::function<int()>& next, const std::function<bool(int)>& after,
             const std::function<bool()>& stop) override;
  double time_step() const override { return 0.0; }
  DomainView& domain() override;
  // The relative change of the last iteration (density, momentum, energy), whatever `units`.
  double residual(const std::vector<double>& now, const std::vector<double>& before,
                  int units) const override;
  bool converged(double residual) const override { return residual < tolerance_; }
  double tolerance() const override { return tolerance_; }
  StateLayout state_layout() const override;
  void save_state(BoxValues& f, BoxValues& stored) override;
  void restore(const BoxValues& state, std::int64_t unit) override;
  double updates_per_unit() const override;
  double bytes_per_unit() const override { return engine_->bytes_per_iteration(); }
  // The sums of the moments over the velocity ranks.
  CommunicationTimes take_communication_times() override {
    return communicator_ ? communicator_->take_times() : CommunicationTimes{};
  }
  std::vector<std::pair<std::string, double>> summary_numbers() const override;
  std::string failure_hint() const override {
    return "the iteration diverged: try it without the accelerators (-iter_accel none, "
           "-iter_synthetic false), or a finer velocity grid (-vgrid_n) if the flow's "
           "Maxwellians fall outside it";
  }

 private:
  class View;
  // The state as the accelerator's unknowns (the moments, the walls' and solids' densities),
  // and back.
  std::vector<double> pack() const;
  void pack(double* x) const;  // into the accelerator's array of pack().size()
  void unpack(const double* x);
  // After a synthetic correction of the sweep's moments: the walls' and solids' densities.
  void follow_corrected_gas(const std::vector<double>& swept, const std::vector<double>& corrected);
  // The mass of `moments` (the same bits on any number of threads); the factor that scales a
  // closed domain's moments to its initial mass; and the scaling.
  double mass(const std::vector<double>& moments) const;
  double mass_scale(const std::vector<double>& moments) const;
  double rescale_mass(std::vector<double>& moments) const;
  // One source iteration from the current state; returns its relative change.
  double iterate();
  // Every fluid cell of the accelerator's unknowns `x` has a positive density and temperature.
  bool physical(const double* x) const;
  // The accelerator's function: S(x) into `out`.
  double sweep_from(const double* x, double* out);
  // The accelerated march's bookkeeping after each sweep (the driver's hooks when they are due).
  void after_sweep();

  const CaseSetup& setup_;
  const Partition& partition_;
  std::shared_ptr<Communicator> communicator_;  // null on one velocity rank
  std::unique_ptr<SweepEngine> engine_;
  std::unique_ptr<SyntheticCorrection> synthetic_;  // null without -iter_synthetic
  std::unique_ptr<View> view_;
  double tolerance_;
  Accelerator accelerator_;
  int history_;
  bool closed_;
  std::int64_t cells_;
  double initial_mass_ = 0.0;
  std::vector<double> volume_;      // [cell]
  std::vector<double> moments_;     // [cell][kRawMoments] of the last sweep
  // The sweep's result, and with the synthetic correction its moments before it: the buffers of
  // the sweep before, reused (moments_ and swept_.moments trade theirs after each sweep).
  SweepResult swept_;
  // On a GPU: moments_, swept_.moments and the solids' outflux page-locked (they never move),
  // the largest host arrays the sweep uploads from or downloads into. Destroyed before them.
  std::vector<PinnedHostRange> pinned_;
  double pinned_bytes_ = 0.0;  // of them
  std::vector<double> before_correction_;
  FaceArrays wall_density_;         // walls: n_w for the next sweep
  FaceArrays face_sums_;            // of the last sweep
  std::array<std::array<double, 2>, 3> influx_per_density_{};  // walls: entering flux of n_w = 1
  // Solid boxes: which cells, the density of the wall on each side k = 2 a + s of a gas cell
  // that touches one ([cell][6]), those sides (cell * 6 + k), and each side's entering flux of
  // unit density.
  std::vector<unsigned char> solid_;
  std::vector<double> solid_density_;
  std::vector<std::int64_t> solid_sides_;
  std::array<double, 6> solid_influx_per_density_{};
  double last_change_ = 1.0;
  std::int64_t sweeps_ = 0;
  double sweep_seconds_ = 0.0;  // inside the engine: the sweeps with their copies and sums
  SNES snes_ = nullptr;
  bool restart_accelerator_ = false;  // the accelerator left the physical states
  // The accelerated march in flight (march's arguments; sweeps left and taken in the stretch).
  struct March {
    const std::function<int()>* next = nullptr;
    const std::function<bool(int)>* after = nullptr;
    const std::function<bool()>* stop = nullptr;
    int left = 0, taken = 0;
    bool done = true;
    bool timing = false;  // BoltAccelerator is running (iterative_acceleration.cpp)
  } march_;
  Vec x_ = nullptr, r_ = nullptr;
};

}  // namespace bolt
