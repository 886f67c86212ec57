#pragma once
// The CPU's sweep of a group of velocity slots of one octant (kernels/sweep.hpp): one thread
// walks the cells once, in the octant's order, and at each cell updates every slot of the group
// -- as a GPU warp's lanes do -- in SIMD loops over the slots, first or second order, with the
// cell's target loaded once. The slots of a group share their direction along every axis, so a
// cell on an outer face or beside a solid sees the same kind of upwind side along each axis for
// all of them (its cell, a face's or a solid's entering value, a mirror image, nothing at an
// outflow face): the slots' entering values are gathered first, then the same SIMD loops solve
// the cell. Each slot sees the cells in the order it sees them alone, with the kernel's
// operations in the kernel's order, so its values are the one-slot sweep's but for the rounding
// of the SIMD loop's exp (glibc's vector exp, libmvec). A swept cell's moment sums, and its face
// and solid sums, are products of the group's values with tables of w phi_k(xi) made once per
// group: the kernel's sums rounded in another order, fixed by the slot split, so that a run with
// a given thread count gives the same answer every time. Include only from the CPU backend's
// unit (after core/launch_cpu.hpp, which declares the vector exp).
#include <cstdint>
#include <experimental/simd>
#include <vector>

#include "kernels/sweep.hpp"

namespace bolt {

template <class Real, class Relax, class Accumulator>
class SweepLanes {
 public:
  // Slots per group: four 512-bit registers of floats, eight of doubles. Each cell's update
  // waits on the one before it along x (its division above all), so the more independent
  // registers a cell has, the more of that wait they fill (docs/benchmarks.md, the CPU sweep).
  static constexpr int kLanes = 64;
  using Kernel = Sweep<Real, Relax>;
  using Lane = typename Kernel::Lane;

  SweepLanes(const Kernel& sweep, const Accumulator& acc, std::int64_t slice_size)
      : sweep_(sweep), acc_(acc),
        slices_(std::size_t(slice_size) * kLanes, Real(0)) {
    // The SIMD loops take the active axes to be x, x-y or x-y-z; a grid not active along x (a
    // 1-D problem across y, a 2-D one in y-z) is swept per slot.
    const int* n = sweep.grid.n;
    simd_cells_ = n[0] > 1 && (n[1] > 1 || n[2] == 1);
  }

  // Whether `other` sweeps in the direction of `first` on every active axis (one
  // octant: the same cell order).
  bool same_octant(const Lane& first, const Lane& other) const {
    for (int a = 0; a < 3; ++a)
      if (sweep_.grid.active(a) && first.dir[a] != other.dir[a]) return false;
    return true;
  }

  // Sweeps the slots [lo, hi) in groups of up to kLanes consecutive slots of one octant.
  void sweep_slots(std::int64_t lo, std::int64_t hi) {
    std::int64_t slot = lo;
    while (slot < hi) {
      count_ = 0;
      lanes_[count_++] = sweep_.lane(slot++);
      while (slot < hi && count_ < kLanes) {
        const Lane next = sweep_.lane(slot);
        if (!same_octant(lanes_[0], next)) break;
        lanes_[count_++] = next;
        ++slot;
      }
      sweep_group();
    }
  }

 private:
  // What lies upwind of a cell along an axis, the same for every slot of the group: its upwind
  // cell; nothing (an outflow face: no term); an entering value given half a cell away (a wall,
  // an inflow face, a solid's wall: kernel's beside_face; at first order also a symmetry face's
  // mirror value, which the kernel takes as its entering value); at second order a symmetry
  // face's mirror image, an upwind cell whose values (value, face, difference) the mirror table
  // holds, as many as the order keeps (Kernel::tables.mirror_values: 1, or 3 at second order).
  enum class Upwind { cell, none, given, mirror };

  // A cell's upwind side along each axis and the slots' values there (lane-indexed arrays).
  struct CellUpwind {
    Upwind kind[3] = {Upwind::cell, Upwind::cell, Upwind::cell};
    const Real* value[3] = {};
    const Real* face[3] = {};
    const Real* difference[3] = {};
    const Real* entering[3] = {};  // the face sums' entering value (given and mirror)
  };

  // Where a cell's step writes: this cell's slice elements (kSlice*), nullptr where Dims has
  // no such axis.
  struct CellOut {
    Real* value = nullptr;
    Real* y_face = nullptr;
    Real* y_difference = nullptr;
    Real* z_face = nullptr;
    Real* z_difference = nullptr;
  };

  void sweep_group() {
    for (int b = 0; b < count_; ++b) {
      for (int a = 0; a < 3; ++a) {
        xi_[a][b] = lanes_[b].xi[a];
        speed_[a][b] = lanes_[b].speed[a];
      }
      h_[b] = lanes_[b].node.h ? Real(1) : Real(0);
      shakhov_constant_[b] = lanes_[b].node.shakhov_constant;
    }
    make_tables();
    const int* n = sweep_.grid.n;
    const int dims = n[2] > 1 ? 3 : (n[1] > 1 ? 2 : 1);
    if (sweep_.order == 2 && sweep_.limiter == Limiter::minmod)
      dispatch<true, Limiter::minmod>(dims);
    else if (sweep_.order == 2)
      dispatch<true, Limiter::van_leer>(dims);
    else
      dispatch<false, Limiter::van_leer>(dims);
  }

  // The lines of the group's sweep, with the grid's dimension, the order and the second order's
  // limiter known to the SIMD loops.
  template <bool Second, Limiter L>
  void dispatch(int dims) {
    const int* n = sweep_.grid.n;
    for (int kk = 0; kk < n[2]; ++kk)
      for (int jj = 0; jj < n[1]; ++jj) {
        if (dims == 3)
          line<3, Second, L>(jj, kk);
        else if (dims == 2)
          line<2, Second, L>(jj, kk);
        else
          line<1, Second, L>(jj, kk);
      }
  }

  SliceView<Real> slice(int b) { return SliceView<Real>{slices_.data() + b, kLanes}; }

  // One line along x: every swept cell in the SIMD loops (a face or solid's neighbour after its
  // entering values are gathered), then its sums from the tables; solid cells (not swept) and
  // grids the SIMD loops do not take per slot, with the kernel's step.
  template <int Dims, bool Second, Limiter L>
  void line(int jj, int kk) {
    const int* n = sweep_.grid.n;
    const Lane& l = lanes_[0];
    int at[3];
    const int steps[3] = {0, jj, kk};
    for (int a = 1; a < 3; ++a) at[a] = l.dir[a] > 0 ? steps[a] : n[a] - 1 - steps[a];
    const std::int64_t row = std::int64_t(n[0]) * (at[1] + std::int64_t(n[1]) * at[2]);
    for (int b = 0; b < kLanes; ++b) value_[b] = face_[b] = difference_[b] = Real(0);
    for (int ii = 0; ii < n[0]; ++ii) {
      at[0] = l.dir[0] > 0 ? ii : n[0] - 1 - ii;
      const int steps_here[3] = {ii, jj, kk};
      const std::int64_t cell = row + at[0];
      const unsigned cell_flags = sweep_.flags[cell];
      if (!simd_cells_ || (cell_flags & kSolidCell)) {  // a solid cell: the step's early return
        per_slot<Second>(ii, jj, kk);
        continue;
      }
      CellUpwind upwind = upwind_cells<Dims, Second>(at, steps_here);
      if (cell_flags != 0) upwind_of_faces<Dims, Second>(upwind, cell, cell_flags, at, steps_here);
      const CellOut out = outputs<Dims>(at);
      if constexpr (Second) {
        if (cell_flags != 0)
          solve_second_order<Dims, L, true>(cell, at, upwind, out);
        else
          solve_second_order<Dims, L, false>(cell, at, upwind, out);
      } else if (cell_flags != 0) {
        solve_first_order<Dims, true>(cell, at, upwind, out);
      } else {
        solve_first_order<Dims, false>(cell, at, upwind, out);
      }
      add_moments(cell);
      if (cell_flags != 0) add_face_sums<Dims, Second>(upwind, cell, cell_flags, at, steps_here);
    }
  }

  // The kernel's step of cell (ii, jj, kk) for every slot.
  template <bool Second>
  void per_slot(int ii, int jj, int kk) {
    for (int b = 0; b < count_; ++b) {
      if constexpr (Second) {
        SweepCarry<Real> carry{value_[b], face_[b], difference_[b]};
        sweep_.step_second_order(lanes_[b], ii, jj, kk, carry, slice(b), acc_, 0);
        value_[b] = carry.value;
        face_[b] = carry.face;
        difference_[b] = carry.difference;
      } else {
        value_[b] = sweep_.step(lanes_[b], ii, jj, kk, value_[b], slice(b), acc_, 0);
      }
    }
  }

  // Element p of slice array q, as the group's lane-indexed values.
  Real* element(int array, std::int64_t p) {
    return slices_.data() + (array * sweep_.grid.slice_size() + p) * kLanes;
  }

  // `here`, this cell's place in the slice: its plane (3-D) or line (2-D).
  template <int Dims>
  std::int64_t here(const int* at) const {
    return Dims == 3 ? at[0] + std::int64_t(sweep_.grid.n[0]) * at[1] : at[0];
  }

  // The upwind cells' values, as the kernel loads them: x the carry, y the slice's current line
  // one upwind (2-D: the previous line itself), z the slice before this cell overwrites it.
  // Only the axes whose upwind side is a cell read them: the first cell along y or z has none in
  // the slice (upwind_of_faces gives its values).
  template <int Dims, bool Second>
  CellUpwind upwind_cells(const int* at, const int* steps) {
    CellUpwind u;
    for (int a = 1; a < 3; ++a) u.value[a] = u.face[a] = u.difference[a] = zeros_;
    u.value[0] = value_;
    u.face[0] = face_;
    u.difference[0] = difference_;
    const std::int64_t p = here<Dims>(at);
    if (Dims >= 2 && steps[1] > 0) {
      const std::int64_t y_at =
          Dims == 3 ? p - lanes_[0].dir[1] * std::int64_t(sweep_.grid.n[0]) : p;
      u.value[1] = element(kSliceValue, y_at);
      if constexpr (Second) {
        u.face[1] = element(Dims == 3 ? kSliceFaceY : kSliceFace2D, y_at);
        u.difference[1] = element(Dims == 3 ? kSliceDifferenceY : kSliceDifference2D, y_at);
      }
    }
    if (Dims == 3 && steps[2] > 0) {
      u.value[2] = element(kSliceValue, p);
      if constexpr (Second) {
        u.face[2] = element(kSliceFaceZ, p);
        u.difference[2] = element(kSliceDifferenceZ, p);
      }
    }
    return u;
  }

  template <int Dims>
  CellOut outputs(const int* at) {
    CellOut out;
    const std::int64_t p = here<Dims>(at);
    if constexpr (Dims >= 2) {
      out.value = element(kSliceValue, p);
      out.y_face = element(Dims == 3 ? kSliceFaceY : kSliceFace2D, p);
      out.y_difference = element(Dims == 3 ? kSliceDifferenceY : kSliceDifference2D, p);
    }
    if constexpr (Dims == 3) {
      out.z_face = element(kSliceFaceZ, p);
      out.z_difference = element(kSliceDifferenceZ, p);
    }
    return out;
  }

  // Kernel::step's upwind side of a face or solid's neighbour along each axis: the entering
  // face's value (the first cell along the axis, steps 0) or a solid's wall, gathered per slot.
  // A slot of xi_a = 0 takes none (the kernel skips the axis): its values are set to 0, which
  // its coefficient of 0 leaves without effect.
  template <int Dims, bool Second>
  void upwind_of_faces(CellUpwind& u, std::int64_t cell, unsigned cell_flags, const int* at,
                       const int* steps) {
    const Kernel& k = sweep_;
    for (int a = 0; a < Dims; ++a) {
      const int side = lanes_[0].dir[a] > 0 ? 0 : 1;  // the side the slots enter cells through
      Real* given = given_[a];
      if (steps[a] > 0) {
        if (!(cell_flags & (1u << (2 * a + side)))) continue;
        const Real density = Real(k.solids.density[cell * 6 + 2 * a + side]);
        for (int b = 0; b < count_; ++b)
          given[b] = speed_[a][b] != Real(0) ? density * k.tables.solid[lanes_[b].v] : Real(0);
        set_given(u, a);
        continue;
      }
      const std::int64_t t = Kernel::transverse(at, k.grid.n, a);
      const FaceKind kind = k.face_at(a, side).kind;
      if (kind == FaceKind::outflow) {
        u.kind[a] = Upwind::none;
        u.value[a] = u.face[a] = u.difference[a] = zeros_;
      } else if (kind == FaceKind::specular && Second) {
        for (int b = 0; b < count_; ++b) {
          const Real* image = k.mirrored(a, side, t, lanes_[b].v);
          const bool swept = speed_[a][b] != Real(0);
          for (int q = 0; q < 3; ++q) mirror_[a][q][b] = swept ? image[q] : Real(0);
        }
        u.kind[a] = Upwind::mirror;
        u.value[a] = mirror_[a][0];
        u.face[a] = u.entering[a] = mirror_[a][1];
        u.difference[a] = mirror_[a][2];
      } else {
        for (int b = 0; b < count_; ++b)
          given[b] =
              speed_[a][b] != Real(0) ? k.entering_value(a, side, t, lanes_[b].v) : Real(0);
        set_given(u, a);
      }
    }
  }

  void set_given(CellUpwind& u, int a) {
    u.kind[a] = Upwind::given;
    u.value[a] = u.face[a] = u.entering[a] = given_[a];
    u.difference[a] = zeros_;
  }

  // Kernel::step for every slot, the same operations in the same order:
  // f = (nu F + sum_a c_a u_a) / (nu + sum_a c_a), c_a = |xi_a| / dx_a, u_a the upwind value
  // (Face: c_a = 0 where nothing lies upwind, an outflow face).
  template <int Dims, bool Face>
  void solve_first_order(std::int64_t cell, const int* at, const CellUpwind& u,
                         const CellOut& out) {
    const SweepCell<Real> c = sweep_.cells[cell];
    Real coefficient_scale[3] = {Real(1), Real(1), Real(1)};
    Real inverse_width[3] = {Real(0), Real(0), Real(0)};
    for (int a = 0; a < Dims; ++a) {
      inverse_width[a] = sweep_.grid.inverse_width[a][at[a]];
      if (Face && u.kind[a] == Upwind::none) coefficient_scale[a] = Real(0);
    }
    const Real* x_upwind = u.value[0];
    const Real* y_upwind = u.value[1];
    const Real* z_upwind = u.value[2];
    Real* carry = value_;
    Real* value_out = out.value;
    const Relax relax = sweep_.relax;
#pragma omp simd
    for (int b = 0; b < count_; ++b) {
      const Real F = equilibrium(relax, c, b);
      Real lhs = c.nu, rhs = c.nu * F;
      Real cx = speed_[0][b] * inverse_width[0];
      if constexpr (Face) cx *= coefficient_scale[0];
      lhs += cx;
      rhs += cx * x_upwind[b];
      if constexpr (Dims >= 2) {
        Real cy = speed_[1][b] * inverse_width[1];
        if constexpr (Face) cy *= coefficient_scale[1];
        lhs += cy;
        rhs += cy * y_upwind[b];
      }
      if constexpr (Dims == 3) {
        Real cz = speed_[2][b] * inverse_width[2];
        if constexpr (Face) cz *= coefficient_scale[2];
        lhs += cz;
        rhs += cz * z_upwind[b];
      }
      const Real f = rhs / lhs;
      if constexpr (Dims >= 2) value_out[b] = f;
      carry[b] = f;
    }
  }

  // Kernel::step_second_order for every slot, the same operations in the same order. A slot of
  // xi_a = 0 takes no term along a, as there: its coefficient is 0, adding 0 times a finite
  // value leaves the sums as they are, and its slope and difference are selected to 0. Face: an
  // axis of given entering value is one half cell away (per_cell 2) and its slope is capped by
  // the one toward the target (minmod); no term where nothing lies upwind.
  template <int Dims, Limiter L, bool Face>
  void solve_second_order(std::int64_t cell, const int* at, const CellUpwind& u,
                          const CellOut& out) {
    const SweepCell<Real> c = sweep_.cells[cell];
    Real inverse_width[3] = {Real(0), Real(0), Real(0)};
    Real coefficient_scale[3] = {Real(1), Real(1), Real(1)};
    Real per_cell[3] = {Real(1), Real(1), Real(1)};
    bool beside_face[3] = {false, false, false};
    for (int a = 0; a < Dims; ++a) {
      inverse_width[a] = sweep_.grid.inverse_width[a][at[a]];
      if (!Face) continue;
      if (u.kind[a] == Upwind::none) coefficient_scale[a] = Real(0);
      beside_face[a] = u.kind[a] == Upwind::given;
      if (beside_face[a]) per_cell[a] = Real(2);
    }
    const Real *up_value_in[3], *up_face_in[3], *up_difference_in[3];
    for (int a = 0; a < 3; ++a) {
      up_value_in[a] = u.value[a];
      up_face_in[a] = u.face[a];
      up_difference_in[a] = u.difference[a];
    }
    Real* leaving_out[3] = {face_, out.y_face, out.z_face};
    Real* difference_out[3] = {difference_, out.y_difference, out.z_difference};
    Real* value_out = out.value;
    const Relax relax = sweep_.relax;
#pragma omp simd
    for (int b = 0; b < count_; ++b) {
      Real up_value[Dims], up_face[Dims], up_difference[Dims];
      for (int a = 0; a < Dims; ++a) {
        up_value[a] = up_value_in[a][b];
        up_face[a] = up_face_in[a][b];
        up_difference[a] = up_difference_in[a][b];
      }
      const Real F = equilibrium(relax, c, b);
      Real lhs = c.nu, rhs = c.nu * F;
      Real coefficient[Dims];
      for (int a = 0; a < Dims; ++a) {
        coefficient[a] = speed_[a][b] * inverse_width[a];
        if constexpr (Face) coefficient[a] *= coefficient_scale[a];
        lhs += coefficient[a];
        rhs += coefficient[a] * up_face[a];
      }
      Real lhs_unlimited = lhs, rhs_unlimited = rhs;
      for (int a = 0; a < Dims; ++a) {
        const Real k = Face ? Real(0.5) * per_cell[a] * coefficient[a] : Real(0.5) * coefficient[a];
        lhs_unlimited += k;
        rhs_unlimited += k * up_value[a];
      }
      const Real unlimited = rhs_unlimited / lhs_unlimited;
      const Real first = rhs / lhs;
      Real lowest = F < Real(0) ? F : Real(0);
      for (int a = 0; a < Dims; ++a) {
        const Real least = up_value[a] < up_face[a] ? up_value[a] : up_face[a];
        lowest = coefficient[a] != Real(0) && least < lowest ? least : lowest;
      }
      Real slope[Dims];
      for (int a = 0; a < Dims; ++a) {
        Real limited;
        if constexpr (Face) {
          const Real d = per_cell[a] * (unlimited - up_value[a]);
          limited = beside_face[a]
                        ? limited_difference(Limiter::minmod, d, Real(2) * (F - unlimited))
                        : limited_difference(L, d, up_difference[a]);
        } else {
          limited = limited_difference(L, unlimited - up_value[a], up_difference[a]);
        }
        const Real floor = Real(-2) * unlimited;
        // fmax(limited, floor) for finite values.
        slope[a] = coefficient[a] == Real(0) ? Real(0) : (limited < floor ? floor : limited);
        rhs -= Real(0.5) * coefficient[a] * slope[a];
      }
      Real theta;
      if constexpr (Dims == 1)
        theta = positive_slope_fraction(first, rhs / lhs, lowest, slope[0]);
      else if constexpr (Dims == 2)
        theta = positive_slope_fraction(first, rhs / lhs, lowest, slope[0], slope[1]);
      else
        theta = positive_slope_fraction(first, rhs / lhs, lowest, slope[0], slope[1], slope[2]);
      for (int a = 0; a < Dims; ++a) slope[a] *= theta;
      const Real unscaled = rhs / lhs;
      const Real f = theta < Real(1) ? first - theta * (first - unscaled) : unscaled;
      value_[b] = f;
      if constexpr (Dims >= 2) value_out[b] = f;
      for (int a = 0; a < Dims; ++a) {
        const Real leaving = f + Real(0.5) * slope[a];
        const Real difference =
            coefficient[a] != Real(0)
                ? (Face ? per_cell[a] * (f - up_value[a]) : f - up_value[a])
                : Real(0);
        leaving_out[a][b] = leaving;
        difference_out[a][b] = difference;
        if constexpr (Face) {
          leaving_[a][b] = leaving;
          differences_[a][b] = difference;
        }
      }
    }
  }

  // Kernel::add_cell's face and solid sums of a face or solid's neighbour for every slot: the
  // fluxes into a solid downwind and through the outer faces the cell touches, as products of
  // the slots' face values with the group's flux tables, and a symmetry face's mirror images.
  template <int Dims, bool Second>
  void add_face_sums(const CellUpwind& u, std::int64_t cell, unsigned cell_flags, const int* at,
                     const int* steps) {
    const Kernel& k = sweep_;
    for (int a = 0; a < Dims; ++a) {
      const Real* leaving = Second ? leaving_[a] : value_;
      const int side_in = lanes_[0].dir[a] > 0 ? 0 : 1, side_out = 1 - side_in;
      if (cell_flags & (1u << (2 * a + side_out))) {  // a solid downwind
        Sums<1> q;
        q[0] = product(solid_flux_[a], leaving);
        acc_.add(k.solids.outflux + cell * 6 + 2 * a + side_out, q);
      }
      if (!(cell_flags & kOuterFaceCell)) continue;
      const std::int64_t t = Kernel::transverse(at, k.grid.n, a);
      if (steps[a] == 0) {  // the face the slots enter through: its entering values
        const SweepFace face = k.face_at(a, side_in);
        const Real* entering = u.kind[a] == Upwind::none ? value_ : u.entering[a];
        if (face.sums != nullptr) add_flux(face.sums + t * kFaceSums, face_table_[a][0], entering);
      }
      if (steps[a] == k.grid.n[a] - 1) {  // the face they leave through
        const SweepFace face = k.face_at(a, side_out);
        if (face.kind == FaceKind::specular) keep_mirror_images<Second>(a, side_out, t, leaving);
        if (face.sums != nullptr) add_flux(face.sums + t * kFaceSums, face_table_[a][1], leaving);
      }
    }
  }

  // The face sums of the slots' face values at one face position.
  void add_flux(double* to, const double (*table)[kLanes], const Real* value) {
    Sums<kFaceSums> sums;
    for (int k = 0; k < kFaceSums; ++k) sums[k] = product(table[k], value);
    acc_.add(to, sums);
  }

  // sum_b row[b] value[b] over the group's slots, in double: one SIMD reduction, whose
  // partial sums stay in registers (the slots' products in a fixed order).
  template <class Value>
  double product(const double* row, const Value* value) const {
    double sum = 0.0;
#pragma omp simd reduction(+ : sum)
    for (int b = 0; b < count_; ++b) sum += row[b] * double(value[b]);
    return sum;
  }

  // What a symmetry face's mirror images of the leaving slots enter with (Kernel::at_outer_faces).
  template <bool Second>
  void keep_mirror_images(int a, int side, std::int64_t t, const Real* leaving) {
    const Kernel& k = sweep_;
    Real* mirror = side == 0 ? k.tables.mirror[a][0] : k.tables.mirror[a][1];
    for (int b = 0; b < count_; ++b) {
      if (speed_[a][b] == Real(0)) continue;
      Real* image = mirror + (t * k.vel.n + lanes_[b].v) * k.tables.mirror_values;
      if constexpr (Second) {
        image[0] = value_[b];
        image[1] = leaving[b];
        image[2] = differences_[a][b];
      } else {
        image[0] = leaving[b];
      }
    }
  }

  // Slot b's equilibrium value at a cell: Relaxation::equilibrium's h factor as a select of
  // reals (a vector of bools would set the SIMD loop's width), exact: the g node's F times 1.
  Real equilibrium(const Relax& relax, const SweepCell<Real>& c, int b) const {
    return relax.equilibrium(c.target, xi_[0][b], xi_[1][b], xi_[2][b],
                             CompactNode<Real>{false, shakhov_constant_[b]}) *
           (h_[b] != Real(0) ? c.target.h : Real(1));
  }

  // The group's tables: a slot's sums for a value of 1, which its value then multiplies. Moments
  // (Kernel::slot_moments): row b is slot b's, so that a cell's sums are the rows times the
  // values. Faces (Kernel::face_sums), [k][slot]: per axis, the face the slots enter through (xn
  // = -|xi_a|) and the one they leave through (xn = |xi_a|). Solids: w |xi_a|, the mass flux into
  // a solid downwind (Kernel::add_solid_outflux; h nodes carry none). Slots past count_: 0.
  void make_tables() {
    for (int b = 0; b < kLanes; ++b) {
      for (int k = 0; k < kMomentWidth; ++k) moment_rows_[b][k] = 0.0;
      for (int a = 0; a < 3; ++a) {
        solid_flux_[a][b] = 0.0;
        for (int s = 0; s < 2; ++s)
          for (int k = 0; k < kFaceSums; ++k) face_table_[a][s][k][b] = 0.0;
      }
    }
    for (int b = 0; b < count_; ++b) {
      const Lane& l = lanes_[b];
      const double w = double(l.w);
      const Sums<kRawMoments> moments = sweep_.slot_moments(l, w);
      for (int k = 0; k < kRawMoments; ++k) moment_rows_[b][k] = moments[k];
      for (int a = 0; a < 3; ++a) {
        const double speed = double(l.speed[a]);
        solid_flux_[a][b] = l.node.h ? 0.0 : w * speed;
        for (int s = 0; s < 2; ++s) {
          const Sums<kFaceSums> q = sweep_.face_sums(l, w * (s == 0 ? -speed : speed), s == 1);
          for (int k = 0; k < kFaceSums; ++k) face_table_[a][s][k][b] = q[k];
        }
      }
    }
  }

  // Kernel::add_cell's moments of a swept cell for every slot: the slots' rows of the moment
  // table times their values, summed over the group in registers of 8 moments (even and odd
  // slots in two chains, so that each waits on half as many additions; an odd count's last
  // partner has value and row 0).
  void add_moments(std::int64_t cell) {
    using Wide = std::experimental::fixed_size_simd<double, 8>;
    constexpr auto aligned = std::experimental::vector_aligned;
    Wide even_low(0.0), even_high(0.0), odd_low(0.0), odd_high(0.0);
    for (int b = 0; b < count_; b += 2) {
      const Wide even(double(value_[b])), odd(double(value_[b + 1]));
      even_low += even * Wide(moment_rows_[b], aligned);
      even_high += even * Wide(moment_rows_[b] + 8, aligned);
      odd_low += odd * Wide(moment_rows_[b + 1], aligned);
      odd_high += odd * Wide(moment_rows_[b + 1] + 8, aligned);
    }
    alignas(64) double sums[kMomentWidth];
    (even_low + odd_low).copy_to(sums, aligned);
    (even_high + odd_high).copy_to(sums + 8, aligned);
    Sums<kRawMoments> moments;
    for (int k = 0; k < kRawMoments; ++k) moments[k] = sums[k];
    acc_.add(sweep_.moments + cell * kRawMoments, moments);
  }

  const Kernel& sweep_;
  Accumulator acc_;
  std::vector<Real> slices_;  // [slice element][kLanes]: the group's slices, interleaved
  Lane lanes_[kLanes];
  int count_ = 0;
  bool simd_cells_ = true;  // the grid's active axes are x, x-y or x-y-z
  alignas(64) Real xi_[3][kLanes] = {};
  alignas(64) Real speed_[3][kLanes] = {};
  alignas(64) Real shakhov_constant_[kLanes] = {};
  alignas(64) Real h_[kLanes] = {};  // 1 at a reduced set's h nodes
  // What each slot carries along x (SweepCarry; first order the value only).
  alignas(64) Real value_[kLanes] = {}, face_[kLanes] = {}, difference_[kLanes] = {};
  // A face or solid's neighbour: the entering values (given), a symmetry face's mirror images
  // (value, face, difference); zeros_, the values of an axis nothing lies upwind on; second
  // order, the face values the cell leaves and its upwind differences, which its sums and mirror
  // images use.
  alignas(64) Real given_[3][kLanes] = {};
  alignas(64) Real mirror_[3][3][kLanes] = {};
  alignas(64) Real zeros_[kLanes] = {};
  alignas(64) Real leaving_[3][kLanes] = {};
  alignas(64) Real differences_[3][kLanes] = {};
  static constexpr int kMomentWidth = 16;  // kRawMoments padded to two registers of 8
  alignas(64) double moment_rows_[kLanes][kMomentWidth] = {};
  alignas(64) double face_table_[3][2][kFaceSums][kLanes] = {};
  alignas(64) double solid_flux_[3][kLanes] = {};
};

}  // namespace bolt
