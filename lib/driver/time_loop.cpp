#include "driver/time_loop.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>

#include "core/phase_events.hpp"
#include "core/run_context.hpp"

namespace bolt {

namespace {

volatile std::sig_atomic_t stop_signal = 0;

// _exit is async-signal-safe; the first signal only leaves its number (time_loop.hpp: which
// later ones end the process).
extern "C" void request_stop(int signal) {
  if (stop_signal && signal == SIGINT) _exit(128 + signal);
  if (!stop_signal) stop_signal = signal;
}

}  // namespace

void catch_stop_signals() {
  // SIGHUP (a closed terminal or ssh session) and SIGQUIT would otherwise reach PETSc's handler,
  // which ends the run without a checkpoint.
  for (int signal : {SIGTERM, SIGINT, SIGUSR1, SIGHUP, SIGQUIT}) std::signal(signal, request_stop);
}

bool stop_signalled(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int stop = stop_signal != 0;
  if (size > 1) MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, comm);
  return stop != 0;
}

TimeLoop::TimeLoop(MPI_Comm comm, Solver& solver, LoopState state)
    : comm_(comm), solver_(solver), state_(state), step_event_(phase_event("BoltStep")) {}

void TimeLoop::add_hook(std::string name, Schedule when, Action action) {
  hooks_.push_back({std::move(name), when, std::move(action)});
}

void TimeLoop::add_final_hook(std::string name, Action action) {
  final_hooks_.push_back({std::move(name), Schedule{}, std::move(action)});
}

bool TimeLoop::due(const Schedule& when) const {
  const std::int64_t step = state_.step;
  if (when.always) return true;
  if (when.every > 0 && step % when.every == 0) return true;
  return when.at_end && (step == state_.last_step || state_.ended_early());
}

int TimeLoop::next_stretch() {
  if (state_.step >= state_.last_step || state_.steady) return 0;
  // Both limits are absolute (step number, time), so a restarted run stops where the
  // uninterrupted one would have.
  std::int64_t target = state_.last_step;
  for (const Hook& hook : hooks_)
    if (hook.when.every > 0)
      target = std::min(target, (state_.step / hook.when.every + 1) * hook.when.every);
  state_.target = target;
  set_run_phase("steps " + std::to_string(state_.step + 1) + " to " + std::to_string(target));
  begin_phase(step_event_, "BoltStep");
  stretch_start_ = std::chrono::steady_clock::now();
  return static_cast<int>(target - state_.step);
}

bool TimeLoop::after_stretch(int taken) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stretch_start_).count();
  end_phase(step_event_);
  LoopTiming& timing = state_.timing;
  const CommunicationTimes communication = solver_.take_communication_times();
  if (timing.units == 0) {
    timing.first_seconds = seconds;
    timing.first_units = taken;
  } else {
    timing.warm_communication += communication;
  }
  timing.seconds += seconds;
  timing.units += taken;
  state_.step += taken;
  for (const Hook& hook : hooks_) {
    if (!due(hook.when)) continue;
    hook.action(state_);
    if (state_.exit_code) return false;
  }
  return true;
}

int TimeLoop::run() {
  solver_.march([this] { return next_stretch(); },
                [this](int taken) { return after_stretch(taken); },
                [this] { return stop_signalled(comm_); });
  if (state_.exit_code) return *state_.exit_code;
  state_.timing.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - state_.timing.wall_start)
          .count();
  for (const Hook& hook : final_hooks_) {
    hook.action(state_);
    if (state_.exit_code) return *state_.exit_code;
  }
  return 0;
}

}  // namespace bolt
