#include "solver/explicit/subdomains.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/phase_events.hpp"

namespace bolt {

Subdomains::Subdomains(std::vector<std::unique_ptr<Engine>> engines,
                       std::shared_ptr<Communicator> communicator, bool overlap)
    : engines_(std::move(engines)), communicator_(std::move(communicator)), overlap_(overlap) {}

int Subdomains::step(int count, const std::function<bool()>& stop) {
  if (communicator_) communicator_->record_times(true);
  // Every box runs the same model: the same streaming passes per step.
  const int passes = engines_.empty() ? 1 : engines_.front()->substeps();
  int taken = 0;
  for (int n = 0; n < count * passes; ++n) {
    if (n % passes == 0) {
      if (n > 0 && stop && stop()) break;
      ++taken;
    }
    std::vector<Message> sends, receives;
    for (auto& engine : engines_) engine->begin_step(sends, receives);
    if (!sends.empty() || !receives.empty()) {
      require(communicator_ != nullptr, "subdomains: halo messages but no communicator");
      // Tags are global message keys: sorted, both ends list the messages between two ranks
      // in the same order (NCCL pairs them by order).
      const auto by_tag = [](const Message& a, const Message& b) { return a.tag < b.tag; };
      std::sort(sends.begin(), sends.end(), by_tag);
      std::sort(receives.begin(), receives.end(), by_tag);
      // The exchange in two phases around the interior's streaming, which the engines time.
      const auto wait = [this] { synchronize(); };
      {
        const Phase phase("BoltHaloExchange", wait);
        communicator_->start_exchange(sends, receives);
      }
      if (overlap_)
        for (auto& engine : engines_) engine->stream_interior();
      const Phase phase("BoltHaloExchange", wait);
      communicator_->finish_exchange();
    }
    for (auto& engine : engines_) engine->end_step();
  }
  if (communicator_) communicator_->record_times(false);
  return taken;
}

CommunicationTimes Subdomains::take_communication_times() {
  return communicator_ ? communicator_->take_times() : CommunicationTimes{};
}

void Subdomains::synchronize() {
  for (auto& engine : engines_) engine->synchronize();
}

double Subdomains::bytes_per_step() const {
  double bytes = 0.0;
  for (const auto& engine : engines_) bytes += engine->bytes_per_step();
  return bytes;
}

}  // namespace bolt
