#pragma once
// A discrete velocity set: nodes and quadrature weights behind one interface. Two are built here,
// the Cartesian (uniform or centre-stretched) box and its cut by a sphere; kernels see only the
// node list, so other sets (reduced grids) fit behind the same arrays.
//
// Nodes are ordered so that each sign octant (sign of xi_x, xi_y, xi_z) is contiguous: a warp of
// consecutive velocities then streams from the same upwind neighbour.
#include <array>
#include <string>
#include <vector>

#include "axis.hpp"

namespace bolt {

struct VelocityGrid {
  std::array<std::vector<double>, 3> xi;  // xi[axis][v]
  std::vector<double> weight;             // cell volume: integral over the velocity cell
  std::array<Axis, 3> axes;               // the Cartesian axes the nodes came from
  bool full_box = true;                   // every node of the axes' box is in the set
  std::array<std::vector<int>, 3> node;   // node[axis][v] = index along that axis
  // reflect[axis][v]: the velocity with xi[axis] negated, or -1 when the set is not symmetric
  std::array<std::vector<int>, 3> reflect;

  int size() const { return static_cast<int>(weight.size()); }
  double max_speed(int axis) const;
  bool symmetric(int axis) const;
};

struct VelocityGridSpec {
  std::string type = "cartesian";  // a name of velocity_grid_types()
  std::array<int, 3> nodes{16, 16, 16};
  std::array<double, 3> centre{0.0, 0.0, 0.0};
  double half_width = 4.0;  // box [centre - a, centre + a] on every axis, in units of c0
  double ratio = 1.0;       // stretch ratio, finest cells at the box centre (1 = uniform)
};

// The grid of spec.type (-vgrid_type):
//  * cartesian: every node of the box (uniform, or stretched towards its centre);
//  * sphere: the nodes of the uniform box inside the ball of radius half_width about the centre,
//    the velocity grid of the projection method (paper 003): N0 nodes per axis give 4224 nodes
//    for N0 = 20 and 3112 for N0 = 18.
VelocityGrid make_velocity_grid(const VelocityGridSpec& spec);
std::vector<std::string> velocity_grid_types();

VelocityGrid make_cartesian_velocity_grid(const VelocityGridSpec& spec);
VelocityGrid make_sphere_velocity_grid(const VelocityGridSpec& spec);

}  // namespace bolt
