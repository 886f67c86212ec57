#pragma once
// -model_type projection: the full Boltzmann equation by Tcheremissine's conservative projection
// method (paper 003), as the run sees it: its options (-projection_) and needs. Its operator is
// ProjectionOperator (operator.hpp); the terms of its collision integral are built by plan.hpp;
// its option reader is in options.hpp.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "models/collision_model.hpp"
#include "models/projection/plan.hpp"

namespace bolt {

enum class ProjectionPotential { hard_sphere, lennard_jones };

struct ProjectionOptions {
  std::int64_t points = 50000;  // lattice size asked for (the smallest tabulated p >= it)
  int sets = 16;                // shifted lattices prepared at the start, one drawn per step
  std::uint32_t seed = 1;       // of the shifts and of the draw (Philox)
  ProjectionPotential potential = ProjectionPotential::hard_sphere;
  // Lennard-Jones 12-6 (argon by default): well depth eps / k and T0 in kelvin, and the impact
  // parameter where the integral is cut, in sigma.
  double well = 119.8, temperature = 300.0, cutoff = 2.5;
};

class ProjectionModel final : public CollisionModel {
 public:
  explicit ProjectionModel(const ProjectionOptions& options) : options_(options) {}

  std::string_view name() const override { return "projection"; }
  std::string whole_rows_reason() const override {
    return "-model_type projection collides every velocity of a cell with the others";
  }
  int sums_per_cell() const override { return 0; }
  double collision_frequency(const GasParams& gas, double n, double T) const override;
  std::string accuracy_refusal(const StepAccuracy& step) const override;
  // Per cell its record; per lattice set its terms (about a fifth of the points, 24 bytes each
  // in float, 32 in double).
  double operator_bytes(std::int64_t cells) const override {
    return 8.0 * kProjectionRecord * double(cells) + options_.sets * 0.2 * options_.points * 32.0;
  }

  const ProjectionOptions& options() const { return options_; }
  // kappa = pi b_max^2 n0 L of the gas (hard spheres: b_max = d; Lennard-Jones: the cutoff),
  // from delta through the viscosity of the potential at T0.
  double kappa(const GasParams& gas) const;
  // chi(g, b), b in units of b_max, for relative speeds up to twice the largest speed of
  // `velocities` (Lennard-Jones: tabulated once here from the scattering integral).
  Deflection deflection(const VelocityGrid& velocities) const;

 private:
  ProjectionOptions options_;
};

}  // namespace bolt
