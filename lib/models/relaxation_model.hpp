#pragma once
// The relaxation models -- evaluators of kernels/relaxation/ run by one fused driver
// (relaxation_operator.hpp) and by the iterative sweep -- as the run sees them: their options and
// needs. RelaxationModel holds what every relaxation model shares; RelaxationModelOf<Evaluator>
// answers the rest from the evaluator's constants. Host code with no MPI: the engines' CUDA
// translation units reach it through the registry (the options are read by
// relaxation_options.hpp).
#include <cmath>
#include <memory>
#include <string>
#include <string_view>

#include "collision_model.hpp"

namespace bolt {

// The options the relaxation models share (-model_ group).
struct RelaxationOptions {
  double prandtl = 2.0 / 3.0;        // Shakhov and ES-BGK
  double force[3] = {0.0, 0.0, 0.0};  // uniform body-force acceleration
  int conservative_iterations = 0;   // Newton steps of the conservative equilibrium; 0: off
};

class RelaxationModel : public CollisionModel {
 public:
  RelaxationModel(std::string_view name, const RelaxationOptions& options)
      : name_(name), options_(options) {}

  std::string_view name() const override { return name_; }
  std::string whole_rows_reason() const override;
  std::string time_step_refusal(double dt) const override;
  std::string accuracy_refusal(const StepAccuracy& step) const override;
  std::string step_failure_hint(double dt) const override;
  std::string reduction_refusal() const override { return {}; }
  double body_force(int axis) const override { return options_.force[axis]; }

  const RelaxationOptions& options() const { return options_; }
  // The same model with other options (benchmarks and tests vary them).
  virtual std::shared_ptr<const RelaxationModel> with_options(
      const RelaxationOptions& options) const = 0;

 private:
  std::string name_;
  RelaxationOptions options_;
};

template <class Evaluator>
class RelaxationModelOf final : public RelaxationModel {
 public:
  using RelaxationModel::RelaxationModel;

  int sums_per_cell() const override { return Evaluator::kSums; }
  double collision_frequency(const GasParams& gas, double n, double T) const override {
    return Evaluator::frequency_scale(options().prandtl) * gas.delta * n *
           std::pow(T, 1.0 - gas.omega);
  }
  // -model_prandtl where the evaluator takes it; BGK's target gives 1.
  double prandtl() const override { return Evaluator::kTakesPrandtl ? options().prandtl : 1.0; }
  std::shared_ptr<const RelaxationModel> with_options(
      const RelaxationOptions& options) const override {
    return std::make_shared<RelaxationModelOf>(name(), options);
  }
};

}  // namespace bolt
