#pragma once
// McOperator<Real, Exec>: the one driver of the semi-regular Monte Carlo collision (paper 000),
// used by the engine (-model_type hs_mc) and, through McCollisionOperator (collision.hpp), by
// the tests.
//  * The stored state is the deviation h of f = Phi0 (1 + eps h), Phi0 = pi^(-3/2) exp(-|xi|^2):
//    f <-> h for set_state / state; moments and face fluxes of f from sums of w Phi0 h
//    (Eqs. 9-12): f-moments = Phi0-moments + eps h-moments, the Phi0 part summed once here.
//  * Boundary values in terms of h (Eqs. 13-15): the entering h of a diffuse wall is
//      h_g = (n_w Phi_w / Phi0 - 1) / eps = e_v + (B_h / A_w) r_v,
//      r_v = Phi_w / Phi0,  e_v = (A r_v / A_w - 1) / eps,
//    with B_h = sum_leaving w Phi0 |xi_n| h (WallOutflux on number weights), A = sum_entering
//    w Phi0 |xi_n|, A_w = sum_entering w Phi0 |xi_n| r_v. This is n_w = (A + eps B_h) / A_w: the
//    h flux through the wall is zero with the same discrete sums as the moments, and a wall at
//    rest at T0 leaves Phi0 (h = 0) exactly stationary (r_v = 1, e_v = 0). Paper Eq. 15 has the
//    continuum influx of Phi0 in place of A; on the grid this choice keeps h = 0 an exact
//    solution. r_v and e_v are computed from log(Phi_w / Phi0) with expm1: no cancellation for a
//    lid moving at 0.01 c0 and eps = 0.01.
//  * The step: the samples of the step (drawn beside the step before), then McCollision streams
//    and collides the cells, with the correction solved in the kernel or by PETSc on the host:
//    the box in one pass, or (with halos) the cells that read none while the halos travel and
//    the rest after them.
// Include after the backend's launch header (it launches kernels).
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/collision_operator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/phase_events.hpp"
#include "kernels/macroscopic.hpp"
#include "kernels/hs_mc/collision.hpp"
#include "models/hs_mc/device.hpp"
#include "models/hs_mc/model.hpp"
#include "models/hs_mc/petsc_block_solver.hpp"

namespace bolt {

// Waves of collision teams (all multiprocessors busy) from which the plan's schedule is made:
// the schedule runs beside the collision, and below about this many waves the step waits for it
// longer than its ordered loads save (the break-even lies between 17 and 31 waves of the
// 2-D cavities, docs/benchmarks.md).
constexpr std::int64_t kMcScheduleWaves = 30;

template <class Real, class Exec>
class McOperator final : public CollisionOperator<Real, Exec> {
 public:
  // The engine's: its box of `setup.cells` cells, every velocity of the run.
  McOperator(const OperatorSetup& setup, const McModel& model)
      : McOperator(engine_config(setup, model), setup.cells) {
    require(!setup.split(), "-model_type hs_mc: every velocity of a cell must be on one rank "
            "(use -decomp space)");
  }

  // `cells` rows per collision; 0: any number, sized at each collide (the tests), and the
  // gather's load schedule made whenever the rows are in the team scratch.
  McOperator(const McConfig& config, std::int64_t cells)
      : config_(config),
        where_(config.backend),
        nv_(config.velocities.size()),
        cells_(cells),
        devices_{McDevice<Real, Exec>(config), McDevice<Real, Exec>(config)} {
    const VelocityGrid& vg = config.velocities;
    require(config.options.epsilon > 0.0, "-mc_epsilon ", config.options.epsilon,
            ": must be positive");
    for (int a = 0; a < 3; ++a) xi_[a] = vg.xi[a];
    const double pi = 3.14159265358979323846;
    phi0_.resize(nv_);
    std::vector<Real> number(nv_);
    for (int v = 0; v < nv_; ++v) {
      const double x = vg.xi[0][v], y = vg.xi[1][v], z = vg.xi[2][v];
      phi0_[v] = std::exp(-(x * x + y * y + z * z)) / (pi * std::sqrt(pi));
      number[v] = Real(devices_[0].tables().number_weight[v]);
      number_host_.push_back(double(number[v]));  // the weights the kernels sum with
    }
    number_ = Buffer<Real>(where_, number);
    // Raw moments of Phi0 itself with the same weights (kernels/macroscopic.hpp order).
    phi0_raw_.assign(kRawMoments, 0.0);
    for (int v = 0; v < nv_; ++v) {
      const double x = vg.xi[0][v], y = vg.xi[1][v], z = vg.xi[2][v], n = number_host_[v];
      const double xi2 = x * x + y * y + z * z;
      const double m[kRawMoments] = {1,     x,     y,     z,       x * x,   y * y,  z * z,
                                     x * y, x * z, y * z, x * xi2, y * xi2, z * xi2};
      for (int k = 0; k < kRawMoments; ++k) phi0_raw_[k] += n * m[k];
    }
    for (int axis = 0; axis < 3; ++axis)
      for (int side = 0; side < 2; ++side) phi0_flux_[axis][side] = phi0_face_flux(axis, side);
    reserve(cells);
    layout_ = mc_team_layout(team_shared_memory(exec_), nv_, devices_[0].g_samples(), sizeof(Real),
                             config.options.cells_per_team, config.rows_in_scratch,
                             devices_[0].strips(), config.options.team_size);
    // The schedule of the gather's loads (McEntrySchedule) runs beside the collision of the step
    // before; it pays where that collision is longer (kMcScheduleWaves).
    const std::int64_t teams = (cells + layout_.cells_per_team - 1) / layout_.cells_per_team;
    const int per_processor = layout_.team_threads > 0 ? 1024 / layout_.team_threads : 1;
    const std::int64_t at_once = std::int64_t(multiprocessors(exec_)) * per_processor;
    if (layout_.rows_in_scratch && (cells == 0 || teams >= kMcScheduleWaves * at_once))
      for (auto& device : devices_)
        device.schedule_loads(layout_.cells_per_team * int(sizeof(Real)));
  }

  void stored_of_f(const double* f, Real* h, int v0, int count) const override {
    for (int v = 0; v < count; ++v)
      h[v] = Real((f[v] / phi0_[v0 + v] - 1.0) / config_.options.epsilon);
  }
  void f_of_stored(const Real* h, double* f, int v0, int count) const override {
    for (int v = 0; v < count; ++v)
      f[v] = phi0_[v0 + v] * (1.0 + config_.options.epsilon * double(h[v]));
  }

  // Weights w Phi0: sums of h with them are the h-moments.
  Velocities<Real> moment_view(const Velocities<Real>& vel) const override {
    Velocities<Real> n = vel;
    n.w = number_.data();
    return n;
  }

  void raw_of_f(double* raw) const override {
    for (int k = 0; k < kRawMoments; ++k) raw[k] = phi0_raw_[k] + config_.options.epsilon * raw[k];
  }

  // The Phi0 part has face value Phi0 on both sides: the same at every position of the face.
  void flux_of_f(int axis, int side, double* flux) const override {
    const std::array<double, 5>& phi0 = phi0_flux_[axis][side];
    for (int k = 0; k < 5; ++k) flux[k] = phi0[k] + config_.options.epsilon * flux[k];
  }

  // Walls: r_v, e_v, A_w (see the header); inflow: h of the inflow state.
  FaceValues<Real> face_values(const FaceSpec& spec, int axis, int side) const override {
    const double epsilon = config_.options.epsilon;
    FaceValues<Real> out;
    out.equilibrium.assign(nv_, Real(0));
    out.offset.assign(nv_, Real(0));
    const double outward = side == 0 ? -1.0 : 1.0;
    const double n = spec.kind == FaceKind::wall ? 1.0 : spec.density;
    std::vector<double> log_ratio(nv_);  // log(n Phi_state / Phi0)
    for (int v = 0; v < nv_; ++v) {
      double c2 = 0.0, xi2 = 0.0;
      for (int a = 0; a < 3; ++a) {
        c2 += (xi_[a][v] - spec.velocity[a]) * (xi_[a][v] - spec.velocity[a]);
        xi2 += xi_[a][v] * xi_[a][v];
      }
      log_ratio[v] = std::log(n) - 1.5 * std::log(spec.temperature) - c2 / spec.temperature + xi2;
    }
    if (spec.kind == FaceKind::inflow) {
      for (int v = 0; v < nv_; ++v) out.equilibrium[v] = Real(std::expm1(log_ratio[v]) / epsilon);
      return out;
    }
    if (spec.kind != FaceKind::wall) return out;
    double A = 0.0, Aw = 0.0;
    for (int v = 0; v < nv_; ++v) {
      const double xn = outward * xi_[axis][v];
      if (xn >= 0.0) continue;
      A += number_host_[v] * (-xn);
      Aw += number_host_[v] * (-xn) * std::exp(log_ratio[v]);
    }
    out.influx = Aw;
    for (int v = 0; v < nv_; ++v) {
      out.equilibrium[v] = Real(std::exp(log_ratio[v]));
      out.offset[v] = Real(std::expm1(std::log(A / Aw) + log_ratio[v]) / epsilon);
    }
    return out;
  }

  // The samples and plan of the step beside the ghost fills, unless the step before prepared
  // them beside its collision (all but the first step of a run).
  // Its phase shows the launches only: the draw runs beside the ghost fills, and a pass that
  // waits for it does so in its own BoltMcSamples.
  void begin_step(const CellPass<Real>& box) override {
    const Phase phase("BoltMcSamples");
    prepare(box.step);
  }

  // A cell's collision reads only its own row and its upwind neighbours': the interior cells
  // collide while the halos travel, the rest after (not with the host's correction solve, which
  // solves the pass's cells together).
  bool passes_in_parts() const override {
    return config_.options.correction != McCorrection::external;
  }

  // Streaming and collision of the pass's cells, with the samples of the step (keyed by the step
  // number, so a restart continues the sample sequence); the step's first pass waits for them.
  void pass(const CellPass<Real>& p) override {
    if (p.first_cell == 0) {
      const Phase phase("BoltMcSamples", device_work(exec_));
      if (is_prepared_) side_.join(exec_);
      if (!is_prepared_ || prepared_ != p.step) device_of(p.step).draw(exec_, p.step);
      is_prepared_ = false;
      prepare(p.step + 1);  // beside this collision: the other set, which the last one read
    }
    collide(p.step, p.f_in, p.f_out, p.vel, p.stream, true, p.cells, p.cells.count(),
            p.first_cell);
  }

  // Monitor numbers: rejected fraction over all draws, the largest correction |(A, B, C)| and
  // the largest energy drift it removed in the last step (over this box's cells).
  std::vector<std::pair<std::string, double>> diagnostics() const override {
    copy_bytes(record_on_host_.data(), Backend::cpu, record_.data(), where_,
               record_.size() * sizeof(double));
    const McCorrectionSummary s = summarize_records(record_on_host_, config_.options.epsilon);
    const McSampleStats drawn = all_draws();
    return {{"mc_rejected", drawn.fraction()},
            {"mc_abc", s.max_abc},
            {"mc_energy_drift", config_.options.epsilon * s.max_drift[2]}};
  }

  // The draws of the steps taken (drawn and rejected samples), and back: mc_rejected continues
  // over a restart. Not the step prepared ahead, which the continued run draws again.
  std::vector<double> counters() override {
    McSampleStats drawn = all_draws();
    if (is_prepared_) {
      side_.join(exec_);
      const McSampleStats ahead = device_of(prepared_).last_draw();
      drawn.drawn -= ahead.drawn;
      drawn.rejected -= ahead.rejected;
    }
    return {double(drawn.drawn), double(drawn.rejected)};
  }
  void set_counters(const std::vector<double>& values) override {
    if (values.empty()) return;  // a checkpoint of another model: counted from here
    require(values.size() == 2, "-model_type hs_mc: ", values.size(),
            " sample counters in the checkpoint, expected 2");
    devices_[0].set_totals({std::int64_t(values[0]), std::int64_t(values[1])});
    devices_[1].set_totals({0, 0});
  }

  // What the tests reach (McCollisionOperator): the samples of a step, drawn now.
  McDevice<Real, Exec>& draw(std::uint32_t step) {
    device_of(step).draw(exec_, step);
    return device_of(step);
  }
  McDevice<Real, Exec>& device_of(std::uint32_t step) { return devices_[step % 2]; }
  const McDevice<Real, Exec>& device_of(std::uint32_t step) const { return devices_[step % 2]; }
  McSampleStats all_draws() const {
    McSampleStats drawn{0, 0};
    for (const auto& device : devices_) {
      const McSampleStats draws = device.all_draws();
      drawn.drawn += draws.drawn;
      drawn.rejected += draws.rejected;
    }
    return drawn;
  }
  std::vector<double> records() const { return record_.to_host(); }

  // The collision of `count` cells of `in` (rows `vel.row` apart, at `cells`) into `out` with
  // the samples of `step` as drawn, streaming first when `streams`; their records from the
  // `first_cell`-th on.
  void collide(std::uint32_t step, const Real* in, Real* out, const Velocities<Real>& vel,
               const StreamTables<Real>& stream, bool streams, const CellIndexer& cells,
               std::int64_t count, std::int64_t first_cell = 0) {
    reserve(first_cell + count);
    const McCorrection mode = config_.options.correction;
    double* system = mode == McCorrection::external ? system_.data() : nullptr;
    double* record = record_.data() + first_cell * kMcRecord;
    const McPass<Real> pass{in, out, vel.row, stream, streams, cells, count, record, system};
    const McDevice<Real, Exec>& device = device_of(step);
    {
      const Phase phase("BoltCollision", device_work(exec_));
      switch (mode) {
        case McCorrection::none:
          device.template collide<McCorrection::none>(exec_, pass, layout_);
          break;
        case McCorrection::batched:
          device.template collide<McCorrection::batched>(exec_, pass, layout_);
          break;
        case McCorrection::external:
          device.template collide<McCorrection::external>(exec_, pass, layout_);
          break;
      }
    }
    if (mode != McCorrection::external) return;
    const Phase phase("BoltCorrection", device_work(exec_));  // the host's PETSc solve, applied
    solve_external(out, vel, cells, count);
  }

 private:
  static McConfig engine_config(const OperatorSetup& setup, const McModel& model) {
    McConfig c;
    c.backend = setup.backend;
    c.velocities = *setup.velocities;
    c.delta = setup.gas.delta;
    c.omega = setup.gas.omega;
    c.dt = setup.dt;
    c.options = model.options();
    c.team_size = setup.team_size;
    return c;
  }

  // The fluxes of Phi0 through a face of (axis, side), outward, with the weights the kernels
  // sum with (flux_of_f): once per face, as it does not depend on the position along it.
  std::array<double, 5> phi0_face_flux(int axis, int side) const {
    const double sign = side == 0 ? -1.0 : 1.0;
    std::array<double, 5> phi0{0, 0, 0, 0, 0};
    for (int v = 0; v < nv_; ++v) {
      const double xn = sign * xi_[axis][v], n = number_host_[v] * xn;
      phi0[0] += n;
      for (int a = 0; a < 3; ++a) phi0[1 + a] += n * xi_[a][v];
      phi0[4] += n * (xi_[0][v] * xi_[0][v] + xi_[1][v] * xi_[1][v] + xi_[2][v] * xi_[2][v]);
    }
    return phi0;
  }

  // Record (and correction system) buffers for `count` cells.
  void reserve(std::int64_t count) {
    if (std::int64_t(record_.size()) >= count * kMcRecord) return;
    record_ = Buffer<double>(where_, std::size_t(count) * kMcRecord);
    record_.set_zero();
    record_on_host_pinned_ = PinnedHostRange();  // before its range is freed
    record_on_host_.assign(record_.size(), 0.0);
    record_on_host_pinned_ = PinnedHostRange(where_, record_on_host_.data(),
                                             record_on_host_.size() * sizeof(double));
    if (config_.options.correction == McCorrection::external)
      system_ = Buffer<double>(where_, std::size_t(count) * kMcSystem);
  }

  // Draws the samples of `step` and builds their gather plan on a second stream, after the work
  // issued so far (the collision two steps back read the same set) and beside what the engine
  // issues next; pass() waits for it. Each pass prepares the next one beside its collision,
  // so the call before the ghost fills finds the step prepared unless it is the first (beside
  // the fills alone, the plan's small kernels would lengthen the step).
  void prepare(std::uint32_t step) {
    if (is_prepared_ && prepared_ == step) return;
    side_.fork(exec_);
    device_of(step).draw(side_.exec(), step);
    prepared_ = step;
    is_prepared_ = true;
  }

  // PETSc on the host: download the systems, solve, upload y, apply. One sequential BAIJ matrix
  // per box: the systems of a box are its own, and ranks own different numbers of boxes (a
  // collective over the ranks per box would not pair up).
  void solve_external(Real* h, const Velocities<Real>& vel, const CellIndexer& cells,
                      std::int64_t count) {
    if (!petsc_ || petsc_blocks_ != count) {
      petsc_ = std::make_unique<PetscBlockSolver5>(count, false);
      petsc_blocks_ = count;
    }
    const std::vector<double> systems = system_.to_host();
    std::vector<double> matrices(std::size_t(count) * 25), rhs(std::size_t(count) * 5), y;
    for (std::int64_t c = 0; c < count; ++c)
      for (int k = 0; k < 25; ++k) {
        matrices[c * 25 + k] = systems[c * kMcSystem + k];
        if (k < 5) rhs[c * 5 + k] = systems[c * kMcSystem + 25 + k];
      }
    petsc_->solve(matrices, rhs, y);
    std::vector<double> record = record_.to_host();
    for (std::int64_t c = 0; c < count; ++c)
      for (int k = 0; k < 5; ++k) record[c * kMcRecord + k] = y[c * 5 + k];
    record_.upload(record);
    Buffer<double> correction(where_, y);
    McApplyCorrection<Real> apply{h, vel, correction.data(), cells, Real(config_.options.epsilon)};
    for_each_team<1>(exec_, count, config_.team_size, 0, apply, "mc_apply_correction");
  }

  McConfig config_;
  Backend where_;
  int nv_;
  std::int64_t cells_;
  Exec exec_{};
  decltype(side_stream_of(Exec{})) side_ = side_stream_of(exec_);  // prepare()
  std::uint32_t prepared_ = 0;
  bool is_prepared_ = false;
  // The samples and gather plan of even and odd steps: one step collides with its set while the
  // next one's is drawn and planned into the other (prepare).
  std::array<McDevice<Real, Exec>, 2> devices_;
  std::array<std::vector<double>, 3> xi_;
  std::vector<double> phi0_, number_host_, phi0_raw_;
  std::array<std::array<std::array<double, 5>, 2>, 3> phi0_flux_{};  // [axis][side]
  Buffer<Real> number_;
  Buffer<double> record_, system_;
  // The records' copy on the host for a monitor row's numbers (diagnostics), page-locked: the row
  // downloads them with the GPU idle, and a pageable copy is staged through the driver.
  mutable std::vector<double> record_on_host_;
  PinnedHostRange record_on_host_pinned_;
  McTeamLayout layout_;
  std::unique_ptr<PetscBlockSolver5> petsc_;
  std::int64_t petsc_blocks_ = 0;
};

}  // namespace bolt
