#include "relaxation_options.hpp"

#include "core/error.hpp"
#include "core/option_reader.hpp"
#include "model_readers.hpp"

namespace bolt {

RelaxationOptions read_relaxation_options(MPI_Comm comm, const RelaxationLimits& limits) {
  OptionReader o(comm, "Relaxation models: bgk, shakhov, esbgk (-model_)");
  RelaxationOptions r;
  {
    const OptionUseScope use(prandtl_use());
    r.prandtl = o.real("model_prandtl", "Prandtl number of Shakhov and ES-BGK", 2.0 / 3.0);
  }
  if (limits.least_prandtl > 0.0)
    require(r.prandtl >= limits.least_prandtl, "-model_prandtl ", r.prandtl, ": ",
            limits.prandtl_reason);
  require(r.prandtl > 0.0, "-model_prandtl ", r.prandtl, ": must be positive");
  const bool conservative = o.flag(
      "model_conservative",
      "conservative discrete equilibrium: effective n, u, T by Newton so discrete moments match",
      false);
  const int iterations =
      o.integer("model_newton_iterations", "Newton steps of the conservative equilibrium", 4, 1, 20);
  require(!conservative || limits.conservative,
          "-model_conservative: this model's target has no conservative form");
  r.conservative_iterations = conservative ? iterations : 0;
  const auto force = o.reals("model_force", "uniform body-force acceleration (units c0^2/L)", {0, 0, 0});
  for (int a = 0; a < 3; ++a) r.force[a] = force[a];
  return r;
}

}  // namespace bolt
