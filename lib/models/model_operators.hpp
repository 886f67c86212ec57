#pragma once
// The engine's side of the registry (model_registry.hpp): the operator of the run's model for a
// backend and precision. Include after the backend's launch header, in the translation unit that
// instantiates the engine (it instantiates every model's operator).
#include <memory>

#include "collision_operator.hpp"
#include "core/error.hpp"
#include "models/hs_mc/operator.hpp"
#include "model_registry.hpp"
#include "models/projection/operator.hpp"
#include "relaxation_operator.hpp"

namespace bolt {

template <class Real, class Exec>
std::unique_ptr<CollisionOperator<Real, Exec>> make_collision_operator(const OperatorSetup& setup) {
  require(setup.model != nullptr, "engine: no collision model");
  std::unique_ptr<CollisionOperator<Real, Exec>> made;
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    if (made || entry.name != setup.model->name()) return;
    const auto* model = dynamic_cast<const typename Family::Model*>(setup.model.get());
    require(model != nullptr, "engine: model ", entry.name, " has the options of another family");
    made = std::make_unique<typename Family::template Operator<Real, Exec>>(setup, *model);
  });
  require(made != nullptr, "engine: no operator for the model ", setup.model->name());
  return made;
}

}  // namespace bolt
