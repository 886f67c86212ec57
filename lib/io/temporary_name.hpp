#pragma once
// Names for files written whole and then renamed over their target (checkpoints, fields.xmf,
// the summary): a failed or killed write leaves the previous file as it was. The name carries
// the host and process of the writer, so two runs that write the same path (one -out_dir or
// -summary for both) never write into one temporary file.
#include <mpi.h>

#include <string>

namespace bolt {

// <path>.tmp.<host>.<pid> of this process.
std::string temporary_name(const std::string& path);

// The same name on every rank of `comm` (rank 0's), for a file the ranks write together.
std::string temporary_name(MPI_Comm comm, const std::string& path);

// Removes the temporary files of `path` left by processes of this host that no longer run (a
// run killed inside a write), with what MPI-IO kept beside them. Those of running processes and
// of other hosts stay.
void remove_stale_temporaries(const std::string& path);

}  // namespace bolt
