#include "solver/solver_registry.hpp"

#include <string>
#include <vector>

#include "core/option_reader.hpp"
#include "solver/explicit/explicit_type.hpp"
#include "solver/iterative/iterative_type.hpp"

namespace bolt {

namespace {

struct SolverEntry {
  const char* name;
  const char* description;
  std::shared_ptr<const SolverType> (*read)(MPI_Comm comm);
};

constexpr SolverEntry kSolvers[] = {
    {"explicit", "explicit time march", read_explicit_solver},
    {"iterative", "the iterative steady solver (paper 004)", read_iterative_solver},
};

}  // namespace

std::shared_ptr<const SolverType> read_solver_type(MPI_Comm comm) {
  std::vector<std::string> names;
  std::string help;
  for (const SolverEntry& entry : kSolvers) {
    names.push_back(entry.name);
    help += (help.empty() ? "" : ", or ") + std::string(entry.description);
  }
  std::string chosen;
  {
    OptionReader o(comm, "Solver (-solver)");
    chosen = o.choice("solver", help, names.front(), names);
  }
  std::shared_ptr<const SolverType> solver;
  for (const SolverEntry& entry : kSolvers) {
    const OptionUseScope use({"solver", {entry.name}});
    std::shared_ptr<const SolverType> type = entry.read(comm);
    if (chosen == entry.name) solver = std::move(type);
  }
  return solver;
}

}  // namespace bolt
