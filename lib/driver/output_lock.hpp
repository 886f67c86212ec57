#pragma once
// One run per output directory. Two runs writing into one -out_dir (every case's default one is
// shared) would append to one monitor.csv and replace each other's fields and checkpoints. Rank 0
// holds an exclusive lock (flock) on <out_dir>/bolt.lock for the run's life; a second run is
// refused at its start, naming the directory and the run that holds it. The kernel releases the
// lock when the process ends however it ends (a SIGKILL, a node's time limit), so a run killed
// never blocks the next one. The file stays: removing it would let a run that opened it just
// before lock an unlinked file while a third creates a new one.
#include <mpi.h>

#include <string>

namespace bolt {

class OutputLock {
 public:
  // Collective. Throws bolt::Error on every rank when another run holds the lock.
  OutputLock(MPI_Comm comm, const std::string& directory);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;  // rank 0's open lock file; -1 on the other ranks
};

}  // namespace bolt
