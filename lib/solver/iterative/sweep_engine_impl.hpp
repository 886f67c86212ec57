#pragma once
// SweepEngineImpl<Real, Exec, Evaluator>: the one implementation of SweepEngine, for a relaxation
// evaluator (kernels/relaxation/). Include after the backend's launch header and its sweep_batch
// (sweep_engine_cpu.cpp, sweep_engine_cuda.cu), which runs the slots [first, first + count) of a
// Sweep with the backend's slices and moment sums; sweep_engine_factory_on makes the engine of
// every relaxation model of the registry for the backend.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/phase_events.hpp"
#include "kernels/sweep.hpp"
#include "models/collision_operator.hpp"
#include "models/model_registry.hpp"
#include "solver/iterative/sweep_engine.hpp"
#include "solver/iterative/sweep_slots.hpp"

namespace bolt {

template <class Real, class Exec, class Evaluator>
class SweepEngineImpl final : public SweepEngine {
 public:
  explicit SweepEngineImpl(const SweepConfig& config)
      : config_(config), backend_(config.backend) {
    const VelocityGrid& vg = config.velocities;
    const int lo = config.velocity_lo;
    const int count = config.velocity_count > 0 ? config.velocity_count : vg.size();
    params_.delta = config.gas.delta;
    params_.omega = config.gas.omega;
    params_.prandtl = config.model->prandtl();
    params_.dt = 0.0;  // the target's decay is not used: the sweep takes nu itself
    // The target's discrete mass factorises over the axes of a full tensor-product set (a
    // reduced one's g nodes), as in the explicit engine (models/relaxation_operator.hpp).
    std::size_t product = 1;
    for (int a = 0; a < 3; ++a) product *= std::size_t(vg.axes[a].cells());
    params_.tensor = product == std::size_t(vg.mass_nodes());
    if (params_.tensor)
      for (int a = 0; a < 3; ++a) {
        axis_node_[a] = Buffer<double>(backend_, vg.axes[a].centres);
        axis_width_[a] = Buffer<double>(backend_, vg.axes[a].widths);
        params_.axis_node[a] = axis_node_[a].data();
        params_.axis_width[a] = axis_width_[a].data();
        params_.axis_count[a] = vg.axes[a].cells();
      }
    // Every velocity (the target's normalisation) and this rank's.
    all_ = upload_velocities(vg, 0, vg.size(), all_store_);
    owned_ = upload_velocities(vg, lo, count, owned_store_);
    // Whole warps of one octant on the GPU; the CPU's threads group their slots by octant
    // themselves (sweep_lanes_cpu.hpp).
    warp_ = backend_ == Backend::cuda ? 32 : 1;
    std::array<std::array<bool, 2>, 3> specular{};
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        specular[a][s] = config.grid.cells(a) > 1 && config.faces[a][s].kind == FaceKind::specular;
    const SweepSlots slots = make_sweep_slots(config.grid, vg, lo, count, warp_, specular);
    phase_end_ = slots.phase_end;
    slots_ = std::int64_t(slots.velocity.size());
    slot_velocity_ = Buffer<int>(backend_, slots.velocity);
    std::vector<Real> weight(slots.weight.begin(), slots.weight.end());
    slot_weight_ = Buffer<Real>(backend_, weight);
    batch_ = config.batch > 0 ? std::min<std::int64_t>(slots_, (config.batch + warp_ - 1) / warp_ * warp_)
                              : slots_;
    const PhysicalGrid& g = config.grid;
    // The faces' entering Maxwellians at this rank's velocities, as the explicit engine makes
    // them.
    OperatorSetup owned;
    owned.velocities = &vg;
    owned.velocity_lo = lo;
    owned.velocity_count = count;
    for (int a = 0; a < 3; ++a) {
      grid_.n[a] = g.cells(a);
      grid_.inverse_width[a] = nullptr;
      if (g.cells(a) > 1) {
        std::vector<Real> inverse;
        for (double width : g.axes[a].widths) inverse.push_back(Real(1.0 / width));
        inverse_width_[a] = Buffer<Real>(backend_, inverse);
        grid_.inverse_width[a] = inverse_width_[a].data();
      }
    }
    cells_ = grid_.cells();
    slice_size_ = grid_.slice_size() * grid_.slice_arrays(config.order);
    // The kernel indexes a slice and the batch's slots in 32 bits (SliceView).
    require(slice_size_ <= std::numeric_limits<int>::max() &&
                batch_ <= std::numeric_limits<int>::max(),
            "-grid_n: the iterative solver's slice of ", slice_size_, " values per velocity (",
            grid_.slice_arrays(config.order), " arrays of the largest plane, ", grid_.slice_size(),
            " cells) or its batch of ", batch_, " velocity slots exceeds 2^31 - 1");
    copies_ = sweep_sum_copies(config.backend, g);
    // The velocity group's ranks share out the cells' targets (each computes its part, then all
    // gather them): parts of equal length, the last padded.
    if (config.communicator) {
      target_part_ = config.communicator->velocity_group_rank();
      target_parts_ = config.communicator->velocity_group_size();
    }
    target_part_cells_ = (cells_ + target_parts_ - 1) / target_parts_;
    targets_ = Buffer<SweepCell<Real>>(backend_, std::size_t(target_part_cells_) * target_parts_);
    moments_in_ = Buffer<double>(backend_, std::size_t(cells_) * kRawMoments);
    // The sums' layout within one copy: the moments, each active face's sums, the solids'
    // outflux.
    std::int64_t offset = cells_ * kRawMoments;
    if (backend_ == Backend::cuda) slices_ = Buffer<Real>(backend_, std::size_t(batch_) * slice_size_);
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        if (!grid_.active(a)) continue;
        const FaceSpec& spec = config.faces[a][s];
        const std::size_t transverse = std::size_t(g.cells((a + 1) % 3)) * g.cells((a + 2) % 3);
        face_size_[a][s] = transverse;
        face_offset_[a][s] = offset;
        offset += std::int64_t(transverse) * kFaceSums;
        if (spec.kind == FaceKind::wall) density_[a][s] = Buffer<double>(backend_, transverse);
        ghost_[a][s] =
            Buffer<Real>(backend_, maxwellian_face_values<Real>(spec, a, s, owned).equilibrium);
        if (spec.kind == FaceKind::specular) {
          require(lo == 0 && count == vg.size() && vg.symmetric(a), "-bc_", "xyz"[a],
                  s ? "_high" : "_low", " specular: the iterative solver needs every velocity "
                  "and its mirror image on one rank");
          mirror_[a][s] = Buffer<Real>(backend_, transverse * std::size_t(count) *
                                                     std::size_t(mirror_values()));
          if (reflect_[a].size() == 0) reflect_[a] = Buffer<int>(backend_, vg.reflect[a]);
        }
      }
    flags_ = Buffer<unsigned char>(backend_, sweep_cell_flags(g, config.solid));
    if (!config.solid.empty()) {
      solid_density_ = Buffer<double>(backend_, std::size_t(cells_) * 6);
      solid_offset_ = offset;
      offset += cells_ * 6;
      FaceSpec solid_wall;  // diffuse, at rest
      solid_wall.temperature = config.solid_temperature;
      solid_ghost_ =
          Buffer<Real>(backend_, maxwellian_face_values<Real>(solid_wall, 0, 0, owned).equilibrium);
    }
    sums_size_ = offset;
    // The memory plan counts the sums by sweep_sums_bytes: it must describe this layout.
    require(double(sums_size_) * sizeof(double) == sweep_sums_bytes(g, !config.solid.empty()),
            "sweep: the sums' layout and sweep_sums_bytes disagree");
    sums_ = Buffer<double>(backend_, std::size_t(copies_) * sums_size_);
  }

  using SweepEngine::iterate;
  void iterate(const std::vector<double>& moments, const FaceArrays& wall_density,
               const std::vector<double>& solid_density, SweepResult& result) override {
    using Relax = Relaxation<Real, Evaluator, false>;
    const Relax relax{params_};
    // Phases (core/phase_events.hpp): the targets and the inputs' uploads, the sweep, the sums.
    const auto wait = device_work(exec_);
    std::optional<Phase<decltype(wait)>> phase;
    phase.emplace("BoltSweepTargets", wait);
    const std::int64_t first = std::min(cells_, target_part_ * target_part_cells_);
    const std::int64_t count = std::min(target_part_cells_, cells_ - first);
    double* part_moments = moments_in_.data() + first * kRawMoments;
    copy_bytes(part_moments, backend_, moments.data() + first * kRawMoments, Backend::cpu,
               std::size_t(count) * kRawMoments * sizeof(double));
    SweepTargets<Real, Relax> targets{part_moments, targets_.data() + first, all_, relax};
    for_each_team<Relax::kReduceWidth>(exec_, count, 128, 0, targets, "sweep_targets");
    if (target_parts_ > 1)
      config_.communicator->gather_over_velocity_group(
          targets_.data(), std::size_t(target_part_cells_) * sizeof(SweepCell<Real>));
    sums_.set_zero();
    Sweep<Real, Relax> sweep{};
    sweep.vel = owned_;
    sweep.slot_velocity = slot_velocity_.data();
    sweep.slot_weight = slot_weight_.data();
    sweep.cells = targets_.data();
    sweep.grid = grid_;
    sweep.moments = sums_.data();
    sweep.relax = relax;
    sweep.order = config_.order;
    sweep.limiter = config_.limiter;
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        if (!grid_.active(a)) continue;
        SweepFace& face = sweep.face[a][s];
        face.kind = config_.faces[a][s].kind;
        face.sums = sums_.data() + face_offset_[a][s];
        if (face.kind == FaceKind::wall) {
          density_[a][s].upload(wall_density[a][s]);
          face.density = density_[a][s].data();
        }
        sweep.tables.ghost[a][s] = ghost_[a][s].data();
        sweep.tables.mirror[a][s] = mirror_[a][s].data();
        sweep.tables.reflect[a] = reflect_[a].data();
      }
    sweep.tables.mirror_values = mirror_values();
    sweep.flags = flags_.data();
    if (!config_.solid.empty()) {
      solid_density_.upload(solid_density);
      sweep.solids = {solid_density_.data(), sums_.data() + solid_offset_};
      sweep.tables.solid = solid_ghost_.data();
    }
    sweep.copies = {copies_, sums_size_};
    phase.reset();
    phase.emplace("BoltSweep", wait);
    // Phase by phase (symmetry faces: what a phase enters with, an earlier one left).
    std::int64_t begin = 0;
    for (std::int64_t end : phase_end_) {
      for (std::int64_t first = begin; first < end; first += batch_)
        lines_ = sweep_batch(exec_, sweep, first, std::min(batch_, end - first), slices_.data(),
                             slice_size_, face_size_, config_.lines);
      begin = end;
    }
    // Every sum of the sweep at once: one reduction of the copies, one sum over the velocity
    // group, then each part downloaded into its vector of the result.
    phase.reset();
    phase.emplace("BoltMomentSums", wait);
    sum_copies(exec_, sums_.data(), sums_size_, copies_);
    if (config_.communicator)
      config_.communicator->sum_over_velocity_group(sums_.data(), std::size_t(sums_size_));
    const auto download = [&](std::vector<double>& into, std::int64_t offset, std::int64_t size) {
      into.resize(static_cast<std::size_t>(size));
      copy_bytes(into.data(), Backend::cpu, sums_.data() + offset, backend_,
                 into.size() * sizeof(double));
    };
    download(result.moments, 0, cells_ * kRawMoments);  // the moments lead the buffer
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        download(result.face_sums[a][s], face_offset_[a][s],
                 grid_.active(a) ? face_size_[a][s] * kFaceSums : 0);
    download(result.solid_outflux, solid_offset_, config_.solid.empty() ? 0 : cells_ * 6);
  }

  std::int64_t slots() const override { return slots_; }
  std::int64_t batch() const override { return batch_; }
  int lines() const override { return lines_; }
  double bytes_per_iteration() const override {
    const double warps = double(slots_) / 32.0;
    return double(cells_) * warps * (sizeof(SweepCell<Real>) + kRawMoments * sizeof(double)) +
           2.0 * grid_.slice_arrays(config_.order) * double(slots_) * double(cells_) * sizeof(Real);
  }

 private:
  // Per velocity and position of a symmetry face (SweepFaceTables::mirror).
  int mirror_values() const { return config_.order == 2 ? 3 : 1; }

  // The nodes, weights and, on a reduced set, h weights of velocities [lo, lo + count).
  Velocities<Real> upload_velocities(const VelocityGrid& vg, int lo, int count,
                                     Buffer<Real> (&store)[5]) {
    std::vector<Real> c[5];
    for (int v = lo; v < lo + count; ++v) {
      for (int a = 0; a < 3; ++a) c[a].push_back(Real(vg.xi[a][v]));
      c[3].push_back(Real(vg.weight[v]));
      c[4].push_back(Real(vg.h_weight_of(v)));
    }
    for (int k = 0; k < 5; ++k) store[k] = Buffer<Real>(backend_, c[k]);
    Velocities<Real> vel{store[0].data(), store[1].data(), store[2].data(), store[3].data(),
                         count, count};
    if (vg.is_reduced()) {
      vel.h = store[4].data();
      vel.reduced = vg.reduced_mask();
    }
    return vel;
  }

  SweepConfig config_;
  Backend backend_;
  Exec exec_{};
  RelaxationParams params_;
  Buffer<double> axis_node_[3], axis_width_[3];
  Buffer<Real> all_store_[5], owned_store_[5];
  Velocities<Real> all_{}, owned_{};
  int warp_ = 32;
  int copies_ = 1;  // of the moment and face sums (sweep_sum_copies)
  int lines_ = 0;   // of the last batch (GPU)
  std::int64_t slots_ = 0, batch_ = 0, cells_ = 0, slice_size_ = 0;
  Buffer<int> slot_velocity_;
  Buffer<Real> slot_weight_;
  SweepGrid<Real> grid_{};
  Buffer<Real> inverse_width_[3];
  Buffer<SweepCell<Real>> targets_;  // [target_parts_][target_part_cells_]
  int target_part_ = 0, target_parts_ = 1;
  std::int64_t target_part_cells_ = 0;
  Buffer<double> moments_in_;
  // [copy][sums_size_]: the moments, the faces' sums and the solids' outflux of a sweep
  // (offsets face_offset_, solid_offset_), in one buffer so that they are reduced together.
  Buffer<double> sums_;
  std::int64_t sums_size_ = 0, solid_offset_ = 0;
  std::array<std::array<std::int64_t, 2>, 3> face_offset_{};
  Buffer<Real> slices_;
  std::array<std::array<std::int64_t, 2>, 3> face_size_{};
  Buffer<double> density_[3][2];
  Buffer<Real> ghost_[3][2];
  std::vector<std::int64_t> phase_end_;  // SweepSlots::phase_end
  Buffer<Real> mirror_[3][2];
  Buffer<int> reflect_[3];
  Buffer<unsigned char> flags_;  // sweep_cell_flags
  Buffer<double> solid_density_;
  Buffer<Real> solid_ghost_;
};

// The engine of one evaluator on Exec's backend, in the config's precision.
template <class Exec, class Evaluator>
std::unique_ptr<SweepEngine> make_sweep_engine_on(const SweepConfig& config) {
  if (config.precision == Precision::single)
    return std::make_unique<SweepEngineImpl<float, Exec, Evaluator>>(config);
  return std::make_unique<SweepEngineImpl<double, Exec, Evaluator>>(config);
}

// The factory of the model `name` on Exec's backend: the one of its registry entry's evaluator,
// or null for a model with none.
template <class Exec>
SweepEngineFactory sweep_engine_factory_on(std::string_view name) {
  SweepEngineFactory made = nullptr;
  for_each_model([&](const auto& entry) {
    using Family = typename std::decay_t<decltype(entry)>::Family;
    if constexpr (RelaxationFamilyType<Family>)
      if (entry.name == name) made = &make_sweep_engine_on<Exec, typename Family::Evaluator>;
  });
  return made;
}

}  // namespace bolt
