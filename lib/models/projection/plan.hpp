#pragma once
// The terms of the projection method's discrete collision integral for one shifted Korobov
// lattice (paper 003; ../shared/refdata/projection/projection_method_tcheremissine.md), made on
// the host: every cell of every rank applies the same terms (kernels/projection/collision.hpp).
//
// Lattice point x in [0, 1)^8 -> pre-collision velocities from x0..x2 and x3..x5 (nodes of the
// uniform N0^3 box, uniformly; a point with either outside the velocity set is not counted),
// impact parameter b = x6 b_max, azimuth eps = 2 pi x7. The post-collision pair (xi', xi1')
// (deflection chi(g, b) of the potential) is projected onto node pairs that keep the momentum of
// the pre-collision pair exactly: (l, m) with l the node nearest xi', and (l + s, m - s) for
// the neighbour s of the 26 around l whose pair energy lies on the other side of the
// pre-collision energy E0 and that minimises (1 - r) |xi_l - xi'|^2 + r |xi_l+s - xi'|^2 (the
// smaller momentum spread of the projection; paper 003's group found it more accurate than the
// nearest energies), r = (E0 - E_lm) / (E_l+s,m-s - E_lm), so the energy is kept exactly.
// A term whose nodes leave the velocity set, or that finds no such neighbour, is excluded and
// counted; one whose pair is the pre-collision pair itself changes nothing and is dropped.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "grid/velocity_grid.hpp"
#include "kernels/projection/collision.hpp"
#include "models/projection/korobov.hpp"

namespace bolt {

struct ProjectionPlanCounts {
  std::int64_t lattice = 0;    // points of the lattice
  std::int64_t inside = 0;     // N_nu: pre-collision pair inside the velocity set
  std::int64_t terms = 0;      // terms of the plan
  std::int64_t left_set = 0;   // a projection node outside the velocity set: excluded
  std::int64_t no_pair = 0;    // no second pair on the other side of E0: excluded
  std::int64_t no_change = 0;  // projected back onto the pre-collision pair (or g = 0)
};

struct ProjectionPlan {
  std::vector<ProjectionTerm<double>> terms;  // batch after batch
  std::vector<int> batch_start;               // [batches + 1]
  ProjectionPlanCounts counts;
  int batches() const { return int(batch_start.size()) - 1; }
};

// The deflection angle chi(g, b) of a potential, b in [0, 1] in units of its b_max.
using Deflection = std::function<double(double g, double b)>;

// The terms of `rule` shifted by `shift` on the grid `velocities` (uniform spacing h, the box of
// N0^3 nodes or its cut by a sphere), for a collision step of `tau` with prefactor `kappa`
// (c = tau kappa N_nodes^2 h^3 b g / (2 N_nu), kernels/projection/collision.hpp). No two terms
// of a batch share a velocity, so the batched step equals applying the terms one by one in their
// stored order; within a batch they are ordered against GPU shared-memory bank conflicts.
// The shift of lattice set `set` (8 uniforms in [0, 1), Philox keyed by (seed, set)), and the
// set a step uses (Philox keyed by the seed, counter the step: a restart and every rank draw the
// same).
std::array<double, kKorobovDimensions> projection_shift(std::uint32_t seed, std::uint32_t set);
int projection_set_of_step(std::uint32_t seed, std::uint32_t step, int sets);

ProjectionPlan make_projection_plan(const VelocityGrid& velocities, const KorobovRule& rule,
                                    const std::array<double, kKorobovDimensions>& shift,
                                    double tau, double kappa, const Deflection& deflection);

}  // namespace bolt
