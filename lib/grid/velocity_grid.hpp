#pragma once
// A discrete velocity set: nodes and quadrature weights behind one interface. The Cartesian
// (uniform or centre-stretched) box is the one built here; kernels see only the node list, so other
// sets (spherical cuts, reduced grids) fit behind the same arrays.
//
// Nodes are ordered so that each sign octant (sign of xi_x, xi_y, xi_z) is contiguous: a warp of
// consecutive velocities then streams from the same upwind neighbour.
#include <array>
#include <vector>

#include "axis.hpp"

namespace bolt {

struct VelocityGrid {
  std::array<std::vector<double>, 3> xi;  // xi[axis][v]
  std::vector<double> weight;             // cell volume: integral over the velocity cell
  std::array<Axis, 3> axes;               // the Cartesian axes the nodes came from
  std::array<std::vector<int>, 3> node;   // node[axis][v] = index along that axis
  // reflect[axis][v]: the velocity with xi[axis] negated, or -1 when the set is not symmetric
  std::array<std::vector<int>, 3> reflect;

  int size() const { return static_cast<int>(weight.size()); }
  double max_speed(int axis) const;
  bool symmetric(int axis) const;
};

struct VelocityGridSpec {
  std::array<int, 3> nodes{16, 16, 16};
  std::array<double, 3> centre{0.0, 0.0, 0.0};
  double half_width = 4.0;  // box [centre - a, centre + a] on every axis, in units of c0
  double ratio = 1.0;       // stretch ratio, finest cells at the box centre (1 = uniform)
};

VelocityGrid make_cartesian_velocity_grid(const VelocityGridSpec& spec);

}  // namespace bolt
