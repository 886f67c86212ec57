// bolt_bench: times the fused explicit step on one device and puts it next to the device's own
// copy bandwidth measured in the same run (DESIGN.md, performance targets).
//
//   bolt_bench --cells 64,64,64 --velocities 24 --precision float --steps 50 --backend cuda
//              --bc periodic|cavity --order 1 [--model bgk|shakhov|esbgk] [--splitting lie|strang]
//              [--conservative 0] [--team-size 0] [--reps 5] [--warmup 5] [--copy-mib 2048]
//              [--copy-reps 10] [--half-width 4] [--delta 1] [--lid 0.1] [--label NAME]
//              [--reduce none|z|yz] (reduced velocity space, docs/physics.md)
//   bolt_bench --case inputs/cavity_hs_mc_paper_delta10.yaml --precision float [--backend ...] ...
//
// --case takes grids, model and boundaries from a bolt case file instead (any model, hs_mc too);
// --precision and --backend still come from the command line. --solver iterative times one
// source iteration of the iterative solver (SweepEngine::iterate, from the case's initial
// moments each time) instead of a step, its traffic SweepEngine::bytes_per_iteration().
//
// Prints ms/step, phase-space updates per second, ps per update, the bandwidth reached counting
// the minimum traffic (Engine::bytes_per_step(): one read + one write of f) and its fraction of
// the measured copy bandwidth: on the GPU bytes read + written by cudaMemcpy device-to-device,
// on the CPU STREAM's copy (and triad) on the same OpenMP threads, its passes interleaved with
// the step's repetitions (a machine shared with other work slows both alike), the best of each
// kept as STREAM keeps its best (--copy-mib: bytes per STREAM array; default
// default_stream_array_bytes()); last, one JSON line starting with "BOLT_BENCH_JSON " for
// scripts (tools/gpu-check.sh).
#include <omp.h>
#include <petscsys.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/blas_threads.hpp"
#include "core/error.hpp"
#include "core/host_bandwidth.hpp"
#include "core/option_files.hpp"
#include "case/case_setup.hpp"
#include "case/run_options.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/maxwellian.hpp"
#include "models/model_registry.hpp"
#include "solver/explicit/engine.hpp"
#include "solver/iterative/iterative_options.hpp"
#include "solver/iterative/iterative_steady.hpp"
#ifdef BOLT_HAVE_CUDA
#include "core/device_bandwidth.hpp"
#endif

namespace bolt {
namespace {

struct BenchOptions {
  std::array<int, 3> cells{64, 64, 64};
  std::array<int, 3> velocities{24, 24, 24};
  Precision precision = Precision::single;
  Backend backend = Backend::cuda;
  std::string bc = "periodic";
  int order = 1;
  std::string model = "bgk";
  Splitting splitting = Splitting::lie;
  int conservative = 0;
  std::array<bool, 3> reduced{false, false, false};  // --reduce: velocity axes integrated out
  int team_size = 0;  // 0: bolt's automatic choice
  int steps = 50;
  int reps = 5;
  int warmup = 5;
  double copy_mib = 0;  // 0: 2048 on the GPU, default_stream_array_bytes() on the CPU
  int copy_reps = 10;
  double half_width = 4.0;
  double delta = 1.0;
  double lid = 0.1;
  std::string label;
  std::string case_file;  // a bolt case (YAML): everything but precision and backend from it
  bool sweep = false;     // time the iterative solver's sweep instead of the explicit step
};

void usage() {
  std::puts(
      "usage: bolt_bench [--cells NX[,NY[,NZ]]] [--velocities N | NX,NY,NZ] [--precision "
      "float|double]\n"
      "                  [--backend cuda|cpu] [--bc periodic|cavity] [--order 1|2]\n"
      "                  [--model bgk|shakhov|esbgk] [--splitting lie|strang] [--conservative "
      "ITERATIONS]\n"
      "                  [--team-size THREADS] [--steps N] [--reps R] [--warmup W]\n"
      "                  [--copy-mib MIB] [--copy-reps R] [--half-width A] [--delta D] [--lid U]\n"
      "                  [--label NAME] [--reduce none|z|yz|...] [--solver explicit|iterative]\n"
      "       bolt_bench --case FILE.yaml [--precision ...] [--backend ...] [--steps ...] ...\n"
      "defaults: --cells 64,64,64 --velocities 24 --precision float --backend cuda --bc periodic\n"
      "          --order 1 --model bgk --splitting lie --steps 50 --reps 5 --warmup 5 --copy-mib "
      "2048 (GPU;\n          CPU: STREAM arrays of 4 x the last-level cache, 256 MiB to 1 GiB) "
      "--copy-reps 10");
}

std::vector<int> parse_ints(const std::string& option, const std::string& text) {
  std::vector<int> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    require(!item.empty() && *end == '\0' && v >= 1, option, " ", text,
            ": expected positive integers separated by commas");
    values.push_back(int(v));
  }
  require(!values.empty() && values.size() <= 3, option, " ", text, ": expected 1 to 3 integers");
  return values;
}

int parse_int(const std::string& option, const std::string& text, int min) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  require(!text.empty() && *end == '\0' && v >= min, option, " ", text,
          ": expected an integer >= ", min);
  return int(v);
}

double parse_double(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  require(!text.empty() && *end == '\0', option, " ", text, ": expected a number");
  return v;
}

BenchOptions parse(int argc, char** argv) {
  BenchOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "--help" || key == "-h") {
      usage();
      std::exit(0);
    }
    require(i + 1 < argc, key, ": missing value (see --help)");
    const std::string value = argv[++i];
    if (key == "--cells") {
      const auto v = parse_ints(key, value);
      o.cells = {1, 1, 1};
      for (std::size_t a = 0; a < v.size(); ++a) o.cells[a] = v[a];
    } else if (key == "--velocities") {
      const auto v = parse_ints(key, value);
      require(v.size() == 1 || v.size() == 3, key, " ", value, ": give N or NX,NY,NZ");
      o.velocities = v.size() == 1 ? std::array<int, 3>{v[0], v[0], v[0]}
                                   : std::array<int, 3>{v[0], v[1], v[2]};
    } else if (key == "--precision") {
      require(value == "float" || value == "double" || value == "single", key, " ", value,
              ": float or double");
      o.precision = value == "double" ? Precision::double_ : Precision::single;
    } else if (key == "--backend") {
      require(value == "cuda" || value == "cpu", key, " ", value, ": cuda or cpu");
      o.backend = value == "cuda" ? Backend::cuda : Backend::cpu;
    } else if (key == "--bc") {
      require(value == "periodic" || value == "cavity", key, " ", value, ": periodic or cavity");
      o.bc = value;
    } else if (key == "--order") {
      o.order = parse_int(key, value, 1);
      require(o.order <= 2, key, " ", value, ": 1 or 2");
    } else if (key == "--model") {
      require(value == "bgk" || value == "shakhov" || value == "esbgk", key, " ", value,
              ": bgk, shakhov or esbgk");
      o.model = value;
    } else if (key == "--splitting") {
      require(value == "lie" || value == "strang", key, " ", value, ": lie or strang");
      o.splitting = value == "lie" ? Splitting::lie : Splitting::strang;
    } else if (key == "--reduce") {
      o.reduced = {false, false, false};
      for (char axis : value == "none" ? std::string() : value) {
        require(axis >= 'x' && axis <= 'z', key, " ", value,
                ": none, or the axes to reduce (z, yz, ...)");
        o.reduced[axis - 'x'] = true;
      }
    } else if (key == "--conservative") {
      o.conservative = parse_int(key, value, 0);
    } else if (key == "--team-size") {
      o.team_size = parse_int(key, value, 0);
      require(o.team_size % 32 == 0 && o.team_size <= 1024, key, " ", value,
              ": 0 (bolt's automatic choice) or a multiple of 32, at most 1024");
    } else if (key == "--steps") {
      o.steps = parse_int(key, value, 1);
    } else if (key == "--reps") {
      o.reps = parse_int(key, value, 1);
    } else if (key == "--warmup") {
      o.warmup = parse_int(key, value, 0);
    } else if (key == "--copy-mib") {
      o.copy_mib = parse_double(key, value);
      require(o.copy_mib > 0.0, key, " ", value, ": a positive size in MiB");
    } else if (key == "--copy-reps") {
      o.copy_reps = parse_int(key, value, 1);
    } else if (key == "--half-width") {
      o.half_width = parse_double(key, value);
    } else if (key == "--delta") {
      o.delta = parse_double(key, value);
    } else if (key == "--lid") {
      o.lid = parse_double(key, value);
    } else if (key == "--label") {
      o.label = value;
    } else if (key == "--case") {
      o.case_file = value;
    } else if (key == "--solver") {
      require(value == "explicit" || value == "iterative", key, " ", value,
              ": explicit or iterative");
      o.sweep = value == "iterative";
    } else {
      fail("unknown option ", key, " (see --help)");
    }
  }
  return o;
}

// The run options of a bolt case file, read as bolt reads it (lib/core/option_files.hpp) into
// PETSc's options database.
RunOptions case_run_options(const BenchOptions& o) {
  insert_file_options(read_option_files({{"-options_file_yaml", o.case_file}}));
  std::string program = "bolt_bench";
  char* arguments[] = {program.data(), nullptr};
  char** argv = arguments;
  int argc = 1;
  require(PetscInitialize(&argc, &argv, nullptr, nullptr) == 0,
          "PETSc (or MPI) could not be initialised");
  keep_blas_on_one_thread();
  RunOptions run = read_run_options(PETSC_COMM_WORLD);
  run.backend = o.backend;
  run.precision = o.precision;
  return run;
}

RunOptions run_options(const BenchOptions& o) {
  if (!o.case_file.empty()) return case_run_options(o);
  RunOptions run;
  run.backend = o.backend;
  run.precision = o.precision;
  for (int a = 0; a < 3; ++a) {
    run.axes[a].cells = o.cells[a];
    run.axes[a].lo = 0.0;
    run.axes[a].hi = 1.0;
  }
  run.velocity_grid.nodes = o.velocities;
  run.velocity_grid.half_width = o.half_width;
  run.velocity_grid.reduced = o.reduced;
  // Held while it is used: the registry's default model is a temporary.
  const std::shared_ptr<const CollisionModel> model = default_model(o.model);
  const auto& relaxation = dynamic_cast<const RelaxationModel&>(*model);
  RelaxationOptions options = relaxation.options();
  options.conservative_iterations = o.conservative;
  run.model = relaxation.with_options(options);
  run.gas.delta = o.delta;
  run.order = o.order;
  run.splitting = o.splitting;
  run.team_size = o.team_size;
  run.max_courant = 0.5;
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      FaceSpec& face = run.faces[a][s];
      if (o.bc == "periodic") {
        face.kind = FaceKind::periodic;
      } else {
        face.kind = FaceKind::wall;  // diffuse, fully accommodating, T_w = 1
      }
    }
  if (o.bc == "cavity") run.faces[1][1].velocity[0] = o.lid;  // the lid: y high, moving along x
  return run;
}

// A Maxwellian row per cell with a small density wave along every axis of more than one cell,
// filled in parallel (a large state is tens of GB on the host). Along an axis where the state
// were uniform, neighbouring values would be equal, and a second-order step's van Leer limiter
// would divide 0 by 0 in every cell, which the GPU's IEEE division (double precision) leaves to
// its slow path: a cost that a run's own state seldom has (docs/benchmarks.md).
std::vector<double> initial_state(const PhysicalGrid& grid, const VelocityGrid& vg) {
  const int nv = vg.size();
  std::vector<double> row(nv);
  const double u[3] = {0.0, 0.0, 0.0};
  const double prefactor = maxwellian_prefactor(1.0, 1.0);
  for (int v = 0; v < nv; ++v)
    row[v] = maxwellian<double>(prefactor, 1.0, u, vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]) *
             vg.reduced_factor(v, 1.0);  // g and h of a reduced set
  const std::int64_t cells = grid.interior_cells();
  std::vector<double> f(std::size_t(cells) * nv);
  const int nx = grid.cells(0), ny = grid.cells(1);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < cells; ++c) {
    const int index[3] = {int(c % nx), int(c / nx % ny), int(c / nx / ny)};
    double scale = 1.0;
    for (int a = 0; a < 3; ++a)
      if (grid.cells(a) > 1) scale += 0.01 * std::sin(2.0 * kPi * grid.axes[a].centres[index[a]]);
    double* out = f.data() + c * nv;
    for (int v = 0; v < nv; ++v) out[v] = scale * row[v];
  }
  return f;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The reference bandwidth of the device the step runs on: the GPU's own copy bandwidth (before
// the engine takes the memory), or on the CPU the STREAM arrays, measured later beside the step.
struct Reference {
  std::string device = "cpu";
  double copy_bytes_per_second = 0.0, triad_bytes_per_second = 0.0, buffer_gib = 0.0;
  std::unique_ptr<HostStream> stream;  // CPU only
  int stream_passes_per_rep = 0;
};

Reference reference_bandwidth(const BenchOptions& o) {
  Reference r;
  if (o.backend == Backend::cpu) {
    const std::size_t bytes = o.copy_mib > 0.0 ? std::size_t(o.copy_mib * 1024.0 * 1024.0)
                                               : default_stream_array_bytes();
    r.stream = std::make_unique<HostStream>(bytes);
    r.buffer_gib = double(r.stream->array_bytes()) / (1 << 30);
    r.stream_passes_per_rep = (o.copy_reps + o.reps - 1) / o.reps;
    const char* bind = std::getenv("OMP_PROC_BIND");
    const char* places = std::getenv("OMP_PLACES");
    std::printf("bolt_bench: CPU, %d OpenMP threads (OMP_PROC_BIND=%s, OMP_PLACES=%s); STREAM "
                "arrays 3 x %.2f GiB, %d passes before each repetition of the step\n",
                omp_get_max_threads(), bind ? bind : "unset", places ? places : "unset",
                r.buffer_gib, r.stream_passes_per_rep);
    return r;
  }
#ifdef BOLT_HAVE_CUDA
  require(cuda_device_count() > 0, "--backend cuda: no CUDA device is visible");
  const DeviceInfo info = current_device_info();
  r.device = info.name;
  std::printf("bolt_bench: device %d: %s, %d SMs, sm_%d%d, %.1f GiB (%.1f GiB free)\n",
              info.index, info.name.c_str(), info.sm_count, info.compute_major,
              info.compute_minor, double(info.total_bytes) / (1 << 30),
              double(info.free_bytes) / (1 << 30));
  const double mib = o.copy_mib > 0.0 ? o.copy_mib : 2048.0;
  const CopyBandwidth copy =
      measure_copy_bandwidth(std::size_t(mib * 1024.0 * 1024.0), o.copy_reps);
  r.copy_bytes_per_second = copy.bytes_per_second;
  r.buffer_gib = double(copy.buffer_bytes) / (1 << 30);
  std::printf(
      "bolt_bench: copy bandwidth (cudaMemcpy D2D, %.2f GiB buffers, median of %d, read+write): "
      "%.1f GB/s\n",
      r.buffer_gib, o.copy_reps, 1e-9 * copy.bytes_per_second);
  return r;
#else
  fail("--backend cuda: this bolt_bench was built without the CUDA backend");
#endif
}

// Seconds per step of each repetition of run(steps) (which returns when the steps are done); on
// the CPU each repetition follows STREAM passes.
template <class Run>
std::vector<double> time_steps(const Run& run, const BenchOptions& o, Reference& reference) {
  using clock = std::chrono::steady_clock;
  if (o.warmup > 0) run(o.warmup);
  std::vector<double> seconds;
  for (int r = 0; r < o.reps; ++r) {
    if (reference.stream) reference.stream->measure(reference.stream_passes_per_rep);
    const auto t0 = clock::now();
    run(o.steps);
    seconds.push_back(std::chrono::duration<double>(clock::now() - t0).count() / o.steps);
  }
  if (reference.stream) {
    reference.copy_bytes_per_second = reference.stream->copy_bytes_per_second();
    reference.triad_bytes_per_second = reference.stream->triad_bytes_per_second();
    std::printf("bolt_bench: STREAM (best of %d passes, %.2f GiB arrays): copy %.1f GB/s, triad "
                "%.1f GB/s\n",
                reference.stream->passes(), reference.buffer_gib,
                1e-9 * reference.copy_bytes_per_second, 1e-9 * reference.triad_bytes_per_second);
  }
  return seconds;
}

// A sanity check that the run stayed finite and conserved mass (periodic: exactly; walls: too):
// the volume-weighted mean of the density of each cell, density(c), over the grid (cells of
// stretched grids differ in size); NaN if one is not finite.
template <class Density>
double mean_density(const PhysicalGrid& grid, const Density& density) {
  double mass = 0.0, volume = 0.0;
  bool finite = true;
  for (std::int64_t c = 0; c < grid.interior_cells(); ++c) {
    const double n = density(c);
    finite = finite && std::isfinite(n);
    const std::int64_t i = c % grid.cells(0), j = (c / grid.cells(0)) % grid.cells(1),
                       k = c / (std::int64_t(grid.cells(0)) * grid.cells(1));
    const double cell_volume =
        grid.axes[0].widths[i] * grid.axes[1].widths[j] * grid.axes[2].widths[k];
    mass += n * cell_volume;
    volume += cell_volume;
  }
  return finite ? mass / volume : std::nan("");
}

struct Timed {
  std::vector<double> seconds;  // per step or sweep, each repetition
  double setup_seconds = 0.0;
  double bytes = 0.0;           // the least traffic of one step or sweep
  double mean_density = 0.0;    // after the last
};

// The explicit step of the case's engine from a Maxwellian with a density wave.
Timed time_explicit(const BenchOptions& o, const CaseSetup& setup, Reference& reference) {
  using clock = std::chrono::steady_clock;
  const auto setup_start = clock::now();
  auto engine = make_engine(setup.engine);
  engine->set_state(initial_state(setup.engine.grid, setup.engine.velocities));
  engine->synchronize();
  Timed timed;
  timed.setup_seconds = std::chrono::duration<double>(clock::now() - setup_start).count();
  timed.seconds = time_steps(
      [&](int steps) {
        engine->step(steps);
        engine->synchronize();
      },
      o, reference);
  timed.bytes = engine->bytes_per_step();
  const std::vector<double> fields = engine->fields();
  timed.mean_density = mean_density(
      setup.engine.grid, [&](std::int64_t c) { return fields[std::size_t(c) * kFieldCount]; });
  return timed;
}

// One source iteration of the iterative solver over every velocity (one rank), each from the
// case's initial moments and walls at the initial density: the same work every time.
Timed time_sweeps(const BenchOptions& o, const CaseSetup& setup, Reference& reference) {
  using clock = std::chrono::steady_clock;
  const auto setup_start = clock::now();
  const PhysicalGrid& grid = setup.engine.grid;
  Partition one_rank;
  one_rank.velocity_count = setup.engine.velocities.size();
  auto engine = make_sweep_engine(sweep_config(setup, IterationOptions{}, one_rank, nullptr, 0));
  const std::vector<double> moments = initial_raw_moments(setup.run, grid, setup.engine.velocities);
  FaceArrays walls;
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s)
      if (grid.active[a] && setup.run.faces[a][s].kind == FaceKind::wall)
        walls[a][s].assign(std::size_t(grid.cells((a + 1) % 3)) * grid.cells((a + 2) % 3),
                           setup.run.initial.density);
  const std::vector<double> solids =
      setup.geometry.solids.empty()
          ? std::vector<double>{}
          : std::vector<double>(std::size_t(grid.interior_cells()) * 6, setup.run.initial.density);
  Timed timed;
  timed.setup_seconds = std::chrono::duration<double>(clock::now() - setup_start).count();
  SweepResult last;
  timed.seconds = time_steps(
      [&](int sweeps) {
        for (int n = 0; n < sweeps; ++n) engine->iterate(moments, walls, solids, last);
      },
      o, reference);
  timed.bytes = engine->bytes_per_iteration();
  timed.mean_density = mean_density(
      grid, [&](std::int64_t c) { return last.moments[std::size_t(c) * kRawMoments]; });
  return timed;
}

int bench(int argc, char** argv) {
  const BenchOptions o = parse(argc, argv);
  Reference reference = reference_bandwidth(o);

  // The engine for the case.
  const RunOptions run = run_options(o);
  const CaseSetup setup = make_case_setup(run);
  const PhysicalGrid& grid = setup.engine.grid;
  const VelocityGrid& vg = setup.engine.velocities;
  const int nv = vg.size();
  const double updates = double(grid.interior_cells()) * nv;
  const double real_bytes = o.precision == Precision::single ? 4.0 : 8.0;
  const std::string bc = o.case_file.empty() ? o.bc : o.case_file;
  const std::string model(run.model->name());
  // Newton steps of a relaxation model's conservative equilibrium (0: off, or another model).
  const auto* relaxation = dynamic_cast<const RelaxationModel*>(run.model.get());
  const int conservative = relaxation ? relaxation->options().conservative_iterations : 0;
  std::printf(
      "bolt_bench: %s, %d x %d x %d cells, %d velocities (%.3g phase-space cells), %s, %s, "
      "order %d, %s splitting, conservative %d, team %d%s, dt %.4g, ghost %d\n",
      bc.c_str(), grid.cells(0), grid.cells(1), grid.cells(2), nv, updates,
      std::string(to_string(o.precision)).c_str(), model.c_str(), run.order,
      run.splitting == Splitting::lie ? "Lie" : "Strang", conservative,
      setup.engine.team_size,
      // relaxation_operator.hpp: the fused step's teams widen where a row's scratch leaves room
      setup.engine.team_size_chosen ? " (bolt's; a GPU's fused step may widen it)" : "",
      setup.time_step.dt, grid.ghost);
  std::printf("bolt_bench: f needs 2 x %.2f GiB on the %s (padded)\n",
              double(grid.padded_cells()) * nv * real_bytes / (1 << 30),
              std::string(to_string(o.backend)).c_str());
  std::fflush(stdout);

  const Timed timed = o.sweep ? time_sweeps(o, setup, reference) : time_explicit(o, setup, reference);
  const std::vector<double>& seconds = timed.seconds;
  const double setup_seconds = timed.setup_seconds;
  const double step_seconds = median(seconds);
  const double best = *std::min_element(seconds.begin(), seconds.end());
  const double worst = *std::max_element(seconds.begin(), seconds.end());
  const double mass = timed.mean_density;
  const bool finite = std::isfinite(mass);

  // The report: the median step, and the best step against the best copy (the CPU's noisy
  // neighbours slow both; the best of each is what the machine can do).
  const double bytes = timed.bytes;
  const double copy = reference.copy_bytes_per_second, triad = reference.triad_bytes_per_second;
  const double achieved = bytes / step_seconds, achieved_best = bytes / best;
  const double fraction = copy > 0.0 ? achieved / copy : 0.0;
  const double fraction_best = copy > 0.0 ? achieved_best / copy : 0.0;
  const double fraction_triad = triad > 0.0 ? achieved_best / triad : 0.0;
  std::printf("bolt_bench: setup %.2f s, warm-up %d steps, %d x %d steps\n", setup_seconds,
              o.warmup, o.reps, o.steps);
  std::printf("bolt_bench: %.4f ms/%s (median; min %.4f, max %.4f)\n", 1e3 * step_seconds,
              o.sweep ? "sweep" : "step", 1e3 * best, 1e3 * worst);
  std::printf("bolt_bench: %.4g phase-space updates/s, %.3f ps/update\n", updates / step_seconds,
              1e12 * step_seconds / updates);
  std::printf("bolt_bench: minimum traffic %.4g bytes/%s (%s): %.1f GB/s", bytes,
              o.sweep ? "sweep" : "step",
              o.sweep ? "slices, targets and moment sums" : "one read + one write of f",
              1e-9 * achieved);
  if (copy > 0.0)
    std::printf(" = %.1f %% of the copy bandwidth %.1f GB/s", 100.0 * fraction, 1e-9 * copy);
  if (triad > 0.0)
    std::printf("\nbolt_bench: best %s %.1f GB/s = %.1f %% of STREAM copy, %.1f %% of triad",
                o.sweep ? "sweep" : "step", 1e-9 * achieved_best, 100.0 * fraction_best,
                100.0 * fraction_triad);
  std::printf("\nbolt_bench: mean density after %d %s %.12g%s\n", o.warmup + o.reps * o.steps,
              o.sweep ? "sweeps" : "steps", mass, finite ? "" : " (NOT FINITE)");

  std::printf(
      "BOLT_BENCH_JSON {\"label\":%s,\"device\":%s,\"backend\":\"%s\",\"precision\":\"%s\","
      "\"bc\":\"%s\",\"cells\":[%d,%d,%d],\"nv\":%d,\"model\":\"%s\",\"order\":%d,"
      "\"splitting\":\"%s\",\"conservative\":%d,\"team_size\":%d,\"team_size_chosen\":%s,"
      "\"steps\":%d,\"reps\":%d,"
      "\"solver\":\"%s\",\"threads\":%d,"
      "\"ms_per_step\":%.6g,\"ms_per_step_min\":%.6g,\"updates_per_s\":%.6g,\"ps_per_update\":%.6g,"
      "\"bytes_per_step\":%.6g,\"achieved_GBps\":%.6g,\"achieved_GBps_best\":%.6g,"
      "\"copy_GBps\":%.6g,\"triad_GBps\":%.6g,\"copy_buffer_GiB\":%.3g,"
      "\"fraction_of_copy\":%.4f,\"fraction_of_copy_best\":%.4f,\"fraction_of_triad_best\":%.4f,"
      "\"finite\":%s,\"mean_density\":%.12g}\n",
      json_string(o.label).c_str(), json_string(reference.device).c_str(),
      std::string(to_string(o.backend)).c_str(), std::string(to_string(o.precision)).c_str(),
      bc.c_str(), grid.cells(0), grid.cells(1), grid.cells(2), nv, model.c_str(), run.order,
      run.splitting == Splitting::lie ? "lie" : "strang", conservative,
      setup.engine.team_size, setup.engine.team_size_chosen ? "true" : "false", o.steps, o.reps,
      o.sweep ? "iterative" : "explicit",
      o.backend == Backend::cpu ? omp_get_max_threads() : 0,
      1e3 * step_seconds, 1e3 * best, updates / step_seconds,
      1e12 * step_seconds / updates, bytes, 1e-9 * achieved, 1e-9 * achieved_best, 1e-9 * copy,
      1e-9 * triad, reference.buffer_gib, fraction, fraction_best, fraction_triad,
      finite ? "true" : "false", finite ? mass : 0.0);
  return finite ? 0 : 2;
}

}  // namespace
}  // namespace bolt

int main(int argc, char** argv) {
  int status = 1;
  try {
    status = bolt::bench(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bolt_bench: error: %s\n", e.what());
  }
  PetscBool initialized = PETSC_FALSE;
  PetscInitialized(&initialized);
  if (initialized) PetscFinalize();  // --case
  return status;
}
