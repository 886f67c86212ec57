#pragma once
// One coordinate axis of cells: uniform, or geometrically stretched with the finest cells at one
// end, at both ends, or at the centre (paper 000 clusters physical cells near the lid corners and
// velocity cells near the origin).
#include <string>
#include <vector>

namespace bolt {

enum class FineAt { none, low, high, both, centre };

FineAt parse_fine_at(const std::string& name, const std::string& option);
const char* to_string(FineAt where);

struct AxisSpec {
  int cells = 1;
  double lo = 0.0, hi = 1.0;
  // Ratio of neighbouring cell widths, fine/coarse, in (0, 1]; 1 means uniform. Walking from the
  // fine end(s) towards the coarse part, each cell is 1/ratio times wider than the one before.
  double ratio = 1.0;
  FineAt fine_at = FineAt::none;
};

struct Axis {
  std::vector<double> widths, centres, faces;  // faces has cells + 1 entries
  bool uniform = true;

  int cells() const { return static_cast<int>(widths.size()); }
  double min_width() const;
};

// Builds the axis; throws bolt::Error for impossible specs, naming the options they came from:
// <prefix>_n (cells), <prefix>_lo/_hi (extent), <prefix>_stretch (ratio), and the axis label.
Axis make_axis(const AxisSpec& spec, const std::string& prefix, const std::string& label);

}  // namespace bolt
