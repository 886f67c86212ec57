#pragma once
// The engines of this rank: one configuration per owned part of the partition, with its velocity
// batch and the segments of its faces (halos to other parts, the case's conditions, solids).
#include <memory>
#include <vector>

#include "case/case_setup.hpp"
#include "decomposition/partition.hpp"
#include "parallel/communicator.hpp"
#include "solver/explicit/engine.hpp"

namespace bolt {

std::vector<EngineConfig> local_engine_configs(const CaseSetup& setup, const Partition& partition,
                                               std::shared_ptr<Communicator> communicator);

}  // namespace bolt
