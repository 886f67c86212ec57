#pragma once
// What a failed write does. Every output of a run (fields, monitor rows, checkpoints, the
// summary) goes through OutputGuard::attempt: a failure (disk full, no permission) on any rank
// is reported with the path and the system's error, the files written before are left as they
// were (checkpoints, the XDMF index and the summary are written under a temporary name and
// renamed), and -out_on_error decides: `continue` goes on without that output, `stop` ends the
// run after a checkpoint with kOutputFailure.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>

namespace bolt {

class OutputGuard {
 public:
  OutputGuard(MPI_Comm comm, bool continue_on_error) : comm_(comm), continue_(continue_on_error) {}

  // Runs `write` on every rank; true when it succeeded on all of them. A failure is printed
  // (by each rank that saw it); with `stop` the guard is then stopping().
  bool attempt(const std::string& what, std::int64_t step, const std::function<void()>& write);

  bool stopping() const { return stopping_; }
  // Outputs lost so far (with `continue`), and what the last of them was.
  int failures() const { return failures_; }
  const std::string& last_failed() const { return last_failed_; }

 private:
  MPI_Comm comm_;
  bool continue_;
  bool stopping_ = false;
  int failures_ = 0;
  std::string last_failed_;
};

}  // namespace bolt
