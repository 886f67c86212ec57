#pragma once
// ExplicitEngine<Real, Exec>: the one implementation of Engine. Exec is CpuExec or CudaExec; the
// translation unit that instantiates it includes the matching launch header first
// (engine_cpu.cpp, engine_cuda.cu). Nothing here names a backend.
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "engine.hpp"
#include "kernels/boundary_fill.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/fused_step.hpp"
#include "kernels/halo.hpp"
#include "kernels/maxwellian.hpp"
#include "kernels/relaxation.hpp"
#include "deviational_model.hpp"
#include "stream_tables.hpp"

namespace bolt {

template <class Real, class Exec>
class ExplicitEngine final : public Engine {
 public:
  explicit ExplicitEngine(const EngineConfig& config)
      : config_(config),
        where_(config.backend),
        v0_(config.velocity_lo),
        nv_(config.velocity_count > 0 ? config.velocity_count : config.velocities.size()),
        split_(nv_ < config.velocities.size()) {
    const PhysicalGrid& grid = config.grid;
    const VelocityGrid& vg = config.velocities;
    require(v0_ >= 0 && v0_ + nv_ <= vg.size(), "engine: velocities [", v0_, ", +", nv_,
            ") outside the grid of ", vg.size());
    for (int a = 0; a < 3; ++a) xi_[a] = Buffer<Real>(where_, owned(vg.xi[a]));
    weight_ = Buffer<Real>(where_, owned(vg.weight));
    const std::size_t size = std::size_t(grid.padded_cells()) * nv_;
    f_[0] = Buffer<Real>(where_, size);
    f_[1] = Buffer<Real>(where_, size);
    f_[0].set_zero();
    f_[1].set_zero();

    const HostStreamTables t = make_stream_tables(grid, vg, config.relaxation.dt);
    require(t.max_shift + config.order <= grid.ghost, "time step: Courant number needs ",
            t.max_shift + config.order, " ghost layers, the grid has ", grid.ghost);
    std::vector<int> shift_elements(nv_);
    for (int v = 0; v < nv_; ++v) {
      const std::int64_t elements = std::int64_t(t.shift[v0_ + v]) * nv_;
      require(std::abs(elements) < (std::int64_t(1) << 31), "time step: whole-cell shift of ",
              t.shift[v], " cells is too far for the 32-bit offsets; lower -ts_max_courant");
      shift_elements[v] = static_cast<int>(elements);
    }
    shift_ = Buffer<int>(where_, shift_elements);
    std::vector<signed char> step(3 * nv_);
    std::vector<Real> fraction(3 * nv_);
    for (int d = 0; d < 3; ++d)
      for (int v = 0; v < nv_; ++v) {
        step[d * nv_ + v] = t.step[d * vg.size() + v0_ + v];
        fraction[d * nv_ + v] = Real(t.fraction[d * vg.size() + v0_ + v]);
      }
    step_ = Buffer<signed char>(where_, step);
    fraction_ = Buffer<Real>(where_, fraction);
    for (int d = 0; d < 3; ++d) scale_[d] = Buffer<Real>(where_, convert(t.scale[d]));

    if (config.model == ModelKind::hs_mc) {
      require(!split_, "-model_type hs_mc: every velocity of a cell must be on one rank "
              "(use -decomp space)");
      require(config.splitting == Splitting::lie, "-ts_splitting strang: hs_mc streams, then "
              "collides (paper 000); use lie");
      mc_ = std::make_unique<DeviationalModel<Real, Exec>>(config, nv_, grid.interior_cells());
      h_tilde_ = Buffer<Real>(where_, size);
      h_tilde_.set_zero();
    }

    bool exchanges = false;
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        if (!grid.active[a]) continue;
        if (config.neighbour[a][s] >= 0) {
          setup_halo(a, s);
          exchanges = true;
        } else {
          setup_face(a, s);
        }
      }
    require(!(exchanges || split_) || config.communicator, "engine: no communicator for a ",
            "decomposed run");
    if (split_) {
      require(config.relaxation.conservative_iterations == 0, "-model_conservative: the ",
              "conservative equilibrium needs every velocity of a cell; not available with the ",
              "velocities split over ranks (use -decomp space)");
      sums_ = Buffer<double>(where_, std::size_t(grid.interior_cells()) * kRawMoments);
    }
    raw_ = Buffer<double>(where_, std::size_t(grid.interior_cells()) * kRawMoments);
    scratch_bytes_ = row_scratch_bytes();
  }

  void set_state(const std::vector<double>& f) override {
    const PhysicalGrid& grid = config_.grid;
    require(f.size() == std::size_t(grid.interior_cells()) * nv_, "state size ", f.size(),
            " does not match the grid (", grid.interior_cells(), " cells x ", nv_, " velocities)");
    std::vector<Real> padded(std::size_t(grid.padded_cells()) * nv_, Real(0));
    const std::int64_t cells = grid.interior_cells();
#pragma omp parallel for schedule(static)
    for (std::int64_t item = 0; item < cells; ++item) {
      const std::int64_t p = padded_index(item);
      for (int v = 0; v < nv_; ++v)
        padded[p * nv_ + v] = mc_ ? mc_->h_of(f[item * nv_ + v], v) : Real(f[item * nv_ + v]);
    }
    f_[current_].upload(padded);
  }

  std::vector<double> state() const override {
    const PhysicalGrid& grid = config_.grid;
    const std::vector<Real> padded = f_[current_].to_host();
    std::vector<double> f(std::size_t(grid.interior_cells()) * nv_);
    const std::int64_t cells = grid.interior_cells();
#pragma omp parallel for schedule(static)
    for (std::int64_t item = 0; item < cells; ++item) {
      const std::int64_t p = padded_index(item);
      for (int v = 0; v < nv_; ++v)
        f[item * nv_ + v] = mc_ ? mc_->f_of(padded[p * nv_ + v], v) : padded[p * nv_ + v];
    }
    return f;
  }

  void step(int count) override {
    switch (config_.model) {
      case ModelKind::bgk: run<ModelKind::bgk>(count); break;
      case ModelKind::shakhov: run<ModelKind::shakhov>(count); break;
      case ModelKind::esbgk: run<ModelKind::esbgk>(count); break;
      case ModelKind::hs_mc: run_monte_carlo(count); break;
    }
  }

  std::vector<std::pair<std::string, double>> model_diagnostics() override {
    return mc_ ? mc_->diagnostics() : std::vector<std::pair<std::string, double>>{};
  }

  void set_step(std::int64_t step) override { step_count_ = step; }

  std::vector<double> fields() override {
    CellRawMoments<Real> kernel{f_[current_].data(), raw_.data(), moment_view(), indexer()};
    for_each_team<kRawMoments>(exec_, config_.grid.interior_cells(), config_.team_size, 0, kernel,
                               "cell_moments");
    if (split_) config_.communicator->sum_over_velocity_group(raw_.data(), raw_.size());
    std::vector<double> raw = raw_.to_host();
    std::vector<double> fields(std::size_t(config_.grid.interior_cells()) * kFieldCount);
    for (std::int64_t c = 0; c < config_.grid.interior_cells(); ++c) {
      if (mc_) mc_->raw_of_f(raw.data() + c * kRawMoments);  // h moments -> f moments
      fields_from_raw(raw.data() + c * kRawMoments, fields.data() + c * kFieldCount);
    }
    return fields;
  }

  std::vector<double> face_fluxes(int axis, int side) override {
    fill_boundaries();
    const FaceGeometry face = geometry(axis, side);
    Buffer<double> out(where_, std::size_t(face.transverse_count()) * 5);
    FaceFluxes<Real> kernel{f_[current_].data(), moment_view(), face, out.data()};
    for_each_team<5>(exec_, face.transverse_count(), config_.team_size, 0, kernel, "face_fluxes");
    if (split_) config_.communicator->sum_over_velocity_group(out.data(), out.size());
    std::vector<double> all = out.to_host();
    if (mc_)
      for (std::size_t t = 0; t + 5 <= all.size(); t += 5) mc_->flux_of_f(axis, side, all.data() + t);
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
    double influx = 0.0;          // over every velocity of the run
    Buffer<double> outflux;       // walls: [transverse]
    Buffer<Real> offset;          // walls of hs_mc: e_v (deviational_model.hpp)
  };

  // A face whose ghosts come from the neighbouring rank.
  struct Halo {
    FaceGeometry geometry;
    int peer = -1;
    Buffer<Real> send, receive;   // [transverse][layer][v]
  };

  template <class T>
  static std::vector<Real> convert(const std::vector<T>& values) {
    return std::vector<Real>(values.begin(), values.end());
  }

  // The entries of a per-velocity table that belong to this engine's velocities.
  template <class T>
  std::vector<Real> owned(const std::vector<T>& values) const {
    return std::vector<Real>(values.begin() + v0_, values.begin() + v0_ + nv_);
  }

  // Padded index of interior cell `item` (x fastest).
  std::int64_t padded_index(std::int64_t item) const {
    const PhysicalGrid& grid = config_.grid;
    const int i = static_cast<int>(item % grid.cells(0));
    const int j = static_cast<int>(item / grid.cells(0) % grid.cells(1));
    const int k = static_cast<int>(item / grid.cells(0) / grid.cells(1));
    return grid.padded_index(i, j, k);
  }

  Velocities<Real> velocities() const {
    return {xi_[0].data(), xi_[1].data(), xi_[2].data(), weight_.data(), nv_};
  }

  // The weights moments and fluxes are summed with: w for f, w Phi0 for h (hs_mc).
  Velocities<Real> moment_view() const { return mc_ ? mc_->number_view(velocities()) : velocities(); }

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
    if (needs_reflect) {
      require(vg.symmetric(axis), "specular reflection on axis ", "xyz"[axis],
              ": the velocity grid must be symmetric about zero on that axis");
      require(!split_, "-bc_", "xyz"[axis], side == 0 ? "_low" : "_high", ": specular ",
              "reflection needs the mirrored velocities, which live on other ranks when the ",
              "velocities are split; use -decomp space");
    }
    std::vector<int> reflect(nv_, 0);
    if (needs_reflect) reflect = vg.reflect[axis];
    face.reflect = Buffer<int>(where_, reflect);
    std::vector<double> equilibrium(vg.size(), 0.0);
    const double n = spec.kind == FaceKind::wall ? 1.0 : spec.density;
    const double prefactor = maxwellian_prefactor(n, spec.temperature);
    const double outward = side == 0 ? -1.0 : 1.0;
    for (int v = 0; v < vg.size(); ++v) {
      equilibrium[v] = maxwellian<double>(prefactor, 1.0 / spec.temperature, spec.velocity,
                                          vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]);
      const double xn = outward * vg.xi[axis][v];
      if (xn < 0.0) face.influx += vg.weight[v] * (-xn) * equilibrium[v];
    }
    face.equilibrium = Buffer<Real>(where_, owned(equilibrium));
    if (mc_) {
      const auto values = mc_->face_values(spec, axis, side);
      face.equilibrium = Buffer<Real>(where_, values.equilibrium);
      face.offset = Buffer<Real>(where_, values.offset);
      face.influx = values.influx;
    }
    if (spec.kind == FaceKind::wall)
      face.outflux = Buffer<double>(where_, face.geometry.transverse_count());
  }

  void setup_halo(int axis, int side) {
    Halo& halo = halos_[axis][side];
    halo.geometry = geometry(axis, side);
    halo.peer = config_.neighbour[axis][side];
    const std::size_t size =
        std::size_t(halo.geometry.transverse_count()) * halo.geometry.ghost * nv_;
    halo.send = Buffer<Real>(where_, size);
    halo.receive = Buffer<Real>(where_, size);
  }

  void copy_halo(Halo& halo, Buffer<Real>& buffer, bool unpack) {
    HaloCopy<Real> kernel{f_[current_].data(), buffer.data(), halo.geometry, nv_, unpack};
    for_each_team<1>(exec_, std::int64_t(halo.geometry.transverse_count()) * halo.geometry.ghost,
                     config_.team_size, 0, kernel, unpack ? "halo_unpack" : "halo_pack");
  }

  // Ghosts of faces shared with other ranks: pack, send and receive, unpack. Per axis and
  // side s, this rank sends its side-s layers to neighbour[s] and receives the ghosts of side
  // 1 - s from neighbour[1 - s]; the neighbour lists the same pair in the same order, so the
  // messages match also when both neighbours are one rank (a periodic axis split in two).
  void exchange_halos() {
    std::vector<Message> sends, receives;
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        Halo& out = halos_[a][s];
        Halo& in = halos_[a][1 - s];
        if (out.peer < 0 && in.peer < 0) continue;
        const int tag = 2 * a + s;
        if (out.peer >= 0) {
          copy_halo(out, out.send, false);
          sends.push_back({out.peer, out.send.data(), out.send.size() * sizeof(Real), tag});
        }
        if (in.peer >= 0)
          receives.push_back({in.peer, in.receive.data(), in.receive.size() * sizeof(Real), tag});
      }
    if (sends.empty() && receives.empty()) return;
    // CPU kernels return when done; NCCL is ordered on the stream after the pack kernels.
    config_.communicator->exchange(sends, receives);
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        if (halos_[a][s].peer >= 0) copy_halo(halos_[a][s], halos_[a][s].receive, true);
  }

  // Ghosts of the faces on the domain boundary (collective over the velocity group: the wall
  // flux is summed over it).
  void fill_boundaries() {
    for (int a = 0; a < 3; ++a) {
      if (!config_.grid.active[a]) continue;
      for (int s = 0; s < 2; ++s) {
        if (halos_[a][s].peer >= 0) continue;
        Face& face = faces_[a][s];
        if (face.spec.kind == FaceKind::wall) {
          WallOutflux<Real> flux{f_[current_].data(), moment_view(), face.geometry,
                                 face.outflux.data()};
          for_each_team<1>(exec_, face.geometry.transverse_count(), config_.team_size, 0, flux,
                           "wall_outflux");
          if (split_)
            config_.communicator->sum_over_velocity_group(face.outflux.data(), face.outflux.size());
        }
        BoundaryFill<Real> kernel{f_[current_].data(),    velocities(),
                                  face.geometry,           face.spec.kind,
                                  face.equilibrium.data(), face.reflect.data(),
                                  face.spec.accommodation, face.influx,
                                  face.outflux.data(),     mc_ ? face.offset.data() : nullptr};
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
    if constexpr (!Conservative) {
      if (split_) {
        const std::int64_t cells = config_.grid.interior_cells();
        StreamAndSum<Real, Relax, Stream> first{f_[current_].data(), destination, sums_.data(),
                                                velocities(), stream_tables(), indexer(), relax};
        for_each_team<Relax::kSums>(exec_, cells, config_.team_size, 0, first,
                                    Stream ? "stream_and_sum" : "sum");
        config_.communicator->sum_over_velocity_group(sums_.data(), cells * Relax::kSums);
        RelaxSummed<Real, Relax> second{destination, sums_.data(), velocities(), indexer(), relax};
        for_each_team<Relax::kSums>(exec_, cells, config_.team_size, 0, second, "relax_summed");
        return;
      }
    }
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

  void fill_ghosts() {
    fill_boundaries();
    exchange_halos();
  }

  template <ModelKind Kind>
  void run(int count) {
    const double dt = config_.relaxation.dt;
    for (int n = 0; n < count; ++n) {
      if (config_.splitting == Splitting::strang) {
        pass<Kind, false>(0.5 * dt, f_[current_].data());  // in place: each row is its own
        fill_ghosts();
        pass<Kind, true>(0.5 * dt, f_[1 - current_].data());
      } else {
        fill_ghosts();
        pass<Kind, true>(dt, f_[1 - current_].data());
      }
      current_ = 1 - current_;
    }
  }

  // hs_mc (paper 000): stream h into h_tilde_, then collide every cell with the samples of the
  // step (keyed by the step number, so a restart continues the sample sequence).
  void run_monte_carlo(int count) {
    const std::int64_t cells = config_.grid.interior_cells();
    for (int n = 0; n < count; ++n) {
      fill_ghosts();
      StreamPass<Real> stream{f_[current_].data(), h_tilde_.data(), stream_tables(), indexer()};
      for_each_team<1>(exec_, cells, config_.team_size, 0, stream, "stream");
      mc_->collide(static_cast<std::uint32_t>(step_count_), h_tilde_.data(),
                   f_[1 - current_].data(), velocities(), indexer());
      ++step_count_;
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
  int v0_;       // first owned velocity
  int nv_;       // owned velocities
  bool split_;   // the velocities are split over ranks: moments are summed across them
  Exec exec_{};
  std::array<Buffer<Real>, 3> xi_;
  Buffer<Real> weight_;
  std::array<Buffer<Real>, 2> f_;
  int current_ = 0;
  std::size_t scratch_bytes_ = 0;
  Buffer<double> raw_;   // raw moments per cell (fields)
  Buffer<double> sums_;  // moment sums per cell between the halves of a split step
  Buffer<int> shift_;
  Buffer<signed char> step_;
  Buffer<Real> fraction_;
  std::array<Buffer<Real>, 3> scale_;
  std::array<std::array<Face, 2>, 3> faces_;
  std::array<std::array<Halo, 2>, 3> halos_;
  std::unique_ptr<DeviationalModel<Real, Exec>> mc_;  // hs_mc only
  Buffer<Real> h_tilde_;                             // hs_mc: post-streaming rows
  std::int64_t step_count_ = 0;                      // steps taken (keys the MC samples)
};

}  // namespace bolt
