#include "output_guard.hpp"

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
  // Every rank learns of a failure anywhere, so all take the same branch afterwards.
  int failed = error.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm_);
  if (failed == 0) return true;
  ++failures_;
  last_failed_ = what;
  stopping_ = !continue_;
  if (!error.empty()) {
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    std::fprintf(stderr, "bolt: %s (rank %d): could not write the %s of step %lld: %s%s\n",
                 continue_ ? "warning" : "error", rank, what.c_str(),
                 static_cast<long long>(step), error.c_str(),
                 continue_ ? "; going on without it (-out_on_error continue)" : "");
    std::fflush(stderr);
  }
  return false;
}

}  // namespace bolt
