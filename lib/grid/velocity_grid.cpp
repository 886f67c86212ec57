#include "velocity_grid.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

#include "core/error.hpp"

namespace bolt {

double VelocityGrid::max_speed(int axis) const {
  double speed = 0.0;
  for (double x : xi[axis]) speed = std::max(speed, std::abs(x));
  return speed;
}

bool VelocityGrid::symmetric(int axis) const {
  return std::all_of(reflect[axis].begin(), reflect[axis].end(), [](int r) { return r >= 0; });
}

namespace {

int octant(double x, double y, double z) {
  return (x < 0 ? 1 : 0) | (y < 0 ? 2 : 0) | (z < 0 ? 4 : 0);
}

}  // namespace

VelocityGrid make_cartesian_velocity_grid(const VelocityGridSpec& spec) {
  require(spec.half_width > 0.0, "-vgrid_half_width ", spec.half_width, ": must be positive");
  VelocityGrid grid;
  for (int a = 0; a < 3; ++a) {
    require(spec.nodes[a] >= 1, "-vgrid_n ", spec.nodes[a], ": must be at least 1 per axis");
    AxisSpec axis;
    axis.cells = spec.nodes[a];
    axis.lo = spec.centre[a] - spec.half_width;
    axis.hi = spec.centre[a] + spec.half_width;
    axis.ratio = spec.ratio;
    axis.fine_at = spec.ratio < 1.0 ? FineAt::centre : FineAt::none;
    grid.axes[a] = make_axis(axis, "vgrid", std::string(1, "xyz"[a]));
  }
  struct Node {
    int octant;
    int i, j, k;
  };
  std::vector<Node> nodes;
  const auto& ax = grid.axes;
  for (int k = 0; k < ax[2].cells(); ++k)
    for (int j = 0; j < ax[1].cells(); ++j)
      for (int i = 0; i < ax[0].cells(); ++i)
        nodes.push_back({octant(ax[0].centres[i], ax[1].centres[j], ax[2].centres[k]), i, j, k});
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const Node& a, const Node& b) { return a.octant < b.octant; });
  const int n = static_cast<int>(nodes.size());
  for (int a = 0; a < 3; ++a) {
    grid.xi[a].resize(n);
    grid.node[a].resize(n);
    grid.reflect[a].assign(n, -1);
  }
  grid.weight.resize(n);
  std::map<std::tuple<int, int, int>, int> index_of;
  for (int v = 0; v < n; ++v) {
    const int idx[3] = {nodes[v].i, nodes[v].j, nodes[v].k};
    grid.weight[v] = 1.0;
    for (int a = 0; a < 3; ++a) {
      grid.xi[a][v] = ax[a].centres[idx[a]];
      grid.node[a][v] = idx[a];
      grid.weight[v] *= ax[a].widths[idx[a]];
    }
    index_of[{idx[0], idx[1], idx[2]}] = v;
  }
  // Reflection across xi_a = 0 exists when the axis nodes are symmetric about zero.
  for (int a = 0; a < 3; ++a) {
    const auto& c = ax[a].centres;
    const int m = ax[a].cells();
    bool symmetric = true;
    for (int i = 0; i < m; ++i)
      symmetric = symmetric && std::abs(c[i] + c[m - 1 - i]) <= 1e-12 * spec.half_width;
    if (!symmetric) continue;
    for (int v = 0; v < n; ++v) {
      int idx[3] = {grid.node[0][v], grid.node[1][v], grid.node[2][v]};
      idx[a] = m - 1 - idx[a];
      grid.reflect[a][v] = index_of.at({idx[0], idx[1], idx[2]});
    }
  }
  return grid;
}

}  // namespace bolt
