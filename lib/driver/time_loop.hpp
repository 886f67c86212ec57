#pragma once
// The run's loop, as waLBerla's Timeloop or PETSc's TSMonitor/TSSetPostStep: the solver advances
// in stretches, each up to the next unit at which a hook is due, and after each stretch the
// hooks that are due run in the order they were added. Monitor rows, field output, checkpoints,
// signals, the numerical guard and steady detection are hooks (loop_hooks.hpp); final hooks run
// once the loop has ended (the last fields, the summary). Neither the loop nor a hook knows which
// solver runs: the loop drives any Solver through Solver::march.
#include <petscsys.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "parallel/communicator.hpp"
#include "solver/solver.hpp"

namespace bolt {

// When a hook runs. `every` > 0: at the multiples of it, where the loop also stops; `at_end`:
// also at the last unit and where the solver ended a stretch early (converged); `always`: after
// every stretch.
struct Schedule {
  std::int64_t every = 0;
  bool at_end = false;
  bool always = false;
};

// The loop's time per unit: every stretch, and apart from it the first one, which carries the
// one-time costs (NCCL connections, first-touch pages); the warm rate is what a long run sees.
struct LoopTiming {
  double seconds = 0.0;
  std::int64_t units = 0;
  double first_seconds = 0.0;
  std::int64_t first_units = 0;
  CommunicationTimes warm_communication;  // halo exchanges and moment sums after the first
  std::chrono::steady_clock::time_point wall_start = std::chrono::steady_clock::now();
  double wall_seconds = 0.0;  // from the loop's start to its last stretch's hooks

  double seconds_per_unit() const { return seconds / double(units > 0 ? units : 1); }
};

// What the hooks see and may change.
struct LoopState {
  std::int64_t step = 0;       // units taken, counted from the run's first (a restart's) unit
  std::int64_t target = 0;     // where the stretch just taken was to end
  std::int64_t last_step = 0;  // the last unit the options allow
  double start_time = 0.0;     // the time of unit 0
  double dt = 0.0;
  bool steady = false;           // a hook found the steady state: the loop ends
  std::optional<int> exit_code;  // a hook ended the run with this status
  LoopTiming timing;

  double time() const { return start_time + double(step) * dt; }
  // The solver returned before the stretch's end (its iteration converged).
  bool ended_early() const { return step < target; }
};

class TimeLoop {
 public:
  using Action = std::function<void(LoopState&)>;

  TimeLoop(MPI_Comm comm, Solver& solver, LoopState state);

  void add_hook(std::string name, Schedule when, Action action);
  void add_final_hook(std::string name, Action action);

  // Runs the stretches, then (unless a hook set an exit code) the final hooks; returns the exit
  // status. Collective.
  int run();


 private:
  struct Hook {
    std::string name;
    Schedule when;
    Action action;
  };
  bool due(const Schedule& when) const;
  // The units of the next stretch (0: the loop is over); starts its clock.
  int next_stretch();
  // The stretch's time, then the hooks that are due; false ends the march.
  bool after_stretch(int taken);

  MPI_Comm comm_;
  Solver& solver_;
  LoopState state_;
  std::vector<Hook> hooks_, final_hooks_;
  std::chrono::steady_clock::time_point stretch_start_;
  int step_event_ = 0;  // BoltStep (core/phase_events.hpp)
};

// SIGTERM, SIGINT, SIGUSR1, SIGHUP and SIGQUIT ask the run to stop after the unit in flight, with
// a checkpoint: installs the handler. A SIGINT after the first signal (Ctrl-C pressed again) ends
// the process at once; other signals after the first are absorbed, because launchers deliver one
// request more than once (Slurm signals each task itself and again through srun; srun's double
// Ctrl-C sends SIGINT, then SIGTERM) and follow with SIGKILL where they must.
void catch_stop_signals();
// Whether a stop signal reached any rank; asked between units, so that every rank stops at the
// same one (a rank that stopped alone would leave the others waiting for its halos). Collective.
bool stop_signalled(MPI_Comm comm);

}  // namespace bolt
