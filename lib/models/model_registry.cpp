#include "model_registry.hpp"

#include <algorithm>
#include <type_traits>
#include <typeindex>

#include "core/error.hpp"

namespace bolt {

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for_each_model([&](const auto& entry) { names.emplace_back(entry.name); });
  return names;
}

std::shared_ptr<const CollisionModel> default_model(std::string_view name) {
  std::shared_ptr<const CollisionModel> made;
  for_each_model([&](const auto& entry) {
    if (entry.name == name) made = std::decay_t<decltype(entry)>::Family::defaults(entry.name);
  });
  require(made != nullptr, "model ", name, ": not a registered model");
  return made;
}

std::shared_ptr<const CollisionModel> read_collision_model(MPI_Comm comm, std::string_view name) {
  std::shared_ptr<const CollisionModel> chosen;
  std::vector<std::type_index> read;  // the families whose options were read
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    if (entry.name != name) return;
    chosen = Family::read(comm, entry.name, true);
    read.emplace_back(typeid(typename Family::Model));
  });
  require(chosen != nullptr, "-model_type ", name, ": not a registered model");
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    const std::type_index family(typeid(typename Family::Model));
    if (std::find(read.begin(), read.end(), family) != read.end()) return;
    Family::read(comm, entry.name, false);
    read.push_back(family);
  });
  return chosen;
}

}  // namespace bolt
