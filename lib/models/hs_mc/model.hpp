#pragma once
// -model_type hs_mc, the full Boltzmann equation for hard spheres (VHS for omega > 0.5) by the
// semi-regular Monte Carlo method of paper 000, as the run sees it: its options (-mc_) and needs.
// Its operator is McOperator (operator.hpp); its option reader is in options.hpp.
#include <memory>
#include <string>
#include <string_view>

#include "models/collision_model.hpp"
#include "models/hs_mc/params.hpp"

namespace bolt {

class McModel final : public CollisionModel {
 public:
  explicit McModel(const McParams& options) : options_(options) {}

  std::string_view name() const override { return "hs_mc"; }
  std::string whole_rows_reason() const override {
    return "-model_type hs_mc collides every velocity of a cell with the others";
  }
  std::string splitting_refusal(Splitting splitting) const override;
  // h of f = Phi0 (1 + eps h): f keeps fewer of its bits the smaller eps h is.
  std::string stored_variable() const override { return "h"; }
  int sums_per_cell() const override { return 0; }
  double collision_frequency(const GasParams& gas, double n, double T) const override;
  // Per cell its record (and the PETSc correction's system); per sample set (two) about 200 bytes
  // a sample for the samples, their increments and the gather plan.
  double operator_bytes(std::int64_t cells) const override {
    const int per_cell = kMcRecord + (options_.correction == McCorrection::external ? kMcSystem : 0);
    return 8.0 * per_cell * double(cells) + 2.0 * 200.0 * options_.samples;
  }

  const McParams& options() const { return options_; }

 private:
  McParams options_;
};

}  // namespace bolt
