#pragma once
// What one phase-space update of the explicit step costs on an H100/H200, per collision model
// and precision: the pre-run plan's expected time per step. One table, taken from the step
// benchmarks of docs/benchmarks.md; update it with them.
#include <string_view>

namespace bolt {

struct StepCost {
  std::string_view model;
  double float_ps, double_ps;  // picoseconds per phase-space update
};

inline constexpr StepCost kStepCosts[] = {
    {"bgk", 14.3, 29.5},  {"shakhov", 14.3, 29.5},     {"esbgk", 14.3, 29.5},
    {"hs_mc", 9.5, 21.6}, {"projection", 81.0, 103.0},
};

// The cost of `model`'s update, 0 for a model the table lacks (the plan then expects nothing).
constexpr double step_cost_ps(std::string_view model, bool single) {
  for (const StepCost& cost : kStepCosts)
    if (cost.model == model) return single ? cost.float_ps : cost.double_ps;
  return 0.0;
}

}  // namespace bolt
