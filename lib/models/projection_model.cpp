#include "projection_model.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/option_reader.hpp"
#include "physics/collision_kernel.hpp"

namespace bolt {

// The BGK frequency of the same viscosity, as for hs_mc: the time-step limit of
// -ts_collision_fraction.
double ProjectionModel::collision_frequency(const GasParams& gas, double n, double T) const {
  return gas.delta * n * std::pow(T, 1.0 - gas.omega);
}

double ProjectionModel::kappa(const GasParams& gas) const {
  require(gas.omega == 0.5, "-model_omega ", gas.omega,
          ": -model_type projection has hard spheres (0.5)");
  return collision_prefactor(gas.delta, gas.omega);
}

// Hard spheres: b = d cos(chi / 2), b in units of d.
Deflection ProjectionModel::deflection() const {
  return [](double, double b) { return 2.0 * std::acos(b); };
}

std::shared_ptr<const CollisionModel> read_projection_model(MPI_Comm comm) {
  OptionReader o(comm, "Projection method, -model_type projection (-projection_)");
  ProjectionOptions p;
  p.points = o.integer("projection_points",
                       "Korobov lattice points per step (the smallest tabulated prime at least "
                       "this; 10007 .. 10000019)",
                       50000, 1, 10000019);
  p.sets = o.integer("projection_sets",
                     "shifted lattices prepared at the start; each step draws one (paper 003)", 16,
                     1, 4096);
  p.seed = std::uint32_t(o.integer("projection_seed", "seed of the lattice shifts and draws", 1, 0,
                                   std::numeric_limits<int>::max()));
  return std::make_shared<ProjectionModel>(p);
}

}  // namespace bolt
