#pragma once
// ExplicitEngine<Real, Exec>: the one implementation of Engine. Exec is CpuExec or CudaExec; the
// translation unit that instantiates it includes the matching launch header first
// (engine_cpu.cpp, engine_cuda.cu). Nothing here names a backend.
#include <array>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "engine.hpp"
#include "kernels/boundary_fill.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/fused_step.hpp"
#include "kernels/maxwellian.hpp"
#include "kernels/relaxation.hpp"
#include "stream_tables.hpp"

namespace bolt {

template <class Real, class Exec>
class ExplicitEngine final : public Engine {
 public:
  explicit ExplicitEngine(const EngineConfig& config)
      : config_(config), where_(config.backend), nv_(config.velocities.size()) {
    const PhysicalGrid& grid = config.grid;
    const VelocityGrid& vg = config.velocities;
    for (int a = 0; a < 3; ++a) xi_[a] = Buffer<Real>(where_, convert(vg.xi[a]));
    weight_ = Buffer<Real>(where_, convert(vg.weight));
    const std::size_t size = std::size_t(grid.padded_cells()) * nv_;
    f_[0] = Buffer<Real>(where_, size);
    f_[1] = Buffer<Real>(where_, size);
    f_[0].set_zero();
    f_[1].set_zero();
    fields_ = Buffer<double>(where_, std::size_t(grid.interior_cells()) * kFieldCount);

    const HostStreamTables t = make_stream_tables(grid, vg, config.relaxation.dt);
    require(t.max_shift + config.order <= grid.ghost, "time step: Courant number needs ",
            t.max_shift + config.order, " ghost layers, the grid has ", grid.ghost);
    std::vector<int> shift_elements(nv_);
    for (int v = 0; v < nv_; ++v) {
      const std::int64_t elements = std::int64_t(t.shift[v]) * nv_;
      require(std::abs(elements) < (std::int64_t(1) << 31), "time step: whole-cell shift of ",
              t.shift[v], " cells is too far for the 32-bit offsets; lower -ts_max_courant");
      shift_elements[v] = static_cast<int>(elements);
    }
    shift_ = Buffer<int>(where_, shift_elements);
    step_ = Buffer<signed char>(where_, t.step);
    fraction_ = Buffer<Real>(where_, convert(t.fraction));
    for (int d = 0; d < 3; ++d) scale_[d] = Buffer<Real>(where_, convert(t.scale[d]));

    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        if (grid.active[a]) setup_face(a, s);
    scratch_bytes_ = row_scratch_bytes();
  }

  void set_state(const std::vector<double>& f) override {
    const PhysicalGrid& grid = config_.grid;
    require(f.size() == std::size_t(grid.interior_cells()) * nv_, "state size ", f.size(),
            " does not match the grid (", grid.interior_cells(), " cells x ", nv_, " velocities)");
    std::vector<Real> padded(std::size_t(grid.padded_cells()) * nv_, Real(0));
    std::int64_t item = 0;
    for (int k = 0; k < grid.cells(2); ++k)
      for (int j = 0; j < grid.cells(1); ++j)
        for (int i = 0; i < grid.cells(0); ++i, ++item) {
          const std::int64_t p = grid.padded_index(i, j, k);
          for (int v = 0; v < nv_; ++v) padded[p * nv_ + v] = Real(f[item * nv_ + v]);
        }
    f_[current_].upload(padded);
  }

  std::vector<double> state() const override {
    const PhysicalGrid& grid = config_.grid;
    const std::vector<Real> padded = f_[current_].to_host();
    std::vector<double> f(std::size_t(grid.interior_cells()) * nv_);
    std::int64_t item = 0;
    for (int k = 0; k < grid.cells(2); ++k)
      for (int j = 0; j < grid.cells(1); ++j)
        for (int i = 0; i < grid.cells(0); ++i, ++item) {
          const std::int64_t p = grid.padded_index(i, j, k);
          for (int v = 0; v < nv_; ++v) f[item * nv_ + v] = padded[p * nv_ + v];
        }
    return f;
  }

  void step(int count) override {
    switch (config_.model) {
      case ModelKind::bgk: run<ModelKind::bgk>(count); break;
      case ModelKind::shakhov: run<ModelKind::shakhov>(count); break;
      case ModelKind::esbgk: run<ModelKind::esbgk>(count); break;
    }
  }

  std::vector<double> fields() override {
    CellMoments<Real> kernel{f_[current_].data(), fields_.data(), velocities(), indexer()};
    for_each_team<kRawMoments>(exec_, config_.grid.interior_cells(), config_.team_size, 0, kernel,
                               "cell_moments");
    return fields_.to_host();
  }

  std::vector<double> face_fluxes(int axis, int side) override {
    fill_boundaries();
    const FaceGeometry face = geometry(axis, side);
    Buffer<double> out(where_, std::size_t(face.transverse_count()) * 5);
    FaceFluxes<Real> kernel{f_[current_].data(), velocities(), face, out.data()};
    for_each_team<5>(exec_, face.transverse_count(), config_.team_size, 0, kernel, "face_fluxes");
    const std::vector<double> all = out.to_host();
    // Keep the interior positions of the face only.
    const PhysicalGrid& grid = config_.grid;
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    std::vector<double> interior;
    for (int i2 = 0; i2 < grid.cells(a2); ++i2)
      for (int i1 = 0; i1 < grid.cells(a1); ++i1) {
        const std::int64_t t = std::int64_t(i1 + grid.offset(a1)) +
                               std::int64_t(i2 + grid.offset(a2)) * grid.padded(a1);
        for (int k = 0; k < 5; ++k) interior.push_back(all[t * 5 + k]);
      }
    return interior;
  }

  void synchronize() override { bolt::synchronize(exec_); }

  double bytes_per_step() const override {
    return 2.0 * double(config_.grid.interior_cells()) * nv_ * sizeof(Real);
  }

 private:
  struct Face {
    FaceGeometry geometry;
    FaceSpec spec;
    Buffer<Real> equilibrium;
    Buffer<int> reflect;
    double influx = 0.0;
  };

  template <class T>
  static std::vector<Real> convert(const std::vector<T>& values) {
    return std::vector<Real>(values.begin(), values.end());
  }

  Velocities<Real> velocities() const {
    return {xi_[0].data(), xi_[1].data(), xi_[2].data(), weight_.data(), nv_};
  }

  CellIndexer indexer() const {
    const PhysicalGrid& grid = config_.grid;
    CellIndexer c{};
    const auto s = grid.strides();
    for (int a = 0; a < 3; ++a) {
      c.n[a] = grid.cells(a);
      c.offset[a] = grid.offset(a);
      c.stride[a] = s[a];
    }
    return c;
  }

  StreamTables<Real> stream_tables() const {
    StreamTables<Real> t{};
    t.shift = shift_.data();
    t.step = step_.data();
    t.fraction = fraction_.data();
    const auto s = config_.grid.strides();
    for (int d = 0; d < 3; ++d) {
      t.scale[d] = scale_[d].data();
      t.stride[d] = s[d] * nv_;
      t.active[d] = config_.grid.active[d];
    }
    t.nv = nv_;
    t.order = config_.order;
    t.limiter = config_.limiter;
    return t;
  }

  FaceGeometry geometry(int axis, int side) const {
    const PhysicalGrid& grid = config_.grid;
    FaceGeometry g{};
    g.axis = axis;
    g.side = side;
    g.interior = grid.cells(axis);
    g.ghost = grid.ghost;
    const auto s = grid.strides();
    for (int a = 0; a < 3; ++a) {
      g.extent[a] = grid.padded(a);
      g.stride[a] = s[a];
    }
    return g;
  }

  void setup_face(int axis, int side) {
    const VelocityGrid& vg = config_.velocities;
    Face& face = faces_[axis][side];
    face.geometry = geometry(axis, side);
    face.spec = config_.faces[axis][side];
    const FaceSpec& spec = face.spec;
    const bool needs_reflect = spec.kind == FaceKind::specular ||
                               (spec.kind == FaceKind::wall && spec.accommodation < 1.0);
    if (needs_reflect)
      require(vg.symmetric(axis), "specular reflection on axis ", "xyz"[axis],
              ": the velocity grid must be symmetric about zero on that axis");
    std::vector<int> reflect(nv_, 0);
    if (needs_reflect) reflect = vg.reflect[axis];
    face.reflect = Buffer<int>(where_, reflect);
    std::vector<double> equilibrium(nv_, 0.0);
    const double n = spec.kind == FaceKind::wall ? 1.0 : spec.density;
    const double prefactor = maxwellian_prefactor(n, spec.temperature);
    const double outward = side == 0 ? -1.0 : 1.0;
    for (int v = 0; v < nv_; ++v) {
      equilibrium[v] = maxwellian<double>(prefactor, 1.0 / spec.temperature, spec.velocity,
                                          vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]);
      const double xn = outward * vg.xi[axis][v];
      if (xn < 0.0) face.influx += vg.weight[v] * (-xn) * equilibrium[v];
    }
    face.equilibrium = Buffer<Real>(where_, convert(equilibrium));
  }

  void fill_boundaries() {
    for (int a = 0; a < 3; ++a) {
      if (!config_.grid.active[a]) continue;
      for (int s = 0; s < 2; ++s) {
        Face& face = faces_[a][s];
        BoundaryFill<Real> kernel{f_[current_].data(), velocities(), face.geometry,
                                  face.spec.kind, face.equilibrium.data(), face.reflect.data(),
                                  face.spec.accommodation, face.influx};
        for_each_team<1>(exec_, face.geometry.transverse_count(), config_.team_size, 0, kernel,
                         "boundary_fill");
      }
    }
  }

  template <ModelKind Kind, bool Stream, bool Conservative>
  void pass(double relax_dt, Real* destination) {
    using Relax = Relaxation<Real, Kind, Conservative>;
    Relax relax{config_.relaxation};
    relax.params.dt = relax_dt;
    FusedStep<Real, Relax, Stream> kernel{f_[current_].data(), destination, velocities(),
                                          stream_tables(), indexer(), relax};
    for_each_team<Relax::kReduceWidth>(exec_, config_.grid.interior_cells(), config_.team_size,
                                       scratch_bytes_, kernel, Stream ? "fused_step" : "relaxation");
  }

  template <ModelKind Kind, bool Stream>
  void pass(double relax_dt, Real* destination) {
    if (config_.relaxation.conservative_iterations > 0)
      pass<Kind, Stream, true>(relax_dt, destination);
    else
      pass<Kind, Stream, false>(relax_dt, destination);
  }

  template <ModelKind Kind>
  void run(int count) {
    const double dt = config_.relaxation.dt;
    for (int n = 0; n < count; ++n) {
      if (config_.splitting == Splitting::strang) {
        pass<Kind, false>(0.5 * dt, f_[current_].data());  // in place: each row is its own
        fill_boundaries();
        pass<Kind, true>(0.5 * dt, f_[1 - current_].data());
      } else {
        fill_boundaries();
        pass<Kind, true>(dt, f_[1 - current_].data());
      }
      current_ = 1 - current_;
    }
  }

  // The post-streaming row lives in shared memory on the GPU when it fits (with the reduction
  // buffer) in what the device allows a block; otherwise in the output row itself.
  std::size_t row_scratch_bytes() const {
    const std::size_t bytes = std::size_t(nv_) * sizeof(Real);
    return bytes + 16 * 1024 <= shared_memory_per_team(exec_) ? bytes : 0;
  }

  EngineConfig config_;
  Backend where_;
  int nv_;
  Exec exec_{};
  std::array<Buffer<Real>, 3> xi_;
  Buffer<Real> weight_;
  std::array<Buffer<Real>, 2> f_;
  int current_ = 0;
  std::size_t scratch_bytes_ = 0;
  Buffer<double> fields_;
  Buffer<int> shift_;
  Buffer<signed char> step_;
  Buffer<Real> fraction_;
  std::array<Buffer<Real>, 3> scale_;
  std::array<std::array<Face, 2>, 3> faces_;
};

}  // namespace bolt
