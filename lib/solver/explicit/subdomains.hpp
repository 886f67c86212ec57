#pragma once
// The boxes one rank owns, advanced together: every box fills its boundary ghosts and packs its
// halos, the rank exchanges all halo messages in one call (so a box may border another box of
// the same rank, or of any other), then every box streams and relaxes.
#include <functional>
#include <memory>
#include <vector>

#include "solver/explicit/engine.hpp"

namespace bolt {

class Subdomains {
 public:
  // `communicator` may be null when no box has a peer and no velocities are split.
  // overlap: stream the interior cells while the halos travel (-halo_overlap); off, the
  // exchange completes first (the debugging baseline). The results are the same.
  Subdomains(std::vector<std::unique_ptr<Engine>> engines,
             std::shared_ptr<Communicator> communicator, bool overlap);

  // `count` steps, fewer if stop() (asked between steps, on every rank alike) says so; returns
  // the steps taken.
  int step(int count, const std::function<bool()>& stop = {});
  void synchronize();
  int size() const { return static_cast<int>(engines_.size()); }
  Engine& operator[](int i) { return *engines_[i]; }
  // Bytes of f read + written per step by this rank's boxes.
  double bytes_per_step() const;
  // The time the steps since the last call spent in halo exchanges and moment sums (zero without
  // a communicator); waits for the steps' work.
  CommunicationTimes take_communication_times();

 private:
  std::vector<std::unique_ptr<Engine>> engines_;
  std::shared_ptr<Communicator> communicator_;
  bool overlap_;
};

}  // namespace bolt
