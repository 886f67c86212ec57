// Cavity diagnostics (lib/diagnostics/cavity.*): D from the lid's momentum flux, D_top_row from
// the P_xy of the cells next to the lid, both weighted by the (stretched) cell widths along x and
// averaged over z.
#include <gtest/gtest.h>

#include <vector>

#include "diagnostics/cavity.hpp"
#include "diagnostics/field_access.hpp"
#include "grid/physical_grid.hpp"

namespace bolt {
namespace {

// A 4 x 3 grid stretched in x. The lid flux of column i is s_i and the fields hold P_xy / 2 = p_i
// in the top row (and garbage below it, which neither D may read): D = -2 sum s_i w_i / (L V_w),
// D_top_row = -2 sum p_i w_i / (L V_w).
TEST(CavityDiagnostics, DragsAreWidthWeightedLidAverages) {
  const PhysicalGrid grid = make_physical_grid(
      {AxisSpec{4, 0.0, 2.0, 0.7, FineAt::both}, AxisSpec{3, 0.0, 2.0}, AxisSpec{}}, 1);
  const double lid = 0.01;
  const double flux[4] = {-1e-3, -3e-3, -4e-3, -2e-3};
  const double row[4] = {-2e-3, -5e-3, -6e-3, -1e-3};
  std::vector<double> lid_fluxes(4 * 5, 0.0), fields(12 * kFieldCount, 1e3);
  double d = 0.0, d_row = 0.0;
  for (int i = 0; i < 4; ++i) {
    lid_fluxes[i * 5 + 1] = flux[i];
    fields[(i + 4 * 2) * kFieldCount + kPxy] = row[i];
    d += -2.0 * flux[i] * grid.axes[0].widths[i] / (2.0 * lid);
    d_row += -2.0 * row[i] * grid.axes[0].widths[i] / (2.0 * lid);
  }
  ASSERT_NE(grid.axes[0].widths[0], grid.axes[0].widths[1]);  // the weights matter
  const CavityDiagnostics c = cavity_diagnostics(grid, fields, lid_fluxes, lid);
  EXPECT_NEAR(c.drag, d, 1e-14 * d);
  EXPECT_NEAR(c.drag_top_row, d_row, 1e-14 * d_row);
}

// In 3-D both are also averaged over z: lid fluxes come z fastest (face_fluxes' order for the y
// face), fields x fastest then y then z.
TEST(CavityDiagnostics, DragsAverageOverZ) {
  const PhysicalGrid grid = make_physical_grid(
      {AxisSpec{3, 0.0, 1.0}, AxisSpec{2, 0.0, 1.0}, AxisSpec{2, 0.0, 1.0}}, 1);
  const double lid = 0.01;
  std::vector<double> lid_fluxes(3 * 2 * 5, 0.0), fields(12 * kFieldCount, 1e3);
  double d = 0.0, d_row = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 2; ++k) {
      const double flux = -1e-3 * (1 + i + 3 * k), row = -2e-3 * (1 + 2 * i + k);
      lid_fluxes[(i * 2 + k) * 5 + 1] = flux;
      fields[(i + 3 * (1 + 2 * k)) * kFieldCount + kPxy] = row;
      d += -2.0 * flux * grid.axes[0].widths[i] / (2 * 1.0 * lid);
      d_row += -2.0 * row * grid.axes[0].widths[i] / (2 * 1.0 * lid);
    }
  const CavityDiagnostics c = cavity_diagnostics(grid, fields, lid_fluxes, lid);
  EXPECT_NEAR(c.drag, d, 1e-14 * d);
  EXPECT_NEAR(c.drag_top_row, d_row, 1e-14 * d_row);
}

}  // namespace
}  // namespace bolt
