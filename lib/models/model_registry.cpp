#include "model_registry.hpp"

#include <algorithm>
#include <type_traits>
#include <typeindex>

#include "core/error.hpp"
#include "core/option_reader.hpp"
#include "model_readers.hpp"
#include "models/hs_mc/model.hpp"
#include "models/hs_mc/options.hpp"
#include "models/projection/model.hpp"
#include "models/projection/options.hpp"
#include "relaxation_options.hpp"

namespace bolt {

namespace {

// Each family's default model, options reader (`chosen`: the family is the run's model) and
// group of options: the relaxation models share theirs, read once.
template <class E>
std::shared_ptr<const CollisionModel> default_of(RelaxationFamily<E>, std::string_view name) {
  return std::make_shared<RelaxationModelOf<E>>(name, RelaxationOptions{});
}
template <class E>
std::shared_ptr<const CollisionModel> read_family(MPI_Comm comm, RelaxationFamily<E>,
                                           std::string_view name, bool /*chosen*/) {
  return read_relaxation_model<E>(comm, name);
}
template <class E>
std::type_index options_group(RelaxationFamily<E>) {
  return typeid(RelaxationOptions);
}

std::shared_ptr<const CollisionModel> default_of(McFamily, std::string_view) {
  return std::make_shared<McModel>(McParams{});
}
std::shared_ptr<const CollisionModel> read_family(MPI_Comm comm, McFamily, std::string_view,
                                           bool chosen) {
  return read_mc_model(comm, chosen);
}
std::type_index options_group(McFamily) { return typeid(McFamily); }

std::shared_ptr<const CollisionModel> default_of(ProjectionFamily, std::string_view) {
  return std::make_shared<ProjectionModel>(ProjectionOptions{});
}
std::shared_ptr<const CollisionModel> read_family(MPI_Comm comm, ProjectionFamily, std::string_view,
                                           bool) {
  return read_projection_model(comm);
}
std::type_index options_group(ProjectionFamily) { return typeid(ProjectionFamily); }

// Whether a family's target takes -model_prandtl.
template <class E>
bool takes_prandtl(RelaxationFamily<E>) {
  return E::kTakesPrandtl;
}
template <class Family>
bool takes_prandtl(Family) {
  return false;
}

// The models that read the option group `group`: the runs its options are for.
OptionUse group_use(std::type_index group) {
  OptionUse use{"model_type", {}};
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    if (options_group(Family{}) == group) use.choices.emplace_back(entry.name);
  });
  return use;
}

}  // namespace

OptionUse prandtl_use() {
  OptionUse use{"model_type", {}};
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    if (takes_prandtl(Family{})) use.choices.emplace_back(entry.name);
  });
  return use;
}

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for_each_model([&](const auto& entry) { names.emplace_back(entry.name); });
  return names;
}

std::shared_ptr<const CollisionModel> default_model(std::string_view name) {
  std::shared_ptr<const CollisionModel> made;
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    if (entry.name == name) made = default_of(Family{}, entry.name);
  });
  require(made != nullptr, "model ", name, ": not a registered model");
  return made;
}

std::shared_ptr<const CollisionModel> read_collision_model(MPI_Comm comm, std::string_view name) {
  std::shared_ptr<const CollisionModel> chosen;
  std::vector<std::type_index> read_groups;  // the option groups read
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    if (entry.name != name) return;
    const OptionUseScope use(group_use(options_group(Family{})));
    chosen = read_family(comm, Family{}, entry.name, true);
    read_groups.push_back(options_group(Family{}));
  });
  require(chosen != nullptr, "-model_type ", name, ": not a registered model");
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    const std::type_index family = options_group(Family{});
    if (std::find(read_groups.begin(), read_groups.end(), family) !=
        read_groups.end())
      return;
    const OptionUseScope use(group_use(family));
    read_family(comm, Family{}, entry.name, false);
    read_groups.push_back(family);
  });
  return chosen;
}

}  // namespace bolt
