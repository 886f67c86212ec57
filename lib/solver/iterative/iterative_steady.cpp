#include "solver/iterative/iterative_steady.hpp"

#include <petscsys.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "driver/numerical_guard.hpp"
#include "core/error.hpp"
#include "core/ordered_sum.hpp"
#include "core/parallel_copy.hpp"
#include "core/phase_events.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/sweep.hpp"
#include "models/collision_operator.hpp"
#include "models/relaxation_model.hpp"

namespace bolt {

namespace {

// A diffuse wall's entering flux at unit density over every velocity, for the wall `spec` on
// side s of axis a of a gas cell: the explicit engine's face values (collision_operator.hpp).
double wall_influx_per_density(const FaceSpec& spec, int a, int s, const VelocityGrid& vg) {
  OperatorSetup all;
  all.velocities = &vg;
  all.velocity_count = vg.size();
  return maxwellian_face_values<double>(spec, a, s, all).influx;
}

}  // namespace

std::string iterative_refusal(const RunOptions& run, const CaseSetup& setup) {
  if (sweep_engine_factory(*run.model, run.backend) == nullptr)
    return "-model_type " + std::string(run.model->name()) +
           ": the iterative solver runs the relaxation models (bgk, shakhov, esbgk)";
  // A model with a sweep engine is a relaxation model (its registry entry names an evaluator).
  const auto* relaxation = static_cast<const RelaxationModel*>(run.model.get());
  const RelaxationOptions& o = relaxation->options();
  if (o.conservative_iterations > 0)
    return "-model_conservative: not available with -solver iterative";
  if (o.force[0] != 0.0 || o.force[1] != 0.0 || o.force[2] != 0.0)
    return "-model_force: not available with -solver iterative";
  const PhysicalGrid& grid = setup.engine.grid;
  if (grid.cells(1) == 1 && grid.cells(2) > 1)
    return "-grid_n: the iterative solver needs the active axes to be x, x-y or x-y-z";
  if (!run.geometry_boxes.empty())
    return "-geometry_boxes: the iterative solver sweeps one box (solids inside it are fine: "
           "-geometry_solids)";
  if (run.decomposition == DecompositionKind::space || run.decomposition == DecompositionKind::hybrid)
    return "-decomp " + std::string(to_string(run.decomposition)) +
           ": the iterative solver splits the velocities over the ranks (-decomp velocity)";
  const char* names[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      if (!grid.active[a]) continue;
      const FaceSpec& f = run.faces[a][s];
      const std::string option = std::string("-bc_") + names[a] + (s ? "_high" : "_low");
      if (f.kind == FaceKind::periodic)
        return option + " periodic: the iterative solver sweeps walls, symmetry (specular), "
               "inflow and outflow faces";
      if (f.kind == FaceKind::specular && run.faces[a][1 - s].kind == FaceKind::specular)
        return option + " specular: one symmetry face per axis (the sweep takes the velocities "
               "leaving through it before their mirror images)";
      if (f.kind == FaceKind::wall && f.accommodation < 1.0)
        return option + "_accommodation " + std::to_string(f.accommodation) +
               ": the iterative solver's walls are diffuse (1)";
    }
  if (run.case_kind == CaseKind::shock || run.case_kind == CaseKind::shock_tube ||
      run.case_kind == CaseKind::riemann || run.case_kind == CaseKind::homogeneous)
    return std::string("-case ") + to_string(run.case_kind) +
           ": a time-dependent case; the iterative solver finds steady states";
  return {};
}

namespace {

// [cell] 1 inside a solid box, or empty without solids.
std::vector<unsigned char> solid_cells(const CaseSetup& setup) {
  const Geometry& geometry = setup.geometry;
  if (geometry.solids.empty()) return {};
  const PhysicalGrid& grid = setup.engine.grid;
  std::vector<unsigned char> solid(std::size_t(grid.interior_cells()));
  for (int k = 0; k < grid.cells(2); ++k)
    for (int j = 0; j < grid.cells(1); ++j)
      for (int i = 0; i < grid.cells(0); ++i)
        solid[i + std::size_t(grid.cells(0)) * (j + std::size_t(grid.cells(1)) * k)] =
            geometry.fluid(i, j, k) ? 0 : 1;
  return solid;
}

// The synthetic correction's grid, faces, solids and gas (lib/solver/synthetic_correction.hpp).
SyntheticConfig synthetic_config(const CaseSetup& setup) {
  SyntheticConfig c;
  c.grid = setup.engine.grid;
  c.faces = setup.run.faces;
  c.solid = solid_cells(setup);
  c.solid_temperature = setup.run.solid_temperature;
  c.gas.delta = setup.run.gas.delta;
  c.gas.omega = setup.run.gas.omega;
  c.gas.frequency = [model = setup.run.model, gas = setup.run.gas](double n, double T) {
    return model->collision_frequency(gas, n, T);
  };
  c.gas.prandtl = setup.run.model->prandtl();
  return c;
}

}  // namespace

SweepConfig sweep_config(const CaseSetup& setup, const IterationOptions& options,
                         const Partition& partition, std::shared_ptr<Communicator> communicator,
                         std::int64_t batch) {
  SweepConfig c;
  c.backend = setup.run.backend;
  c.precision = setup.run.precision;
  c.grid = setup.engine.grid;
  c.velocities = setup.engine.velocities;
  c.velocity_lo = partition.velocity_lo;
  c.velocity_count = partition.velocity_count;
  c.model = setup.run.model;
  c.gas = setup.run.gas;
  c.faces = setup.run.faces;
  c.solid = solid_cells(setup);
  c.solid_temperature = setup.run.solid_temperature;
  c.communicator = partition.velocity_ranks > 1 ? std::move(communicator) : nullptr;
  c.order = setup.run.order;
  c.limiter = setup.run.limiter;
  c.batch = batch;
  c.lines = options.lines;
  return c;
}

// The diagnostics' view: fields from the moments, face fluxes from the sweep's face sums. Every
// rank holds both whole (summed over the velocity ranks).
class IterativeSteady::View : public DomainView {
 public:
  explicit View(const IterativeSteady& solver) : solver_(solver) {}

  // The fields of each box of the partition (the fluid pieces around the solids), which the
  // field writer takes box by box.
  std::vector<std::vector<double>> local_fields() override {
    const std::vector<double> all = whole_grid();
    const PhysicalGrid& grid = solver_.setup_.engine.grid;
    std::vector<std::vector<double>> boxes;
    for (const OwnedPart& part : solver_.partition_.parts) {
      const OwnedBox& box = part.box;
      std::vector<double> fields;
      fields.reserve(std::size_t(box.size[0]) * box.size[1] * box.size[2] * kFieldCount);
      for (int k = box.lo[2]; k < box.lo[2] + box.size[2]; ++k)
        for (int j = box.lo[1]; j < box.lo[1] + box.size[1]; ++j)
          for (int i = box.lo[0]; i < box.lo[0] + box.size[0]; ++i) {
            const double* cell =
                all.data() + (i + std::size_t(grid.cells(0)) * (j + std::size_t(grid.cells(1)) * k)) *
                                 kFieldCount;
            fields.insert(fields.end(), cell, cell + kFieldCount);
          }
      boxes.push_back(std::move(fields));
    }
    return boxes;
  }
  // Every rank holds the whole state: the fields straight from it.
  std::vector<double> gather_fields(const std::vector<std::vector<double>>&) const override {
    return whole_grid();
  }
  std::vector<double> face_fluxes(int axis, int side) override {
    const std::vector<double>& sums = solver_.face_sums_[axis][side];
    std::vector<double> fluxes;
    for (std::size_t t = 0; t < sums.size() / kFaceSums; ++t)
      for (int k = 0; k < 5; ++k) fluxes.push_back(sums[t * kFaceSums + k]);
    return fluxes;
  }
  std::vector<double> state() override {
    fail("-solver iterative keeps moments, not f: this diagnostic needs the explicit solver");
  }

 private:
  std::vector<double> whole_grid() const {
    const std::vector<double>& raw = solver_.moments_;
    std::vector<double> fields(std::size_t(solver_.cells_) * kFieldCount, 0.0);
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < solver_.cells_; ++c)
      if (solver_.solid_.empty() || !solver_.solid_[c])  // a solid's fields stay 0
        fields_from_raw(raw.data() + c * kRawMoments, fields.data() + c * kFieldCount);
    return fields;
  }


  const IterativeSteady& solver_;
};

IterativeSteady::IterativeSteady(const CaseSetup& setup, const IterationOptions& options,
                                 const Partition& partition,
                                 std::shared_ptr<Communicator> communicator, std::int64_t batch)
    : setup_(setup),
      partition_(partition),
      communicator_(partition.velocity_ranks > 1 ? std::move(communicator) : nullptr),
      engine_(make_sweep_engine(sweep_config(setup, options, partition, communicator_, batch))),
      view_(std::make_unique<View>(*this)),
      tolerance_(options.tolerance),
      accelerator_(options.accelerator),
      history_(options.history),
      closed_(closed_domain(setup.run)) {
  const RunOptions& run = setup.run;
  const PhysicalGrid& grid = setup.engine.grid;
  const VelocityGrid& vg = setup.engine.velocities;
  cells_ = grid.interior_cells();
  volume_.resize(cells_);
  for (std::int64_t c = 0; c < cells_; ++c) {
    const int i = int(c % grid.cells(0)), j = int(c / grid.cells(0) % grid.cells(1)),
              k = int(c / grid.cells(0) / grid.cells(1));
    volume_[c] = grid.axes[0].widths[i] * grid.axes[1].widths[j] * grid.axes[2].widths[k];
  }
  moments_ = initial_raw_moments(run, grid, vg);
  solid_ = solid_cells(setup);
  for (std::int64_t c = 0; c < std::int64_t(solid_.size()); ++c)
    if (solid_[c]) std::fill_n(moments_.begin() + c * kRawMoments, kRawMoments, 0.0);
  if (options.synthetic)
    synthetic_ = std::make_unique<SyntheticCorrection>(synthetic_config(setup));
  initial_mass_ = mass(moments_);
  // Walls: the entering flux of unit density (every velocity), and a first density that
  // balances a gas at rest at the initial state.
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      if (!grid.active[a]) continue;
      const std::size_t transverse = std::size_t(grid.cells((a + 1) % 3)) * grid.cells((a + 2) % 3);
      face_sums_[a][s].assign(transverse * kFaceSums, 0.0);
      const FaceSpec& f = run.faces[a][s];
      if (f.kind != FaceKind::wall) continue;
      influx_per_density_[a][s] = wall_influx_per_density(f, a, s, vg);
      wall_density_[a][s].assign(
          transverse, run.initial.density * std::sqrt(run.initial.temperature / f.temperature));
    }
  if (!solid_.empty()) {
    FaceSpec solid_wall;  // diffuse, at rest
    solid_wall.temperature = run.solid_temperature;
    for (int k = 0; k < 6; ++k)
      solid_influx_per_density_[k] = wall_influx_per_density(solid_wall, k / 2, k % 2, vg);
    solid_density_.assign(std::size_t(cells_) * 6, 0.0);
    const int n[3] = {grid.cells(0), grid.cells(1), grid.cells(2)};
    const std::int64_t stride[3] = {1, n[0], std::int64_t(n[0]) * n[1]};
    for (std::int64_t c = 0; c < cells_; ++c) {
      if (solid_[c]) continue;
      const int at[3] = {int(c % n[0]), int(c / n[0] % n[1]), int(c / n[0] / n[1])};
      for (int k = 0; k < 6; ++k) {
        const int a = k / 2, step = k % 2 == 0 ? -1 : 1;
        if (at[a] + step < 0 || at[a] + step >= n[a] || !solid_[c + step * stride[a]]) continue;
        solid_sides_.push_back(c * 6 + k);
        solid_density_[c * 6 + k] =
            run.initial.density * std::sqrt(run.initial.temperature / run.solid_temperature);
      }
    }
  }
  // The engine downloads into swept_'s vectors at these sizes, so none of the pinned vectors is
  // resized (moved) again.
  swept_.moments.resize(moments_.size());
  if (!solid_.empty()) swept_.solid_outflux.resize(std::size_t(cells_) * 6);
  double unpinned = 0.0;
  for (std::vector<double>* host : {&moments_, &swept_.moments, &swept_.solid_outflux}) {
    const std::size_t bytes = host->size() * sizeof(double);
    pinned_.emplace_back(run.backend, host->data(), bytes);
    if (pinned_.back().pinned()) pinned_bytes_ += double(bytes);
    else if (run.backend == Backend::cuda) unpinned += double(bytes);
  }
  if (unpinned > 0.0)
    PetscPrintf(PETSC_COMM_SELF,
                "bolt: note: %.3g MB of the iterative solver's host arrays could not be "
                "page-locked; their copies to and from the GPU run at the pageable rate\n",
                unpinned * 1e-6);
}

DomainView& IterativeSteady::domain() { return *view_; }

IterativeSteady::~IterativeSteady() {
  if (snes_) SNESDestroy(&snes_);
  if (x_) VecDestroy(&x_);
  if (r_) VecDestroy(&r_);
}

std::vector<double> IterativeSteady::pack() const {
  std::size_t size = moments_.size() + solid_sides_.size();
  for (const auto& axis : wall_density_)
    for (const auto& face : axis) size += face.size();
  std::vector<double> x(size);
  pack(x.data());
  return x;
}

void IterativeSteady::pack(double* x) const {
  x = parallel_copy(moments_.data(), std::int64_t(moments_.size()), x);
  for (const auto& axis : wall_density_)
    for (const auto& face : axis) x = std::copy(face.begin(), face.end(), x);
  for (std::int64_t side : solid_sides_) *x++ = solid_density_[side];
}

void IterativeSteady::unpack(const double* x) {
  parallel_copy(x, std::int64_t(moments_.size()), moments_.data());
  x += moments_.size();
  for (auto& axis : wall_density_)
    for (auto& face : axis) {
      std::copy_n(x, face.size(), face.begin());
      x += face.size();
    }
  for (std::int64_t side : solid_sides_) solid_density_[side] = *x++;
}

double IterativeSteady::mass(const std::vector<double>& moments) const {
  return ordered_sum<1>(cells_, [&](std::int64_t c, Sums<1>& sum) {
    sum[0] += moments[c * kRawMoments] * volume_[c];
  })[0];
}

double IterativeSteady::mass_scale(const std::vector<double>& moments) const {
  return initial_mass_ / mass(moments);
}

// Scales the moments of a closed domain to its initial mass; returns the factor.
double IterativeSteady::rescale_mass(std::vector<double>& moments) const {
  const double scale = mass_scale(moments);
  const std::int64_t size = std::int64_t(moments.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < size; ++k) moments[k] *= scale;
  return scale;
}

// The walls' and solids' densities follow the flux the corrected gas sends them: n sqrt(T) of the
// cell beside each, relative to the sweep's.
void IterativeSteady::follow_corrected_gas(const std::vector<double>& swept,
                                           const std::vector<double>& corrected) {
  const auto flux = [](const double* m) {  // n sqrt(T)
    Macroscopic gas;
    density_velocity_temperature(m[kM0], m + kM1, m[kM2] + m[kM2 + 1] + m[kM2 + 2], gas);
    return gas.n * std::sqrt(gas.T);
  };
  // A cell the sweep left without a physical state (an accelerator's iterate can lead there; the
  // correction leaves such a cell as swept) keeps its neighbours' densities.
  const auto flux_ratio = [&](std::int64_t c) {
    const double after = flux(corrected.data() + c * kRawMoments);
    const double before = flux(swept.data() + c * kRawMoments);
    return after > 0.0 && before > 0.0 && std::isfinite(after / before) ? after / before : 1.0;
  };
  const PhysicalGrid& grid = setup_.engine.grid;
  const int n[3] = {grid.cells(0), grid.cells(1), grid.cells(2)};
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      const int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
      for (std::size_t t = 0; t < wall_density_[a][s].size(); ++t) {
        int at[3];
        at[a] = s == 0 ? 0 : n[a] - 1;
        at[a1] = int(t % n[a1]);
        at[a2] = int(t / n[a1]);
        const std::int64_t c = at[0] + std::int64_t(n[0]) * (at[1] + std::int64_t(n[1]) * at[2]);
        wall_density_[a][s][t] *= flux_ratio(c);
      }
    }
  for (std::int64_t side : solid_sides_) solid_density_[side] *= flux_ratio(side / 6);
}

double IterativeSteady::iterate() {
  const auto start = std::chrono::steady_clock::now();
  if (communicator_) communicator_->record_times(true);
  SweepResult& result = swept_;
  engine_->iterate(moments_, wall_density_, solid_density_, result);
  if (communicator_) communicator_->record_times(false);
  sweep_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++sweeps_;
  // The host's work on the sweep's sums (core/phase_events.hpp), then the correction's. Its
  // passes over the cells run on every thread: every rank repeats them on the whole state, and
  // on one core they would hold back the GPU between sweeps.
  std::optional<Phase<>> phase(std::in_place, "BoltIterUpdate");
  // A closed domain's moments are scaled to its initial mass in the pass that measures the
  // change, below (one pass over the moments fewer); the solids' outflux where it is read.
  const double scale = closed_ ? mass_scale(result.moments) : 1.0;
  if (closed_)
    for (auto& axis : result.face_sums)
      for (auto& face : axis)
        for (double& value : face) value *= scale;
  for (std::int64_t side : solid_sides_)
    solid_density_[side] =
        scale * result.solid_outflux[side] / solid_influx_per_density_[side % 6];
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s)
      for (std::size_t t = 0; t < wall_density_[a][s].size(); ++t)
        wall_density_[a][s][t] = result.face_sums[a][s][t * kFaceSums + 5] / influx_per_density_[a][s];
  // The relative change of density, momentum and energy, the largest of the three: the squared
  // changes (sums 0-2) and the squared values (3-5).
  const Sums<6> sums = ordered_sum<6>(cells_, [&](std::int64_t c, Sums<6>& sum) {
    double* now = result.moments.data() + c * kRawMoments;
    if (closed_)
      for (int k = 0; k < kRawMoments; ++k) now[k] *= scale;
    const double* before = moments_.data() + c * kRawMoments;
    const auto add = [&](int field, double a, double b) {
      sum[field] += (a - b) * (a - b);
      sum[3 + field] += a * a;
    };
    add(0, now[kM0], before[kM0]);
    for (int a = 0; a < 3; ++a) add(1, now[kM1 + a], before[kM1 + a]);
    add(2, now[kM2] + now[kM2 + 1] + now[kM2 + 2], before[kM2] + before[kM2 + 1] + before[kM2 + 2]);
  });
  double largest = 0.0;
  for (int f = 0; f < 3; ++f)
    if (sums[3 + f] > 0.0) largest = std::max(largest, std::sqrt(sums[f] / sums[3 + f]));
  if (synthetic_) {
    phase.emplace("BoltSynthetic");
    before_correction_.resize(result.moments.size());
    parallel_copy(result.moments.data(), std::int64_t(result.moments.size()),
                  before_correction_.data());
    synthetic_->correct(moments_, result.moments);
    if (closed_) rescale_mass(result.moments);
    follow_corrected_gas(before_correction_, result.moments);
  }
  std::swap(moments_, result.moments);
  std::swap(face_sums_, result.face_sums);
  last_change_ = largest;
  return largest;
}

double IterativeSteady::residual(const std::vector<double>&, const std::vector<double>&, int) const {
  return last_change_;
}

double IterativeSteady::updates_per_unit() const {
  return double(cells_) * setup_.engine.velocities.size();
}

std::vector<std::pair<std::string, double>> IterativeSteady::summary_numbers() const {
  std::vector<std::pair<std::string, double>> numbers{{"sweeps", double(sweeps_)},
                                                      {"sweep_seconds", sweep_seconds_},
                                                      {"last_change", last_change_},
                                                      {"velocity_slots", double(engine_->slots())},
                                                      {"batch", double(engine_->batch())}};
  if (engine_->lines() > 0) numbers.push_back({"lines", double(engine_->lines())});
  if (setup_.run.backend == Backend::cuda) numbers.push_back({"pinned_host_bytes", pinned_bytes_});
  if (synthetic_)
    numbers.push_back(
        {"synthetic_linear_iterations", double(synthetic_->last_linear_iterations())});
  return numbers;
}

}  // namespace bolt
