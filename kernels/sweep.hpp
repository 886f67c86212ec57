#pragma once
// One source iteration of the steady model equations (paper 004): with the relaxation target F
// and the collision frequency nu of every cell frozen at the moments of iteration k, each
// discrete velocity xi solves the first-order upwind equations
//   (nu + sum_d |xi_d| / dx_d) f = nu F + sum_d |xi_d| / dx_d f(upwind neighbour along d)
// in one sweep through space from its upwind corner (the equations are lower triangular in that
// order). A velocity keeps only the slice of f the sweep still needs -- the previous line (2-D)
// or plane (3-D), overwritten in place -- and adds its part of the moments of iteration k + 1,
// and of the fluxes through the outer faces, as it passes each cell.
//
// Second order (-stream_order 2, step_second_order): the same sweep with face values
// reconstructed from the cell and its upwind cells only, so that the equations stay lower
// triangular in the sweep's order (the slice holds, per axis, the upwind cell's value, the face
// value it left and its upwind difference: paper 004's "three slices"); see step_second_order.
//
// Faces: a wall's entering velocities take n_w f_M(1, u_w, T_w) with n_w from the leaving flux
// of the previous iteration (the sweep records it); inflow the given equilibrium; outflow the
// cell's own value (zero gradient: the term moves to the left-hand side).
//
// The same body runs on the CPU (lib/solver/iterative/sweep_lanes_cpu.hpp repeats a swept cell's
// update, beside faces and solids too, as SIMD loops over a group of slots of one octant; per
// slot only solid cells and grids not active along x) and on the GPU (a thread per velocity,
// slices interleaved across the batch so a warp's accesses coalesce, sums reduced across the
// warp): the accumulator and slice view are the backend's.
#include <cstdint>

#include "boundary_fill.hpp"
#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "macroscopic.hpp"
#include "relaxation/relaxation.hpp"
#include "streaming.hpp"
#include "views.hpp"

namespace bolt {

// What the sweep reads of a cell, in f's precision: the target of its moments and its collision
// frequency (every velocity of the cell reads them). 16 values, aligned so that a GPU thread
// reads them 4 at a time.
template <class Real>
struct alignas(4 * sizeof(Real)) SweepCell {
  CompactTarget<Real> target;
  Real nu;
};

// Per outer-face position: the fluxes of FaceFluxes (mass, momentum x, y, z, energy, signed
// along the outward normal) and the mass flux leaving the gas (a wall's n_w of the next
// iteration).
constexpr int kFaceSums = 6;

struct SweepFace {
  FaceKind kind = FaceKind::wall;
  const double* density = nullptr;  // [transverse] wall: n_w of this iteration
  double* sums = nullptr;           // [transverse][kFaceSums], accumulated
};

template <class Real>
struct SweepFaceTables {
  const Real* ghost[3][2];  // [nv] wall: f_M(1, u_w, T_w); inflow: f_M(n, u, T)
  const Real* solid;        // [nv] the solids' walls: f_M(1, 0, T_s)
  // Symmetry (specular) faces: the boundary cell's value of each velocity leaving through the
  // face, [transverse][nv][mirror_values], which its mirror image enters with; the sweep takes
  // the leaving velocities first (lib/solver/sweep_slots.cpp: phases), so the values are this
  // iteration's. Second order keeps 3 (SweepCarry: the cell's value, its face value, its upwind
  // difference), so that the entering velocity sees the mirror image of the leaving one's cells.
  Real* mirror[3][2];
  int mirror_values;  // 1 (first order) or 3
  const int* reflect[3];  // [nv] the velocity with xi_a negated
};

// Per cell, what its step must look at beyond the upwind neighbours of the interior: bit 2 a + s
// a solid on side s of axis a, kOuterFaceCell a first or last cell along an active axis,
// kSolidCell inside a solid (sweep_cell_flags, lib/solver/sweep_slots.cpp). A cell of flags 0
// takes the short path.
constexpr unsigned kSolidSides = (1u << 6) - 1;
constexpr unsigned kOuterFaceCell = 1u << 6;
constexpr unsigned kSolidCell = 1u << 7;

// Solid boxes inside the grid (paper 004's cube): their cells are not swept; a side of a gas cell
// that touches one is a diffuse wall at rest at the solids' temperature, its density from the
// leaving flux of the previous iteration as at the outer walls. Sides k = 2 a + s (axis a, side s
// of the gas cell).
struct SweepSolids {
  const double* density = nullptr;  // [cell][6] n_w of the wall on side k of a gas cell
  double* outflux = nullptr;        // [cell][6] mass flux leaving the gas into it, added
};

// The box the sweep runs over: cells per axis (active axes x, x-y or x-y-z), inverse widths in
// f's precision.
template <class Real = double>
struct SweepGrid {
  int n[3];
  const Real* inverse_width[3];  // [cells of the axis] 1 / dx; nullptr on inactive axes
  BOLT_HOST_DEVICE bool active(int a) const { return n[a] > 1; }
  BOLT_HOST_DEVICE std::int64_t cells() const { return std::int64_t(n[0]) * n[1] * n[2]; }
  // Elements of one array of a velocity's slice: the previous plane (3-D), line (2-D), nothing
  // (1-D).
  BOLT_HOST_DEVICE std::int64_t slice_size() const {
    return n[2] > 1 ? std::int64_t(n[0]) * n[1] : (n[1] > 1 ? n[0] : 1);
  }
  // Arrays of slice_size() a velocity's slice holds: first order the upwind values; second order
  // also each transverse axis's face values and upwind differences (kSlice* below).
  BOLT_HOST_DEVICE int slice_arrays(int order) const {
    return order == 1 ? 1 : (n[2] > 1 ? 5 : 3);
  }
};

// Second order: the arrays of a slice (element p of array q at q * slice_size() + p). 2-D: the
// previous line's values, the y faces they left, their y differences. 3-D: the values (the
// previous plane, overwritten in place line by line, so that line j - 1 of the current plane is
// there too), the z faces and differences the previous plane left, and the y faces and
// differences of the current plane's previous line.
constexpr int kSliceValue = 0;
constexpr int kSliceFace2D = 1, kSliceDifference2D = 2;
constexpr int kSliceFaceZ = 1, kSliceDifferenceZ = 2, kSliceFaceY = 3, kSliceDifferenceY = 4;

// What a second-order sweep carries from a cell to the next along x (and keeps in the slice
// along y and z): the cell's value, the value it left through its downwind face, its upwind
// difference (one cell's worth: f_i - f_{i-1}, or 2 (f_i - g) for a cell whose upwind side is
// a face of value g, half a cell away).
template <class Real>
struct SweepCarry {
  Real value = Real(0), face = Real(0), difference = Real(0);
};

// The copies of the sums (sweep_sum_copies): moments, face sums and solid outflux lie in one
// buffer, copy c of each `stride` values after copy 0.
struct SweepCopies {
  int count = 1;
  std::int64_t stride = 0;
};

// A velocity's slice: element p at base[p * stride]. Positions and strides are 32 bits (the
// engine checks that a slice's positions and a batch's slots fit), their product 64: on the GPU
// one widening multiply (a product of 64-bit operands takes three), at a dozen slice accesses a
// cell.
template <class Real>
struct SliceView {
  Real* base;
  int stride;
  BOLT_HOST_DEVICE Real& operator[](int p) const { return base[std::int64_t(p) * stride]; }
};

// The second-order sweep's positivity: the largest theta in [0, 1] by which a cell's slopes can
// be scaled so that neither its value nor any face value it leaves falls below `lowest` (0, or
// the lowest of the values the cell is built from where one of those is negative: a Shakhov
// target's tail). With the slopes scaled by theta the cell's value is first - theta drop, where
// first is its value without slopes (first order: a convex combination of its target and its
// entering face values, so never below lowest) and drop = first - f; the face value along axis a
// is first - theta (drop - s_a / 2). The limiter takes its differences at the cell's unlimited
// solution, not at f, so where f falls far below it (the foot of a shock resolved by one or two
// cells, where the velocities running upstream drop by orders of magnitude within a cell) a
// slope can pull f or a face value below zero, and that deficit of upstream-running particles
// would cool the gas ahead of the cube's bow shock by 1 %. Linear constraints that theta = 0
// meets: theta is the smallest of their bounds room / fall (room = first - lowest, fall the
// constraint's fall at theta = 1, where it is positive), continuous in the inputs (the
// fixed-point iteration needs that: docs/physics.md), 1 wherever f and its face values stay above
// lowest (smooth positive f). The bounds share their numerator, so the smallest is room over the
// largest fall: one division a cell, not one per constraint (a division is a dozen instructions
// on the GPU, and a 3-D cell has four constraints). room is at least 0 (first is below lowest
// only by rounding, which would give a negative theta).
// Selects, not branches, and the slopes by value, one per swept axis: the CPU's SIMD loop over
// slots vectorizes only where no array of it has its address taken.
template <class Real, class... Slopes>
BOLT_HOST_DEVICE inline Real positive_slope_fraction(Real first, Real f, Real lowest,
                                                     Slopes... slope) {
  const Real above = first - lowest, drop = first - f;
  const Real room = above > Real(0) ? above : Real(0);
  Real fall = drop;
  ((fall = drop - Real(0.5) * slope > fall ? drop - Real(0.5) * slope : fall), ...);
  return room < fall ? fast_quotient(room, fall) : Real(1);
}

template <class Real, class Relax>
struct Sweep {
  Velocities<Real> vel;      // the velocities this rank owns
  const int* slot_velocity;  // [slot] the velocity a slot sweeps (idle slots: their group's first)
  // [slot] its weight (a reduced set's h node: its h weight), 0 for idle slots (they sweep but
  // add nothing)
  const Real* slot_weight;
  const SweepCell<Real>* cells;  // [interior cell]
  SweepGrid<Real> grid;
  SweepFace face[3][2];
  SweepFaceTables<Real> tables;
  const unsigned char* flags;  // [interior cell] kOuterFaceCell, kSolidCell, solid sides
  SweepSolids solids;
  double* moments;     // [interior cell][kRawMoments], accumulated
  SweepCopies copies;  // of the sums: step(..., copy) adds into copy `copy`
  Relax relax;
  int order = 1;  // 1: upwind (step), 2: limited upwind-biased (step_second_order)
  Limiter limiter = Limiter::van_leer;

  // Face (a, side) and its tables, picked by value: `side` varies between slots, and indexing the
  // kernel's parameters with it would copy them to local memory.
  BOLT_HOST_DEVICE SweepFace face_at(int a, int side) const {
    return side == 0 ? face[a][0] : face[a][1];
  }

  // The mirror image's values of velocity v entering through symmetry face (a, side) at
  // transverse position t (tables.mirror).
  BOLT_HOST_DEVICE const Real* mirrored(int a, int side, std::int64_t t, int v) const {
    const Real* mirror = side == 0 ? tables.mirror[a][0] : tables.mirror[a][1];
    return mirror + (t * vel.n + tables.reflect[a][v]) * tables.mirror_values;
  }

  // The value of velocity v entering through face (a, side) at transverse position t: a wall's
  // or inflow's ghost, or a symmetry face's mirror image (outflow faces have none).
  BOLT_HOST_DEVICE Real entering_value(int a, int side, std::int64_t t, int v) const {
    const SweepFace f = face_at(a, side);
    if (f.kind == FaceKind::specular) return mirrored(a, side, t, v)[0];
    const Real g = (side == 0 ? tables.ghost[a][0] : tables.ghost[a][1])[v];
    return f.kind == FaceKind::wall ? Real(f.density[t]) * g : g;
  }

  BOLT_HOST_DEVICE static std::int64_t transverse(const int* i, const int* n, int a) {
    const int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
    return i[a1] + std::int64_t(n[a1]) * i[a2];
  }

  // What a slot sweeps: its velocity, weight, direction along each axis (+1: upwind is the low
  // side; xi_d = 0 couples no neighbours along d and takes +1, like the octant grouping of
  // lib/solver/sweep_slots.cpp) and speed along it.
  // On a reduced set (Chu) g and h nodes sweep alike, each to its own target (`node`), and add
  // their own moments (add_cell).
  struct Lane {
    int v;
    Real w;
    Real xi[3];
    Real speed[3];  // |xi_a|
    double xi2;
    int dir[3];
    CompactNode<Real> node;
  };

  BOLT_HOST_DEVICE Lane lane(std::int64_t slot) const {
    Lane l;
    l.v = slot_velocity[slot];
    l.w = slot_weight[slot];
    l.xi[0] = vel.x[l.v];
    l.xi[1] = vel.y[l.v];
    l.xi[2] = vel.z[l.v];
    l.xi2 = double(l.xi[0]) * l.xi[0] + double(l.xi[1]) * l.xi[1] + double(l.xi[2]) * l.xi[2];
    l.node = compact_node(vel, l.v);
    for (int a = 0; a < 3; ++a) {
      l.dir[a] = l.xi[a] < Real(0) ? -1 : 1;
      l.speed[a] = l.xi[a] < Real(0) ? -l.xi[a] : l.xi[a];
    }
    return l;
  }

  // The sweep of one slot: every cell in its upwind order.
  template <class Accumulator>
  BOLT_HOST_DEVICE void operator()(std::int64_t slot, const SliceView<Real>& slice,
                                   Accumulator& acc) const {
    const Lane l = lane(slot);
    for (int kk = 0; kk < grid.n[2]; ++kk)
      for (int jj = 0; jj < grid.n[1]; ++jj) {
        SweepCarry<Real> carry;
        for (int ii = 0; ii < grid.n[0]; ++ii) {
          if (order == 2)
            step_second_order(l, ii, jj, kk, carry, slice, acc, 0);
          else
            carry.value = step(l, ii, jj, kk, carry.value, slice, acc, 0);
        }
      }
  }

  // Cell (ii, jj, kk) of the slot's sweep order (step ii along x from its upwind end, ...):
  // solves its equation, writes its value to the slice, adds its moments and face sums; returns
  // f, the x-upwind value of the next cell (`previous` is this cell's). Needs the cells before
  // it in the order done: the line before along y (and the plane before along z). The sums go
  // to copy `copy` (SweepCopies).
  template <class Accumulator>
  BOLT_HOST_DEVICE Real step(const Lane& l, int ii, int jj, int kk, Real previous,
                             const SliceView<Real>& slice, Accumulator& acc, int copy) const {
    const int* n = grid.n;
    const bool plane = n[2] > 1;
    const int steps[3] = {ii, jj, kk};
    int at[3];
    for (int a = 0; a < 3; ++a) at[a] = l.dir[a] > 0 ? steps[a] : n[a] - 1 - steps[a];
    const std::int64_t stride[3] = {1, n[0], std::int64_t(n[0]) * n[1]};
    const std::int64_t cell = at[0] + stride[1] * at[1] + stride[2] * at[2];
    // Every load of the cell at once, before any depends on another (on the GPU they are in
    // flight together): its flags, its target, and the upwind values -- x from the register, y
    // from the slice's current line (2-D: the previous line itself), z from the slice before it
    // is overwritten. `here` is this cell in the slice: its plane (3-D) or line (2-D).
    const unsigned cell_flags = flags[cell];
    const SweepCell<Real> c = cells[cell];
    const int here = plane ? at[0] + n[0] * at[1] : at[0];
    Real upwind[3] = {previous, Real(0), Real(0)};
    if (n[1] > 1 && jj > 0) upwind[1] = slice[plane ? here - l.dir[1] * n[0] : here];
    if (plane && kk > 0) upwind[2] = slice[here];
    // A solid cell is not swept; its gas neighbours take their solid wall's value, never its
    // slice entry (nor its target, read above with the others, unused).
    if (cell_flags & kSolidCell) return Real(0);
    const Real F = relax.equilibrium(c.target, l.xi[0], l.xi[1], l.xi[2], l.node);
    Real lhs = c.nu, rhs = c.nu * F;
    // Along each axis the upwind cell's value, a solid's wall or the face's entering value. Away
    // from faces and solids every active axis has its upwind cell, and xi_a = 0 adds exactly
    // nothing (a zero coefficient times a value of this sweep).
    Real entering[3] = {Real(0), Real(0), Real(0)};
    for (int a = 0; a < 3; ++a) {
      if (!grid.active(a)) continue;
      const Real coefficient = l.speed[a] * grid.inverse_width[a][at[a]];
      if (cell_flags != 0) {
        if (l.xi[a] == Real(0)) continue;
        const int side = l.dir[a] > 0 ? 0 : 1;  // the side the velocity enters its cells through
        if (steps[a] > 0) {
          if (cell_flags & (1u << (2 * a + side))) {
            entering[a] = Real(solids.density[cell * 6 + 2 * a + side]) * tables.solid[l.v];
            upwind[a] = entering[a];
          }
        } else {
          if (face_at(a, side).kind == FaceKind::outflow) continue;  // ghost = this cell
          entering[a] = entering_value(a, side, transverse(at, n, a), l.v);
          upwind[a] = entering[a];
        }
      }
      lhs += coefficient;
      rhs += coefficient * upwind[a];
    }
    const Real f = fast_quotient(rhs, lhs);
    if (n[1] > 1) slice[here] = f;
    const Real leaving[3] = {f, f, f};
    add_cell(l, cell, cell_flags, at, steps, f, leaving, nullptr, entering, acc, copy);
    return f;
  }

  // Second order. The value velocity xi leaves cell i with through its downwind face along axis
  // a is reconstructed from the cell and its upwind side only,
  //   f_face,a = f_i + s_a / 2,   s_a = L(D_a, d_a),
  // with the slope s_a per cell limited (kernels/streaming.hpp's limited_difference, van Leer or
  // minmod) between the cell's upwind difference D_a = f_i - u_a and its upwind cell's d_a
  // (carried along the sweep); u_a is the upwind cell's value. Beside an outer face or a solid's
  // wall, whose entering value g is given at the face itself half a cell upwind, u_a = g and
  // D_a = 2 (f_i - g), the line through g and f_i, limited (minmod) by 2 (F - f_i), the slope
  // toward the cell's target: where the cell is optically thin the first is the smaller, where it
  // is thick f relaxes to F within the cell and the line would overshoot F at the downwind face.
  // Unlimited inside (s = D)
  // the cell's equation is the second-order upwind difference xi (3 f_i - 4 f_{i-1} + f_{i-2}) /
  // (2 dx) in finite-volume form. The equation of the cell,
  //   nu (f_i - F) + sum_a |xi_a| / dx_a (f_face,a - f_in,a) = 0,
  // with f_in,a the face value the upwind cell left (or g), is solved in the sweep's order as at
  // first order: the scheme is conservative, and the walls' densities balance the fluxes of
  // these face values. Differences are per cell (index space): on a smoothly stretched axis the
  // reconstruction stays second order.
  //
  // The limiter sees the upwind differences only: f is not kept between iterations (only the
  // moments are), so no downwind value exists. D_a contains the unknown f_i; it is taken at the
  // cell's unlimited solution f^u (the same equation with s_a = D_a, linear in f_i), and f_i then
  // solves the equation with those slopes. Each sweep is thus a continuous function of the
  // frozen moments (the limiter is continuous in D and d; a limiter coefficient frozen at a
  // predictor instead switches discontinuously where D changes sign, and the iteration then
  // stalls in a limit cycle), and the iteration converges to this scheme's fixed point, the
  // second-order steady state: where f is smooth the limited and unlimited slopes differ by
  // O(dx^2), so f^u - f_i = O(dx^2) and L(D^u, d) keeps the face values' O(dx^2) error. Where the
  // predicted face value f^u + s/2 would fall below zero (a steep drop across an optically thick
  // cell), s is cut so that it does not. What the upwind-only limiter cannot see is an extremum
  // at cell i itself (it sees those upwind): there the face overshoots f_i by at most
  // min(|D|, |d|) (van Leer; half that with minmod), a bounded, non-growing excursion.
  //
  // An outflow face's entering value is the cell's own (no term, as at first order; the next
  // cell's upwind difference is then 0, which the limiter takes as first order for one cell).
  // The carry and the slice pass each axis's (value, face, difference) on (SweepCarry, kSlice*).
  template <class Accumulator>
  BOLT_HOST_DEVICE void step_second_order(const Lane& l, int ii, int jj, int kk,
                                          SweepCarry<Real>& carry, const SliceView<Real>& slice,
                                          Accumulator& acc, int copy) const {
    const int* n = grid.n;
    const bool plane = n[2] > 1;
    const int steps[3] = {ii, jj, kk};
    int at[3];
    for (int a = 0; a < 3; ++a) at[a] = l.dir[a] > 0 ? steps[a] : n[a] - 1 - steps[a];
    const std::int64_t stride[3] = {1, n[0], std::int64_t(n[0]) * n[1]};
    const std::int64_t cell = at[0] + stride[1] * at[1] + stride[2] * at[2];
    const int size = int(grid.slice_size());
    // The loads first, as in step: y from the current line's upwind neighbour in the slice (2-D:
    // the previous line itself), z from the slice before this cell overwrites it.
    const unsigned cell_flags = flags[cell];
    const SweepCell<Real> c = cells[cell];
    const int here = plane ? at[0] + n[0] * at[1] : at[0];
    SweepCarry<Real> up[3] = {carry, {}, {}};
    const int y_at = plane ? here - l.dir[1] * n[0] : here;
    const int y_face = plane ? kSliceFaceY : kSliceFace2D;
    const int y_difference = plane ? kSliceDifferenceY : kSliceDifference2D;
    if (n[1] > 1 && jj > 0)
      up[1] = {slice[y_at], slice[y_face * size + y_at], slice[y_difference * size + y_at]};
    if (plane && kk > 0)
      up[2] = {slice[here], slice[kSliceFaceZ * size + here],
               slice[kSliceDifferenceZ * size + here]};
    if (cell_flags & kSolidCell) return;
    const Real F = relax.equilibrium(c.target, l.xi[0], l.xi[1], l.xi[2], l.node);
    Real lhs = c.nu, rhs = c.nu * F;
    Real coefficient[3] = {Real(0), Real(0), Real(0)};
    Real entering[3] = {Real(0), Real(0), Real(0)};
    Real per_cell[3] = {Real(1), Real(1), Real(1)};  // 1 / the distance to u_a, in cells
    bool beside_face[3] = {false, false, false};
    for (int a = 0; a < 3; ++a) {
      if (!grid.active(a) || l.xi[a] == Real(0)) continue;
      if (cell_flags != 0) {
        const int side = l.dir[a] > 0 ? 0 : 1;  // the side the velocity enters its cells through
        if (steps[a] > 0) {
          if (cell_flags & (1u << (2 * a + side))) {
            entering[a] = Real(solids.density[cell * 6 + 2 * a + side]) * tables.solid[l.v];
            beside_face[a] = true;
          }
        } else {
          const FaceKind kind = face_at(a, side).kind;
          if (kind == FaceKind::outflow) continue;  // ghost = this cell
          if (kind == FaceKind::specular) {  // the mirror image's cell upwind
            const Real* image = mirrored(a, side, transverse(at, n, a), l.v);
            up[a] = {image[0], image[1], image[2]};
            entering[a] = image[1];
          } else {
            entering[a] = entering_value(a, side, transverse(at, n, a), l.v);
            beside_face[a] = true;
          }
        }
        if (beside_face[a]) {
          up[a] = {entering[a], entering[a], Real(0)};
          per_cell[a] = Real(2);
        }
      }
      coefficient[a] = l.speed[a] * grid.inverse_width[a][at[a]];
      lhs += coefficient[a];
      rhs += coefficient[a] * up[a].face;
    }
    // The unlimited solution: s_a = per_cell (f - u_a), linear in f.
    Real lhs_unlimited = lhs, rhs_unlimited = rhs;
    for (int a = 0; a < 3; ++a) {
      const Real k = Real(0.5) * per_cell[a] * coefficient[a];
      lhs_unlimited += k;
      rhs_unlimited += k * up[a].value;
    }
    const Real unlimited = fast_quotient(rhs_unlimited, lhs_unlimited);
    const Real first = fast_quotient(rhs, lhs);
    // The lowest value the cell is built from, or 0 (positive_slope_fraction).
    Real lowest = fmin(Real(0), F);
    for (int a = 0; a < 3; ++a)
      if (coefficient[a] != Real(0)) lowest = fmin(lowest, fmin(up[a].value, up[a].face));
    Real slope[3] = {Real(0), Real(0), Real(0)};
    for (int a = 0; a < 3; ++a) {
      if (coefficient[a] == Real(0)) continue;
      const Real d = per_cell[a] * (unlimited - up[a].value);
      // Beside a face: no upwind difference, so the slope toward the face value is capped by the
      // one toward the cell's target (minmod): an optically thick cell relaxes to F within it,
      // and the line through g and f would overshoot F at its downwind face.
      const Real limited =
          beside_face[a] ? limited_difference(Limiter::minmod, d, Real(2) * (F - unlimited))
                         : limited_difference(limiter, d, up[a].difference);
      slope[a] = fmax(limited, Real(-2) * unlimited);
      rhs -= Real(0.5) * coefficient[a] * slope[a];
    }
    // Positivity: the slopes scaled back toward first order where f or a face value would fall
    // below the lowest value the cell is built from, or 0.
    const Real unscaled = fast_quotient(rhs, lhs);
    const Real theta =
        positive_slope_fraction(first, unscaled, lowest, slope[0], slope[1], slope[2]);
    for (int a = 0; a < 3; ++a) slope[a] *= theta;
    const Real f = theta < Real(1) ? first - theta * (first - unscaled) : unscaled;
    Real leaving[3], difference[3];
    for (int a = 0; a < 3; ++a) {
      const bool swept = coefficient[a] != Real(0);
      leaving[a] = f + Real(0.5) * slope[a];
      difference[a] = swept ? per_cell[a] * (f - up[a].value) : Real(0);
    }
    carry = {f, leaving[0], difference[0]};
    if (n[1] > 1) {
      slice[here] = f;
      slice[y_face * size + here] = leaving[1];
      slice[y_difference * size + here] = difference[1];
    }
    if (plane) {
      slice[kSliceFaceZ * size + here] = leaving[2];
      slice[kSliceDifferenceZ * size + here] = difference[2];
    }
    add_cell(l, cell, cell_flags, at, steps, f, leaving, difference, entering, acc, copy);
  }

  // The sums of a swept cell of value f: its moments, and where it touches solids or outer faces
  // their fluxes, with the values the scheme gives the faces (`leaving[a]`: the one it leaves
  // through its downwind face along a; `entering[a]`: a face's entering value). Second order
  // also gives the upwind differences (a symmetry face's mirror keeps them).
  template <class Accumulator>
  BOLT_HOST_DEVICE void add_cell(const Lane& l, std::int64_t cell, unsigned cell_flags,
                                 const int* at, const int* steps, Real f, const Real* leaving,
                                 const Real* difference, const Real* entering, Accumulator& acc,
                                 int copy) const {
    const int* n = grid.n;
    acc.add(moments + copy * copies.stride + cell * kRawMoments,
            slot_moments(l, double(l.w) * double(f)));
    if (cell_flags & kSolidSides) add_solid_outflux(l, cell, cell_flags, leaving, acc, copy);
    if (cell_flags & kOuterFaceCell)
      for (int a = 0; a < 3; ++a)
        if (grid.active(a) && (steps[a] == 0 || steps[a] == n[a] - 1))
          at_outer_faces(l, a, at, steps, f, leaving[a], difference ? difference[a] : Real(0),
                         entering[a], acc, copy);
  }

  // Into a solid downwind: the leaving flux its wall's density balances (every lane of a warp is
  // at this cell and goes the same way: the add is the warp's, xi_a = 0 and h nodes, which carry
  // no mass, adding nothing).
  template <class Accumulator>
  BOLT_HOST_DEVICE void add_solid_outflux(const Lane& l, std::int64_t cell, unsigned cell_flags,
                                          const Real* leaving, Accumulator& acc, int copy) const {
    for (int a = 0; a < 3; ++a) {
      const int side = l.dir[a] > 0 ? 1 : 0;  // the side the velocity leaves its cells through
      if (!grid.active(a) || !(cell_flags & (1u << (2 * a + side)))) continue;
      Sums<1> q;
      q[0] = l.node.h ? 0.0 : double(l.w) * double(l.speed[a]) * double(leaving[a]);
      acc.add(solids.outflux + copy * copies.stride + cell * 6 + 2 * a + side, q);
    }
  }

  // The outer faces along axis a this cell touches: the velocity enters through its first cell
  // along the axis and leaves through its last (the scheme's face values: the entering value,
  // `leaving`; an outflow face's entering value is the cell's own, f). A symmetry face takes the
  // leaving value its mirror image will enter with.
  template <class Accumulator>
  BOLT_HOST_DEVICE void at_outer_faces(const Lane& l, int a, const int* at, const int* steps,
                                       Real f, Real leaving_value, Real difference, Real entering,
                                       Accumulator& acc, int copy) const {
    const int* n = grid.n;
    const std::int64_t t = transverse(at, n, a);
    for (int s = 0; s < 2; ++s) {
      if ((s == 0 && steps[a] != 0) || (s == 1 && steps[a] != n[a] - 1)) continue;
      const int side = s == 0 ? (l.dir[a] > 0 ? 0 : 1) : (l.dir[a] > 0 ? 1 : 0);
      const SweepFace face_here = face_at(a, side);
      if (s == 1 && l.xi[a] != Real(0) && face_here.kind == FaceKind::specular) {
        Real* image = (side == 0 ? tables.mirror[a][0] : tables.mirror[a][1]) +
                      (t * vel.n + l.v) * tables.mirror_values;
        if (tables.mirror_values == 1) {
          image[0] = leaving_value;
        } else {
          image[0] = f;
          image[1] = leaving_value;
          image[2] = difference;
        }
      }
      if (face_here.sums == nullptr) continue;
      const double outward = side == 0 ? -1.0 : 1.0;
      const double xn = outward * double(l.xi[a]);
      const bool leaving = xn > 0.0;
      // An outflow face's entering value is the cell's own.
      const double value = leaving ? double(leaving_value)
                           : face_here.kind == FaceKind::outflow ? double(f)
                                                                  : double(entering);
      acc.add(face_here.sums + copy * copies.stride + t * kFaceSums,
              face_sums(l, double(l.w) * xn * value, leaving));
    }
  }

  // The raw moments a slot adds with wf, its weight times its value: wf phi_k(xi), or a reduced
  // set's h node its share (the CPU's SweepLanes builds its tables with wf = w).
  BOLT_HOST_DEVICE Sums<kRawMoments> slot_moments(const Lane& l, double wf) const {
    const Real* xi = l.xi;
    Sums<kRawMoments> m = Sums<kRawMoments>::zero();
    if (l.node.h) {  // the reduced axes' |xi_r|^2 moment (macroscopic.hpp, accumulate_reduced)
      add_reduced_moments<3>(m, vel.reduced, vel.reduced_count(), wf, xi[0], xi[1], xi[2]);
    } else {
      m[kM0] = wf;
      for (int a = 0; a < 3; ++a) m[kM1 + a] = wf * xi[a];
      for (int a = 0; a < 3; ++a) m[kM2 + a] = wf * xi[a] * xi[a];
      m[kM2 + 3] = wf * xi[0] * xi[1];
      m[kM2 + 4] = wf * xi[0] * xi[2];
      m[kM2 + 5] = wf * xi[1] * xi[2];
      for (int a = 0; a < 3; ++a) m[kM3 + a] = wf * xi[a] * l.xi2;
    }
    return m;
  }

  // A slot's face sums for its flux w xn f through an outer face (`leaving`: xn > 0). An h node
  // carries no mass or momentum, only the reduced axes' part of the energy.
  BOLT_HOST_DEVICE Sums<kFaceSums> face_sums(const Lane& l, double flux, bool leaving) const {
    const double mass = l.node.h ? 0.0 : flux;
    Sums<kFaceSums> q;
    q[0] = mass;
    for (int b = 0; b < 3; ++b) q[1 + b] = mass * l.xi[b];
    q[4] = l.node.h ? flux : flux * l.xi2;
    q[5] = leaving ? mass : 0.0;
    return q;
  }
};

// The sweep's cell coefficients from the moments of the previous iteration (summed over every
// velocity rank): the model's target, normalised to the cell's mass on the whole velocity set
// (`vel` is every velocity of the run, not only this rank's), and nu. On a reduced set the
// target is the explicit step's reduced one (Relaxation::target), and its compact form carries
// the h nodes' factor.
template <class Real, class Relax>
struct SweepTargets {
  const double* moments;  // [interior cell][kRawMoments]
  SweepCell<Real>* out;
  Velocities<Real> vel;
  Relax relax;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const double* raw = moments + item * kRawMoments;
    Sums<Relax::kSums> s;
    if constexpr (Relax::kSums == 5) {
      for (int k = 0; k < 4; ++k) s[k] = raw[k];
      s[4] = raw[kM2] + raw[kM2 + 1] + raw[kM2 + 2];
    } else {
      for (int k = 0; k < Relax::kSums; ++k) s[k] = raw[k];
    }
    RelaxationTarget target = relax.target(team, s, vel);
    if (relax.normalised(target))
      relax.normalise(target, relax.normalisation_sums(team, target, vel));
    if (team.leader()) {
      Sums<kRawMoments> all;
      for (int k = 0; k < kRawMoments; ++k) all[k] = raw[k];
      const Macroscopic m = macroscopic_from_raw<1>(all);
      out[item].target = relax.compact(target);
      out[item].nu = Real(relax.frequency(m.n, m.T));
    }
  }
};

}  // namespace bolt
