#pragma once
// The hooks every run registers on its TimeLoop (time_loop.hpp), in the order they run after a
// stretch, each with its frequency option:
//   signal        always but at a regular monitor row: a stop signal: a checkpoint, then
//                                   kStoppedBySignal
//   monitor       -out_monitor_every a row of monitor.csv (residual, conservation, diagnostics)
//   guard         with the monitor  the numerical guard: a dump of the fields, kNumericalFailure
//   steady        with the monitor  the residual against the solver's tolerance ends the loop
//   signal        at a regular monitor row, after it (a continued run then has the row)
//   fields        -out_fields_every HDF5 fields
//   checkpoint    -out_checkpoint_every
//   output stop   always            -out_on_error stop: a checkpoint, then kOutputFailure
// and the final hooks: the last fields and checkpoint, then the summary (run_summary.hpp). Every
// checkpoint (periodic, signal, final) is written only after the guard passed its state, so the
// last checkpoint of a run that fails is a sound one.
#include "driver/run_state.hpp"
#include "driver/time_loop.hpp"

namespace bolt {

void add_run_hooks(TimeLoop& loop, Run& run);

}  // namespace bolt
