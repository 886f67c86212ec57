#include "driver/output_guard.hpp"

#include <cstdio>

#include "core/error.hpp"

namespace bolt {

bool OutputGuard::attempt(const std::string& what, std::int64_t step,
                          const std::function<void()>& write) {
  std::string error;
  try {
    write();
  } catch (const Error& e) {
    error = e.what();
  }
  // Every rank learns of a failure anywhere, so all take the same branch afterwards; the
  // lowest rank that saw it reports it (an error of rank 0's is every rank's).
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);
  int reporter = error.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &reporter, 1, MPI_INT, MPI_MIN, comm_);
  if (reporter == size) return true;
  ++failures_;
  last_failed_ = what;
  stopping_ = !continue_;
  if (rank == reporter) {
    std::fprintf(stderr, "bolt: %s (rank %d): could not write the %s of step %lld: %s%s\n",
                 continue_ ? "warning" : "error", rank, what.c_str(),
                 static_cast<long long>(step), error.c_str(),
                 continue_ ? "; going on without it (-out_on_error continue)" : "");
    std::fflush(stderr);
  }
  return false;
}

}  // namespace bolt
