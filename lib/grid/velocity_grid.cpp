#include "velocity_grid.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "grid/velocity_grid_size.hpp"

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

namespace {

// The axes of the spec's box.
std::array<Axis, 3> box_axes(const VelocityGridSpec& spec) {
  require(spec.half_width > 0.0, "-vgrid_half_width ", spec.half_width, ": must be positive");
  std::array<Axis, 3> axes;
  for (int a = 0; a < 3; ++a) {
    require(spec.nodes[a] >= 1, "-vgrid_n ", spec.nodes[a], ": must be at least 1 per axis");
    AxisSpec axis;
    axis.cells = spec.nodes[a];
    axis.lo = spec.centre[a] - spec.half_width;
    axis.hi = spec.centre[a] + spec.half_width;
    axis.ratio = spec.ratio;
    axis.fine_at = spec.ratio < 1.0 ? FineAt::centre : FineAt::none;
    axes[a] = make_axis(axis, "vgrid", std::string(1, "xyz"[a]));
  }
  return axes;
}

// The nodes of `axes`' box for which keep(i, j, k) holds, octant by octant, with their weights
// (cell volumes) and reflections.
template <class Keep>
VelocityGrid grid_of_nodes(const std::array<Axis, 3>& axes, Keep keep) {
  VelocityGrid grid;
  grid.axes = axes;
  struct Node {
    int octant;
    int i, j, k;
  };
  std::vector<Node> nodes;
  const auto& ax = grid.axes;
  for (int k = 0; k < ax[2].cells(); ++k)
    for (int j = 0; j < ax[1].cells(); ++j)
      for (int i = 0; i < ax[0].cells(); ++i) {
        if (keep(i, j, k))
          nodes.push_back({octant(ax[0].centres[i], ax[1].centres[j], ax[2].centres[k]), i, j, k});
        else
          grid.full_box = false;
      }
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const Node& a, const Node& b) { return a.octant < b.octant; });
  const int n = static_cast<int>(nodes.size());
  for (int a = 0; a < 3; ++a) {
    grid.xi[a].resize(n);
    grid.node[a].resize(n);
    grid.reflect[a].assign(n, -1);
  }
  grid.weight.resize(n);
  // index_of[box node] = v, or -1 where the set lacks the node: an array of the box, not a map,
  // whose nodes would cost some 70 bytes a velocity more.
  const auto box_index = [&](int i, int j, int k) {
    return i + std::size_t(ax[0].cells()) * (j + std::size_t(ax[1].cells()) * k);
  };
  std::vector<int> index_of(std::size_t(ax[0].cells()) * ax[1].cells() * ax[2].cells(), -1);
  for (int v = 0; v < n; ++v) {
    const int idx[3] = {nodes[v].i, nodes[v].j, nodes[v].k};
    grid.weight[v] = 1.0;
    for (int a = 0; a < 3; ++a) {
      grid.xi[a][v] = ax[a].centres[idx[a]];
      grid.node[a][v] = idx[a];
      grid.weight[v] *= ax[a].widths[idx[a]];
    }
    index_of[box_index(idx[0], idx[1], idx[2])] = v;
  }
  // Reflection across xi_a = 0 exists when the axis nodes are symmetric about zero and the
  // mirrored node is in the set.
  for (int a = 0; a < 3; ++a) {
    const auto& c = ax[a].centres;
    const int m = ax[a].cells();
    const double scale = std::max(std::abs(ax[a].faces.front()), std::abs(ax[a].faces.back()));
    bool symmetric = true;
    for (int i = 0; i < m; ++i)
      symmetric = symmetric && std::abs(c[i] + c[m - 1 - i]) <= 1e-12 * scale;
    if (!symmetric) continue;
    for (int v = 0; v < n; ++v) {
      int idx[3] = {grid.node[0][v], grid.node[1][v], grid.node[2][v]};
      idx[a] = m - 1 - idx[a];
      grid.reflect[a][v] = index_of[box_index(idx[0], idx[1], idx[2])];
    }
  }
  return grid;
}

}  // namespace

VelocityGrid make_cartesian_velocity_grid(const VelocityGridSpec& spec) {
  return grid_of_nodes(box_axes(spec), [](int, int, int) { return true; });
}

double VelocityGrid::reduced_factor(int v, const double T[3]) const {
  if (!is_reduced()) return 1.0;
  const double pi = 3.14159265358979323846;
  double factor = 1.0, h = 0.0;
  for (int a = 0; a < 3; ++a)
    if (reduced[a]) {
      factor *= std::sqrt(pi * T[a]);
      h += 0.5 * T[a];
    }
  return is_h(v) ? factor * h : factor;
}

std::string reduction_name(const std::array<bool, 3>& reduced) {
  std::string name;
  for (int a = 0; a < 3; ++a)
    if (reduced[a]) name += "xyz"[a];
  return name.empty() ? "none" : name;
}

std::string velocity_space_text(const VelocityGrid& grid) {
  std::string nodes;
  for (int a = 0; a < 3; ++a)
    if (!grid.reduced[a])
      nodes += (nodes.empty() ? "" : " x ") + std::to_string(grid.axes[a].cells());
  if (!grid.is_reduced()) return "3-D (" + nodes + " nodes, -vgrid_reduce none)";
  std::string axes;
  for (int a = 0; a < 3; ++a)
    if (grid.reduced[a]) axes += std::string(axes.empty() ? "xi_" : " and xi_") + "xyz"[a];
  return std::to_string(3 - grid.reduced_count()) + "V: " + axes +
         " reduced (-vgrid_reduce), g and h on " + nodes + " nodes";
}

VelocityGrid make_reduced_velocity_grid(const VelocityGridSpec& spec, std::array<bool, 3> reduced) {
  std::array<Axis, 3> axes = box_axes(spec);
  for (int a = 0; a < 3; ++a)
    if (reduced[a]) axes[a] = make_axis(AxisSpec{1, -0.5, 0.5}, "vgrid", std::string(1, "xyz"[a]));
  const VelocityGrid kept = grid_of_nodes(axes, [](int, int, int) { return true; });
  // Each kept node twice, g then h, side by side: the octants stay contiguous and a velocity
  // batch of whole pairs keeps both functions of a node.
  VelocityGrid grid;
  grid.axes = kept.axes;
  grid.reduced = reduced;
  grid.full_box = false;  // not the box of its axes: h nodes besides
  const int n = kept.size();
  for (int a = 0; a < 3; ++a) {
    grid.xi[a].resize(2 * n);
    grid.node[a].resize(2 * n);
    grid.reflect[a].assign(2 * n, -1);
  }
  grid.weight.assign(2 * n, 0.0);
  grid.h_weight.assign(2 * n, 0.0);
  for (int v = 0; v < n; ++v)
    for (int kind = 0; kind < 2; ++kind) {
      const int r = 2 * v + kind;
      for (int a = 0; a < 3; ++a) {
        grid.xi[a][r] = kept.xi[a][v];
        grid.node[a][r] = kept.node[a][v];
        if (kept.reflect[a][v] >= 0) grid.reflect[a][r] = 2 * kept.reflect[a][v] + kind;
      }
      (kind == 0 ? grid.weight : grid.h_weight)[r] = kept.weight[v];
    }
  return grid;
}

namespace {

// The sphere's box and its test of a node: inside the ball (a node on the sphere counts as
// inside, to round-off of the radius).
struct SphereCut {
  std::array<Axis, 3> axes;
  VelocityGridSpec spec;
  double r2;

  explicit SphereCut(const VelocityGridSpec& s) : spec(s) {
    require(spec.ratio == 1.0, "-vgrid_stretch ", spec.ratio,
            ": -vgrid_type sphere is a cut of the uniform box (1 only)");
    require(spec.nodes[0] == spec.nodes[1] && spec.nodes[1] == spec.nodes[2], "-vgrid_n ",
            spec.nodes[0], ",", spec.nodes[1], ",", spec.nodes[2],
            ": -vgrid_type sphere needs the same number of nodes N0 on every axis");
    axes = box_axes(spec);
    r2 = spec.half_width * spec.half_width * (1.0 + 1e-12);
  }
  bool operator()(int i, int j, int k) const {
    const double d[3] = {axes[0].centres[i] - spec.centre[0], axes[1].centres[j] - spec.centre[1],
                         axes[2].centres[k] - spec.centre[2]};
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= r2;
  }
  // Nodes inside: along z those of a column (i, j) are one run about the centre (the ball is
  // convex), its ends found by bisection, so the count costs N0^2 log N0 rather than the box.
  std::int64_t count() const {
    const int n = axes[2].cells();
    const auto& z = axes[2].centres;
    const int middle = int(std::lower_bound(z.begin(), z.end(), spec.centre[2]) - z.begin());
    // The first k of [lo, hi) where test(k) holds, test false then true along the range.
    const auto first = [](int lo, int hi, auto test) {
      while (lo < hi) {
        const int m = lo + (hi - lo) / 2;
        if (test(m)) hi = m;
        else lo = m + 1;
      }
      return lo;
    };
    std::int64_t inside = 0;
    for (int j = 0; j < axes[1].cells(); ++j)
      for (int i = 0; i < axes[0].cells(); ++i) {
        const int below = first(0, middle, [&](int k) { return (*this)(i, j, k); });
        const int above = first(middle, n, [&](int k) { return !(*this)(i, j, k); });
        inside += above - below;
      }
    return inside;
  }
};

}  // namespace

VelocityGrid make_sphere_velocity_grid(const VelocityGridSpec& spec) {
  const SphereCut cut(spec);
  return grid_of_nodes(cut.axes, cut);
}

std::int64_t velocity_grid_size(const VelocityGridSpec& spec) {
  if (spec.reduced[0] || spec.reduced[1] || spec.reduced[2]) {  // a g and an h per kept node
    std::int64_t kept = 2;
    for (int a = 0; a < 3; ++a)
      if (!spec.reduced[a]) kept = checked_product({kept, std::int64_t(spec.nodes[a])}, "-vgrid_n");
    return kept;
  }
  const std::int64_t box = checked_product(
      {spec.nodes[0], spec.nodes[1], spec.nodes[2]},
      "-vgrid_n " + std::to_string(spec.nodes[0]) + "," + std::to_string(spec.nodes[1]) + "," +
          std::to_string(spec.nodes[2]));
  // Counting a cut costs its columns: a box beyond any memory is its own answer.
  if (spec.type != "sphere" || box > (std::int64_t(1) << 40)) return box;
  return SphereCut(spec).count();
}

namespace {

struct VelocityGridType {
  const char* name;
  VelocityGrid (*make)(const VelocityGridSpec&);
};

// The velocity grids by -vgrid_type name: a new grid is its builder plus one line here.
constexpr VelocityGridType kVelocityGridTypes[] = {
    {"cartesian", make_cartesian_velocity_grid},
    {"sphere", make_sphere_velocity_grid},
};

}  // namespace

std::vector<std::string> velocity_grid_types() {
  std::vector<std::string> names;
  for (const auto& type : kVelocityGridTypes) names.emplace_back(type.name);
  return names;
}

VelocityGrid make_velocity_grid(const VelocityGridSpec& spec) {
  if (spec.reduced[0] || spec.reduced[1] || spec.reduced[2]) {
    require(spec.type == "cartesian", "-vgrid_type ", spec.type,
            ": a reduced velocity set is a Cartesian box");
    return make_reduced_velocity_grid(spec, spec.reduced);
  }
  for (const auto& type : kVelocityGridTypes)
    if (spec.type == type.name) return type.make(spec);
  std::string names;
  for (const auto& type : kVelocityGridTypes)
    names += (names.empty() ? "" : ", ") + std::string(type.name);
  fail("-vgrid_type ", spec.type, ": not a velocity grid type (", names, ")");
}

}  // namespace bolt
