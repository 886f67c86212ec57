#pragma once
// The run's JSON summary (docs/output.md): the case and its discretisation, conservation, the
// time per unit and the bandwidth it reached, the case diagnostics, the memory plan against the
// measured peaks; and the lines that tell the user where the outputs went.
#include "driver/run_state.hpp"
#include "driver/time_loop.hpp"

namespace bolt {

// Writes the summary (rank 0) through the output guard; true when it was written. Collective.
bool write_run_summary(Run& run, const LoopState& state);

// Where the fields and the summary went, and how many outputs were lost.
void report_run_end(const Run& run, bool summary_written);

}  // namespace bolt
