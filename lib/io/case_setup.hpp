#pragma once
// Turns the run options into what the engine needs: grids, the time step, the boundary faces,
// and the initial distribution.
#include <vector>

#include "decomposition/geometry.hpp"
#include "run_options.hpp"
#include "solver/engine.hpp"
#include "solver/time_step.hpp"

namespace bolt {

struct CaseSetup {
  RunOptions run;  // the options with what the set-up derived (e.g. discrete shock states)
  EngineConfig engine;  // of the whole grid
  Geometry geometry;
  TimeStep time_step;
};

CaseSetup make_case_setup(const RunOptions& options);

// f of the initial state, row by row (Engine::set_state): the interior cells of `grid` at the
// velocities [velocity_lo, velocity_lo + velocity_count) of `velocities`.
StateRows initial_state_rows(const RunOptions& run, const PhysicalGrid& grid,
                             const VelocityGrid& velocities, int velocity_lo, int velocity_count);

// Largest collision frequency of the states a run starts from or lets in (time-step limit).
double max_collision_frequency(const RunOptions& run);

}  // namespace bolt
