#pragma once
// RelaxationOperator<Real, Exec, Evaluator>: the one driver of the relaxation evaluators
// (kernels/relaxation/), made for each by the registry (model_operators.hpp). A pass is FusedStep -- stream every velocity of a cell, reduce its
// moments, relax, write: one read and one write of f -- or, with the velocities split over ranks,
// StreamAndSum, the sum over the velocity group, SumNormalisation, its sum, RelaxSummed. Strang
// splitting relaxes half a step in place before the ghosts are filled and half inside the
// streaming pass. Include after the backend's launch header (it launches kernels).
#include <cstdint>
#include <type_traits>
#include <vector>

#include "collision_operator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/phase_events.hpp"
#include "kernels/fused_step.hpp"
#include "kernels/relaxation/relaxation.hpp"
#include "relaxation_model.hpp"

namespace bolt {

template <class Real, class Exec, class Evaluator>
class RelaxationOperator final : public CollisionOperator<Real, Exec> {
 public:
  RelaxationOperator(const OperatorSetup& setup, const RelaxationModel& model)
      : setup_(setup), split_(setup.split()) {
    const RelaxationOptions& o = model.options();
    params_.delta = setup.gas.delta;
    params_.omega = setup.gas.omega;
    params_.prandtl = o.prandtl;
    params_.dt = setup.dt;
    for (int a = 0; a < 3; ++a) params_.force[a] = o.force[a];
    params_.conservative_iterations = o.conservative_iterations;
    // The target's discrete mass factorises over the axes of a full tensor-product set.
    const VelocityGrid& grid = *setup.velocities;
    std::size_t product = 1;
    for (int a = 0; a < 3; ++a) product *= std::size_t(grid.axes[a].cells());
    params_.tensor = product == std::size_t(grid.mass_nodes());
    if (params_.tensor)
      for (int a = 0; a < 3; ++a) {
        axis_node_[a] = Buffer<double>(setup.backend, grid.axes[a].centres);
        axis_width_[a] = Buffer<double>(setup.backend, grid.axes[a].widths);
        params_.axis_node[a] = axis_node_[a].data();
        params_.axis_width[a] = axis_width_[a].data();
        params_.axis_count[a] = grid.axes[a].cells();
      }
    if (split_) {  // not conservative (RelaxationModel::whole_rows_reason)
      require(bool(setup.sum_over_velocity_group), "relaxation: velocities split, no group sum");
      sums_ = Buffer<double>(setup.backend, std::size_t(setup.cells) * Evaluator::kSums);
      normalisation_ = Buffer<double>(setup.backend, std::size_t(setup.cells) * kNormalisationSums);
    }
    if constexpr (std::is_same_v<Real, float> && std::is_same_v<RowTables, CpuRowTables>)
      make_sum_tables(grid);
    // The post-streaming row lives in shared memory on the GPU when it fits (with the reduction
    // buffer) in what the device allows a block; otherwise in the output row itself.
    const std::size_t bytes = std::size_t(setup.velocity_count) * sizeof(Real);
    scratch_bytes_ = bytes + 16 * 1024 <= shared_memory_per_team(exec_) ? bytes : 0;
  }

  FaceValues<Real> face_values(const FaceSpec& spec, int axis, int side) const override {
    return maxwellian_face_values<Real>(spec, axis, side, setup_);
  }

  void begin_step(const CellPass<Real>& box) override {
    if (setup_.splitting == Splitting::strang) dispatch<false>(0.5 * setup_.dt, box);
  }

  // The split step sums its moments per box cell: the box is passed whole.
  bool passes_in_parts() const override { return !split_; }

  // Relaxation time of the streaming pass: half a step after Strang's first half.
  void pass(const CellPass<Real>& cells) override {
    dispatch<true>(setup_.splitting == Splitting::strang ? 0.5 * setup_.dt : setup_.dt, cells);
  }

 private:
  // The CPU's float moment sums add in double (stream_row): the engine's float velocity tables
  // (Real of the grid's values) in double, so that a velocity's sums convert only its value.
  void make_sum_tables(const VelocityGrid& grid) {
    const int v0 = setup_.velocity_lo, nv = setup_.velocity_count;
    const auto table = [&](const std::vector<double>& values) {
      std::vector<double> converted(nv);
      for (int v = 0; v < nv; ++v) converted[v] = double(Real(values[v0 + v]));
      return Buffer<double>(setup_.backend, converted);
    };
    for (int a = 0; a < 3; ++a) sum_table_[a] = table(grid.xi[a]);
    sum_table_[3] = table(grid.weight);
    if (grid.is_reduced()) sum_table_[4] = table(grid.h_weight);
    sum_vel_ = {sum_table_[0].data(), sum_table_[1].data(), sum_table_[2].data(),
                sum_table_[3].data(), nv, nv, sum_table_[4].data(), grid.reduced_mask()};
  }

  // What the CPU's passes read beside the kernels' tables (kernels/fused_step.hpp); the GPU's
  // read none.
  using RowTables = RowTablesOf<typename Exec::Team>;
  RowTables row_tables(const CellPass<Real>& p) const {
    if constexpr (std::is_same_v<RowTables, CpuRowTables>)
      return {p.runs, sum_vel_};
    else
      return {};
  }

  template <bool Stream>
  void dispatch(double relax_dt, const CellPass<Real>& p) {
    if constexpr (Evaluator::kConservative)
      if (params_.conservative_iterations > 0) return run<Stream, true>(relax_dt, p);
    run<Stream, false>(relax_dt, p);
  }

  template <bool Stream, bool Conservative>
  void run(double relax_dt, const CellPass<Real>& p) {
    using Relax = Relaxation<Real, Evaluator, Conservative>;
    Relax relax{params_};
    relax.params.dt = relax_dt;
    const std::int64_t cells = p.cells.count();
    // Phases (core/phase_events.hpp) as the kernels are: streaming and relaxation fused in one
    // pass, or, split, the moment sums between them; the group sums name their own phase.
    const auto wait = device_work(exec_);
    const std::size_t row_bytes = std::size_t(p.vel.row) * sizeof(Real);
    if constexpr (!Conservative) {
      if (split_) {
        {
          const Phase phase(Stream ? "BoltStreamAndSum" : "BoltMomentSums", wait);
          StreamAndSum<Real, Relax, Stream, RowTables> first{
              p.f_in, p.f_out, sums_.data(), p.vel, p.stream, p.cells, relax, row_tables(p)};
          for_each_cell_team<Relax::kSums>(exec_, p.cells.n, row_bytes, setup_.team_size, 0,
                                           first, Stream ? "stream_and_sum" : "sum");
        }
        setup_.sum_over_velocity_group(sums_.data(), std::size_t(cells) * Relax::kSums);
        if (!relax.factorised()) {
          {
            const Phase phase("BoltMomentSums", wait);
            SumNormalisation<Real, Relax> second{sums_.data(), normalisation_.data(), p.vel,
                                                 relax};
            for_each_team<kNormalisationSums>(exec_, cells, setup_.team_size, 0, second,
                                              "sum_normalisation");
          }
          setup_.sum_over_velocity_group(normalisation_.data(),
                                         std::size_t(cells) * kNormalisationSums);
        }
        const Phase phase("BoltRelaxation", wait);
        RelaxSummed<Real, Relax> third{p.f_out, sums_.data(), normalisation_.data(),
                                       p.vel, p.cells, relax};
        for_each_team<Relax::kSums>(exec_, cells, setup_.team_size, 0, third, "relax_summed");
        return;
      }
    }
    const Phase phase(Stream ? "BoltFusedStep" : "BoltRelaxation", wait);
    // A reduced set's GPU kernel differs only in its register bound (Relaxation), which the CPU
    // has none of.
    if constexpr (std::is_same_v<RowTables, NoCpuRowTables>)
      if (p.vel.h) return fused<Stream, Relax::kReducedSetTeamThreads>(relax, p);
    fused<Stream, Relax::kTeamThreads>(relax, p);
  }

  template <bool Stream, int TeamThreads, class Relax>
  void fused(const Relax& relax, const CellPass<Real>& p) {
    using Kernel = FusedStep<Real, Relax, Stream, RowTables, TeamThreads>;
    const Kernel kernel{p.f_in, p.f_out, p.vel, p.stream, p.cells, relax, row_tables(p)};
    const char* label = Stream ? "fused_step" : "relaxation";
    // A large row's scratch may hold a multiprocessor to fewer teams than its registers would
    // run: bolt's own team size then widens to fill it (docs/benchmarks.md, "Teams that fill a
    // multiprocessor"); a size the user set stays.
    const int team_size =
        setup_.team_size_chosen
            ? team_size_filling_processor<Relax::kReduceWidth, Kernel>(exec_, setup_.team_size,
                                                                         scratch_bytes_, label)
            : setup_.team_size;
    for_each_cell_team<Relax::kReduceWidth>(exec_, p.cells.n,
                                            std::size_t(p.vel.row) * sizeof(Real), team_size,
                                            scratch_bytes_, kernel, label);
  }

  OperatorSetup setup_;
  bool split_;
  Exec exec_{};
  RelaxationParams params_;
  Buffer<double> sums_;           // moment sums per cell between the parts of a split step
  Buffer<double> normalisation_;  // the target's normalisation sums per cell, likewise
  Buffer<double> axis_node_[3], axis_width_[3];  // the velocity axes of a tensor-product set
  Buffer<double> sum_table_[5];  // make_sum_tables: xi per axis, weight, h weight
  Velocities<double> sum_vel_{};  // over them (x null: none)
  std::size_t scratch_bytes_ = 0;
};

}  // namespace bolt
