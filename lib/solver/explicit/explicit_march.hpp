#pragma once
// The explicit split time march (papers 000, 002, 003) as a Solver: the engines of this rank's
// boxes and velocity batch, stepped together with their halos (Subdomains).
#include <memory>
#include <vector>

#include "solver/solver.hpp"
#include "decomposition/partition.hpp"
#include "case/case_setup.hpp"
#include "solver/explicit/boxes_view.hpp"
#include "solver/explicit/subdomains.hpp"

namespace bolt {

class ExplicitMarch : public Solver {
 public:
  // The engines of `locals` start from the run's initial state.
  ExplicitMarch(const CaseSetup& setup, const Partition& partition,
                const std::vector<EngineConfig>& locals,
                std::shared_ptr<Communicator> communicator);

  const char* name() const override { return "explicit"; }
  const char* unit() const override { return "step"; }
  int advance(int count, const std::function<bool()>& stop) override;
  double time_step() const override { return dt_; }
  DomainView& domain() override { return view_; }
  double residual(const std::vector<double>& now, const std::vector<double>& before,
                  int units) const override;
  bool converged(double residual) const override;
  double tolerance() const override { return steady_tolerance_; }
  StateLayout state_layout() const override;
  void save_state(BoxValues& f, BoxValues& stored) override;
  void restore(const BoxValues& state, std::int64_t unit) override;
  std::string stored_variable() const override;
  void restore_stored(const BoxValues& state, std::int64_t unit) override;
  std::vector<double> model_counters() override;
  void restore_model_counters(const std::vector<double>& values) override;
  double updates_per_unit() const override { return updates_per_step_; }
  double bytes_per_unit() const override { return boxes_.bytes_per_step(); }
  CommunicationTimes take_communication_times() override {
    return boxes_.take_communication_times();
  }
  std::vector<std::pair<std::string, double>> model_diagnostics() override;
  std::string failure_hint() const override { return failure_hint_; }

 private:
  const Partition& partition_;
  int nv_;
  double dt_;
  double steady_tolerance_;
  double updates_per_step_;
  std::string stored_variable_;  // the model's (CollisionModel::stored_variable)
  std::string failure_hint_;  // a term of the model the step breaks first, else the time step
  Subdomains boxes_;
  BoxesView view_;
};

}  // namespace bolt
