#include "solver/explicit/explicit_march.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "diagnostics/conservation.hpp"

namespace bolt {

namespace {

// A term of the model the step breaks first, else the time step.
std::string time_step_failure_hint(const RunOptions& run, double dt) {
  const std::string hint = run.model->step_failure_hint(dt);
  char text[200];
  std::snprintf(text, sizeof text,
                "the time step (dt = %.3g) is too large for this grid and gas: lower -ts_dt, "
                "-ts_max_courant or -ts_collision_fraction",
                dt);
  return hint.empty() ? text : hint + ", or " + text;
}

std::vector<std::unique_ptr<Engine>> make_engines(const CaseSetup& setup,
                                                  const Partition& partition,
                                                  const std::vector<EngineConfig>& locals) {
  std::vector<std::unique_ptr<Engine>> engines;
  for (const EngineConfig& local : locals) {
    engines.push_back(make_engine(local));
    engines.back()->set_state(initial_state_rows(setup.run, local.grid, setup.engine.velocities,
                                                 partition.velocity_lo, partition.velocity_count));
  }
  return engines;
}

}  // namespace

ExplicitMarch::ExplicitMarch(const CaseSetup& setup, const Partition& partition,
                             const std::vector<EngineConfig>& locals,
                             std::shared_ptr<Communicator> communicator)
    : partition_(partition),
      nv_(setup.engine.velocities.size()),
      dt_(setup.time_step.dt),
      steady_tolerance_(setup.run.steady_tolerance),
      updates_per_step_(double(setup.engine.grid.interior_cells()) * nv_),
      stored_variable_(setup.run.model->stored_variable()),
      failure_hint_(time_step_failure_hint(setup.run, dt_)),
      boxes_(make_engines(setup, partition, locals), std::move(communicator),
             setup.run.halo_overlap),
      view_(partition, boxes_,
            {setup.engine.grid.cells(0), setup.engine.grid.cells(1), setup.engine.grid.cells(2)},
            nv_) {}

int ExplicitMarch::advance(int count, const std::function<bool()>& stop) {
  const int taken = boxes_.step(count, stop);
  boxes_.synchronize();
  return taken;
}

double ExplicitMarch::residual(const std::vector<double>& now, const std::vector<double>& before,
                               int units) const {
  return bolt::residual(now, before, units);
}

bool ExplicitMarch::converged(double residual) const {
  return steady_tolerance_ > 0.0 && residual < steady_tolerance_;
}

StateLayout ExplicitMarch::state_layout() const {
  StateLayout layout;
  for (const OwnedPart& part : partition_.parts) layout.boxes.push_back(part.box);
  layout.columns = {partition_.velocity_lo, partition_.velocity_count};
  layout.width = nv_;
  return layout;
}

void ExplicitMarch::save_state(BoxValues& f, BoxValues& stored) {
  const bool own_variable = !stored_variable_.empty();
  f.assign(boxes_.size(), {});
  stored.assign(own_variable ? boxes_.size() : 0, {});
  for (int i = 0; i < boxes_.size(); ++i)
    boxes_[i].copy_state(f[i], own_variable ? &stored[i] : nullptr);
}

void ExplicitMarch::restore(const BoxValues& state, std::int64_t unit) {
  for (int i = 0; i < boxes_.size(); ++i) {
    boxes_[i].set_state(state[i]);
    boxes_[i].set_step(unit);
  }
}

std::string ExplicitMarch::stored_variable() const { return stored_variable_; }

void ExplicitMarch::restore_stored(const BoxValues& state, std::int64_t unit) {
  for (int i = 0; i < boxes_.size(); ++i) {
    boxes_[i].set_stored_state(state[i]);
    boxes_[i].set_step(unit);
  }
}

std::vector<double> ExplicitMarch::model_counters() {
  // Every box draws the same samples, so their totals agree; a rank without boxes takes them
  // from the others.
  std::vector<double> values = boxes_.size() > 0 ? boxes_[0].model_counters() : std::vector<double>{};
  int count = static_cast<int>(values.size());
  MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT, MPI_MAX, partition_.world);
  values.resize(count, 0.0);
  MPI_Allreduce(MPI_IN_PLACE, values.data(), count, MPI_DOUBLE, MPI_MAX, partition_.world);
  return values;
}

void ExplicitMarch::restore_model_counters(const std::vector<double>& values) {
  for (int i = 0; i < boxes_.size(); ++i) boxes_[i].set_model_counters(values);
}

std::vector<std::pair<std::string, double>> ExplicitMarch::model_diagnostics() {
  std::vector<std::pair<std::string, double>> values;
  for (int i = 0; i < boxes_.size(); ++i)
    for (const auto& [name, value] : boxes_[i].model_diagnostics()) {
      auto known = std::find_if(values.begin(), values.end(),
                                [&](const auto& entry) { return entry.first == name; });
      if (known == values.end())
        values.emplace_back(name, value);
      else
        known->second = std::max(known->second, value);
    }
  return values;
}

}  // namespace bolt
