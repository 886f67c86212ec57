#pragma once
// Where this process runs and what it is doing, for the messages of faults: on a cluster a CUDA
// or NCCL error on one rank of many must say which rank, host and device, and in which phase of
// the run, or it cannot be traced to a node.
#include <string>

namespace bolt {

// "rank 3, host node17, GPU 1 (0000:41:00.0)": set once the rank is bound to its device.
void set_run_place(const std::string& place);

// "setup", "step 1200", "checkpoint write at step 1200", ...: updated as the run goes.
void set_run_phase(const std::string& phase);

// "rank 3, host node17, GPU 1 (0000:41:00.0), during step 1200" (what is known so far).
std::string run_context();

}  // namespace bolt
