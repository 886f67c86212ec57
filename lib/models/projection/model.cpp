#include "models/projection/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/error.hpp"
#include "grid/velocity_grid.hpp"
#include "core/option_reader.hpp"
#include "models/projection/options.hpp"
#include "physics/collision_kernel.hpp"
#include "physics/scattering.hpp"

namespace bolt {

// The BGK frequency of the same viscosity, as for hs_mc: the time-step limit of
// -ts_collision_fraction.
double ProjectionModel::collision_frequency(const GasParams& gas, double n, double T) const {
  return gas.delta * n * std::pow(T, 1.0 - gas.omega);
}

// hs_mc's rule (McDevice::make_self_loss): a step removes a fraction L = kappa m(|xi|) dt of f at
// velocity xi, the loss frequency of a molecule of that speed in the equilibrium gas. Beyond
// L = 1 the explicit collision step takes more than a node holds: the method is then neither
// accurate nor positive.
std::string ProjectionModel::accuracy_refusal(const StepAccuracy& step) const {
  if (step.velocities == nullptr || step.dt <= 0.0) return {};
  const VelocityGrid& velocities = *step.velocities;
  double fastest = 0.0;
  for (int v = 0; v < velocities.size(); ++v)
    fastest = std::max(fastest, std::sqrt(velocities.xi[0][v] * velocities.xi[0][v] +
                                          velocities.xi[1][v] * velocities.xi[1][v] +
                                          velocities.xi[2][v] * velocities.xi[2][v]));
  const double loss = kappa(step.gas) * mean_relative_speed_power(fastest, 1.0) * step.dt;
  if (loss < 1.0) return {};
  std::ostringstream out;
  out << "-model_type projection: the time step " << step.dt << " removes a fraction " << loss
      << " of f per step at the speed " << fastest
      << " (must be below 1, as for hs_mc): lower -ts_collision_fraction (0 sets no collision "
         "limit) or -ts_max_courant, or set a smaller -ts_dt";
  return out.str();
}

double ProjectionModel::kappa(const GasParams& gas) const {
  if (options_.potential == ProjectionPotential::hard_sphere) {
    require(gas.omega == 0.5, "-model_omega ", gas.omega,
            ": -projection_potential hs is the hard sphere (0.5)");
    return collision_prefactor(gas.delta, gas.omega);
  }
  // delta = p0 L / (mu0 c0) with the first Chapman-Enskog viscosity of the potential,
  // mu0 = (5/16) sqrt(pi m k T0) / (pi sigma^2 Omega(2,2)*), gives pi sigma^2 n0 L =
  // delta 5 sqrt(2 pi) / (16 Omega(2,2)*); b_max = cutoff sigma.
  const double pi = 3.14159265358979323846;
  const double omega22 = lennard_jones_omega22(options_.temperature / options_.well);
  return options_.cutoff * options_.cutoff * gas.delta * 5.0 * std::sqrt(2.0 * pi) /
         (16.0 * omega22);
}

Deflection ProjectionModel::deflection(const VelocityGrid& velocities) const {
  if (options_.potential == ProjectionPotential::hard_sphere)
    return [](double, double b) { return 2.0 * std::acos(b); };  // b = d cos(chi / 2)
  double speed = 0.0;
  for (int v = 0; v < velocities.size(); ++v)
    speed = std::max(speed, std::sqrt(velocities.xi[0][v] * velocities.xi[0][v] +
                                      velocities.xi[1][v] * velocities.xi[1][v] +
                                      velocities.xi[2][v] * velocities.xi[2][v]));
  // E = (m / 4) g^2 c0^2 = (k T0 / 2) g^2: in units of the well, T* g^2 / 2.
  const double per_g2 = 0.5 * options_.temperature / options_.well;
  const auto table = std::make_shared<const DeflectionTable>(lennard_jones, options_.cutoff,
                                                             2.0 * speed, per_g2, 201, 801);
  return [table, cutoff = options_.cutoff](double g, double b) { return (*table)(b * cutoff, g); };
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
  p.potential = o.choice("projection_potential",
                         "molecular potential: hs (hard spheres) or lj (Lennard-Jones 12-6)", "hs",
                         {"hs", "lj"}) == "lj"
                    ? ProjectionPotential::lennard_jones
                    : ProjectionPotential::hard_sphere;
  p.well = o.positive_real("projection_lj_well",
                           "Lennard-Jones well depth eps / k in kelvin (argon: 119.8)", 119.8);
  p.temperature = o.positive_real(
      "projection_temperature", "the gas's reference temperature T0 in kelvin (Lennard-Jones)", 300.0);
  p.cutoff = o.positive_real("projection_lj_cutoff",
                             "Lennard-Jones: impact parameter where the collision integral is cut, "
                             "in sigma",
                             2.5);
  if (p.potential == ProjectionPotential::lennard_jones) {
    const double t = p.temperature / p.well;
    require(t >= 0.1 && t <= 100.0, "-projection_temperature ", p.temperature,
            " with -projection_lj_well ", p.well, ": T* = ", t,
            " outside 0.1 .. 100, the range of the Omega(2,2)* table");
  }
  return std::make_shared<ProjectionModel>(p);
}

}  // namespace bolt
