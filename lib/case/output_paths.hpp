#pragma once
// The run's outputs checked before anything is computed: a path that cannot be written, or two
// outputs on one file, would otherwise be found only when the first output is due -- after the
// run, for the summary -- and the results lost. Checked here (docs/output.md, "Checks before the
// run"):
//  * -out_dir: a directory, or a path whose nearest existing folder is a writable directory;
//    monitor.csv and fields.xmf in it, if they exist, are no directories;
//  * -out_checkpoint and -summary: a file name (not empty, not ending in '/'), not an existing
//    directory, in a folder that is a writable directory or can be made under one;
//  * no two outputs on one file (the checkpoint, its kept copies <file>.<step>, the summary,
//    monitor.csv, fields.xmf and the fields_NNNNNN.h5 of -out_dir);
//  * the text that goes into summary.json (-case_name, -out_dir, -out_checkpoint) is UTF-8
//    without control characters.
// Each refusal is one bolt::Error naming the option, the value and what is allowed.
#include "case/run_options.hpp"

namespace bolt {

void check_output_paths(const RunOptions& run);

}  // namespace bolt
