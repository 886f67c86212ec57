#include "driver/numerical_guard.hpp"

#include <cmath>
#include <cstdio>

#include "kernels/cell_moments.hpp"

namespace bolt {

namespace {

bool keeps_mass(const FaceSpec& face) {
  return face.kind == FaceKind::wall || face.kind == FaceKind::specular ||
         face.kind == FaceKind::periodic;
}

}  // namespace

bool closed_domain(const RunOptions& run) {
  for (int a = 0; a < 3; ++a) {
    if (run.axes[a].cells <= 1) continue;
    for (int side = 0; side < 2; ++side) {
      if (!keeps_mass(run.faces[a][side])) return false;
      for (const auto& box : run.box_faces)
        if (box[a][side] && !keeps_mass(*box[a][side])) return false;
    }
  }
  return true;
}

std::string numerical_failure(const std::vector<double>& fields, const std::array<int, 3>& cells,
                              const Geometry& geometry, bool closed, double mass_error,
                              double mass_drift, const std::string& likely_cause) {
  constexpr int kN = 0, kT = 4;
  char where[400];
  for (int k = 0; k < cells[2]; ++k)
    for (int j = 0; j < cells[1]; ++j)
      for (int i = 0; i < cells[0]; ++i) {
        if (!geometry.fluid(i, j, k)) continue;
        const double* f = fields.data() +
                          (i + std::int64_t(cells[0]) * (j + std::int64_t(cells[1]) * k)) * kFieldCount;
        bool finite = true;
        for (int q = 0; q < kFieldCount; ++q) finite = finite && std::isfinite(f[q]);
        const char* what = !finite ? "a field is not finite"
                           : f[kN] <= 0.0 ? "the density is not positive"
                           : f[kT] <= 0.0 ? "the temperature is not positive"
                                          : nullptr;
        if (!what) continue;
        std::snprintf(where, sizeof where, "%s in cell (%d, %d, %d): n = %.4g, T = %.4g; likely: ",
                      what, i, j, k, f[kN], f[kT]);
        return where + likely_cause;
      }
  if (closed && std::abs(mass_error) > mass_drift) {
    std::snprintf(where, sizeof where,
                  "the mass moved by %.3g of the initial mass (more than -guard_mass_drift %g); "
                  "likely: ",
                  mass_error, mass_drift);
    return where + likely_cause;
  }
  return {};
}

}  // namespace bolt
