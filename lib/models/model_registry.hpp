#pragma once
// The collision models by name, in one place: -model_type looks them up here, outputs print
// their names from here. A new relaxation model is an evaluator in kernels/ plus one row below
// (and its case in ExplicitEngine::step); hs_mc has its own path in the engine.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/relaxation.hpp"

namespace bolt {

struct ModelEntry {
  std::string_view name;
  ModelKind kind;
  std::string_view description;
};

inline constexpr std::array<ModelEntry, 4> kModels{{
    {"bgk", ModelKind::bgk, "BGK (Bhatnagar-Gross-Krook-Welander), nu = p/mu, Pr = 1"},
    {"shakhov", ModelKind::shakhov, "Shakhov S-model, heat-flux correction, Pr = -model_prandtl"},
    {"esbgk", ModelKind::esbgk, "ellipsoidal-statistical BGK (Holway), Pr = -model_prandtl"},
    {"hs_mc", ModelKind::hs_mc,
     "full Boltzmann, hard spheres (VHS for -model_omega > 0.5), semi-regular Monte Carlo of "
     "paper 000 on the deviation h, f = Phi0 (1 + eps h) (-mc_ options)"},
}};

inline std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const auto& m : kModels) names.emplace_back(m.name);
  return names;
}

// The entry of a registered name (callers validate names through OptionReader::choice).
inline const ModelEntry& model_entry(std::string_view name) {
  for (const auto& m : kModels)
    if (m.name == name) return m;
  return kModels[0];
}

inline std::string_view model_name(ModelKind kind) {
  for (const auto& m : kModels)
    if (m.kind == kind) return m.name;
  return "?";
}

}  // namespace bolt
