#pragma once
// A discrete velocity set: nodes and quadrature weights behind one interface. Built here: the
// Cartesian (uniform or centre-stretched) box, its cut by a sphere, and the reduced sets of the
// Chu reduction (a box over the kept axes, each node twice: as g = int f dxi_r and as
// h = int |xi_r|^2 f dxi_r; docs/physics.md). Kernels see only the node list.
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
  // Chu reduction: reduced[a] when velocity axis a is integrated out (its nodes then all sit at
  // xi_a = 0 and its axis is one node of width 1). Node 2k is then the g node and 2k + 1 the h
  // node of kept node k: weight (the weight of f in every moment of the kept axes: mass,
  // momentum, ...) is 0 at h nodes, and h_weight (the weight in the reduced axes' sum of xi_r^2)
  // is 0 at g nodes. h_weight is empty on a full set.
  std::array<bool, 3> reduced{false, false, false};
  std::vector<double> h_weight;

  int size() const { return static_cast<int>(weight.size()); }
  bool is_reduced() const { return !h_weight.empty(); }
  unsigned reduced_mask() const {  // bit a: axis a reduced (Velocities::reduced)
    return unsigned(reduced[0]) | unsigned(reduced[1]) << 1 | unsigned(reduced[2]) << 2;
  }
  int reduced_count() const { return int(reduced[0]) + int(reduced[1]) + int(reduced[2]); }
  bool is_h(int v) const { return is_reduced() && h_weight[v] != 0.0; }
  double h_weight_of(int v) const { return is_reduced() ? h_weight[v] : 0.0; }
  // The nodes of the set's mass (all but the h nodes): a tensor-product set has as many as the
  // product of its axes' nodes.
  int mass_nodes() const { return is_reduced() ? size() / 2 : size(); }
  // The value at node v of the reduction of a Maxwellian with temperatures T[a] per axis and no
  // velocity along the reduced axes, over the 3-D Maxwellian's value at the node (whose reduced
  // components are 0): prod_r sqrt(pi T_r) at a g node, that times sum_r T_r / 2 at an h node;
  // 1 on a full set.
  double reduced_factor(int v, const double T[3]) const;
  double reduced_factor(int v, double T) const {
    const double Ts[3] = {T, T, T};
    return reduced_factor(v, Ts);
  }
  double max_speed(int axis) const;
  bool symmetric(int axis) const;
};

struct VelocityGridSpec {
  std::string type = "cartesian";  // a name of velocity_grid_types()
  std::array<int, 3> nodes{16, 16, 16};
  std::array<double, 3> centre{0.0, 0.0, 0.0};
  double half_width = 4.0;  // box [centre - a, centre + a] on every axis, in units of c0
  double ratio = 1.0;       // stretch ratio, finest cells at the box centre (1 = uniform)
  std::array<bool, 3> reduced{false, false, false};  // axes the Chu reduction integrates out
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
// The Cartesian box of spec over the axes not in `reduced`, each node as a g and an h node.
VelocityGrid make_reduced_velocity_grid(const VelocityGridSpec& spec, std::array<bool, 3> reduced);
// The reduction's name: "none", "z" (2V), "yz" (1V along x), ...; and its kept dimension.
std::string reduction_name(const std::array<bool, 3>& reduced);
// "3-D (16 x 16 x 16 nodes)", or "2V: xi_z reduced (-vgrid_reduce), g and h on 16 x 16 nodes".
std::string velocity_space_text(const VelocityGrid& grid);

}  // namespace bolt
