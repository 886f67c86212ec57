#pragma once
// The pieces of -model_type hs_mc that the engine needs besides streaming and halos (paper 000):
// the state is the deviation h of f = Phi0 (1 + eps h), Phi0 = pi^(-3/2) exp(-|xi|^2).
//  * conversions f <-> h of the owned velocities (set_state / state keep speaking f);
//  * moments and face fluxes of f from sums of w Phi0 h (Eqs. 9-12): f-moments = Phi0-moments
//    + eps h-moments, the Phi0 part summed once on the host;
//  * boundary values in terms of h (Eqs. 13-15): the entering h of a diffuse wall is
//      h_g = (n_w Phi_w / Phi0 - 1) / eps = e_v + (B_h / A_w) r_v,
//      r_v = Phi_w / Phi0,  e_v = (A r_v / A_w - 1) / eps,
//    with B_h = sum_leaving w Phi0 |xi_n| h (WallOutflux on number weights), A = sum_entering
//    w Phi0 |xi_n|, A_w = sum_entering w Phi0 |xi_n| r_v. This is n_w = (A + eps B_h) / A_w: the
//    h flux through the wall is zero with the same discrete sums as the moments, and a wall at
//    rest at T0 leaves Phi0 (h = 0) exactly stationary (r_v = 1, e_v = 0). Paper Eq. 15 has the
//    continuum influx of Phi0 in place of A; on the grid this choice keeps h = 0 an exact
//    solution. r_v and e_v are computed from log(Phi_w / Phi0) with expm1: no cancellation for a
//    lid moving at 0.01 c0 and eps = 0.01.
//  * the step: samples of the step, then McCollision streams and collides every cell in one pass,
//    with the correction solved in the kernel or by PETSc on the host.
// Include after the backend's launch header (it launches kernels).
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "engine.hpp"
#include "kernels/macroscopic.hpp"
#include "kernels/mc_collision.hpp"
#include "models/mc_device.hpp"
#include "models/petsc_block_solver.hpp"

namespace bolt {

// Waves of collision teams (all multiprocessors busy) from which the plan's schedule is made:
// it takes as long as about 40 waves of the delta = 10 cavity's collision (1.5 ms on the H200,
// where one wave takes 37 us); a 48 x 48 cavity (4.4 waves) took 1.1-1.3 ms per step with it
// (its kernel set the pace), 0.27 ms without.
constexpr std::int64_t kMcScheduleWaves = 64;

template <class Real, class Exec>
class DeviationalModel {
 public:
  DeviationalModel(const EngineConfig& config, int nv, std::int64_t cells)
      : where_(config.backend),
        nv_(nv),
        cells_(cells),
        epsilon_(config.mc.epsilon),
        correction_(config.mc.correction),
        team_size_(config.team_size),
        devices_{McDevice<Real, Exec>(config.backend, config.velocities, sampling(config)),
                 McDevice<Real, Exec>(config.backend, config.velocities, sampling(config))} {
    const VelocityGrid& vg = config.velocities;
    require(nv == vg.size(), "-model_type hs_mc: every velocity of a cell on one rank");
    require(epsilon_ > 0.0, "-mc_epsilon ", epsilon_, ": must be positive");
    for (int a = 0; a < 3; ++a) xi_[a] = vg.xi[a];
    const double pi = 3.14159265358979323846;
    phi0_.resize(nv);
    std::vector<Real> number(nv);
    for (int v = 0; v < nv; ++v) {
      const double x = vg.xi[0][v], y = vg.xi[1][v], z = vg.xi[2][v];
      phi0_[v] = std::exp(-(x * x + y * y + z * z)) / (pi * std::sqrt(pi));
      number[v] = Real(devices_[0].tables().number_weight[v]);
      number_host_.push_back(double(number[v]));  // the weights the kernels sum with
    }
    number_ = Buffer<Real>(where_, number);
    // Raw moments of Phi0 itself with the same weights (kernels/macroscopic.hpp order).
    phi0_raw_.assign(kRawMoments, 0.0);
    for (int v = 0; v < nv; ++v) {
      const double x = vg.xi[0][v], y = vg.xi[1][v], z = vg.xi[2][v], n = number_host_[v];
      const double xi2 = x * x + y * y + z * z;
      const double m[kRawMoments] = {1,     x,     y,     z,       x * x,   y * y,  z * z,
                                     x * y, x * z, y * z, x * xi2, y * xi2, z * xi2};
      for (int k = 0; k < kRawMoments; ++k) phi0_raw_[k] += n * m[k];
    }
    record_ = Buffer<double>(where_, std::size_t(cells) * kMcRecord);
    record_.set_zero();
    if (correction_ == McCorrection::external)
      system_ = Buffer<double>(where_, std::size_t(cells) * kMcSystem);
    layout_ = mc_team_layout(team_shared_memory(exec_), nv, devices_[0].g_samples(), sizeof(Real),
                             config.mc.cells_per_team, -1, devices_[0].strips(),
                             config.mc.team_size);
    // The schedule of the gather's loads (McEntrySchedule) runs beside the collision of the step
    // before; it pays where that collision is longer (kMcScheduleWaves).
    const std::int64_t teams = (cells + layout_.cells_per_team - 1) / layout_.cells_per_team;
    const int per_processor = layout_.team_threads > 0 ? 1024 / layout_.team_threads : 1;
    const std::int64_t at_once = std::int64_t(multiprocessors(exec_)) * per_processor;
    if (layout_.rows_in_scratch && teams >= kMcScheduleWaves * at_once)
      for (auto& device : devices_)
        device.schedule_loads(layout_.cells_per_team * int(sizeof(Real)));
  }

  Real h_of(double f, int v) const { return Real((f / phi0_[v] - 1.0) / epsilon_); }
  double f_of(Real h, int v) const { return phi0_[v] * (1.0 + epsilon_ * double(h)); }

  // The velocity view whose weights are w Phi0: sums of h with it are the h-moments.
  Velocities<Real> number_view(const Velocities<Real>& vel) const {
    Velocities<Real> n = vel;
    n.w = number_.data();
    return n;
  }

  // f raw moments of one cell from its h raw moments (in place).
  void raw_of_f(double* raw) const {
    for (int k = 0; k < kRawMoments; ++k) raw[k] = phi0_raw_[k] + epsilon_ * raw[k];
  }

  // f fluxes through a face (5 values) from the h fluxes: the Phi0 part has face value Phi0 on
  // both sides.
  void flux_of_f(int axis, int side, double* flux) const {
    const double sign = side == 0 ? -1.0 : 1.0;
    double phi0[5] = {0, 0, 0, 0, 0};
    for (int v = 0; v < nv_; ++v) {
      const double xn = sign * xi_[axis][v], n = number_host_[v] * xn;
      phi0[0] += n;
      for (int a = 0; a < 3; ++a) phi0[1 + a] += n * xi_[a][v];
      phi0[4] += n * (xi_[0][v] * xi_[0][v] + xi_[1][v] * xi_[1][v] + xi_[2][v] * xi_[2][v]);
    }
    for (int k = 0; k < 5; ++k) flux[k] = phi0[k] + epsilon_ * flux[k];
  }

  // Ghost values of a boundary face in terms of h (see the header).
  struct FaceValues {
    std::vector<Real> equilibrium, offset;  // wall: r_v, e_v; inflow: h of the inflow state
    double influx = 0.0;                    // wall: A_w
  };
  FaceValues face_values(const FaceSpec& spec, int axis, int side) const {
    FaceValues out;
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
      for (int v = 0; v < nv_; ++v) out.equilibrium[v] = Real(std::expm1(log_ratio[v]) / epsilon_);
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
      out.offset[v] = Real(std::expm1(std::log(A / Aw) + log_ratio[v]) / epsilon_);
    }
    return out;
  }

  // Draws the samples of `step` and builds their gather plan on a second stream, after the work
  // issued so far (the collision two steps back read the same set) and beside what the engine
  // issues next; step() waits for it. Each step() prepares the next one beside its collision,
  // so the engine's call before the ghost fills finds the step prepared unless it is the first
  // (the plan's small kernels took 2 % of the delta = 10 step on the H200, when they ran beside
  // the fills only).
  void prepare(std::uint32_t step) {
    if (is_prepared_ && prepared_ == step) return;
    side_.fork(exec_);
    device_of(step).draw(side_.exec(), step);
    prepared_ = step;
    is_prepared_ = true;
  }

  // One step of every interior cell, streaming and collision in one pass: h (ghosts filled) ->
  // h_out.
  void step(std::uint32_t step, const Real* h, Real* h_out, const Velocities<Real>& vel,
            const StreamTables<Real>& stream, const CellIndexer& cells) {
    if (is_prepared_) side_.join(exec_);
    if (!is_prepared_ || prepared_ != step) device_of(step).draw(exec_, step);
    is_prepared_ = false;
    prepare(step + 1);  // beside this collision: the other set, which the last one read
    switch (correction_) {
      case McCorrection::none:
        launch<McCorrection::none>(step, h, h_out, vel.row, stream, cells);
        break;
      case McCorrection::batched:
        launch<McCorrection::batched>(step, h, h_out, vel.row, stream, cells);
        break;
      case McCorrection::external: {
        launch<McCorrection::external>(step, h, h_out, vel.row, stream, cells);
        solve_external(h_out, vel, cells);
        break;
      }
    }
  }

  // Monitor numbers: rejected fraction over all draws, the largest correction |(A, B, C)| and
  // the largest energy drift it removed in the last step (over this rank's cells).
  std::vector<std::pair<std::string, double>> diagnostics() const {
    const McCorrectionSummary s = summarize_records(record_.to_host(), epsilon_);
    McSampleStats drawn{0, 0};
    for (const auto& device : devices_) {
      const McSampleStats draws = device.all_draws();
      drawn.drawn += draws.drawn;
      drawn.rejected += draws.rejected;
    }
    return {{"mc_rejected", drawn.fraction()},
            {"mc_abc", s.max_abc},
            {"mc_energy_drift", epsilon_ * s.max_drift[2]}};
  }

 private:
  static McSamplingConfig sampling(const EngineConfig& c) {
    McSamplingConfig s;
    s.delta = c.relaxation.delta;
    s.omega = c.relaxation.omega;
    s.dt = c.relaxation.dt;
    s.samples = c.mc.samples;
    s.seed = c.mc.seed;
    s.team_size = c.team_size;
    s.expected_self_loss = c.mc.expected_self_loss;
    s.temperature = c.mc.sampling_temperature;
    return s;
  }

  template <McCorrection Mode>
  void launch(std::uint32_t step, const Real* in, Real* out, int row,
              const StreamTables<Real>& stream, const CellIndexer& cells) {
    double* system = Mode == McCorrection::external ? system_.data() : nullptr;
    device_of(step).template collide<Mode>(exec_, {in, out, stream, true, row, cells, cells_,
                                                   layout_, Real(epsilon_), record_.data(),
                                                   system});
  }

  // PETSc on the host: download the systems, solve, upload y, apply. One sequential BAIJ matrix
  // per box: the systems of a box are its own, and ranks own different numbers of boxes (a
  // collective over the ranks per box would not pair up).
  void solve_external(Real* h, const Velocities<Real>& vel, const CellIndexer& cells) {
    if (!petsc_) petsc_ = std::make_unique<PetscBlockSolver5>(cells_, false);
    const std::vector<double> systems = system_.to_host();
    std::vector<double> matrices(std::size_t(cells_) * 25), rhs(std::size_t(cells_) * 5), y;
    for (std::int64_t c = 0; c < cells_; ++c)
      for (int k = 0; k < 25; ++k) {
        matrices[c * 25 + k] = systems[c * kMcSystem + k];
        if (k < 5) rhs[c * 5 + k] = systems[c * kMcSystem + 25 + k];
      }
    petsc_->solve(matrices, rhs, y);
    std::vector<double> record = record_.to_host();
    for (std::int64_t c = 0; c < cells_; ++c)
      for (int k = 0; k < 5; ++k) record[c * kMcRecord + k] = y[c * 5 + k];
    record_.upload(record);
    Buffer<double> correction(where_, y);
    McApplyCorrection<Real> apply{h, vel, correction.data(), cells, Real(epsilon_)};
    for_each_team<1>(exec_, cells_, team_size_, 0, apply, "mc_apply_correction");
  }

  Backend where_;
  int nv_;
  std::int64_t cells_;
  double epsilon_;
  McCorrection correction_;
  int team_size_;
  Exec exec_{};
  decltype(side_stream_of(Exec{})) side_ = side_stream_of(exec_);  // prepare()
  std::uint32_t prepared_ = 0;
  bool is_prepared_ = false;
  // The samples and gather plan of even and odd steps: one step collides with its set while the
  // next one's is drawn and planned into the other (prepare).
  std::array<McDevice<Real, Exec>, 2> devices_;
  McDevice<Real, Exec>& device_of(std::uint32_t step) { return devices_[step % 2]; }
  std::array<std::vector<double>, 3> xi_;
  std::vector<double> phi0_, number_host_, phi0_raw_;
  Buffer<Real> number_;
  Buffer<double> record_, system_;
  McTeamLayout layout_;
  std::unique_ptr<PetscBlockSolver5> petsc_;
};

}  // namespace bolt
