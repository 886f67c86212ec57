#pragma once
// The collision models by name, in one place (as PETSc's TSRegister, SPARTA's styles): each entry
// names a model, says what it is, and names its family: the host description (a CollisionModel),
// the operator the explicit engine makes for its backend and precision (model_operators.hpp)
// and, for a relaxation model, the evaluator (kernels/relaxation/) the iterative solver's sweep
// engine is made for. Options are read by model_readers.hpp. A new relaxation model is its
// evaluator's header plus one entry in kModels.
//
// No MPI, PETSc or HDF5 here: the engines' CUDA translation units include the registry.
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "collision_model.hpp"
#include "kernels/relaxation/bgk.hpp"
#include "kernels/relaxation/esbgk.hpp"
#include "kernels/relaxation/shakhov.hpp"
#include "relaxation_model.hpp"

namespace bolt {

template <class Real, class Exec, class Evaluator>
class RelaxationOperator;
class McModel;
template <class Real, class Exec>
class McOperator;
class ProjectionModel;
template <class Real, class Exec>
class ProjectionOperator;

// A family of models: its host description and the operator made from it; a relaxation family
// also its evaluator.
template <class E>
struct RelaxationFamily {
  using Evaluator = E;
  using Model = RelaxationModelOf<E>;
  template <class Real, class Exec>
  using Operator = RelaxationOperator<Real, Exec, E>;
};

struct McFamily {
  using Model = McModel;
  template <class Real, class Exec>
  using Operator = McOperator<Real, Exec>;
};

struct ProjectionFamily {
  using Model = ProjectionModel;
  template <class Real, class Exec>
  using Operator = ProjectionOperator<Real, Exec>;
};

// Whether a family is a relaxation model's (it names an evaluator).
template <class Family>
concept RelaxationFamilyType = requires { typename Family::Evaluator; };

template <class F>
struct ModelEntry {
  using Family = F;
  std::string_view name;
  std::string_view description;
};

inline constexpr std::tuple kModels{
    ModelEntry<RelaxationFamily<Bgk>>{
        "bgk", "BGK (Bhatnagar-Gross-Krook-Welander), nu = p/mu, Pr = 1"},
    ModelEntry<RelaxationFamily<Shakhov>>{
        "shakhov", "Shakhov S-model, heat-flux correction, Pr = -model_prandtl"},
    ModelEntry<RelaxationFamily<EsBgk>>{
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

}  // namespace bolt
