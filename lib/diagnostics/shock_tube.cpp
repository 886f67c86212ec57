#include "shock_tube.hpp"

#include <cmath>

#include "core/error.hpp"
#include "field_access.hpp"

namespace bolt {

double shock_position(const PhysicalGrid& grid, const std::vector<double>& fields,
                      const OwnedBox& section) {
  require(section.size[0] >= 3, "shock tube: the test section needs at least 3 cells along x");
  const FieldView view{fields, grid};
  const int k = section.lo[2] + section.size[2] / 2;
  const int j_high = section.lo[1] + section.size[1] / 2;
  const int j_low = section.size[1] % 2 ? j_high : j_high - 1;
  auto pressure = [&](int i) {
    double p = 0.0;
    for (int j : {j_low, j_high}) p += 0.5 * view.at(i, j, k, kN) * view.at(i, j, k, kT);
    return p;
  };
  // drop(m): p(m) - p(m + 1) across the face between cells m and m + 1. The shock is the
  // front-most peak of the drop: walking back from the far end through undisturbed gas, the
  // first face whose drop exceeds 1 % of the pressure there, then up to the peak. (The largest
  // drop of the whole line can lie elsewhere, e.g. where the flow accelerates into the section.)
  const int first = section.lo[0], last = section.lo[0] + section.size[0] - 1;
  auto drop = [&](int m) { return pressure(m) - pressure(m + 1); };
  const double threshold = 0.01 * pressure(last);
  int best = -1;
  for (int m = last - 1; m >= first; --m)
    if (drop(m) > threshold) {
      best = m;
      while (best > first && drop(best - 1) >= drop(best)) --best;
      break;
    }
  if (best < 0) return std::nan("");  // no shock in the section yet
  const double best_drop = drop(best);
  const Axis& x = grid.axes[0];
  double offset = 0.0;  // in cells, from the face between best and best + 1
  if (best > first && best + 1 < last) {
    const double a = pressure(best - 1) - pressure(best), c = pressure(best + 1) - pressure(best + 2);
    const double curvature = a - 2.0 * best_drop + c;
    if (curvature < 0.0) offset = 0.5 * (a - c) / curvature;
  }
  const double width = 0.5 * (x.widths[best] + x.widths[best + 1]);
  return x.faces[best + 1] + offset * width;
}

std::vector<double> shock_mach_numbers(const std::vector<double>& time,
                                       const std::vector<double>& position, double sound_speed) {
  std::vector<double> mach(time.size(), std::nan(""));
  for (std::size_t n = 1; n < time.size(); ++n)
    if (time[n] > time[n - 1])
      mach[n] = (position[n] - position[n - 1]) / (time[n] - time[n - 1]) / sound_speed;
  return mach;
}

}  // namespace bolt
