#pragma once
// Named phases of a step, a sweep and the output (STYLE.md practice 7): each a PETSc log event of
// the class "bolt", which -log_view tables, and, in a CUDA build, an NVTX range of the same name,
// which Nsight Systems shows. This header names neither PETSc nor NVTX (phase_events.cpp does),
// so the engines' CUDA translation units may time their phases (STYLE.md practice 4).
//
// On the GPU a phase's host code only launches kernels; a phase measures its own work only if
// the device has finished it when the phase ends. Phase waits for the device at its end while
// PETSc logging is on (-log_view) and never otherwise, so a normal run keeps its asynchrony and
// a logged run's events add up to its steps (docs/output.md, "Where the time goes").
#include <utility>

namespace bolt {

// The PETSc event of `name` in bolt's class, registered at its first call; -1 (no event)
// before PetscInitialize.
int phase_event(const char* name);
// Whether PETSc logs events (-log_view and the like): phases then wait for their work.
bool phases_timed();
// The event's begin and end, each with its NVTX range.
void begin_phase(int event, const char* name);
void end_phase(int event);

// What a phase waits for at its end when phases are timed: nothing (host work).
struct HostWork {
  void operator()() const {}
};

// What a phase of device work waits for when phases are timed: the stream of `exec` (CpuExec or
// CudaExec; its synchronize is the launch header's, which the translation unit includes first).
template <class Exec>
auto device_work(Exec exec) {
  return [exec] { synchronize(exec); };
}

// One phase for the object's lifetime. `wait` (device_work of the engine's stream, or nothing
// for host work) runs at its end only when phases are timed.
template <class Wait = HostWork>
class Phase {
 public:
  explicit Phase(const char* name, Wait wait = {})
      : event_(phase_event(name)), wait_(std::move(wait)) {
    begin_phase(event_, name);
  }
  ~Phase() {
    if (phases_timed()) wait_();
    end_phase(event_);
  }
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  int event_;
  Wait wait_;
};

}  // namespace bolt
