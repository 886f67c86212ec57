#include "core/solver_options.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"

namespace bolt {

namespace {

// A function-local static: registrations run during static initialisation, in any order.
std::vector<SolverOptionsPrefix>& registered() {
  static std::vector<SolverOptionsPrefix> prefixes;
  return prefixes;
}

bool starts_with(std::string_view name, std::string_view prefix) {
  return name.substr(0, prefix.size()) == prefix;
}

bool is_viewer_option(std::string_view name) {
  constexpr std::string_view reason = "_converged_reason";
  return name.find("_view") != std::string_view::npos ||
         (name.size() >= reason.size() && name.substr(name.size() - reason.size()) == reason);
}

}  // namespace

bool register_solver_options_prefix(std::string_view prefix, OptionUse use) {
  registered().push_back({std::string(prefix), std::move(use)});
  return true;
}

const SolverOptionsPrefix* solver_options_prefix(std::string_view name) {
  for (const SolverOptionsPrefix& solver : registered())
    if (starts_with(name, solver.prefix)) return &solver;
  return nullptr;
}

bool solver_in_use(const SolverOptionsPrefix& solver) {
  const auto& read = options_read();
  const auto selector = std::find_if(read.begin(), read.end(), [&](const ReadOption& option) {
    return option.name == solver.use.selector;
  });
  if (selector == read.end() || !option_in_use(*selector)) return false;
  const auto& choices = solver.use.choices;
  return std::find(choices.begin(), choices.end(), selector->value) != choices.end();
}

void reject_unused_solver_options(std::string_view prefix, std::string_view solver,
                                  bool viewers_read) {
  std::vector<LeftOption> unused;
  for (LeftOption& option : options_left())
    if (starts_with(option.name, prefix) && (viewers_read || !is_viewer_option(option.name)))
      unused.push_back(std::move(option));
  require(unused.empty(), "unknown or unused option(s) of the ", solver, " (PETSc, prefix -",
          prefix, "): ", given_list(unused), " (misspelled? PETSc's manual pages list the options of each "
          "solver type)");
}

}  // namespace bolt
