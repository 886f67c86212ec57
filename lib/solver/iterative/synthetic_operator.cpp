#include "solver/iterative/synthetic_operator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bolt {

namespace {

constexpr int kConserved = kSyntheticConserved;
constexpr int kBlock = kConserved * kConserved;
// The eps of eps nu I: small against the slow modes' eigenvalues of div_h Phi / nu, so that it
// barely damps their correction, large enough to keep the factorisations' pivots away from zero.
constexpr double kRegularisation = 1e-3;

}  // namespace

SyntheticOperator::SyntheticOperator(const SyntheticConfig& config) : config_(config) {
  solid_wall_.temperature = config.solid_temperature;
  for (int a = 0; a < 3; ++a) n_[a] = config.grid.cells(a);
  stride_[1] = n_[0];
  stride_[2] = std::int64_t(n_[0]) * n_[1];
  cells_ = config.grid.interior_cells();
  nu_.assign(cells_, 0.0);
  pattern_.row_start.reserve(cells_ + 1);
  pattern_.row_start.push_back(0);
  for (std::int64_t c = 0; c < cells_; ++c) {
    const std::size_t first = pattern_.columns.size();
    pattern_.columns.push_back(c);
    const int at[3] = {int(c % n_[0]), int(c / n_[0] % n_[1]), int(c / n_[0] / n_[1])};
    if (!solid(c))
      for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
          if (!config_.grid.active[axis]) continue;
          const Face face = face_of(c, at, axis, side);
          if (face.interior) pattern_.columns.push_back(face.neighbour);
        }
    std::sort(pattern_.columns.begin() + first, pattern_.columns.end());
    pattern_.row_start.push_back(std::int64_t(pattern_.columns.size()));
  }
}

SyntheticOperator::State SyntheticOperator::state_of(const double* U) {
  State s;
  s.n = U[0];
  for (int i = 0; i < 3; ++i) s.u[i] = U[1 + i] / U[0];
  const double u2 = s.u[0] * s.u[0] + s.u[1] * s.u[1] + s.u[2] * s.u[2];
  s.T = (4.0 / 3.0) * (U[4] / U[0] - 0.5 * u2);  // E = n u^2 / 2 + (3/4) n T
  return s;
}

// The flux along `axis` of the half (sign +1: xi_axis > 0; -1: < 0) of the Maxwellian of `s`,
// f = n (pi T)^-3/2 exp(-|xi - u|^2 / T): kinetic flux-vector splitting, the macroscopic image
// of the sweep's upwind flux of an equilibrium.
void SyntheticOperator::add_half_flux(const State& s, int axis, double sign, double* flux) {
  const double u = s.u[axis], T = s.T, root = std::sqrt(T);
  const double A = 0.5 * (1.0 + sign * std::erf(u / root));
  const double B = sign * root / (2.0 * std::sqrt(M_PI)) * std::exp(-u * u / T);
  const double M1 = u * A + B;
  const double M2 = (u * u + 0.5 * T) * A + u * B;
  const double M3 = (u * u * u + 1.5 * u * T) * A + (u * u + T) * B;
  double transverse = 0.0;
  for (int i = 0; i < 3; ++i)
    if (i != axis) transverse += s.u[i] * s.u[i];
  flux[0] += s.n * M1;
  for (int i = 0; i < 3; ++i) flux[1 + i] += i == axis ? s.n * M2 : s.n * s.u[i] * M1;
  flux[4] += 0.5 * s.n * (M3 + (transverse + T) * M1);
}

double SyntheticOperator::viscosity(double T) const {
  return std::pow(T, config_.gas.omega) / (2.0 * config_.gas.delta);
}

// Navier-Stokes viscous and heat flux across a face normal to `axis` between the velocities and
// temperatures (ua, Ta) below and (ub, Tb) above; `uf` is the velocity at the face (for the work
// of the stress).
void SyntheticOperator::add_viscous_flux(int axis, const double* ua, double Ta, const double* ub,
                                         double Tb, double distance_u, double distance_T,
                                         const double* uf, double* flux) const {
  const double Tf = 0.5 * (Ta + Tb);
  const double mu = viscosity(Tf), kappa = 1.25 * mu / config_.gas.prandtl;
  double work = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double stress = -(i == axis ? 4.0 / 3.0 : 1.0) * mu * (ub[i] - ua[i]) / distance_u;
    flux[1 + i] += stress;
    work += stress * uf[i];
  }
  flux[4] += work - kappa * (Tb - Ta) / distance_T;
}

void SyntheticOperator::boundary_flux(const State& s, int axis, int side, const FaceSpec& face,
                                      double half_width, double* flux) const {
  State mirror = s;
  mirror.u[axis] = -s.u[axis];
  switch (face.kind) {
    case FaceKind::wall: {
      add_half_flux(side == 0 ? mirror : s, axis, +1.0, flux);
      add_half_flux(side == 0 ? s : mirror, axis, -1.0, flux);
      // Velocity slip and temperature jump over about a mean free path (diffuse walls).
      const double p = 0.5 * s.n * s.T, mu = viscosity(s.T);
      const double path = mu / p * std::sqrt(M_PI * s.T) / 2.0;
      double uw[3] = {face.velocity[0], face.velocity[1], face.velocity[2]};
      uw[axis] = 0.0;
      if (side == 0)
        add_viscous_flux(axis, uw, face.temperature, s.u, s.T, half_width + path,
                         half_width + 2.0 * path, uw, flux);
      else
        add_viscous_flux(axis, s.u, s.T, uw, face.temperature, half_width + path,
                         half_width + 2.0 * path, uw, flux);
      break;
    }
    case FaceKind::specular:
      add_half_flux(side == 0 ? mirror : s, axis, +1.0, flux);
      add_half_flux(side == 0 ? s : mirror, axis, -1.0, flux);
      break;
    case FaceKind::inflow: {
      const State in{
          face.density, {face.velocity[0], face.velocity[1], face.velocity[2]}, face.temperature};
      add_half_flux(side == 0 ? in : s, axis, +1.0, flux);
      add_half_flux(side == 0 ? s : in, axis, -1.0, flux);
      break;
    }
    case FaceKind::outflow:
      add_half_flux(s, axis, +1.0, flux);
      add_half_flux(s, axis, -1.0, flux);
      break;
    case FaceKind::periodic:  // refused when the correction is made
      break;
  }
}

void SyntheticOperator::interior_flux(int axis, const State& below, const State& above,
                                      double distance, double* flux) const {
  add_half_flux(below, axis, +1.0, flux);
  add_half_flux(above, axis, -1.0, flux);
  double uf[3];
  for (int i = 0; i < 3; ++i) uf[i] = 0.5 * (below.u[i] + above.u[i]);
  add_viscous_flux(axis, below.u, below.T, above.u, above.T, distance, distance, uf, flux);
}

SyntheticOperator::Face SyntheticOperator::face_of(std::int64_t c, const int at[3], int axis,
                                                   int side) const {
  const Axis& along = config_.grid.axes[axis];
  Face face{false, -1, nullptr, 0.5 * along.widths[at[axis]], 0.0};
  const int next = at[axis] + (side == 0 ? -1 : 1);
  if (next < 0 || next >= n_[axis]) {
    face.closure = &config_.faces[axis][side];
    return face;
  }
  const std::int64_t d = c + (side == 0 ? -1 : 1) * stride_[axis];
  if (solid(d)) {
    face.closure = &solid_wall_;
    return face;
  }
  face.interior = true;
  face.neighbour = d;
  face.distance = std::abs(along.centres[next] - along.centres[at[axis]]);
  return face;
}

void SyntheticOperator::face_flux(const Face& face, int axis, int side, const State& own,
                                  const State& other, double* flux) const {
  std::fill_n(flux, kConserved, 0.0);
  if (!face.interior) {
    boundary_flux(own, axis, side, *face.closure, face.half_width, flux);
    return;
  }
  interior_flux(axis, side == 0 ? other : own, side == 0 ? own : other, face.distance, flux);
}

void SyntheticOperator::apply(const double* U, double* out) const {
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < cells_; ++c) {
    double* o = out + c * kConserved;
    if (solid(c)) {
      std::copy_n(U + c * kConserved, kConserved, o);
      continue;
    }
    const State s = state_of(U + c * kConserved);
    const int at[3] = {int(c % n_[0]), int(c / n_[0] % n_[1]), int(c / n_[0] / n_[1])};
    for (int k = 0; k < kConserved; ++k) o[k] = kRegularisation * nu_[c] * U[c * kConserved + k];
    for (int axis = 0; axis < 3; ++axis) {
      if (!config_.grid.active[axis]) continue;
      for (int side = 0; side < 2; ++side) {
        const Face face = face_of(c, at, axis, side);
        const State other = face.interior ? state_of(U + face.neighbour * kConserved) : s;
        double flux[kConserved];
        face_flux(face, axis, side, s, other, flux);
        const double coefficient = (side == 0 ? -0.5 : 0.5) / face.half_width;
        for (int k = 0; k < kConserved; ++k) o[k] += coefficient * flux[k];
      }
    }
  }
}

void SyntheticOperator::jacobian(const double* U, double* blocks) const {
  // The one-sided difference's step: the square root of the rounding error, relative to the
  // unknown or, for the momenta that vanish at rest, to the density.
  const double relative_step = std::sqrt(std::numeric_limits<double>::epsilon());
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < cells_; ++c) {
    const std::int64_t first = pattern_.row_start[c], last = pattern_.row_start[c + 1];
    std::fill(blocks + first * kBlock, blocks + last * kBlock, 0.0);
    const auto block_of = [&](std::int64_t column) {
      const auto* begin = pattern_.columns.data() + first;
      return blocks + (std::lower_bound(begin, pattern_.columns.data() + last, column) -
                       pattern_.columns.data()) *
                          kBlock;
    };
    double* own_block = block_of(c);
    if (solid(c)) {
      for (int k = 0; k < kConserved; ++k) own_block[k * kConserved + k] = 1.0;
      continue;
    }
    for (int k = 0; k < kConserved; ++k)
      own_block[k * kConserved + k] = kRegularisation * nu_[c];
    const double* Uc = U + c * kConserved;
    const State s = state_of(Uc);
    const int at[3] = {int(c % n_[0]), int(c / n_[0] % n_[1]), int(c / n_[0] / n_[1])};
    for (int axis = 0; axis < 3; ++axis) {
      if (!config_.grid.active[axis]) continue;
      for (int side = 0; side < 2; ++side) {
        const Face face = face_of(c, at, axis, side);
        const double* Ud = face.interior ? U + face.neighbour * kConserved : Uc;
        const State other = face.interior ? state_of(Ud) : s;
        const double coefficient = (side == 0 ? -0.5 : 0.5) / face.half_width;
        double base[kConserved], moved[kConserved];
        face_flux(face, axis, side, s, other, base);
        // The derivatives with respect to the cell's own unknowns, then its neighbour's.
        for (int whose = 0; whose < (face.interior ? 2 : 1); ++whose) {
          const double* from = whose == 0 ? Uc : Ud;
          double* block = whose == 0 ? own_block : block_of(face.neighbour);
          for (int k = 0; k < kConserved; ++k) {
            double shifted[kConserved];
            std::copy_n(from, kConserved, shifted);
            shifted[k] += relative_step * std::max(std::abs(from[k]), std::abs(from[0]));
            const double h = shifted[k] - from[k];  // the step as rounded
            const State state = state_of(shifted);
            face_flux(face, axis, side, whose == 0 ? state : s, whose == 0 ? other : state,
                      moved);
            for (int i = 0; i < kConserved; ++i)
              block[k * kConserved + i] += coefficient * (moved[i] - base[i]) / h;
          }
        }
      }
    }
  }
}

}  // namespace bolt
