#include "case/run_options.hpp"
#include "case/velocity_reduction.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "core/error.hpp"
#include "core/option_reader.hpp"
#include "decomposition/geometry.hpp"
#include "models/model_readers.hpp"
#include "models/model_registry.hpp"
#include "physics/rankine_hugoniot.hpp"
#include "solver/solver_registry.hpp"

namespace bolt {

const char* to_string(CaseKind kind) {
  switch (kind) {
    case CaseKind::generic: return "generic";
    case CaseKind::cavity: return "cavity";
    case CaseKind::shock: return "shock";
    case CaseKind::riemann: return "riemann";
    case CaseKind::shock_tube: return "shock_tube";
    case CaseKind::couette: return "couette";
    case CaseKind::heat: return "heat";
    case CaseKind::homogeneous: return "homogeneous";
  }
  return "?";
}

namespace {

void read_backend(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Backend");
  const bool gpu = cuda_backend_compiled() && cuda_device_count() > 0;
  const std::string backend =
      o.choice("backend", "where kernels run (default: cuda when a GPU is visible)",
               gpu ? "cuda" : "cpu", {"cpu", "cuda"});
  run.backend = backend == "cuda" ? Backend::cuda : Backend::cpu;
  if (run.backend == Backend::cuda) {
    require(cuda_backend_compiled(), "-backend cuda: this bolt was built without CUDA");
    require(cuda_device_count() > 0, "-backend cuda: no CUDA device is visible");
  }
  run.precision = o.choice("precision", "floating-point precision of f", "double",
                           {"float", "double"}) == "float"
                      ? Precision::single
                      : Precision::double_;
  run.team_size = o.integer("team_size",
                            "GPU threads per spatial cell (multiple of 32; 0: 256 above 4096 "
                            "velocities a cell, fewer at 4096 or fewer, more where a cell's row in "
                            "shared memory leaves a multiprocessor room for fewer teams than "
                            "its registers; at most what the step's register bound allows, "
                            "512 for some models)",
                            0, 0, 1024);
  require(run.team_size % 32 == 0, "-team_size ", run.team_size,
          ": must be 0 (automatic) or a multiple of 32");
}

void read_parallel(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Parallel runs");
  run.decomposition = parse_decomposition(o.choice(
      "decomp", "how ranks share the phase space: space (sub-boxes), velocity (batches of "
      "velocities), hybrid (both), auto (the cheaper of space and velocity)", "auto",
      {"auto", "space", "velocity", "hybrid"}));
  run.velocity_ranks = o.integer("decomp_velocity_ranks",
                                 "hybrid: ranks per velocity group (0: the largest divisor of the "
                                 "rank count up to its square root)", 0, 0, 1 << 20);
  run.gpu_sharing = o.flag("gpu_share",
                           "allow more ranks than GPUs on a node (they share GPUs; their messages "
                           "and sums then go through the host and MPI, as NCCL takes one rank per "
                           "GPU: for testing decompositions on one GPU, not for speed)",
                           false);
  run.guard_mass_drift = o.positive_real(
      "guard_mass_drift",
      "in a closed domain the run stops (status 5, with a dump of the fields) when its mass has "
      "moved by more than this share of the initial mass",
      0.05);
  run.dry_run = o.flag("dry_run",
                       "check the options, print the plan (memory per rank, time step, expected "
                       "time per step) and stop before the phase space is allocated",
                       false);
  run.halo_overlap = o.flag("halo_overlap",
                            "stream the interior cells while the halos travel (false: exchange "
                            "first, the debugging baseline; same results)",
                            true);
}

void read_case(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Case");
  const std::string kind = o.choice(
      "case", "case type: selects diagnostics (and, for shock, the far states)", "generic",
      {"generic", "cavity", "shock", "riemann", "shock_tube", "couette", "heat", "homogeneous"});
  const CaseKind kinds[] = {CaseKind::generic,    CaseKind::cavity,  CaseKind::shock,
                            CaseKind::riemann,    CaseKind::shock_tube, CaseKind::couette,
                            CaseKind::heat,       CaseKind::homogeneous};
  for (CaseKind k : kinds)
    if (kind == to_string(k)) run.case_kind = k;
  run.case_name = o.text("case_name", "name of the case in outputs", kind);
  const OptionUseScope shock({"case", {"shock"}});
  run.shock_mach = o.real("shock_mach", "upstream Mach number of the normal shock (case shock)", 1.5);
}

void read_grid(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Physical grid (-grid_)");
  const auto n = o.integers("grid_n", "cells per axis N_x,N_y,N_z (1 = axis unused)", {32, 32, 1});
  const auto lo = o.reals("grid_lo", "lower corner of the box (units of L)", {0.0, 0.0, 0.0});
  const auto hi = o.reals("grid_hi", "upper corner of the box (units of L)", {1.0, 1.0, 1.0});
  const auto ratio = o.reals("grid_stretch",
                             "stretch ratio per axis, fine/coarse neighbour widths in (0,1]",
                             {1.0, 1.0, 1.0}, true);
  const char* axis_names[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    run.axes[a].cells = n[a];
    run.axes[a].lo = lo[a];
    run.axes[a].hi = hi[a];
    run.axes[a].ratio = ratio[a];
    const std::string option = std::string("grid_fine_") + axis_names[a];
    run.axes[a].fine_at = parse_fine_at(
        o.choice(option, "where the finest cells of a stretched axis are", "both",
                 {"none", "low", "high", "both"}),
        "-" + option);
  }
}

void read_velocity_grid(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Velocity grid (-vgrid_)");
  run.velocity_grid.type = o.choice(
      "vgrid_type",
      "cartesian: every node of the box; sphere: the nodes of the uniform box inside the ball of "
      "radius -vgrid_half_width (projection method)",
      "cartesian", velocity_grid_types());
  const auto n = o.integers("vgrid_n", "velocity nodes per axis", {16, 16, 16}, true);
  for (int a = 0; a < 3; ++a) run.velocity_grid.nodes[a] = n[a];
  run.velocity_grid.half_width =
      o.positive_real("vgrid_half_width", "half width a of the box [c - a, c + a] (units c0)", 4.0);
  const auto centre = o.reals("vgrid_centre", "centre c of the velocity box (units c0)", {0, 0, 0});
  for (int a = 0; a < 3; ++a) run.velocity_grid.centre[a] = centre[a];
  run.velocity_grid.ratio = o.real(
      "vgrid_stretch", "stretch ratio r_v in (0,1], finest cells at the centre (1 = uniform)", 1.0);
  require(run.velocity_grid.ratio > 0 && run.velocity_grid.ratio <= 1, "-vgrid_stretch ",
          run.velocity_grid.ratio, ": must be in (0, 1]");
  run.velocity_reduction = o.choice(
      "vgrid_reduce",
      "reduced velocity space of the model equations (Chu): auto reduces every velocity axis "
      "along which the flow is homogeneous and nothing moves or pushes the gas (2-D flows: z; "
      "1-D flows: y and z, or z alone with a transverse velocity); none keeps the 3-D space; "
      "or the axes to integrate out",
      "auto", velocity_reduction_choices());
  run.velocity_tolerance = o.positive_real(
      "vgrid_tolerance",
      "largest relative error of the mass and energy that the velocity grid holds of the initial, "
      "wall and inflow Maxwellians",
      1e-2);
}

void read_model(MPI_Comm comm, RunOptions& run) {
  std::string name;
  {
    OptionReader o(comm, "Collision model and gas (-model_)");
    name = o.choice("model_type", "collision model", "bgk", model_names());
    run.gas.delta =
        o.positive_real("model_delta", "rarefaction parameter delta = p0 L / (mu0 c0)", 1.0);
    run.gas.omega = o.real("model_omega", "viscosity exponent, mu = mu0 (T/T0)^omega", 0.5);
    require(run.gas.omega >= 0.5 && run.gas.omega <= 1.0, "-model_omega ", run.gas.omega,
            ": must be in [0.5, 1]");
  }
  run.model = read_collision_model(comm, name);
}

void read_time_stepping(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Streaming and time stepping (-stream_, -ts_)");
  run.order = o.integer("stream_order",
                        "streaming scheme: 1 upwind, 2 MUSCL with a limiter (-solver iterative: "
                        "a limited upwind-biased sweep)",
                        1, 1, 2);
  run.limiter = o.choice("stream_limiter", "slope limiter of the second-order scheme", "vanleer",
                         {"minmod", "vanleer"}) == "minmod"
                    ? Limiter::minmod
                    : Limiter::van_leer;
  run.splitting = o.choice("ts_splitting", "operator splitting", "lie", {"lie", "strang"}) == "strang"
                      ? Splitting::strang
                      : Splitting::lie;
  run.max_courant = o.positive_real(
      "ts_max_courant", "largest Courant number (> 1 uses whole-cell shifts, 1-D uniform grids)", 0.5);
  run.collision_fraction = o.real(
      "ts_collision_fraction", "time step at most this fraction of the mean collision time (0: no limit)", 1.0);
  require(run.collision_fraction >= 0.0, "-ts_collision_fraction ", run.collision_fraction,
          ": must be >= 0");
  run.dt = o.real("ts_dt", "fixed time step (0: from the Courant and collision limits)", 0.0);
  require(run.dt >= 0.0, "-ts_dt ", run.dt, ": must be >= 0");
  run.max_steps = o.integer("ts_max_steps",
                            "stop at this step number (default 1000; no limit when only -ts_final_time is set)",
                            1000, 0, 2000000000);
  run.final_time = o.real("ts_final_time", "stop at this time (0: after -ts_max_steps)", 0.0);
  require(run.final_time >= 0.0, "-ts_final_time ", run.final_time, ": must be >= 0");
  if (run.final_time > 0.0 && !o.is_set("ts_max_steps")) run.max_steps = 2000000000;
  run.steady_tolerance =
      o.real("ts_steady_tol", "stop when the residual falls below this (0: never)", 0.0);
  run.mean_tolerance = o.real(
      "ts_mean_tol",
      "cavity, noisy runs (hs_mc): stop when the window means of D and G after the transient are "
      "known to this relative accuracy (standard error by batch means, and drift; 0: never)",
      0.0);
  require(run.mean_tolerance == 0.0 || (run.mean_tolerance > 0.0 && run.mean_tolerance < 1.0),
          "-ts_mean_tol ", run.mean_tolerance,
          ": must be 0 (off) or a relative standard error in (0, 1), e.g. 1e-3");
}

// The condition named by option `base` (-bc_x_low, -geometry_box1_bc_x_low, ...) and its
// parameters (base_velocity, base_temperature, base_density, base_accommodation).
FaceSpec read_face_spec(OptionReader& o, const std::string& base, int a) {
  const char* axis_names[3] = {"x", "y", "z"};
  FaceSpec face;
  const std::string kind = o.choice(base, "condition on this face", "wall",
                                    {"wall", "specular", "inflow", "outflow", "periodic"});
  face.kind = kind == "wall"       ? FaceKind::wall
              : kind == "specular" ? FaceKind::specular
              : kind == "inflow"   ? FaceKind::inflow
              : kind == "outflow"  ? FaceKind::outflow
                                   : FaceKind::periodic;
  const auto u = o.reals(base + "_velocity", "wall or inflow velocity (units c0)", {0, 0, 0});
  for (int i = 0; i < 3; ++i) face.velocity[i] = u[i];
  face.temperature = o.positive_real(base + "_temperature", "wall or inflow temperature (T0)", 1.0);
  face.density = o.positive_real(base + "_density", "inflow density (n0)", 1.0);
  face.accommodation = o.real(base + "_accommodation",
                              "accommodation coefficient: 1 diffuse, 0 specular", 1.0);
  require(face.accommodation > 0.0 && face.accommodation <= 1.0, "-", base, "_accommodation ",
          face.accommodation, ": must be in (0, 1] (use specular for 0)");
  if (face.kind == FaceKind::wall)
    require(u[a] == 0.0, "-", base, "_velocity: a wall cannot move along its normal (axis ",
            axis_names[a], ")");
  return face;
}

void read_faces(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Boundary conditions (-bc_)");
  const char* axis_names[3] = {"x", "y", "z"};
  const char* side_names[2] = {"low", "high"};
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      const std::string base = std::string("bc_") + axis_names[a] + "_" + side_names[s];
      run.faces[a][s] = read_face_spec(o, base, a);
    }
  for (int a = 0; a < 3; ++a) {
    const bool low = run.faces[a][0].kind == FaceKind::periodic;
    const bool high = run.faces[a][1].kind == FaceKind::periodic;
    require(low == high, "-bc_", axis_names[a], "_low/-bc_", axis_names[a],
            "_high: periodic must be set on both ends of the axis");
  }
}

// Boxes as "x,y,z,nx,ny,nz; ...": the recorded value of a geometry option, so that the same
// boxes written with other blanks are the same configuration.
std::string boxes_text(const std::vector<OwnedBox>& boxes) {
  std::string text;
  for (const OwnedBox& box : boxes) {
    if (!text.empty()) text += "; ";
    for (int i = 0; i < 6; ++i) {
      if (i) text += ',';
      text += std::to_string(i < 3 ? box.lo[i] : box.size[i - 3]);
    }
  }
  return text;
}

void read_geometry(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Geometry: boxes in the index space of -grid_n (-geometry_)");
  run.geometry_boxes = o.text(
      "geometry_boxes",
      "the domain as boxes 'x,y,z,nx,ny,nz; ...' (lower corner and cells, in cell indices; "
      "empty: the whole grid). Touching faces connect; other faces take the -bc_ condition",
      "");
  run.geometry_solids = o.text("geometry_solids",
                               "solid boxes 'x,y,z,nx,ny,nz; ...' cut out of the domain; their "
                               "faces are diffuse walls at rest",
                               "");
  run.solid_temperature =
      o.positive_real("geometry_solid_temperature", "temperature of the solids' walls (T0)", 1.0);
  // Per-box conditions on the faces (or their parts) that connect to nothing, where they differ
  // from the side's -bc_: -geometry_box<i>_bc_<axis>_<side> (boxes numbered from 0).
  const std::vector<OwnedBox> parsed = parse_boxes(run.geometry_boxes, "-geometry_boxes");
  record_canonical_value("geometry_boxes", boxes_text(parsed));
  record_canonical_value("geometry_solids",
                         boxes_text(parse_boxes(run.geometry_solids, "-geometry_solids")));
  const std::size_t boxes = std::max<std::size_t>(1, parsed.size());
  run.box_faces.assign(boxes, {});
  const char* axis_names[3] = {"x", "y", "z"};
  const char* side_names[2] = {"low", "high"};
  for (std::size_t b = 0; b < boxes; ++b)
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        const std::string base = "geometry_box" + std::to_string(b) + "_bc_" + axis_names[a] +
                                 "_" + side_names[s];
        if (!o.is_set(base)) continue;
        run.box_faces[b][a][s] = read_face_spec(o, base, a);
        require(run.box_faces[b][a][s]->kind != FaceKind::periodic, "-", base,
                " periodic: periodic is a property of the axis; set it with -bc_", axis_names[a],
                "_low/_high");
      }
}

void read_initial(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Initial state (-init_)");
  InitialState& init = run.initial;
  const std::string kind = o.choice("init_type", "initial distribution", "uniform",
                                    {"uniform", "riemann", "bimaxwellian", "fields"});
  init.kind = kind == "riemann"        ? InitKind::riemann
              : kind == "bimaxwellian" ? InitKind::bimaxwellian
              : kind == "fields"       ? InitKind::fields
                                       : InitKind::uniform;
  init.fields_file = o.text("init_fields",
                            "fields: a fields_*.h5 of an earlier run, interpolated onto this grid "
                            "(its n, u, T; the file's mass kept)",
                            "");
  require(init.kind == InitKind::fields || init.fields_file.empty(), "-init_fields ",
          init.fields_file, ": given with -init_type ", kind, "; it needs -init_type fields");
  require(init.kind != InitKind::fields || !init.fields_file.empty(),
          "-init_type fields: name the file with -init_fields (a fields_*.h5 of an earlier run)");
  if (init.kind == InitKind::fields) init.fields = read_initial_fields(comm, init.fields_file);
  const std::string steady = o.choice(
      "init_steady_model",
      "warm start: first solve this model equation (same delta, omega, grids) to its steady "
      "state with the iterative solver, and start from Grad's distribution of its n, u, T, stress "
      "and heat flux (none: start from -init_type)",
      "none", {"none", "shakhov", "bgk"});
  init.steady_model = steady == "none" ? "" : steady;
  init.steady_tolerance = o.positive_real(
      "init_steady_tol",
      "warm start: the iterative solver's tolerance (relative change per iteration)", 1e-6);
  require(!init.steady_model.empty() || !o.is_set("init_steady_tol"), "-init_steady_tol ",
          init.steady_tolerance, ": given without a warm start; it needs -init_steady_model "
          "shakhov or bgk");
  init.density = o.positive_real("init_density", "density (n0)", 1.0);
  const auto u = o.reals("init_velocity", "velocity (c0)", {0, 0, 0});
  for (int i = 0; i < 3; ++i) init.velocity[i] = u[i];
  init.temperature = o.positive_real("init_temperature", "temperature (T0)", 1.0);
  const auto tx = o.reals("init_temperature_axes",
                          "bimaxwellian: temperatures T_x,T_y,T_z of the first Maxwellian",
                          {1, 1, 1});
  for (int i = 0; i < 3; ++i) {
    require(tx[i] > 0, "-init_temperature_axes: temperatures must be positive");
    init.temperature_axes[i] = tx[i];
  }
  init.second_density = o.real("init_second_density", "bimaxwellian: density of the second Maxwellian", 0.0);
  require(init.second_density >= 0, "-init_second_density ", init.second_density, ": must be >= 0");
  const auto u2 = o.reals("init_second_velocity", "bimaxwellian: velocity of the second Maxwellian", {0, 0, 0});
  for (int i = 0; i < 3; ++i) init.second_velocity[i] = u2[i];
  init.second_temperature = o.positive_real("init_second_temperature", "bimaxwellian: its temperature", 1.0);
  const auto left = o.reals("init_left", "riemann: left state n,u_x,T", {1, 0, 1});
  const auto right = o.reals("init_right", "riemann: right state n,u_x,T", {1, 0, 1});
  for (int i = 0; i < 3; ++i) {
    init.left[i] = left[i];
    init.right[i] = right[i];
  }
  require(left[0] > 0 && left[2] > 0, "-init_left: density and temperature must be positive");
  require(right[0] > 0 && right[2] > 0, "-init_right: density and temperature must be positive");
  init.interface = o.real("init_interface", "riemann: x position of the initial discontinuity", 0.5);
}

void read_output(MPI_Comm comm, RunOptions& run) {
  OptionReader o(comm, "Output (-out_)");
  OutputOptions& out = run.output;
  out.directory = o.text("out_dir", "directory of all outputs", "bolt-output");
  out.monitor_every = o.integer("out_monitor_every", "monitor line every N steps", 100, 1, 2000000000);
  out.fields_every = o.integer("out_fields_every", "HDF5 fields every N steps (0: final only)", 0, 0, 2000000000);
  out.checkpoint_every =
      o.integer("out_checkpoint_every", "checkpoint every N steps (0: at the end only)", 0, 0, 2000000000);
  out.checkpoint = o.text("out_checkpoint", "checkpoint file", out.directory + "/checkpoint.h5");
  out.checkpoint_final = o.flag("out_checkpoint_final",
                                "write a checkpoint at the end (off for benchmarks of large runs)",
                                true);
  out.checkpoint_keep = o.integer("out_checkpoint_keep",
                                  "checkpoints kept: the newest at -out_checkpoint, the older as "
                                  "<file>.<step>",
                                  1, 1, 1000);
  out.restart = o.text("restart",
                       "continue from this checkpoint file, or 'latest': the newest intact one "
                       "kept at -out_checkpoint",
                       "");
  out.summary = o.text("summary", "write the JSON run summary to this file", out.directory + "/summary.json");
  out.continue_on_error =
      o.choice("out_on_error",
               "when an output cannot be written (disk full, permission): stop (after a "
               "checkpoint, exit status 7) or continue without that output",
               "stop", {"stop", "continue"}) == "continue";
}

// Shock: upstream state (n, u, T) = (1, M sqrt(gamma/2), 1), downstream from Rankine-Hugoniot;
// both enter through inflow faces and fill the two halves initially.
void apply_shock_case(RunOptions& run) {
  const GasState up{1.0, run.shock_mach * sound_speed(1.0), 1.0};
  const GasState down = rankine_hugoniot_downstream(run.shock_mach, up);
  run.initial.kind = InitKind::riemann;
  const double left[3] = {up.n, up.u, up.T}, right[3] = {down.n, down.u, down.T};
  for (int i = 0; i < 3; ++i) {
    run.initial.left[i] = left[i];
    run.initial.right[i] = right[i];
  }
  FaceSpec& in = run.faces[0][0];
  FaceSpec& out = run.faces[0][1];
  in.kind = out.kind = FaceKind::inflow;
  in.density = up.n;
  in.velocity[0] = up.u;
  in.temperature = up.T;
  out.density = down.n;
  out.velocity[0] = down.u;
  out.temperature = down.T;
}

}  // namespace

RunOptions read_run_options(MPI_Comm comm) {
  RunOptions run;
  read_backend(comm, run);
  read_parallel(comm, run);
  read_case(comm, run);
  read_grid(comm, run);
  read_velocity_grid(comm, run);
  read_model(comm, run);
  read_time_stepping(comm, run);
  run.solver = read_solver_type(comm);
  read_faces(comm, run);
  read_geometry(comm, run);
  read_initial(comm, run);
  read_output(comm, run);
  if (run.case_kind == CaseKind::shock) apply_shock_case(run);
  resolve_velocity_reduction(run, run.velocity_reduction);
  // A checkpoint's configuration holds the velocity space itself, whichever choice made it.
  record_canonical_value("vgrid_reduce", reduction_name(run.velocity_grid.reduced));
  // The window means are those of the cavity's D and G, and a steady iteration has no noise.
  require(run.mean_tolerance == 0.0 ||
              (run.case_kind == CaseKind::cavity && run.solver->name() == "explicit"),
          "-ts_mean_tol ", run.mean_tolerance,
          ": stops a noisy time march of -case cavity by its D and G; this run is -case ",
          to_string(run.case_kind), " with -solver ", std::string(run.solver->name()));
  // Couette's shear is reported per unit of the plates' velocity difference.
  require(run.case_kind != CaseKind::couette ||
              run.faces[1][1].velocity[0] != run.faces[1][0].velocity[0],
          "-bc_y_high_velocity ", run.faces[1][1].velocity[0],
          ": -case couette needs plates moving at different speeds along x (-bc_y_low_velocity ",
          run.faces[1][0].velocity[0], "); its shear is per unit of their difference");
  return run;
}

}  // namespace bolt
