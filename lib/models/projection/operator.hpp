#pragma once
// ProjectionOperator<Real, Exec>: the driver of the projection method (paper 003). The stored
// state is f. At the start it prepares -projection_sets shifted Korobov lattices (shifts from
// Philox keyed by the seed), each turned into the terms of the discrete collision integral
// (plan.hpp) and kept on the device; each step draws one of them (Philox keyed by
// the seed and the step, so a restart and every rank draw the same), streams every cell
// (StreamOnly) and applies the terms to every cell in place (ProjectionCollision). Include after
// the backend's launch header (it launches kernels).
#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "models/collision_operator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/phase_events.hpp"
#include "kernels/projection/collision.hpp"
#include "models/projection/korobov.hpp"
#include "models/projection/model.hpp"
#include "models/projection/plan.hpp"

namespace bolt {

template <class Real, class Exec>
class ProjectionOperator final : public CollisionOperator<Real, Exec> {
 public:
  ProjectionOperator(const OperatorSetup& setup, const ProjectionModel& model)
      : setup_(setup), seed_(model.options().seed) {
    require(!setup.split(), "-model_type projection: every velocity of a cell must be on one rank "
            "(use -decomp space)");
    const ProjectionOptions& o = model.options();
    const KorobovRule rule = korobov_rule(o.points);
    const double kappa = model.kappa(setup.gas);
    const Deflection deflection = model.deflection(*setup.velocities);
    std::vector<ProjectionPlan> plans(o.sets);
    std::string error;  // an exception must not leave an OpenMP region: the first, after it
#pragma omp parallel for schedule(dynamic)
    for (int k = 0; k < o.sets; ++k) {
      try {
        plans[k] = make_projection_plan(*setup.velocities, rule, projection_shift(seed_, k),
                                        setup.dt, kappa, deflection);
      } catch (const std::exception& e) {
#pragma omp critical(bolt_projection_plan_error)
        if (error.empty()) error = e.what();
      }
    }
    require(error.empty(), error);
    require(setup.velocity_count <= 65536, "-model_type projection: at most 65536 velocities "
            "(16-bit node indices), the grid has ", setup.velocity_count);
    for (const ProjectionPlan& plan : plans) sets_.push_back(device_set(plan));
    record_ = Buffer<double>(setup.backend, std::size_t(setup.cells) * kProjectionRecord);
    record_.set_zero();
    // Several cells per team where their rows fit the team's scratch beside 16 kB for the
    // hardware's own use (the CPU's scratch is host memory: always); else one cell, in the
    // scratch or in place.
    const std::size_t row_bytes = std::size_t(setup.velocity_count) * sizeof(Real);
    const std::size_t shared = shared_memory_per_team(exec_);
    const std::size_t grouped = kCells * row_bytes;
    if (shared == 0 || grouped + 16 * 1024 <= shared)
      scratch_bytes_ = grouped;
    else
      scratch_bytes_ = row_bytes + 16 * 1024 <= shared ? row_bytes : 0;
  }

  FaceValues<Real> face_values(const FaceSpec& spec, int axis, int side) const override {
    return maxwellian_face_values<Real>(spec, axis, side, setup_);
  }

  // Strang (paper 003 Eq. 2): A(dt/2) C(dt) A(dt/2), two streaming passes; Lie: A(dt) C(dt).
  int substeps() const override { return setup_.splitting == Splitting::strang ? 2 : 1; }

  // The collision needs every streamed cell of the box: one pass, after the halos.
  bool passes_in_parts() const override { return false; }

  // Streaming over dt / substeps(), then, after the first, the collision over dt.
  void pass(const CellPass<Real>& p) override {
    const std::int64_t cells = p.cells.count();
    const auto wait = device_work(exec_);  // core/phase_events.hpp
    {
      const Phase phase("BoltStreaming", wait);
      StreamOnly<Real> stream{p.f_in, p.f_out, p.vel, p.stream, p.cells};
      for_each_team<1>(exec_, cells, setup_.team_size, 0, stream, "stream_only");
    }
    if (p.substep > 0) return;
    const Phase phase("BoltCollision", wait);
    last_ = projection_set_of_step(seed_, p.step, int(sets_.size()));
    const Set& set = sets_[last_];
    if (scratch_bytes_ >= kCells * std::size_t(setup_.velocity_count) * sizeof(Real))
      collide<kCells>(p, set);
    else
      collide<1>(p, set);
  }

  // The last step's terms skipped for positivity (fraction of all term applications), their
  // share of the sum of |Delta|, and the share of the lattice's counted points excluded because
  // a projection node left the velocity set.
  std::vector<std::pair<std::string, double>> diagnostics() const override {
    const std::vector<double> record = record_.to_host();
    double skipped = 0.0, skipped_delta = 0.0, all_delta = 0.0;
    for (std::size_t c = 0; c + kProjectionRecord <= record.size(); c += kProjectionRecord) {
      skipped += record[c];
      skipped_delta += record[c + 1];
      all_delta += record[c + 2];
    }
    const ProjectionPlanCounts& counts = sets_[last_].counts;
    const double applications = double(counts.terms) * double(setup_.cells);
    return {{"proj_skipped", applications > 0.0 ? skipped / applications : 0.0},
            {"proj_skipped_share", all_delta > 0.0 ? skipped_delta / all_delta : 0.0},
            {"proj_left_set", counts.inside > 0 ? double(counts.left_set) / counts.inside : 0.0}};
  }

 private:
  static constexpr int kCells = kProjectionCells<Real>;

  struct Set {
    Buffer<ProjectionTermNodes> nodes;
    Buffer<ProjectionTermWeights<Real>> weights;
    Buffer<int> batch_start;
    int batches = 0;
    ProjectionPlanCounts counts;
  };

  // A plan's terms in the kernel's form, on the device.
  Set device_set(const ProjectionPlan& plan) const {
    std::vector<ProjectionTermNodes> nodes(plan.terms.size());
    std::vector<ProjectionTermWeights<Real>> weights(plan.terms.size());
    for (std::size_t t = 0; t < plan.terms.size(); ++t) {
      const ProjectionTerm<double>& term = plan.terms[t];
      nodes[t] = projection_term_nodes(term);
      weights[t] = {Real(term.r), Real(term.c)};
    }
    Set set;
    set.nodes = Buffer<ProjectionTermNodes>(setup_.backend, nodes);
    set.weights = Buffer<ProjectionTermWeights<Real>>(setup_.backend, weights);
    set.batch_start = Buffer<int>(setup_.backend, plan.batch_start);
    set.batches = plan.batches();
    set.counts = plan.counts;
    return set;
  }

  // The collision kernel with Cells cells per team.
  template <int Cells>
  void collide(const CellPass<Real>& p, const Set& set) {
    const ProjectionCollision<Real, Cells> kernel{p.f_out,
                                                  p.vel,
                                                  p.cells,
                                                  set.nodes.data(),
                                                  set.weights.data(),
                                                  set.batch_start.data(),
                                                  set.batches,
                                                  record_.data()};
    for_each_team<kProjectionRecord * Cells>(exec_, kernel.groups(), setup_.team_size,
                                             scratch_bytes_, kernel, "projection_collision");
  }

  OperatorSetup setup_;
  std::uint32_t seed_;
  Exec exec_{};
  std::vector<Set> sets_;
  int last_ = 0;
  Buffer<double> record_;
  std::size_t scratch_bytes_ = 0;
};

}  // namespace bolt
