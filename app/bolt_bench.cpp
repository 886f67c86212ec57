// bolt_bench: times the fused explicit step on one device and puts it next to the device's own
// copy bandwidth measured in the same run (DESIGN.md, performance targets).
//
//   bolt_bench --cells 64,64,64 --velocities 24 --precision float --steps 50 --backend cuda
//              --bc periodic|cavity --order 1 [--model bgk|shakhov|esbgk] [--splitting lie|strang]
//              [--conservative 0] [--team-size 256] [--reps 5] [--warmup 5] [--copy-mib 2048]
//              [--copy-reps 10] [--half-width 4] [--delta 1] [--lid 0.1] [--label NAME]
//              [--reduce none|z|yz] (reduced velocity space, docs/physics.md)
//   bolt_bench --case inputs/cavity_hs_mc_delta10.yaml --precision float [--backend ...] ...
//
// --case takes grids, model and boundaries from a bolt case file instead (any model, hs_mc too);
// --precision and --backend still come from the command line.
//
// Prints ms/step, phase-space updates per second, ps per update, the bandwidth reached counting
// the minimum traffic (Engine::bytes_per_step(): one read + one write of f) and its fraction of
// the measured copy bandwidth (bytes read + written by cudaMemcpy device-to-device); last, one
// JSON line starting with "BOLT_BENCH_JSON " for scripts (tools/gpu-check.sh).
#include <petscsys.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/option_files.hpp"
#include "case/case_setup.hpp"
#include "case/run_options.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/maxwellian.hpp"
#include "models/model_registry.hpp"
#include "solver/explicit/engine.hpp"
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
  int team_size = 256;
  int steps = 50;
  int reps = 5;
  int warmup = 5;
  double copy_mib = 2048;
  int copy_reps = 10;
  double half_width = 4.0;
  double delta = 1.0;
  double lid = 0.1;
  std::string label;
  std::string case_file;  // a bolt case (YAML): everything but precision and backend from it
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
      "                  [--label NAME] [--reduce none|z|yz|...]\n"
      "       bolt_bench --case FILE.yaml [--precision ...] [--backend ...] [--steps ...] ...\n"
      "defaults: --cells 64,64,64 --velocities 24 --precision float --backend cuda --bc periodic\n"
      "          --order 1 --model bgk --splitting lie --steps 50 --reps 5 --warmup 5 --copy-mib "
      "2048");
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
      o.team_size = parse_int(key, value, 32);
      require(o.team_size % 32 == 0 && o.team_size <= 1024, key, " ", value,
              ": a multiple of 32, at most 1024");
    } else if (key == "--steps") {
      o.steps = parse_int(key, value, 1);
    } else if (key == "--reps") {
      o.reps = parse_int(key, value, 1);
    } else if (key == "--warmup") {
      o.warmup = parse_int(key, value, 0);
    } else if (key == "--copy-mib") {
      o.copy_mib = parse_double(key, value);
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

// A Maxwellian row per cell with a small density wave along x, filled in parallel (a large
// state is tens of GB on the host).
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
  const int nx = grid.cells(0);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < cells; ++c) {
    const double x = grid.axes[0].centres[c % nx];
    const double scale = 1.0 + 0.01 * std::sin(2.0 * kPi * x);
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

int bench(int argc, char** argv) {
  const BenchOptions o = parse(argc, argv);
  std::string device = "cpu";
  double copy_bytes_per_second = 0.0, copy_buffer_gib = 0.0;

  if (o.backend == Backend::cuda) {
#ifdef BOLT_HAVE_CUDA
    require(cuda_device_count() > 0, "--backend cuda: no CUDA device is visible");
    const DeviceInfo info = current_device_info();
    device = info.name;
    std::printf("bolt_bench: device %d: %s, %d SMs, sm_%d%d, %.1f GiB (%.1f GiB free)\n",
                info.index, info.name.c_str(), info.sm_count, info.compute_major,
                info.compute_minor, double(info.total_bytes) / (1 << 30),
                double(info.free_bytes) / (1 << 30));
    // (a) the device's own copy bandwidth, before the engine takes the memory.
    const CopyBandwidth copy =
        measure_copy_bandwidth(std::size_t(o.copy_mib * 1024.0 * 1024.0), o.copy_reps);
    copy_bytes_per_second = copy.bytes_per_second;
    copy_buffer_gib = double(copy.buffer_bytes) / (1 << 30);
    std::printf(
        "bolt_bench: copy bandwidth (cudaMemcpy D2D, %.2f GiB buffers, median of %d, read+write): "
        "%.1f GB/s\n",
        copy_buffer_gib, o.copy_reps, 1e-9 * copy.bytes_per_second);
#else
    fail("--backend cuda: this bolt_bench was built without the CUDA backend");
#endif
  }

  // (b) the engine for the case.
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
      "order %d, %s splitting, conservative %d, team %d, dt %.4g, ghost %d\n",
      bc.c_str(), grid.cells(0), grid.cells(1), grid.cells(2), nv, updates,
      std::string(to_string(o.precision)).c_str(), model.c_str(), run.order,
      run.splitting == Splitting::lie ? "Lie" : "Strang", conservative,
      run.team_size, setup.time_step.dt, grid.ghost);
  std::printf("bolt_bench: f needs 2 x %.2f GiB on the %s (padded)\n",
              double(grid.padded_cells()) * nv * real_bytes / (1 << 30),
              std::string(to_string(o.backend)).c_str());
  std::fflush(stdout);

  using clock = std::chrono::steady_clock;
  const auto setup_start = clock::now();
  auto engine = make_engine(setup.engine);
  {
    const std::vector<double> f0 = initial_state(grid, vg);
    engine->set_state(f0);
  }
  engine->synchronize();
  const double setup_seconds = std::chrono::duration<double>(clock::now() - setup_start).count();

  if (o.warmup > 0) engine->step(o.warmup);
  engine->synchronize();
  std::vector<double> seconds;
  for (int r = 0; r < o.reps; ++r) {
    const auto t0 = clock::now();
    engine->step(o.steps);
    engine->synchronize();
    seconds.push_back(std::chrono::duration<double>(clock::now() - t0).count() / o.steps);
  }
  const double step_seconds = median(seconds);
  const double best = *std::min_element(seconds.begin(), seconds.end());
  const double worst = *std::max_element(seconds.begin(), seconds.end());

  // A sanity check that the run stayed finite and conserved mass (periodic: exactly; walls: too):
  // the volume-weighted mean density (cells of stretched grids differ in size).
  const std::vector<double> fields = engine->fields();
  double mass = 0.0, volume = 0.0;
  bool finite = true;
  for (std::int64_t c = 0; c < grid.interior_cells(); ++c) {
    const double n = fields[std::size_t(c) * kFieldCount];
    finite = finite && std::isfinite(n);
    const std::int64_t i = c % grid.cells(0), j = (c / grid.cells(0)) % grid.cells(1),
                       k = c / (std::int64_t(grid.cells(0)) * grid.cells(1));
    const double cell_volume =
        grid.axes[0].widths[i] * grid.axes[1].widths[j] * grid.axes[2].widths[k];
    mass += n * cell_volume;
    volume += cell_volume;
  }
  mass /= volume;

  // (c) the report.
  const double bytes = engine->bytes_per_step();
  const double achieved = bytes / step_seconds;
  const double fraction = copy_bytes_per_second > 0.0 ? achieved / copy_bytes_per_second : 0.0;
  std::printf("bolt_bench: setup %.2f s, warm-up %d steps, %d x %d steps\n", setup_seconds,
              o.warmup, o.reps, o.steps);
  std::printf("bolt_bench: %.4f ms/step (median; min %.4f, max %.4f)\n", 1e3 * step_seconds,
              1e3 * best, 1e3 * worst);
  std::printf("bolt_bench: %.4g phase-space updates/s, %.3f ps/update\n", updates / step_seconds,
              1e12 * step_seconds / updates);
  std::printf("bolt_bench: minimum traffic %.4g bytes/step (one read + one write of f): %.1f GB/s",
              bytes, 1e-9 * achieved);
  if (copy_bytes_per_second > 0.0)
    std::printf(" = %.1f %% of the copy bandwidth %.1f GB/s", 100.0 * fraction,
                1e-9 * copy_bytes_per_second);
  std::printf("\nbolt_bench: mean density after %d steps %.12g%s\n", o.warmup + o.reps * o.steps,
              mass, finite ? "" : " (NOT FINITE)");

  std::printf(
      "BOLT_BENCH_JSON {\"label\":%s,\"device\":%s,\"backend\":\"%s\",\"precision\":\"%s\","
      "\"bc\":\"%s\",\"cells\":[%d,%d,%d],\"nv\":%d,\"model\":\"%s\",\"order\":%d,"
      "\"splitting\":\"%s\",\"conservative\":%d,\"team_size\":%d,\"steps\":%d,\"reps\":%d,"
      "\"ms_per_step\":%.6g,\"ms_per_step_min\":%.6g,\"updates_per_s\":%.6g,\"ps_per_update\":%.6g,"
      "\"bytes_per_step\":%.6g,\"achieved_GBps\":%.6g,\"copy_GBps\":%.6g,\"copy_buffer_GiB\":%.3g,"
      "\"fraction_of_copy\":%.4f,\"finite\":%s,\"mean_density\":%.12g}\n",
      json_string(o.label).c_str(), json_string(device).c_str(),
      std::string(to_string(o.backend)).c_str(), std::string(to_string(o.precision)).c_str(),
      bc.c_str(), grid.cells(0), grid.cells(1), grid.cells(2), nv, model.c_str(), run.order,
      run.splitting == Splitting::lie ? "lie" : "strang", conservative,
      run.team_size, o.steps, o.reps, 1e3 * step_seconds, 1e3 * best, updates / step_seconds,
      1e12 * step_seconds / updates, bytes, 1e-9 * achieved, 1e-9 * copy_bytes_per_second,
      copy_buffer_gib, fraction, finite ? "true" : "false", mass);
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
