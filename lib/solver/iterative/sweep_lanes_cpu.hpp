#pragma once
// The CPU's sweep of a group of velocity slots of one octant (kernels/sweep.hpp): one thread
// walks the cells once, in the octant's order, and at each cell updates every slot of the group
// -- as a GPU warp's lanes do -- so that the update of a cell away from faces and solids (first
// or second order) runs as SIMD loops over the slots, with the cell's target loaded once. A
// cell on an outer face or beside a solid takes the shared kernel's step per slot for its
// entering values and face sums, with the slots' equilibrium values evaluated before in one
// SIMD loop. Each slot sees the cells
// in the order it sees them alone, so its values are the one-slot sweep's but for the rounding
// of the SIMD loop's exp (glibc's vector exp, libmvec). A swept cell's moment sums are the
// product of the group's values with a table of w phi_k(xi) made once per group: the same sums
// rounded in another order, fixed by the slot split, so that a run with a given thread count
// gives the same answer every time. Include only from the CPU backend's unit (after
// core/launch_cpu.hpp, which declares the vector exp).
#include <cstdint>
#include <vector>

#include "kernels/sweep.hpp"

namespace bolt {

template <class Real, class Relax, class Accumulator>
class SweepLanes {
 public:
  // Slots per group: one 512-bit register of floats, two of doubles.
  static constexpr int kLanes = 16;
  using Kernel = Sweep<Real, Relax>;
  using Lane = typename Kernel::Lane;

  SweepLanes(const Kernel& sweep, const Accumulator& acc, std::int64_t slice_size)
      : sweep_(sweep), acc_(acc),
        slices_(std::size_t(slice_size) * kLanes, Real(0)) {
    // The SIMD loops take the active axes to be x, x-y or x-y-z; a grid active along y or z
    // alone (a 1-D problem across y) is swept per slot.
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
  void sweep_group() {
    for (int b = 0; b < count_; ++b) {
      for (int a = 0; a < 3; ++a) {
        xi_[a][b] = lanes_[b].xi[a];
        speed_[a][b] = lanes_[b].speed[a];
      }
      h_[b] = lanes_[b].node.h ? Real(1) : Real(0);
      shakhov_constant_[b] = lanes_[b].node.shakhov_constant;
    }
    make_moment_table();
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

  // One line along x: cells of flags 0 in the SIMD loops, the others per slot (the kernel's
  // step, which also adds their face and solid sums); the moments of every swept cell from the
  // table.
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
      const std::int64_t cell = row + at[0];
      const unsigned cell_flags = sweep_.flags[cell];
      if (!simd_cells_ || (cell_flags & kSolidCell)) {  // a solid cell: the step's early return
        per_slot<Second, false>(ii, jj, kk);
        continue;
      }
      if (cell_flags != 0) {
        lane_targets(sweep_.cells[cell]);
        per_slot<Second, true>(ii, jj, kk);
      } else if constexpr (Second) {
        interior_second_order<Dims, L>(cell, at);
      } else {
        interior_first_order<Dims>(cell, at);
      }
      add_moments(cell, value_);
    }
  }

  // The kernel's step of cell (ii, jj, kk) for every slot; kLanes: with the equilibrium values
  // of lane_targets, the moments left to the caller.
  template <bool Second, bool kLanes>
  void per_slot(int ii, int jj, int kk) {
    for (int b = 0; b < count_; ++b) {
      if constexpr (Second) {
        SweepCarry<Real> carry{value_[b], face_[b], difference_[b]};
        sweep_.template step_second_order<kLanes>(lanes_[b], ii, jj, kk, carry, slice(b), acc_,
                                                  0, target_[b]);
        value_[b] = carry.value;
        face_[b] = carry.face;
        difference_[b] = carry.difference;
      } else {
        value_[b] = sweep_.template step<kLanes>(lanes_[b], ii, jj, kk, value_[b], slice(b), acc_,
                                                 0, target_[b]);
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

  // Every slot's equilibrium value at a cell that per_slot sweeps, in one SIMD loop.
  void lane_targets(const SweepCell<Real>& c) {
    const Relax relax = sweep_.relax;
#pragma omp simd
    for (int b = 0; b < count_; ++b) target_[b] = equilibrium(relax, c, b);
  }

  // Row b of the group's moment table: w phi_k(xi_b) for the moments k of Kernel::add_cell (a
  // reduced set's h node, add_reduced_moments: the reduced axes' share of |xi_r|^2 and m3), so
  // that a cell's sums are one product of its values with the table. Rows past count_ are zero.
  void make_moment_table() {
    const unsigned reduced = sweep_.vel.reduced;
    const double reduced_count = sweep_.vel.reduced_count();
    for (int b = 0; b < kLanes; ++b)
      for (int k = 0; k < kTableWidth; ++k) table_[b][k] = 0.0;
    for (int b = 0; b < count_; ++b) {
      const double w = double(lanes_[b].w), xi2 = lanes_[b].xi2;
      const double xi[3] = {double(lanes_[b].xi[0]), double(lanes_[b].xi[1]),
                            double(lanes_[b].xi[2])};
      double* row = table_[b];
      if (lanes_[b].node.h) {
        for (int a = 0; a < 3; ++a) {
          row[kM2 + a] = (reduced >> a) & 1u ? w / reduced_count : 0.0;
          row[kM3 + a] = w * xi[a];
        }
        continue;
      }
      row[kM0] = w;
      for (int a = 0; a < 3; ++a) {
        row[kM1 + a] = w * xi[a];
        row[kM2 + a] = w * xi[a] * xi[a];
        row[kM3 + a] = w * xi[a] * xi2;
      }
      row[kM2 + 3] = w * xi[0] * xi[1];
      row[kM2 + 4] = w * xi[0] * xi[2];
      row[kM2 + 5] = w * xi[1] * xi[2];
    }
  }

  // Kernel::add_cell of a cell of flags 0 (its moments only) for every slot: the group's values
  // times the moment table, the slots' products summed in two chains (even and odd slots) so
  // that each waits on half as many additions.
  void add_moments(std::int64_t cell, const Real* f) {
    alignas(64) double even[kTableWidth] = {}, odd[kTableWidth] = {};
    for (int b = 0; b < kLanes; b += 2) {
      const double f_even = double(f[b]), f_odd = double(f[b + 1]);
#pragma omp simd
      for (int k = 0; k < kTableWidth; ++k) {
        even[k] += f_even * table_[b][k];
        odd[k] += f_odd * table_[b + 1][k];
      }
    }
    double* to = sweep_.moments + cell * kRawMoments;
    for (int k = 0; k < kRawMoments; ++k) to[k] += even[k] + odd[k];
  }

  // Kernel::step of a cell of flags 0 for every slot of the group, the same operations in the
  // same order: f = (nu F + sum_a c_a u_a) / (nu + sum_a c_a), c_a = |xi_a| / dx_a, u_a the
  // upwind value (x: the carry; 2-D y: the line before in the slice; 3-D y: the slice's current
  // plane one line upwind, z: the slice before this cell overwrites it).
  template <int Dims>
  void interior_first_order(std::int64_t cell, const int* at) {
    Real* carry = value_;
    const int* n = sweep_.grid.n;
    const SweepCell<Real> c = sweep_.cells[cell];
    Real inverse_width[3] = {Real(0), Real(0), Real(0)};
    for (int a = 0; a < Dims; ++a) inverse_width[a] = sweep_.grid.inverse_width[a][at[a]];
    const std::int64_t here = Dims == 3 ? at[0] + std::int64_t(n[0]) * at[1] : at[0];
    const std::int64_t y_at = Dims == 3 ? here - lanes_[0].dir[1] * std::int64_t(n[0]) : here;
    Real* y_upwind = slices_.data() + y_at * kLanes;
    Real* value = slices_.data() + here * kLanes;
    const Relax relax = sweep_.relax;
#pragma omp simd
    for (int b = 0; b < count_; ++b) {
      const Real F = equilibrium(relax, c, b);
      Real lhs = c.nu, rhs = c.nu * F;
      const Real cx = speed_[0][b] * inverse_width[0];
      lhs += cx;
      rhs += cx * carry[b];
      if constexpr (Dims >= 2) {
        const Real cy = speed_[1][b] * inverse_width[1];
        lhs += cy;
        rhs += cy * y_upwind[b];
      }
      if constexpr (Dims == 3) {
        const Real cz = speed_[2][b] * inverse_width[2];
        lhs += cz;
        rhs += cz * value[b];
      }
      const Real f = rhs / lhs;
      if constexpr (Dims >= 2) value[b] = f;
      carry[b] = f;
    }
  }

  // Kernel::step_second_order of a cell of flags 0 for every slot, the same operations in the
  // same order (no faces or solids: every upwind distance is one cell, per_cell 1). A slot of
  // xi_a = 0 takes no term along a, as there: its coefficient is 0, adding 0 times a finite value
  // leaves the sums as they are, and its slope and difference are selected to 0.
  template <int Dims, Limiter L>
  void interior_second_order(std::int64_t cell, const int* at) {
    const int* n = sweep_.grid.n;
    const SweepCell<Real> c = sweep_.cells[cell];
    const std::int64_t size = sweep_.grid.slice_size();
    Real inverse_width[3] = {Real(0), Real(0), Real(0)};
    for (int a = 0; a < Dims; ++a) inverse_width[a] = sweep_.grid.inverse_width[a][at[a]];
    const std::int64_t here = Dims == 3 ? at[0] + std::int64_t(n[0]) * at[1] : at[0];
    const std::int64_t y_at = Dims == 3 ? here - lanes_[0].dir[1] * std::int64_t(n[0]) : here;
    const int y_face = Dims == 3 ? kSliceFaceY : kSliceFace2D;
    const int y_difference = Dims == 3 ? kSliceDifferenceY : kSliceDifference2D;
    Real* const base = slices_.data();
    const auto element = [&](int array, std::int64_t p) { return base + (array * size + p) * kLanes; };
    const Real* y_value = element(kSliceValue, y_at);
    const Real* y_face_in = element(y_face, y_at);
    const Real* y_difference_in = element(y_difference, y_at);
    Real* value_out = element(kSliceValue, here);
    Real* y_face_out = element(y_face, here);
    Real* y_difference_out = element(y_difference, here);
    Real* z_face = element(kSliceFaceZ, here);
    Real* z_difference = element(kSliceDifferenceZ, here);
    const Relax relax = sweep_.relax;
#pragma omp simd
    for (int b = 0; b < count_; ++b) {
      Real up_value[3] = {value_[b], Real(0), Real(0)};
      Real up_face[3] = {face_[b], Real(0), Real(0)};
      Real up_difference[3] = {difference_[b], Real(0), Real(0)};
      if constexpr (Dims >= 2) {
        up_value[1] = y_value[b];
        up_face[1] = y_face_in[b];
        up_difference[1] = y_difference_in[b];
      }
      if constexpr (Dims == 3) {
        up_value[2] = value_out[b];
        up_face[2] = z_face[b];
        up_difference[2] = z_difference[b];
      }
      const Real F = equilibrium(relax, c, b);
      Real lhs = c.nu, rhs = c.nu * F;
      Real coefficient[Dims];
      for (int a = 0; a < Dims; ++a) {
        coefficient[a] = speed_[a][b] * inverse_width[a];
        lhs += coefficient[a];
        rhs += coefficient[a] * up_face[a];
      }
      Real lhs_unlimited = lhs, rhs_unlimited = rhs;
      for (int a = 0; a < Dims; ++a) {
        const Real k = Real(0.5) * coefficient[a];
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
        const Real limited = limited_difference(L, unlimited - up_value[a], up_difference[a]);
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
      Real leaving[Dims], difference[Dims];
      for (int a = 0; a < Dims; ++a) {
        leaving[a] = f + Real(0.5) * slope[a];
        difference[a] = coefficient[a] != Real(0) ? f - up_value[a] : Real(0);
      }
      value_[b] = f;
      face_[b] = leaving[0];
      difference_[b] = difference[0];
      if constexpr (Dims >= 2) {
        value_out[b] = f;
        y_face_out[b] = leaving[1];
        y_difference_out[b] = difference[1];
      }
      if constexpr (Dims == 3) {
        z_face[b] = leaving[Dims - 1];
        z_difference[b] = difference[Dims - 1];
      }
    }
  }

  const Kernel& sweep_;
  Accumulator acc_;
  std::vector<Real> slices_;  // [slice element][kLanes]: the group's slices, interleaved
  Lane lanes_[kLanes];
  int count_ = 0;
  bool simd_cells_ = true;  // the cells of flags 0 take the SIMD loops
  alignas(64) Real xi_[3][kLanes] = {};
  alignas(64) Real speed_[3][kLanes] = {};
  alignas(64) Real shakhov_constant_[kLanes] = {};
  // The moment table's rows, kRawMoments wide padded to two 512-bit registers.
  static constexpr int kTableWidth = 16;
  alignas(64) double table_[kLanes][kTableWidth] = {};
  // What each slot carries along x (SweepCarry; first order the value only).
  alignas(64) Real value_[kLanes] = {}, face_[kLanes] = {}, difference_[kLanes] = {};
  alignas(64) Real target_[kLanes] = {};  // lane_targets' equilibrium values
  alignas(64) Real h_[kLanes] = {};  // 1 at a reduced set's h nodes
};

}  // namespace bolt
