#include "axis.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace bolt {

FineAt parse_fine_at(const std::string& name, const std::string& option) {
  if (name == "none") return FineAt::none;
  if (name == "low") return FineAt::low;
  if (name == "high") return FineAt::high;
  if (name == "both") return FineAt::both;
  if (name == "centre" || name == "center") return FineAt::centre;
  fail(option, " ", name, ": unknown; allowed: none, low, high, both, centre");
}

const char* to_string(FineAt where) {
  switch (where) {
    case FineAt::none: return "none";
    case FineAt::low: return "low";
    case FineAt::high: return "high";
    case FineAt::both: return "both";
    case FineAt::centre: return "centre";
  }
  return "?";
}

double Axis::min_width() const { return *std::min_element(widths.begin(), widths.end()); }

namespace {

// Relative widths of `count` cells growing by 1/ratio from the first.
std::vector<double> progression(int count, double ratio) {
  std::vector<double> w(count);
  double width = 1.0;
  for (int i = 0; i < count; ++i, width /= ratio) w[i] = width;
  return w;
}

}  // namespace

Axis make_axis(const AxisSpec& spec, const std::string& prefix, const std::string& label) {
  require(spec.cells >= 1, "-", prefix, "_n: ", spec.cells, " cells on axis ", label,
          ": must be at least 1");
  require(spec.hi > spec.lo, "-", prefix, "_lo/-", prefix, "_hi: extent [", spec.lo, ", ",
          spec.hi, "] on axis ", label, ": the upper end must exceed the lower end");
  require(spec.ratio > 0.0 && spec.ratio <= 1.0, "-", prefix, "_stretch: ratio ", spec.ratio,
          " on axis ", label, ": must be in (0, 1] (1 = uniform)");
  const int n = spec.cells;
  std::vector<double> relative(n, 1.0);
  const bool stretched = spec.ratio < 1.0 && spec.fine_at != FineAt::none && n > 1;
  if (stretched) {
    switch (spec.fine_at) {
      case FineAt::low: relative = progression(n, spec.ratio); break;
      case FineAt::high:
        relative = progression(n, spec.ratio);
        std::reverse(relative.begin(), relative.end());
        break;
      case FineAt::both:
      case FineAt::centre: {
        // Symmetric: two mirrored progressions; an odd middle cell joins the coarse (both) or
        // fine (centre) end of the progression.
        const int half = n / 2;
        std::vector<double> side = progression(half + (n % 2), spec.ratio);
        if (spec.fine_at == FineAt::centre) {
          std::vector<double> left(side.rbegin(), side.rend());
          relative.assign(left.begin(), left.end());
          relative.insert(relative.end(), side.begin() + (n % 2), side.end());
        } else {
          relative.assign(side.begin(), side.end());
          relative.insert(relative.end(), side.rbegin() + (n % 2), side.rend());
        }
        break;
      }
      case FineAt::none: break;
    }
  }
  double total = 0.0;
  for (double w : relative) total += w;
  Axis axis;
  axis.uniform = !stretched;
  axis.widths.resize(n);
  axis.centres.resize(n);
  axis.faces.resize(n + 1);
  const double length = spec.hi - spec.lo;
  axis.faces[0] = spec.lo;
  for (int i = 0; i < n; ++i) {
    axis.widths[i] = stretched ? relative[i] * length / total : length / n;
    axis.faces[i + 1] = (i + 1 == n) ? spec.hi : axis.faces[i] + axis.widths[i];
    axis.centres[i] = 0.5 * (axis.faces[i] + axis.faces[i + 1]);
  }
  return axis;
}

}  // namespace bolt
