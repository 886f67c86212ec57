#pragma once
// The relaxation models -- BGK, Shakhov, ES-BGK, evaluators of kernels/relaxation.hpp run by one
// fused driver (relaxation_operator.hpp) -- as the run sees them: their options and needs.
#include <mpi.h>

#include <memory>
#include <string>
#include <string_view>

#include "collision_model.hpp"
#include "kernels/relaxation.hpp"

namespace bolt {

// The options the relaxation models share (-model_ group).
struct RelaxationOptions {
  double prandtl = 2.0 / 3.0;        // Shakhov and ES-BGK
  double force[3] = {0.0, 0.0, 0.0};  // uniform body-force acceleration
  int conservative_iterations = 0;   // Newton steps of the conservative equilibrium; 0: off
};

class RelaxationModel final : public CollisionModel {
 public:
  RelaxationModel(std::string_view name, RelaxationKind kind, const RelaxationOptions& options)
      : name_(name), kind_(kind), options_(options) {}

  std::string_view name() const override { return name_; }
  std::string whole_rows_reason() const override;
  int sums_per_cell() const override { return relaxation_sums(kind_); }
  std::string time_step_refusal(double dt) const override;
  std::string step_failure_hint(double dt) const override;
  double collision_frequency(const GasParams& gas, double n, double T) const override;
  // The BGK 3-D cavity of docs/benchmarks.md, H200: 14.3 ps (float), 29.5 ps (double).
  double gpu_ps_per_update(bool single) const override { return single ? 14.3 : 29.5; }

  RelaxationKind kind() const { return kind_; }
  const RelaxationOptions& options() const { return options_; }

 private:
  std::string name_;
  RelaxationKind kind_;
  RelaxationOptions options_;
};

// Reads the options of the relaxation model `name` (evaluator `kind`), checked.
std::shared_ptr<const CollisionModel> read_relaxation_model(MPI_Comm comm, std::string_view name,
                                                            RelaxationKind kind);

}  // namespace bolt
