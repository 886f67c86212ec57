#pragma once
// McCollisionImpl<Real, Exec>: the one implementation of McCollisionOperator. The translation unit
// that instantiates it includes the matching launch header first (mc_collision_cpu.cpp,
// mc_collision_cuda.cu); nothing here names a backend.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/mc_collision.hpp"
#include "kernels/mc_samples.hpp"
#include "mc_collision.hpp"
#include "mc_device.hpp"
#include "petsc_block_solver.hpp"

namespace bolt {

template <class Real, class Exec>
class McCollisionImpl final : public McCollisionOperator {
 public:
  explicit McCollisionImpl(const McConfig& config)
      : config_(config),
        where_(config.backend),
        nv_(config.velocities.size()),
        device_(config.backend, config.velocities, sampling_config(config)) {
    for (int a = 0; a < 3; ++a) xi_[a] = Buffer<Real>(where_, convert(config.velocities.xi[a]));
    weight_ = Buffer<Real>(where_, convert(config.velocities.weight));
    layout_ = mc_team_layout(team_shared_memory(exec_), nv_, device_.g_samples(), sizeof(Real),
                             config.cells_per_team, config.rows_in_scratch, device_.strips(),
                             config.team_size);
    if (layout_.rows_in_scratch)
      device_.schedule_loads(layout_.cells_per_team * int(sizeof(Real)));
  }

  void draw(std::uint32_t step) override {
    device_.draw(exec_, step);
    last_ = device_.last_draw();
    all_.drawn += last_.drawn;
    all_.rejected += last_.rejected;
  }

  std::vector<McSampleHost> samples() const override { return device_.samples(); }
  void set_samples(const std::vector<McSampleHost>& host) override { device_.set_samples(host); }

  McSampleStats last_draw() const override { return last_; }
  McSampleStats all_draws() const override { return all_; }
  const std::vector<double>& records() const override { return records_; }
  double kappa() const override { return device_.kappa(); }
  std::vector<std::vector<int>> gather_lists() const override { return device_.gather_lists(); }

  std::vector<double> collide(const std::vector<double>& h) override {
    require(nv_ > 0 && h.size() % std::size_t(nv_) == 0, "collide: ", h.size(),
            " values are not whole rows of ", nv_, " velocities");
    const std::int64_t cells = std::int64_t(h.size() / nv_);
    Buffer<Real> in(where_, convert(h));
    Buffer<Real> out(where_, h.size());
    Buffer<double> record(where_, std::size_t(cells) * kMcRecord);
    switch (config_.correction) {
      case McCorrection::none:
        launch<McCorrection::none>(in, out, record, nullptr);
        break;
      case McCorrection::batched:
        launch<McCorrection::batched>(in, out, record, nullptr);
        break;
      case McCorrection::external: {
        Buffer<double> system(where_, std::size_t(cells) * kMcSystem);
        launch<McCorrection::external>(in, out, record, system.data());
        records_ = record.to_host();
        const std::vector<double> y = solve_on_host(system.to_host(), cells);
        for (std::int64_t c = 0; c < cells; ++c)
          for (int k = 0; k < 5; ++k) records_[c * kMcRecord + k] = y[c * 5 + k];
        Buffer<double> correction(where_, y);
        McApplyCorrection<Real> apply{out.data(), velocities(), correction.data(),
                                      contiguous(cells), Real(config_.epsilon)};
        for_each_team<1>(exec_, cells, config_.team_size, 0, apply, "mc_apply_correction");
        const std::vector<Real> result = out.to_host();
        return std::vector<double>(result.begin(), result.end());
      }
    }
    records_ = record.to_host();
    const std::vector<Real> result = out.to_host();
    return std::vector<double>(result.begin(), result.end());
  }

 private:
  template <class T>
  static std::vector<Real> convert(const std::vector<T>& values) {
    return std::vector<Real>(values.begin(), values.end());
  }

  Velocities<Real> velocities() const {
    return {xi_[0].data(), xi_[1].data(), xi_[2].data(), weight_.data(), nv_, nv_};  // packed rows
  }

  // Rows stored one after the other, no ghost cells.
  static CellIndexer contiguous(std::int64_t cells) {
    CellIndexer c{};
    c.n[0] = int(cells);
    c.n[1] = c.n[2] = 1;
    c.stride[0] = 1;
    c.stride[1] = c.stride[2] = cells;
    return c;
  }

  template <McCorrection Mode>
  void launch(const Buffer<Real>& in, Buffer<Real>& out, Buffer<double>& record, double* system) {
    const std::int64_t cells = std::int64_t(in.size() / nv_);
    device_.template collide<Mode>(
        exec_, {in.data(), out.data(), StreamTables<Real>{}, false, nv_, contiguous(cells),
                cells, layout_, Real(config_.epsilon), record.data(), system});
  }

  std::vector<double> solve_on_host(const std::vector<double>& systems, std::int64_t cells) {
    if (!petsc_ || petsc_blocks_ != cells) {
      petsc_ = std::make_unique<PetscBlockSolver5>(cells);
      petsc_blocks_ = cells;
    }
    std::vector<double> matrices(std::size_t(cells) * 25), rhs(std::size_t(cells) * 5), y;
    for (std::int64_t c = 0; c < cells; ++c) {
      std::copy_n(systems.begin() + c * kMcSystem, 25, matrices.begin() + c * 25);
      std::copy_n(systems.begin() + c * kMcSystem + 25, 5, rhs.begin() + c * 5);
    }
    petsc_->solve(matrices, rhs, y);
    return y;
  }

  McConfig config_;
  Backend where_;
  int nv_;
  Exec exec_{};
  McDevice<Real, Exec> device_;
  std::array<Buffer<Real>, 3> xi_;
  Buffer<Real> weight_;
  McTeamLayout layout_;
  McSampleStats last_, all_;
  std::vector<double> records_;
  std::unique_ptr<PetscBlockSolver5> petsc_;
  std::int64_t petsc_blocks_ = 0;
};

}  // namespace bolt
