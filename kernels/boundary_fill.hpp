#pragma once
// Fills the dummy (ghost) cells of one face of the box before streaming. A team handles one
// position on the face (all ghost layers, all velocities). Faces are filled axis by axis over the
// whole padded face, so edges and corners take the values of the last axis filled.
//
// Conditions (exact discrete conservation where it applies):
//  wall      velocities entering the gas: alpha n_w f_M(u_w, T_w) + (1 - alpha) f(reflected);
//            n_w from zero net mass flux with the same discrete sums as the moments (the
//            leaving flux summed by the fill's team, or, when ranks split the velocities, by
//            WallOutflux and then over the velocity ranks);
//            velocities leaving: the boundary cell's value (the face flux of the upwind scheme).
//            Where the stored state is affine in f (the deviation h of f = Phi0 (1 + eps h) of
//            hs_mc) the entering value is alpha (n_w' r_v + e_v) + (1 - alpha) h(reflected):
//            `equilibrium` holds r_v = Phi_w / Phi0, `offset` e_v, and the fluxes are sums of
//            w Phi0 h (the operator's face values and moment weights,
//            lib/models/hs_mc/operator.hpp).
//  specular  every ghost layer k mirrors interior layer k with the reflected velocity.
//  inflow    the given equilibrium.   outflow: the boundary cell's value (zero gradient).
//  periodic  the opposite side's interior layers.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "views.hpp"

namespace bolt {

enum class FaceKind { wall, specular, inflow, outflow, periodic };

// The condition of a face (host side; the fills below take what it makes).
struct FaceSpec {
  FaceKind kind = FaceKind::wall;
  double accommodation = 1.0;
  double velocity[3] = {0.0, 0.0, 0.0};  // wall velocity or inflow velocity
  double temperature = 1.0;              // wall or inflow temperature
  double density = 1.0;                  // inflow density
};

// Geometry of one face segment on the padded grid: the rectangle of padded transverse
// coordinates [first[k], first[k] + count[k]) along (axis + 1) % 3 and (axis + 2) % 3.
struct FaceGeometry {
  int axis;
  int side;                  // 0: low end of the axis, 1: high end
  int interior;              // interior cells along the axis
  int ghost;                 // ghost layers
  int extent[3];             // padded extents
  std::int64_t stride[3];
  int first[2];
  int count[2];

  BOLT_HOST_DEVICE int transverse_count() const { return count[0] * count[1]; }
  // Padded index of the cell at padded coordinate `layer` along the axis, transverse item t
  // (first transverse axis fastest; t < transverse_count(), an int: 32-bit division, where a
  // 64-bit one is a long subroutine on the GPU).
  BOLT_HOST_DEVICE std::int64_t cell(std::int64_t t, int layer) const {
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    const int i1 = first[0] + static_cast<int>(t) % count[0];
    const int i2 = first[1] + static_cast<int>(t) / count[0];
    return layer * stride[axis] + std::int64_t(i1) * stride[a1] + std::int64_t(i2) * stride[a2];
  }
  // Padded coordinate of ghost layer k (k = 0 touches the face) and of interior layer k.
  BOLT_HOST_DEVICE int ghost_layer(int k) const { return side == 0 ? ghost - 1 - k : ghost + interior + k; }
  BOLT_HOST_DEVICE int interior_layer(int k) const { return side == 0 ? ghost + k : ghost + interior - 1 - k; }
  BOLT_HOST_DEVICE int opposite_interior_layer(int k) const {
    return side == 0 ? ghost + interior - 1 - k : ghost + k;
  }
  BOLT_HOST_DEVICE double outward() const { return side == 0 ? -1.0 : 1.0; }
};

// A wall's loops over the velocities take them in batches of kWallBatch on the GPU: item i of
// ceil(nv / B) stands for the velocities i + u items (u < B, consecutive across a warp's lanes),
// all loaded, without branches, before any is used (loads past nv read the last velocity and are
// not used). A loop over single velocities waits on each velocity's normal, then on its row
// value: latency-bound.
constexpr int kWallBatch = 4;

// Mass flux leaving the gas through a wall at one transverse position: the sum over leaving v of
// w |xi_n| f of the boundary row (on every thread of the team).
template <class Team, class Real>
BOLT_HOST_DEVICE double wall_outflux_of(const Team& team, const Real* boundary,
                                        const Velocities<Real>& vel, const FaceGeometry& face) {
  constexpr int kBatch = Team::kBatchesLoads ? kWallBatch : 1;
  const int nv = vel.n, items = (nv + kBatch - 1) / kBatch;
  const Real* normal = vel.component(face.axis);
  const Real sign = Real(face.outward());
  const auto flux = team.template reduce_rolled<1>(items, [&](int i, Sums<1>& s) {
    Real xn[kBatch], w[kBatch], f[kBatch];
    for (int u = 0; u < kBatch; ++u) {
      const int v = i + u * items < nv ? i + u * items : nv - 1;
      xn[u] = sign * normal[v];
      w[u] = vel.w[v];
      f[u] = boundary[v];
    }
    for (int u = 0; u < kBatch; ++u)
      if (i + u * items < nv && xn[u] > Real(0))
        s[0] += double(w[u]) * double(xn[u]) * double(f[u]);
  });
  return flux[0];
}

// The same per transverse position into an array: for a wall whose leaving flux is summed over
// the ranks that split the velocities before BoundaryFill uses it.
template <class Real>
struct WallOutflux {
  const Real* f;
  Velocities<Real> vel;
  FaceGeometry face;
  double* out;  // [transverse]

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t t) const {
    const double flux =
        wall_outflux_of(team, f + face.cell(t, face.interior_layer(0)) * vel.row, vel, face);
    if (team.leader()) out[t] = flux;
  }
};

template <class Real>
struct BoundaryFill {
  Real* f;
  Velocities<Real> vel;
  FaceGeometry face;
  FaceKind kind;
  const Real* equilibrium;  // [nv] wall f_M(1, u_w, T_w) or inflow f_M(n, u, T)
  const int* reflect;       // [nv] velocity with xi[axis] negated (wall with alpha < 1, specular)
  double accommodation;     // alpha
  double wall_influx_per_density;  // sum over entering v of w |xi_a| f_M(1, u_w, T_w)
  // Walls: the leaving flux per transverse position from WallOutflux, or nullptr: the team sums
  // it from the boundary row with the weights of `flux_vel` (one launch per face instead of two:
  // the launches of small face fills are a visible share of a step).
  const double* wall_outflux;
  Velocities<Real> flux_vel;
  const Real* offset = nullptr;  // [nv] walls where the state is affine in f, else nullptr

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t t) const {
    const int nv = vel.n, row = vel.row;
    const Real* boundary = f + face.cell(t, face.interior_layer(0)) * row;
    if (kind == FaceKind::wall) {
      const double density =
          (wall_outflux ? wall_outflux[t] : wall_outflux_of(team, boundary, flux_vel, face)) /
          wall_influx_per_density;
      fill_wall(team, t, boundary, Real(accommodation * density));
      return;
    }
    for (int k = 0; k < face.ghost; ++k) {
      Real* g = f + face.cell(t, face.ghost_layer(k)) * row;
      const Real* mirror = f + face.cell(t, face.interior_layer(k)) * row;
      const Real* opposite = f + face.cell(t, face.opposite_interior_layer(k)) * row;
      team.for_each(nv, [&](int v) {
        switch (kind) {
          case FaceKind::wall: break;  // fill_wall
          case FaceKind::specular: g[v] = mirror[reflect[v]]; break;
          case FaceKind::inflow: g[v] = equilibrium[v]; break;
          case FaceKind::outflow: g[v] = boundary[v]; break;
          case FaceKind::periodic: g[v] = opposite[v]; break;
        }
      });
    }
  }

  // A wall's ghost layers: velocities leaving the gas take the boundary cell's value, those
  // entering alpha n_w f_M (+ alpha e_v in the deviational form) + (1 - alpha) f(reflected), with
  // `entering_density` = alpha n_w; in batches (kWallBatch).
  template <class Team>
  BOLT_HOST_DEVICE void fill_wall(const Team& team, std::int64_t t, const Real* boundary,
                                  Real entering_density) const {
    constexpr int kBatch = Team::kBatchesLoads ? kWallBatch : 1;
    const int nv = vel.n, items = (nv + kBatch - 1) / kBatch;
    const Real* normal = vel.component(face.axis);
    const Real sign = Real(face.outward()), alpha = Real(accommodation),
               reflected = Real(1.0 - accommodation);
    for (int k = 0; k < face.ghost; ++k) {
      Real* g = f + face.cell(t, face.ghost_layer(k)) * vel.row;
      team.for_each_rolled(items, [&](int i) {
        Real xn[kBatch], value[kBatch], entering[kBatch];
        for (int u = 0; u < kBatch; ++u) {
          const int v = i + u * items < nv ? i + u * items : nv - 1;
          xn[u] = sign * normal[v];
          value[u] = boundary[v];
          entering[u] = entering_density * equilibrium[v];
          if (offset) entering[u] += alpha * offset[v];
          if (accommodation < 1.0) entering[u] += reflected * boundary[reflect[v]];
        }
        for (int u = 0; u < kBatch; ++u)
          if (i + u * items < nv) g[i + u * items] = xn[u] > Real(0) ? value[u] : entering[u];
      });
    }
  }
};

// Several face fills in one launch: items [end[k - 1], end[k]) are fill k's transverse
// positions. The engine batches the faces of one axis, which write different ghost cells and read
// only interior ones (the next axis reads their ghosts at its edges and corners: a launch of its
// own). One launch per face leaves the step waiting on several launches, each too small to fill
// the GPU.
constexpr int kMaxFillsPerLaunch = 4;
template <class Real>
struct BoundaryFills {
  BoundaryFill<Real> fill[kMaxFillsPerLaunch];
  std::int64_t end[kMaxFillsPerLaunch] = {};
  int count = 0;

  void add(const BoundaryFill<Real>& f) {
    fill[count] = f;
    end[count] = (count > 0 ? end[count - 1] : 0) + f.face.transverse_count();
    ++count;
  }

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    int k = 0;
    while (item >= end[k]) ++k;
    fill[k](team, item - (k > 0 ? end[k - 1] : 0));
  }
};

// Fluxes through a face per transverse position, with the face values of the first-order upwind
// scheme (leaving: boundary cell; entering: ghost layer 0), signed along the outward normal:
// [mass, momentum x, y, z, energy (sum xi_n |xi|^2)].
template <class Real>
struct FaceFluxes {
  const Real* f;
  Velocities<Real> vel;
  FaceGeometry face;
  double* out;  // [transverse * 5]

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t t) const {
    const int nv = vel.n;
    const double sign = face.outward();
    const Real* boundary = f + face.cell(t, face.interior_layer(0)) * vel.row;
    const Real* ghost = f + face.cell(t, face.ghost_layer(0)) * vel.row;
    const auto s = team.template reduce<5>(nv, [&](int v, Sums<5>& acc) {
      const double x = vel.x[v], y = vel.y[v], z = vel.z[v];
      const double xn = sign * double(vel.xi(face.axis, v));
      const double value = xn > 0.0 ? double(boundary[v]) : double(ghost[v]);
      const double flux = double(vel.w[v]) * xn * value;
      acc[0] += flux;
      acc[1] += flux * x;
      acc[2] += flux * y;
      acc[3] += flux * z;
      acc[4] += flux * (x * x + y * y + z * z);
      if (vel.h) acc[4] += double(vel.h[v]) * xn * value;  // an h node's |xi_r|^2 flux
    });
    if (team.leader())
      for (int k = 0; k < 5; ++k) out[t * 5 + k] = s[k];
  }
};

}  // namespace bolt
