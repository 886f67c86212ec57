#pragma once
// The numerical guard of the monitor steps: the fields of the whole grid must be finite, with
// positive density and temperature in every cell of the gas, and in a closed domain (no inflow
// or outflow face) mass must stay within a tolerance of the initial mass. The first violation is described (where, what, the likely
// cause) for a one-line error; the run then writes the fields of that step as a diagnostic dump
// and stops with kNumericalFailure, keeping its last checkpoint.
#include <array>
#include <string>
#include <vector>

#include "decomposition/geometry.hpp"
#include "case/run_options.hpp"

namespace bolt {

// Whether no face lets gas in or out (every face, the boxes' own included, a wall, specular or
// periodic on the active axes): mass is conserved only then.
bool closed_domain(const RunOptions& run);

// What went wrong first, or an empty string: fields [cell][kFieldCount] of the grid `cells`
// (x fastest), cells outside `geometry` skipped; mass_error as in monitor.csv, checked against
// `mass_drift` (-guard_mass_drift) when `closed`; `likely_cause` ends the message
// (Solver::failure_hint).
std::string numerical_failure(const std::vector<double>& fields, const std::array<int, 3>& cells,
                              const Geometry& geometry, bool closed, double mass_error,
                              double mass_drift, const std::string& likely_cause);

}  // namespace bolt
