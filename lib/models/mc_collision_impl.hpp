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
#include "petsc_block_solver.hpp"
#include "physics/collision_kernel.hpp"

namespace bolt {

template <class Real, class Exec>
class McCollisionImpl final : public McCollisionOperator {
 public:
  explicit McCollisionImpl(const McConfig& config)
      : config_(config), where_(config.backend), nv_(config.velocities.size()) {
    require(config.samples > 0, "-mc_samples ", config.samples, ": must be positive");
    require(config.dt > 0.0, "Monte Carlo collision: the time step ", config.dt,
            " must be positive");
    require(config.samples_per_team > 0 && config.team_size > 0,
            "Monte Carlo collision: team sizes must be positive");
    kappa_ = collision_prefactor(config.delta, config.omega);
    const McTables t = make_mc_tables(config.velocities);
    // The largest increment: W <= |xi_r| <= the box diagonal (hard spheres; VHS smaller) over
    // the smallest equilibrium number. It must stay far from overflow in Real.
    double diagonal2 = 0.0, largest_inverse = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double extent = t.faces[a].back() - t.faces[a].front();
      diagonal2 += extent * extent;
    }
    for (double x : t.inv_number_weight) largest_inverse = std::max(largest_inverse, x);
    const double largest = kappa_ * config.dt / config.samples * std::sqrt(diagonal2) *
                           largest_inverse;
    require(largest < 1e-6 * double(std::numeric_limits<Real>::max()),
            "Monte Carlo collision: increments up to ", largest, " in the far corners of the "
            "velocity box overflow ", sizeof(Real) == 4 ? "float" : "double",
            "; use a smaller box (-vgrid_half_width) or double precision");
    for (int a = 0; a < 3; ++a) {
      faces_[a] = Buffer<double>(where_, t.faces[a]);
      xi_[a] = Buffer<Real>(where_, convert(config.velocities.xi[a]));
    }
    weight_ = Buffer<Real>(where_, convert(config.velocities.weight));
    node_of_ = Buffer<int>(where_, t.node_of);
    number_weight_ = Buffer<double>(where_, t.number_weight);
    inv_number_weight_ = Buffer<double>(where_, t.inv_number_weight);
    samples_ = Buffer<McSample<Real>>(where_, std::size_t(config.samples));
    samples_.set_zero();
    chunks_ = (config.samples + config.samples_per_team - 1) / config.samples_per_team;
    rejected_ = Buffer<int>(where_, std::size_t(chunks_));
    scratch_rows_ = choose_scratch_rows();
  }

  void draw(std::uint32_t step) override {
    McSampleParams params;
    params.seed = config_.seed;
    params.step = step;
    params.samples = config_.samples;
    params.omega = config_.omega;
    params.scale = kappa_ * config_.dt / config_.samples;
    McSampler<Real> kernel{params, locator(), inv_number_weight_.data(), samples_.data(),
                           rejected_.data(), config_.samples_per_team};
    for_each_team<1>(exec_, chunks_, config_.team_size, 0, kernel, "mc_samples");
    const std::vector<int> rejected = rejected_.to_host();
    last_ = McSampleStats{config_.samples, 0};
    for (int r : rejected) last_.rejected += r;
    all_.drawn += last_.drawn;
    all_.rejected += last_.rejected;
  }

  std::vector<McSampleHost> samples() const override {
    const std::vector<McSample<Real>> device = samples_.to_host();
    std::vector<McSampleHost> host(device.size());
    for (std::size_t l = 0; l < device.size(); ++l)
      for (int r = 0; r < 4; ++r) {
        host[l].cell[r] = device[l].cell[r];
        host[l].coef[r] = double(device[l].coef[r]);
      }
    return host;
  }

  void set_samples(const std::vector<McSampleHost>& host) override {
    require(host.size() == std::size_t(config_.samples), "set_samples: ", host.size(),
            " samples, the operator draws ", config_.samples);
    std::vector<McSample<Real>> device(host.size());
    for (std::size_t l = 0; l < host.size(); ++l)
      for (int r = 0; r < 4; ++r) {
        require(host[l].cell[r] >= -1 && host[l].cell[r] < nv_, "set_samples: sample ", l,
                " names velocity ", host[l].cell[r]);
        device[l].cell[r] = host[l].cell[r];
        device[l].coef[r] = Real(host[l].coef[r]);
      }
    samples_.upload(device);
  }

  McSampleStats last_draw() const override { return last_; }
  McSampleStats all_draws() const override { return all_; }
  const std::vector<double>& records() const override { return records_; }
  double kappa() const override { return kappa_; }

  std::vector<double> collide(const std::vector<double>& h) override {
    require(nv_ > 0 && h.size() % std::size_t(nv_) == 0, "collide: ", h.size(),
            " values are not whole rows of ", nv_, " velocities");
    const std::int64_t cells = std::int64_t(h.size() / nv_);
    Buffer<Real> in(where_, convert(h));
    Buffer<Real> out(where_, h.size());
    Buffer<double> record(where_, std::size_t(cells) * kMcRecord);
    switch (config_.correction) {
      case McCorrection::none:
        launch<McCorrection::none>(in, out, record, nullptr, cells);
        break;
      case McCorrection::batched:
        launch<McCorrection::batched>(in, out, record, nullptr, cells);
        break;
      case McCorrection::external: {
        Buffer<double> system(where_, std::size_t(cells) * kMcSystem);
        launch<McCorrection::external>(in, out, record, system.data(), cells);
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
    return {xi_[0].data(), xi_[1].data(), xi_[2].data(), weight_.data(), nv_};
  }

  VelocityLocator locator() const {
    VelocityLocator l{};
    for (int a = 0; a < 3; ++a) {
      l.faces[a] = faces_[a].data();
      l.n[a] = int(faces_[a].size()) - 1;
    }
    l.node_of = node_of_.data();
    return l;
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

  // h~ and the accumulator in shared memory when both fit, else the accumulator alone, else
  // neither (the CPU has no team scratch: 0). 8 KiB stay for the reduction buffer.
  int choose_scratch_rows() const {
    const std::size_t available = shared_memory_per_team(exec_);
    const std::size_t row = std::size_t(nv_) * sizeof(Real), reserve = 8 * 1024;
    if (available == 0) return 0;  // no team scratch on this backend
    if (config_.scratch_rows >= 0) {
      require(config_.scratch_rows <= 2 && available >= config_.scratch_rows * row + reserve,
              "Monte Carlo collision: ", config_.scratch_rows, " rows of ", nv_,
              " velocities do not fit the ", available, " bytes of shared memory");
      return config_.scratch_rows;
    }
    if (available >= 2 * row + reserve) return 2;
    if (available >= row + reserve) return 1;
    return 0;
  }

  template <McCorrection Mode>
  void launch(const Buffer<Real>& in, Buffer<Real>& out, Buffer<double>& record, double* system,
              std::int64_t cells) {
    using Kernel = McCollision<Real, Mode>;
    Kernel kernel{in.data(),      out.data(),         velocities(),       number_weight_.data(),
                  samples_.data(), config_.samples,   contiguous(cells),  Real(config_.epsilon),
                  scratch_rows_,  record.data(),      system};
    const std::size_t scratch = std::size_t(scratch_rows_) * nv_ * sizeof(Real);
    for_each_team<Kernel::kSums>(exec_, cells, config_.team_size, scratch, kernel, "mc_collision");
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
  double kappa_ = 0.0;
  std::array<Buffer<double>, 3> faces_;
  std::array<Buffer<Real>, 3> xi_;
  Buffer<Real> weight_;
  Buffer<int> node_of_;
  Buffer<double> number_weight_, inv_number_weight_;
  Buffer<McSample<Real>> samples_;
  Buffer<int> rejected_;
  int chunks_ = 0;
  int scratch_rows_ = 0;
  McSampleStats last_, all_;
  std::vector<double> records_;
  std::unique_ptr<PetscBlockSolver5> petsc_;
  std::int64_t petsc_blocks_ = 0;
};

}  // namespace bolt
