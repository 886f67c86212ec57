#pragma once
// The collision models by name, in one place (as PETSc's TSRegister, SPARTA's styles): each entry
// names a model, says what it is, reads its options (a CollisionModel) and names its operator
// class, which the engine makes for its backend and precision (model_operators.hpp). A new model
// is its files plus one entry in kModels.
#include <mpi.h>

#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "collision_model.hpp"
#include "models/hs_mc/model.hpp"
#include "models/hs_mc/options.hpp"
#include "models/projection/model.hpp"
#include "models/projection/options.hpp"
#include "relaxation_model.hpp"

namespace bolt {

template <class Real, class Exec, RelaxationKind Kind>
class RelaxationOperator;
template <class Real, class Exec>
class McOperator;
template <class Real, class Exec>
class ProjectionOperator;

// A family of models: its host description and the operator made from it.
template <RelaxationKind Kind>
struct RelaxationFamily {
  using Model = RelaxationModel;
  template <class Real, class Exec>
  using Operator = RelaxationOperator<Real, Exec, Kind>;
  static std::shared_ptr<const CollisionModel> read(MPI_Comm comm, std::string_view name,
                                                    bool /*chosen*/) {
    return read_relaxation_model(comm, name, Kind);
  }
  static std::shared_ptr<const CollisionModel> defaults(std::string_view name) {
    return std::make_shared<RelaxationModel>(name, Kind, RelaxationOptions{});
  }
};

struct McFamily {
  using Model = McModel;
  template <class Real, class Exec>
  using Operator = McOperator<Real, Exec>;
  static std::shared_ptr<const CollisionModel> read(MPI_Comm comm, std::string_view,
                                                    bool chosen) {
    return read_mc_model(comm, chosen);
  }
  static std::shared_ptr<const CollisionModel> defaults(std::string_view) {
    return std::make_shared<McModel>(McParams{});
  }
};

struct ProjectionFamily {
  using Model = ProjectionModel;
  template <class Real, class Exec>
  using Operator = ProjectionOperator<Real, Exec>;
  static std::shared_ptr<const CollisionModel> read(MPI_Comm comm, std::string_view, bool) {
    return read_projection_model(comm);
  }
  static std::shared_ptr<const CollisionModel> defaults(std::string_view) {
    return std::make_shared<ProjectionModel>(ProjectionOptions{});
  }
};

template <class F>
struct ModelEntry {
  using Family = F;
  std::string_view name;
  std::string_view description;
};

inline constexpr std::tuple kModels{
    ModelEntry<RelaxationFamily<RelaxationKind::bgk>>{
        "bgk", "BGK (Bhatnagar-Gross-Krook-Welander), nu = p/mu, Pr = 1"},
    ModelEntry<RelaxationFamily<RelaxationKind::shakhov>>{
        "shakhov", "Shakhov S-model, heat-flux correction, Pr = -model_prandtl"},
    ModelEntry<RelaxationFamily<RelaxationKind::esbgk>>{
        "esbgk", "ellipsoidal-statistical BGK (Holway), Pr = -model_prandtl"},
    ModelEntry<McFamily>{
        "hs_mc",
        "full Boltzmann, hard spheres (VHS for -model_omega > 0.5), semi-regular Monte Carlo of "
        "paper 000 on the deviation h, f = Phi0 (1 + eps h) (-mc_ options)"},
    ModelEntry<ProjectionFamily>{
        "projection",
        "full Boltzmann, hard spheres, Tcheremissine's conservative projection method of paper "
        "003 on a uniform (sphere-cut) velocity grid (-projection_ options)"},
};

// Calls f(entry) for every entry of kModels.
template <class F>
void for_each_model(F&& f) {
  std::apply([&](const auto&... entry) { (f(entry), ...); }, kModels);
}

std::vector<std::string> model_names();

// The model `name` with its default options (benchmarks, tests).
std::shared_ptr<const CollisionModel> default_model(std::string_view name);

// The model `name` with its options from PETSc's options database. The options of the other
// families are read as well (once each, unchecked): -help lists them all, and a case file made
// for one model runs with another given on the command line (-model_type bgk on an hs_mc case).
// A model refuses another family's options that would change what it computes (hs_mc: a body
// force).
std::shared_ptr<const CollisionModel> read_collision_model(MPI_Comm comm, std::string_view name);

}  // namespace bolt
