#pragma once
// Everything a run is configured with, read from PETSc options (a YAML case file in inputs/ via
// -options_file_yaml, overridden on the command line). docs/options.md lists every option.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

#include "core/backend.hpp"
#include "decomposition/partition.hpp"
#include "grid/axis.hpp"
#include "grid/velocity_grid.hpp"
#include "case/initial_fields.hpp"
#include "kernels/streaming.hpp"
#include "models/model_registry.hpp"
#include "solver/explicit/engine.hpp"

namespace bolt {

enum class CaseKind { generic, cavity, shock, riemann, shock_tube, couette, heat, homogeneous };
enum class InitKind { uniform, riemann, bimaxwellian, fields };

struct InitialState {
  InitKind kind = InitKind::uniform;
  double density = 1.0, velocity[3] = {0, 0, 0}, temperature = 1.0;
  // Anisotropic (bi-)Maxwellian: per-axis temperatures of the first Maxwellian, and an optional
  // second one added to it.
  double temperature_axes[3] = {0, 0, 0};
  double second_density = 0.0, second_velocity[3] = {0, 0, 0}, second_temperature = 1.0;
  // Riemann: left/right states (n, u_x, T) split at x = interface.
  double left[3] = {1, 0, 1}, right[3] = {1, 0, 1};
  double interface = 0.5;
  // Fields: a previous run's output interpolated onto this grid (lib/io/initial_fields.hpp), its
  // density scaled by `fields_scale` so that the run starts with the file's mass.
  std::string fields_file;
  std::shared_ptr<const InitialFields> fields;
  double fields_scale = 1.0;
  // Warm start (driver/warm_start.hpp): a model equation (bgk, shakhov) whose steady state the
  // iterative solver finds first, to -init_steady_tol; the run then starts from its fields.
  // Empty: none.
  std::string steady_model;
  double steady_tolerance = 1e-6;
};

struct OutputOptions {
  std::string directory = "bolt-output";
  int monitor_every = 100;
  int fields_every = 0;      // 0: final fields only
  int checkpoint_every = 0;  // 0: only at the end and on a signal
  std::string checkpoint;    // path; default <directory>/checkpoint.h5
  bool checkpoint_final = true;  // also write one at the end
  int checkpoint_keep = 1;   // checkpoints kept (the older ones as <checkpoint>.<step>)
  std::string restart;       // checkpoint to continue from, or "latest"
  std::string summary;       // JSON run summary
  bool continue_on_error = false;  // a failed write: go on without it (else stop, checkpointed)
};

class SolverType;

struct RunOptions {
  Backend backend = Backend::cpu;
  Precision precision = Precision::double_;
  CaseKind case_kind = CaseKind::generic;
  std::string case_name;
  std::array<AxisSpec, 3> axes;
  VelocityGridSpec velocity_grid;
  std::string velocity_reduction = "auto";  // -vgrid_reduce as given (velocity_reduction.hpp)
  // Largest relative error of the mass and energy of the Maxwellians the run starts from or lets
  // in, summed on the velocity grid (velocity_coverage.hpp).
  double velocity_tolerance = 1e-2;
  // -model_type with its own options (the option's default: BGK)
  std::shared_ptr<const CollisionModel> model = default_model("bgk");
  GasParams gas;
  int order = 1;
  Limiter limiter = Limiter::van_leer;
  Splitting splitting = Splitting::lie;
  double max_courant = 0.5;
  double collision_fraction = 1.0;
  double dt = 0.0;  // 0: from the two limits above
  int max_steps = 1000;
  double final_time = 0.0;  // 0: no time limit
  double steady_tolerance = 0.0;
  // Stop once the cavity's D and G window means have this relative standard error (0: never;
  // diagnostics/window_mean.hpp).
  double mean_tolerance = 0.0;
  std::array<std::array<FaceSpec, 2>, 3> faces;
  // -solver with its own options (solver/solver_registry.hpp)
  std::shared_ptr<const SolverType> solver;
  InitialState initial;
  double shock_mach = 0.0;
  int team_size = 0;  // 0: chosen from the velocities per cell (case_setup)
  DecompositionKind decomposition = DecompositionKind::automatic;
  int velocity_ranks = 0;   // hybrid: ranks per velocity group (0: chosen)
  bool gpu_sharing = false; // allow more ranks than GPUs on a node
  bool halo_overlap = true; // interior cells computed while the halos travel
  bool dry_run = false;     // print the pre-run plan and stop
  double guard_mass_drift = 0.05;  // largest |mass error| the numerical guard lets pass
  std::string geometry_boxes, geometry_solids;  // "x,y,z,nx,ny,nz; ..." (empty: whole grid)
  double solid_temperature = 1.0;
  // [box][axis][side]: a box's own condition on its unconnected faces (else `faces`).
  std::vector<std::array<std::array<std::optional<FaceSpec>, 2>, 3>> box_faces;
  OutputOptions output;
};

RunOptions read_run_options(MPI_Comm comm);

const char* to_string(CaseKind kind);

}  // namespace bolt
