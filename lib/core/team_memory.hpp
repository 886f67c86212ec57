#pragma once
// What GPU shared memory a team (a thread block) may use, for layouts that choose between one
// team per multiprocessor and two (team_shared_memory of the backend's launch header).
#include <cstddef>

namespace bolt {

struct TeamSharedMemory {
  std::size_t alone = 0;   // the most one block may opt in to (0: the CPU, no shared memory)
  std::size_t paired = 0;  // the most each of two blocks on one multiprocessor may have: the
                           // hardware then runs one's instructions while the other waits
};

}  // namespace bolt
