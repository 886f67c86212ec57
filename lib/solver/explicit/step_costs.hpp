#pragma once
// What one phase-space update of the explicit step costs on an H100/H200, per collision model
// and precision: the pre-run plan's expected time per step. One table, taken from the step
// benchmarks of docs/benchmarks.md; update it with them.
#include <string_view>

namespace bolt {

struct StepCost {
  std::string_view model;
  double float_ps, double_ps;  // picoseconds per phase-space update
  std::string_view source;     // the benchmark of docs/benchmarks.md they come from
};

inline constexpr StepCost kStepCosts[] = {
    {"bgk", 15.1, 31.2, "fused step, 3-D cavity 64^3 x 24^3, H200"},
    {"shakhov", 15.1, 31.2, "as bgk (the same fused step)"},
    {"esbgk", 15.1, 31.2, "as bgk (the same fused step)"},
    {"hs_mc", 9.3, 21.6, "hs_mc step, paper 000's delta = 10 cavity, H200"},
    {"projection", 68.8, 103.0, "paper 003's cavity: float H200, double H100"},
};

// The cost of `model`'s update, 0 for a model the table lacks (the plan then expects nothing).
constexpr double step_cost_ps(std::string_view model, bool single) {
  for (const StepCost& cost : kStepCosts)
    if (cost.model == model) return single ? cost.float_ps : cost.double_ps;
  return 0.0;
}

}  // namespace bolt
