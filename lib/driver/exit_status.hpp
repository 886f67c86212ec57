#pragma once
// bolt's exit statuses (docs/output.md): 0 finished; 2 a bad input or a run-time error; 3 an
// internal error; and these, each after the run saved what it could.
namespace bolt {

// Stopped by SIGTERM, SIGINT, SIGUSR1, SIGHUP or SIGQUIT after writing its checkpoint.
constexpr int kStoppedBySignal = 4;
// Stopped by the numerical guard (loop_hooks.cpp), its last checkpoint kept.
constexpr int kNumericalFailure = 5;
// Ended by a CUDA or NCCL error (app/bolt.cpp names the rank, host, device and phase).
constexpr int kDeviceFault = 6;
// Stopped because an output could not be written (-out_on_error stop).
constexpr int kOutputFailure = 7;

}  // namespace bolt
