#pragma once
// ExplicitEngine<Real, Exec>: the one implementation of Engine. Exec is CpuExec or CudaExec; the
// translation unit that instantiates it includes the matching launch header first
// (engine_cpu.cpp, engine_cuda.cu). Nothing here names a backend or a collision model: the
// engine owns f, its ghosts, halos and streaming tables, and asks the run's collision operator
// (lib/models/collision_operator.hpp) for the rest.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/phase_events.hpp"
#include "solver/explicit/engine.hpp"
#include "kernels/boundary_fill.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/halo.hpp"
#include "models/model_operators.hpp"
#include "solver/explicit/stream_tables.hpp"

namespace bolt {

template <class Real, class Exec>
class ExplicitEngine final : public Engine {
 public:
  explicit ExplicitEngine(const EngineConfig& config)
      : config_(config),
        where_(config.backend),
        v0_(config.velocity_lo),
        nv_(config.velocity_count > 0 ? config.velocity_count : config.velocities.size()),
        row_(row_stride<Real>(nv_)),
        split_(nv_ < config.velocities.size()) {
    const PhysicalGrid& grid = config.grid;
    const VelocityGrid& vg = config.velocities;
    require(v0_ >= 0 && v0_ + nv_ <= vg.size(), "engine: velocities [", v0_, ", +", nv_,
            ") outside the grid of ", vg.size());
    require(grid.interior_cells() <= CellIndexer::kMaxIndexedCells, "-grid_n: a box of ",
            grid.interior_cells(), " cells; a rank's box may have at most ",
            CellIndexer::kMaxIndexedCells, " (split the grid over more ranks)");
    for (int a = 0; a < 3; ++a) xi_[a] = Buffer<Real>(where_, owned(vg.xi[a]));
    weight_ = Buffer<Real>(where_, owned(vg.weight));
    if (vg.is_reduced()) h_weight_ = Buffer<Real>(where_, owned(vg.h_weight));
    const std::size_t size = std::size_t(grid.padded_cells()) * row_;
    f_[0] = Buffer<Real>(where_, size);
    f_[1] = Buffer<Real>(where_, size);
    f_[0].set_zero();
    f_[1].set_zero();

    require(config.model != nullptr, "engine: no collision model");
    const std::string refusal = config.model->splitting_refusal(config.splitting);
    require(refusal.empty(), refusal);
    const std::string whole_rows = config.model->whole_rows_reason();
    require(!split_ || whole_rows.empty(), whole_rows, "; not available with the velocities split ",
            "over ranks (use -decomp space)");
    require(!split_ || config.communicator, "engine: no communicator for a decomposed run");
    OperatorSetup setup;
    setup.backend = config.backend;
    setup.model = config.model;
    setup.gas = config.gas;
    setup.dt = config.dt;
    setup.splitting = config.splitting;
    setup.velocities = &config_.velocities;
    setup.velocity_lo = v0_;
    setup.velocity_count = nv_;
    setup.cells = grid.interior_cells();
    setup.team_size = config.team_size;
    setup.team_size_chosen = config.team_size_chosen;
    if (split_)
      setup.sum_over_velocity_group = [communicator = config.communicator,
                                       wait = device_work(exec_)](double* values,
                                                                  std::size_t count) {
        const Phase phase("BoltMomentSums", wait);
        communicator->sum_over_velocity_group(values, count);
      };
    collision_ = make_collision_operator<Real, Exec>(setup);

    // A step streams in collision_->substeps() passes of dt / substeps each (Strang's halves).
    const HostStreamTables t =
        make_stream_tables(grid, vg, config.dt / collision_->substeps());
    require(t.max_shift + config.order <= grid.ghost, "time step: Courant number needs ",
            t.max_shift + config.order, " ghost layers, the grid has ", grid.ghost);
    std::vector<int> shift_elements(nv_);
    for (int v = 0; v < nv_; ++v) {
      const std::int64_t elements = std::int64_t(t.shift[v0_ + v]) * row_;
      require(std::abs(elements) < (std::int64_t(1) << 31), "time step: whole-cell shift of ",
              t.shift[v0_ + v], " cells is too far for the 32-bit offsets; lower -ts_max_courant");
      shift_elements[v] = static_cast<int>(elements);
    }
    shift_ = Buffer<int>(where_, shift_elements);
    // The kernels' tables (StreamTables) per streaming axis k: the active axes, compacted.
    const auto strides = grid.strides();
    for (int d = 0; d < 3; ++d)
      if (grid.active[d]) stream_axis_[stream_axes_++] = d;
    const std::size_t table_stride = std::size_t(stream_table_stride(nv_));
    std::vector<Real> signed_fraction(stream_axes_ * table_stride);
    for (int k = 0; k < stream_axes_; ++k) {
      const int d = stream_axis_[k];
      for (int v = 0; v < nv_; ++v) {
        const int host = d * vg.size() + v0_ + v;
        // The upwind step is -sign(xi): the fraction takes the sign of xi.
        const double fraction = t.fraction[host];
        signed_fraction[k * table_stride + v] =
            Real(t.step[host] < 0 ? fraction : (t.step[host] > 0 ? -fraction : 0.0));
        const std::int64_t offset =
            shift_elements[v] + std::int64_t(t.step[host]) * strides[d] * row_;
        require(std::abs(offset) < (std::int64_t(1) << 31) &&
                    strides[d] * row_ < (std::int64_t(1) << 31),
                "grid: a rank's padded ",
                "xyz"[d], " stride of ", strides[d], " cells x ", nv_,
                " velocities is too far for the 32-bit offsets of the streaming; run on more ranks "
                "with -decomp space");
      }
      scale_[k] = Buffer<Real>(where_, convert(t.scale[d]));
    }
    signed_fraction_ = Buffer<Real>(where_, signed_fraction);
    shifts_ = t.max_shift > 0;
    // The CPU's first-order loop by runs of velocities (the GPU loads per velocity); a shifted
    // velocity's neighbours move with its own shift, so no run has fixed upwind rows.
    if (where_ == Backend::cpu && !shifts_ && config.order == 1)
      sign_runs_ = Buffer<StreamRun>(
          where_, sign_runs(signed_fraction, stream_axes_, int(table_stride), nv_));

    bool exchanges = false;
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        if (!grid.active[a]) continue;
        if (config.segments[a][s].empty()) {
          // The whole face, one condition, over the padded face: the ghost columns of the other
          // axes too (corner ghosts, which diagonal whole-cell shifts read).
          FaceSegmentConfig whole;
          whole.spec = config.faces[a][s];
          setup_face(a, s, whole);
          continue;
        }
        for (const FaceSegmentConfig& segment : config.segments[a][s]) {
          if (segment.peer >= 0) {
            setup_halo(a, s, segment);
            exchanges = true;
          } else {
            setup_face(a, s, segment);
          }
        }
      }
    require(!exchanges || config.communicator, "engine: no communicator for a decomposed run");
    raw_ = Buffer<double>(where_, std::size_t(grid.interior_cells()) * kRawMoments);
    raw_on_host_.assign(raw_.size(), 0.0);
    raw_on_host_pinned_ =
        PinnedHostRange(where_, raw_on_host_.data(), raw_on_host_.size() * sizeof(double));
    split_regions();
  }

  void set_state(std::span<const double> f) override {
    const PhysicalGrid& grid = config_.grid;
    require(f.size() == std::size_t(grid.interior_cells()) * nv_, "state size ", f.size(),
            " does not match the grid (", grid.interior_cells(), " cells x ", nv_, " velocities)");
    set_state([&](std::int64_t cell, double* row) {
      std::copy_n(f.data() + cell * nv_, nv_, row);
    });
  }

  void set_state(const StateRows& rows) override { fill_state(rows, false); }

  void set_stored_state(std::span<const double> values) override {
    const PhysicalGrid& grid = config_.grid;
    require(values.size() == std::size_t(grid.interior_cells()) * nv_, "stored state size ",
            values.size(), " does not match the grid (", grid.interior_cells(), " cells x ", nv_,
            " velocities)");
    fill_state([&](std::int64_t cell, double* row) {
      std::copy_n(values.data() + cell * nv_, nv_, row);
    }, true);
  }

  // The stored state of each interior cell from `rows`: f converted by the operator, or
  // (`stored`) the stored values themselves.
  void fill_state(const StateRows& rows, bool stored) {
    const PhysicalGrid& grid = config_.grid;
    const std::int64_t padded_cells = grid.padded_cells();
    // On the host f itself is written; for the GPU a staging copy, not value-initialised: the
    // threads write every element (ghosts and row padding zero). A GPU-sized state is ~1e11
    // bytes, which one thread zeroing it first took a minute over.
    std::unique_ptr<Real[]> staging;
    Real* padded = f_[current_].data();
    if (where_ != Backend::cpu) {
      staging.reset(new Real[std::size_t(padded_cells) * row_]);
      padded = staging.get();
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t p = 0; p < padded_cells; ++p) std::fill_n(padded + p * row_, row_, Real(0));
    const std::int64_t cells = grid.interior_cells();
#pragma omp parallel
    {
      std::vector<double> row(nv_);
#pragma omp for schedule(static)
      for (std::int64_t item = 0; item < cells; ++item) {
        rows(item, row.data());
        Real* to = padded + padded_index(item) * row_;
        if (stored)
          for (int v = 0; v < nv_; ++v) to[v] = Real(row[v]);
        else
          collision_->stored_of_f(row.data(), to, 0, nv_);
      }
    }
    if (staging) f_[current_].upload(staging.get());
  }

  void copy_state(HostValues& f, HostValues* stored) const override {
    // The host's f is read where it is; a GPU's is copied once, into memory not zeroed first (a
    // vector would be, by one thread, before the copy).
    const Buffer<Real>& current = f_[current_];
    std::unique_ptr<Real[]> downloaded;
    const Real* padded = current.data();
    if (where_ != Backend::cpu) {
      downloaded.reset(new Real[current.size()]);
      copy_bytes(downloaded.get(), Backend::cpu, current.data(), where_,
                 current.size() * sizeof(Real));
      padded = downloaded.get();
    }
    const std::int64_t cells = config_.grid.interior_cells();
    f.resize(std::size_t(cells) * nv_);
    if (stored) stored->resize(f.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t item = 0; item < cells; ++item) {
      const Real* row = padded + padded_index(item) * row_;
      collision_->f_of_stored(row, f.data() + item * nv_, 0, nv_);
      if (stored) std::copy_n(row, nv_, stored->data() + item * nv_);
    }
  }

  // A box alone. Halo messages must be exchanged with those of every other box of the rank,
  // sorted by tag (Subdomains::step): a box with halo segments is stepped there.
  void step(int count) override {
    require(halos_.empty(), "engine: a box with halo segments steps through Subdomains");
    std::vector<Message> none_sent, none_received;
    for (int n = 0; n < count * substeps(); ++n) {
      begin_step(none_sent, none_received);
      end_step();
    }
  }

  // The operator names its own phases (streaming, relaxation, collision, samples); the engine
  // those of the ghosts.
  void begin_step(std::vector<Message>& sends, std::vector<Message>& receives) override {
    // In place (each row is its own): Strang's first half, a step's samples.
    collision_->begin_step(cell_pass(f_[current_].data(), whole()));
    {
      const Phase phase("BoltBoundaryFill", device_work(exec_));
      fill_boundaries();
    }
    if (halos_.empty()) return;
    const Phase phase("BoltHaloPack", device_work(exec_));
    for (Halo& halo : halos_) {
      copy_halo(halo, halo.send, false);
      sends.push_back({halo.peer, halo.send.data(), halo.send.size() * sizeof(Real), halo.send_tag});
      receives.push_back(
          {halo.peer, halo.receive.data(), halo.receive.size() * sizeof(Real), halo.receive_tag});
    }
  }

  void stream_interior() override {
    if (!collision_->passes_in_parts() || interior_.cells() == 0) return;
    collision_->pass(cell_pass(f_[1 - current_].data(), interior_));
    interior_done_ = true;
  }

  void end_step() override {
    if (!halos_.empty()) {
      const Phase phase("BoltHaloUnpack", device_work(exec_));
      for (Halo& halo : halos_) copy_halo(halo, halo.receive, true);
    }
    if (interior_done_) {
      std::int64_t first_cell = interior_.cells();
      for (const Region& region : shell_) {
        collision_->pass(cell_pass(f_[1 - current_].data(), region, first_cell));
        first_cell += region.cells();
      }
    } else {
      collision_->pass(cell_pass(f_[1 - current_].data(), whole()));
    }
    interior_done_ = false;
    current_ = 1 - current_;
    if (++substep_ == substeps()) {
      substep_ = 0;
      ++step_count_;
    }
  }

  int substeps() const override { return collision_->substeps(); }

  std::vector<std::pair<std::string, double>> model_diagnostics() override {
    return collision_->diagnostics();
  }

  void set_step(std::int64_t step) override { step_count_ = step; }

  std::vector<double> model_counters() override { return collision_->counters(); }
  void set_model_counters(const std::vector<double>& values) override {
    collision_->set_counters(values);
  }

  std::vector<double> fields() override {
    CellRawMoments<Real> kernel{f_[current_].data(), raw_.data(), moment_view(), indexer()};
    for_each_team<kRawMoments>(exec_, config_.grid.interior_cells(), config_.team_size, 0, kernel,
                               "cell_moments");
    if (split_) config_.communicator->sum_over_velocity_group(raw_.data(), raw_.size());
    double* raw = raw_on_host_.data();
    copy_bytes(raw, Backend::cpu, raw_.data(), where_, raw_.size() * sizeof(double));
    std::vector<double> fields(std::size_t(config_.grid.interior_cells()) * kFieldCount);
    for (std::int64_t c = 0; c < config_.grid.interior_cells(); ++c) {
      collision_->raw_of_f(raw + c * kRawMoments);
      fields_from_raw(raw + c * kRawMoments, fields.data() + c * kFieldCount);
    }
    return fields;
  }

  std::vector<double> face_fluxes(int axis, int side) override {
    fill_boundaries();
    const PhysicalGrid& grid = config_.grid;
    const FaceGeometry face =
        geometry(axis, side, {0, 0}, {grid.cells((axis + 1) % 3), grid.cells((axis + 2) % 3)});
    // Kept between calls: a monitor row asks for the same face every time, and a device
    // allocation's free waits for the whole device.
    Buffer<double>& out = face_flux_buffers_[axis][side];
    if (out.size() != std::size_t(face.transverse_count()) * 5)
      out = Buffer<double>(where_, std::size_t(face.transverse_count()) * 5);
    FaceFluxes<Real> kernel{f_[current_].data(), moment_view(), face, out.data()};
    for_each_team<5>(exec_, face.transverse_count(), face_team_size(face.transverse_count()), 0,
                     kernel, "face_fluxes");
    if (split_) config_.communicator->sum_over_velocity_group(out.data(), out.size());
    std::vector<double> all = out.to_host();
    for (std::size_t t = 0; t + 5 <= all.size(); t += 5) collision_->flux_of_f(axis, side, all.data() + t);
    return all;
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
    Buffer<double> outflux;       // walls, velocities split: [transverse]
    Buffer<Real> offset;          // walls where the stored state is affine in f (hs_mc/operator.hpp)
  };

  // A face segment whose ghosts come from another rank.
  struct Halo {
    FaceGeometry geometry;
    int peer = -1;
    int send_tag = 0, receive_tag = 0;
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
    const VelocityGrid& vg = config_.velocities;
    return {xi_[0].data(), xi_[1].data(), xi_[2].data(), weight_.data(), nv_, row_,
            vg.is_reduced() ? h_weight_.data() : nullptr, vg.reduced_mask()};
  }

  // The weights moments and fluxes of the stored state are summed with.
  Velocities<Real> moment_view() const { return collision_->moment_view(velocities()); }

  // A box of cells: [lo, lo + n) in interior coordinates.
  struct Region {
    std::array<int, 3> lo{0, 0, 0}, n{0, 0, 0};
    std::int64_t cells() const { return std::int64_t(n[0]) * n[1] * n[2]; }
  };

  // One pass of the collision operator from the current f into `destination` over `region`,
  // after passes of the same step over `first_cell` cells.
  CellPass<Real> cell_pass(Real* destination, const Region& region,
                           std::int64_t first_cell = 0) const {
    return {f_[current_].data(), destination, velocities(), stream_tables(), stream_runs(),
            indexer(region), static_cast<std::uint32_t>(step_count_), substep_, first_cell};
  }

  Region whole() const {
    const PhysicalGrid& grid = config_.grid;
    return {{0, 0, 0}, {grid.cells(0), grid.cells(1), grid.cells(2)}};
  }

  CellIndexer indexer(const Region& region) const {
    const PhysicalGrid& grid = config_.grid;
    CellIndexer c{};
    const auto s = grid.strides();
    for (int a = 0; a < 3; ++a) {
      c.n[a] = region.n[a];
      c.offset[a] = grid.offset(a) + region.lo[a];
      c.stride[a] = s[a];
    }
    return c;
  }
  CellIndexer indexer() const { return indexer(whole()); }

  // The cells that read no halo ghost (the box less `ghost` layers at each face with a halo
  // segment), and the rest as up to six slabs: cut across x, then y, then z.
  void split_regions() {
    const PhysicalGrid& grid = config_.grid;
    std::array<std::array<int, 2>, 3> margin{};
    for (const Halo& halo : halos_) margin[halo.geometry.axis][halo.geometry.side] = grid.ghost;
    Region rest = whole();
    for (int a = 0; a < 3; ++a) {
      if (margin[a][0] + margin[a][1] >= rest.n[a]) {  // no interior: everything is shell
        interior_ = Region{};
        shell_ = {whole()};
        return;
      }
      if (margin[a][0] > 0) {
        Region low = rest;
        low.n[a] = margin[a][0];
        shell_.push_back(low);
      }
      if (margin[a][1] > 0) {
        Region high = rest;
        high.lo[a] = rest.lo[a] + rest.n[a] - margin[a][1];
        high.n[a] = margin[a][1];
        shell_.push_back(high);
      }
      rest.lo[a] += margin[a][0];
      rest.n[a] -= margin[a][0] + margin[a][1];
    }
    interior_ = rest;
  }

  StreamTables<Real> stream_tables() const {
    StreamTables<Real> t{};
    t.shift = shift_.data();
    t.signed_fraction = signed_fraction_.data();
    const auto s = config_.grid.strides();
    for (int k = 0; k < stream_axes_; ++k) {
      t.scale[k] = scale_[k].data();
      t.stride[k] = s[stream_axis_[k]] * row_;
      t.near_stride[k] = static_cast<int>(t.stride[k]);  // checked with the offsets (constructor)
      t.axis[k] = stream_axis_[k];
    }
    t.axes = stream_axes_;
    t.table_stride = stream_table_stride(nv_);
    t.shifts = shifts_;
    t.order = config_.order;
    t.limiter = config_.limiter;
    return t;
  }

  StreamRuns stream_runs() const {
    return {sign_runs_.size() ? sign_runs_.data() : nullptr, int(sign_runs_.size())};
  }

  // The segment of face (axis, side) at interior transverse coordinates [lo, lo + count); count
  // {0, 0} is the whole padded face.
  FaceGeometry geometry(int axis, int side, std::array<int, 2> lo, std::array<int, 2> count) const {
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
    for (int k = 0; k < 2; ++k) {
      const int a = (axis + 1 + k) % 3;
      if (count[0] == 0 && count[1] == 0) {
        g.first[k] = 0;
        g.count[k] = grid.padded(a);
        continue;
      }
      require(lo[k] >= 0 && count[k] >= 1 && lo[k] + count[k] <= grid.cells(a),
              "engine: face segment on axis ", "xyz"[a], " [", lo[k], ", +", count[k],
              ") outside the box of ", grid.cells(a), " cells");
      g.first[k] = lo[k] + grid.offset(a);
      g.count[k] = count[k];
    }
    return g;
  }

  void setup_face(int axis, int side, const FaceSegmentConfig& segment) {
    const VelocityGrid& vg = config_.velocities;
    faces_.emplace_back();
    Face& face = faces_.back();
    face.geometry = geometry(axis, side, segment.lo, segment.count);
    face.spec = segment.spec;
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
    const FaceValues<Real> values = collision_->face_values(spec, axis, side);
    face.equilibrium = Buffer<Real>(where_, values.equilibrium);
    if (!values.offset.empty()) face.offset = Buffer<Real>(where_, values.offset);
    face.influx = values.influx;
    if (spec.kind == FaceKind::wall && split_)
      face.outflux = Buffer<double>(where_, face.geometry.transverse_count());
  }

  void setup_halo(int axis, int side, const FaceSegmentConfig& segment) {
    halos_.emplace_back();
    Halo& halo = halos_.back();
    halo.geometry = geometry(axis, side, segment.lo, segment.count);
    halo.peer = segment.peer;
    halo.send_tag = segment.send_tag;
    halo.receive_tag = segment.receive_tag;
    const std::size_t size =
        std::size_t(halo.geometry.transverse_count()) * halo.geometry.ghost * nv_;
    halo.send = Buffer<Real>(where_, size);
    halo.receive = Buffer<Real>(where_, size);
  }

  void copy_halo(Halo& halo, Buffer<Real>& buffer, bool unpack) {
    HaloCopy<Real> kernel{f_[current_].data(), buffer.data(), halo.geometry, nv_, row_, unpack};
    const std::int64_t rows = std::int64_t(halo.geometry.transverse_count()) * halo.geometry.ghost;
    for_each_team<1>(exec_, rows, face_team_size(rows), 0, kernel,
                     unpack ? "halo_unpack" : "halo_pack");
  }

  // Ghosts of the faces on the domain boundary (collective over the velocity group: the wall
  // flux is summed over it; a rank with all velocities sums it inside BoundaryFill), the faces of
  // one axis in one launch (BoundaryFills), axis after axis.
  void fill_boundaries() {
    BoundaryFills<Real> batch;
    const auto launch = [&] {
      if (batch.count > 0)
        for_each_team<1>(exec_, batch.end[batch.count - 1],
                         face_team_size(batch.end[batch.count - 1]), 0, batch, "boundary_fill");
      batch.count = 0;
    };
    for (Face& face : faces_) {
      const bool wall_flux_first = face.spec.kind == FaceKind::wall && split_;
      if (batch.count > 0 && (batch.fill[0].face.axis != face.geometry.axis ||
                              batch.count == kMaxFillsPerLaunch || wall_flux_first))
        launch();
      if (wall_flux_first) {
        WallOutflux<Real> flux{f_[current_].data(), moment_view(), face.geometry,
                               face.outflux.data()};
        for_each_team<1>(exec_, face.geometry.transverse_count(),
                         face_team_size(face.geometry.transverse_count()), 0, flux, "wall_outflux");
        config_.communicator->sum_over_velocity_group(face.outflux.data(), face.outflux.size());
      }
      BoundaryFill<Real> kernel{f_[current_].data(),
                                velocities(),
                                face.geometry,
                                face.spec.kind,
                                face.equilibrium.data(),
                                face.reflect.data(),
                                face.spec.accommodation,
                                face.influx,
                                wall_flux_first ? face.outflux.data() : nullptr,
                                moment_view(),
                                face.offset.size() > 0 ? face.offset.data() : nullptr};
      batch.add(kernel);
    }
    launch();
  }

  // Threads per team of the kernels that take one face position (all its velocities) per team:
  // boundary fills, wall and face fluxes, halo copies, for `teams` positions. The cells' team
  // size, doubled while a thread keeps at least four velocities and the teams stay within about
  // half of a large GPU's resident threads. A few positions leave most of the GPU idle, each of
  // their threads waiting for one load after another, so larger teams hide that latency in small
  // grids; with many positions they do not pay (docs/benchmarks.md).
  int face_team_size(std::int64_t teams) const {
    constexpr std::int64_t kThreadBudget = std::int64_t(1) << 17;
    constexpr int kVelocitiesPerThread = 4, kLargestTeam = 1024;
    int threads = config_.team_size;
    while (2 * threads <= kLargestTeam && 2 * threads * kVelocitiesPerThread <= nv_ &&
           teams * 2 * threads <= kThreadBudget)
      threads *= 2;
    return threads;
  }

  EngineConfig config_;
  Backend where_;
  int v0_;       // first owned velocity
  int nv_;       // owned velocities
  int row_;      // elements from one cell's row of f to the next (row_stride)
  bool split_;   // the velocities are split over ranks: moments are summed across them
  Exec exec_{};
  std::array<Buffer<Real>, 3> xi_;
  Buffer<Real> weight_, h_weight_;
  std::array<Buffer<Real>, 2> f_;
  int current_ = 0;
  Buffer<double> raw_;   // raw moments per cell (fields)
  // Their copy on the host, page-locked: a monitor row downloads them with the GPU idle, and a
  // pageable copy is staged through the driver.
  std::vector<double> raw_on_host_;
  PinnedHostRange raw_on_host_pinned_;
  std::array<std::array<Buffer<double>, 2>, 3> face_flux_buffers_;  // face_fluxes, [axis][side]
  Buffer<int> shift_;
  // Per streaming axis k < stream_axes_ (the active axes stream_axis_[k]): StreamTables.
  int stream_axes_ = 0;
  std::array<int, 3> stream_axis_{};
  Buffer<Real> signed_fraction_;
  bool shifts_ = false;  // some velocity moves whole cells per step
  Buffer<StreamRun> sign_runs_;  // stream_runs (none: empty)
  std::array<Buffer<Real>, 3> scale_;
  std::vector<Face> faces_;  // boundary segments of the faces of active axes
  std::vector<Halo> halos_;  // segments whose ghosts come from other ranks
  Region interior_;            // cells that read no halo ghost (empty: none)
  std::vector<Region> shell_;  // the other cells
  bool interior_done_ = false; // stream_interior ran this step
  std::unique_ptr<CollisionOperator<Real, Exec>> collision_;
  std::int64_t step_count_ = 0;  // steps taken (keys random samples)
  int substep_ = 0;              // streaming pass of the step in progress
};

}  // namespace bolt
