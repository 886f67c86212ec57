#pragma once
// Options of the PETSc solvers bolt builds during a run: -iter_synthetic_pc_type gamg,
// -mc_correction_ksp_view, -bolt_iter_snes_monitor... PETSc reads them when the solver is set up
// and used, after the start-up check of every other option (reject_unused_options). So each
// solver type registers its prefix at program start with the choice that builds it; the start-up
// check refuses the prefix's options when the run does not make that choice, and leaves them to
// the solver otherwise, which checks them once it has read them. A misspelling there is an error
// too, not a silently ignored option.
#include <string>
#include <string_view>

#include "core/option_reader.hpp"

namespace bolt {

struct SolverOptionsPrefix {
  std::string prefix;  // without the leading '-'
  OptionUse use;       // the choice that builds the solver (-iter_accel anderson or ngmres)
};

// Returns true, so that a solver's source file can register at static initialisation:
//   const bool registered = register_solver_options_prefix("iter_synthetic_",
//                                                          {"iter_synthetic", {"true"}});
bool register_solver_options_prefix(std::string_view prefix, OptionUse use);

// The registered prefix `name` (without its leading '-') lies under; nullptr if none.
const SolverOptionsPrefix* solver_options_prefix(std::string_view name);

// Whether this run builds the solver: its choice made, by an option the run uses itself.
bool solver_in_use(const SolverOptionsPrefix& solver);

// Fails naming the options under `prefix` that the solver `solver` has not read. PETSc reads a
// solver's options when it is set up, except its viewers (-..._view..., -..._converged_reason),
// which it reads at the end of each solve: before the first solve has ended, pass
// `viewers_read` false to leave those out of the check.
void reject_unused_solver_options(std::string_view prefix, std::string_view solver,
                                  bool viewers_read);

}  // namespace bolt
