#pragma once
// McCollisionImpl<Real, Exec>: McCollisionOperator, the tests' handle on the Monte Carlo
// collision, over the engine's own driver McOperator (operator.hpp) -- rows of h without
// ghosts, collided without streaming. The translation unit that instantiates it includes the
// matching launch header first (collision_cpu.cpp, collision_cuda.cu).
#include <array>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "models/hs_mc/collision.hpp"
#include "models/hs_mc/operator.hpp"

namespace bolt {

template <class Real, class Exec>
class McCollisionImpl final : public McCollisionOperator {
 public:
  explicit McCollisionImpl(const McConfig& config)
      : where_(config.backend), nv_(config.velocities.size()), operator_(config, 0) {
    for (int a = 0; a < 3; ++a) xi_[a] = Buffer<Real>(where_, convert(config.velocities.xi[a]));
    weight_ = Buffer<Real>(where_, convert(config.velocities.weight));
  }

  void draw(std::uint32_t step) override {
    step_ = step;
    last_ = operator_.draw(step).last_draw();
    all_.drawn += last_.drawn;
    all_.rejected += last_.rejected;
  }

  std::vector<McSampleHost> samples() const override { return device().samples(); }
  void set_samples(const std::vector<McSampleHost>& host) override { device().set_samples(host); }

  McSampleStats last_draw() const override { return last_; }
  McSampleStats all_draws() const override { return all_; }
  const std::vector<double>& records() const override { return records_; }
  double kappa() const override { return device().kappa(); }
  std::vector<std::vector<int>> gather_lists() const override { return device().gather_lists(); }

  std::vector<double> collide(const std::vector<double>& h) override {
    require(nv_ > 0 && h.size() % std::size_t(nv_) == 0, "collide: ", h.size(),
            " values are not whole rows of ", nv_, " velocities");
    const std::int64_t cells = std::int64_t(h.size() / nv_);
    Buffer<Real> in(where_, convert(h));
    Buffer<Real> out(where_, h.size());
    operator_.collide(step_, in.data(), out.data(), velocities(), StreamTables<Real>{}, false,
                      contiguous(cells), cells);
    records_ = operator_.records();
    records_.resize(std::size_t(cells) * kMcRecord);
    const std::vector<Real> result = out.to_host();
    return std::vector<double>(result.begin(), result.end());
  }

 private:
  template <class T>
  static std::vector<Real> convert(const std::vector<T>& values) {
    return std::vector<Real>(values.begin(), values.end());
  }

  // The samples of the step drawn last (those of step 0 before any draw: all zero).
  const McDevice<Real, Exec>& device() const { return operator_.device_of(step_); }
  McDevice<Real, Exec>& device() { return operator_.device_of(step_); }

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

  Backend where_;
  int nv_;
  McOperator<Real, Exec> operator_;
  std::array<Buffer<Real>, 3> xi_;
  Buffer<Real> weight_;
  std::uint32_t step_ = 0;
  McSampleStats last_, all_;
  std::vector<double> records_;
};

}  // namespace bolt
