// A previous run's fields interpolated onto another grid (lib/io/initial_fields.hpp).
#include <gtest/gtest.h>

#include "case/initial_fields.hpp"

namespace bolt {
namespace {

// n, u and T linear in x and y on a stretched 4 x 3 x 1 grid, all gas unless `solid` >= 0.
InitialFields linear_fields(int solid = -1, double solid_value = 100.0) {
  std::array<std::vector<double>, 3> widths{std::vector<double>{0.5, 1.0, 1.0, 1.5},
                                            std::vector<double>{1.0, 1.0, 2.0},
                                            std::vector<double>{1.0}};
  std::array<std::vector<double>, 3> centres;
  for (int a = 0; a < 3; ++a) {
    double face = 0.0;
    for (double w : widths[a]) {
      centres[a].push_back(face + 0.5 * w);
      face += w;
    }
  }
  std::vector<unsigned char> fluid;
  std::vector<FieldsGas> gas;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 4; ++i) {
      const double x = centres[0][i], y = centres[1][j];
      const bool gas_cell = i + 4 * j != solid;
      fluid.push_back(gas_cell ? 1 : 0);
      gas.push_back(gas_cell ? FieldsGas{1.0 + 0.1 * x + 0.2 * y, {x, -y, 0.5}, 1.0 + 0.05 * x}
                             : FieldsGas{solid_value, {solid_value, 0, 0}, solid_value});
    }
  return InitialFields(centres, widths, fluid, gas);
}

TEST(InitialFields, LinearFieldsExactBetweenCentres) {
  const InitialFields fields = linear_fields();
  for (const auto& p : {std::array<double, 3>{0.3, 0.7, 0.2}, {1.9, 2.2, 0.9}, {3.1, 1.4, 0.5}}) {
    FieldsGas gas;
    ASSERT_TRUE(fields.at(p.data(), gas));
    EXPECT_NEAR(gas.n, 1.0 + 0.1 * p[0] + 0.2 * p[1], 1e-14);
    EXPECT_NEAR(gas.u[0], p[0], 1e-14);
    EXPECT_NEAR(gas.u[1], -p[1], 1e-14);
    EXPECT_NEAR(gas.u[2], 0.5, 1e-14);
    EXPECT_NEAR(gas.T, 1.0 + 0.05 * p[0], 1e-14);
  }
}

TEST(InitialFields, OuterValuesBeyondTheOuterCentres) {
  const InitialFields fields = linear_fields();
  FieldsGas gas;
  const double corner[3] = {0.1, 0.2, 0.0};  // below the first centres (0.25, 0.5)
  ASSERT_TRUE(fields.at(corner, gas));
  EXPECT_NEAR(gas.n, 1.0 + 0.1 * 0.25 + 0.2 * 0.5, 1e-14);
}

TEST(InitialFields, SolidCellsLeftOut) {
  // Cell (1, 1) (centre x = 1, y = 1.5) solid with values far off. Halfway between the centres
  // of cells (1, 0), (2, 0), (1, 1) and (2, 1) the three gas cells weigh equally and the solid
  // not at all: n = (1.2 + 1.3 + 1.5) / 3.
  const InitialFields fields = linear_fields(1 + 4 * 1);
  FieldsGas gas;
  const double between[3] = {1.5, 1.0, 0.5};
  ASSERT_TRUE(fields.at(between, gas));
  EXPECT_NEAR(gas.n, 4.0 / 3.0, 1e-14);
  EXPECT_NEAR(gas.T, 1.0 + 0.05 * (1.0 + 2.0 + 2.0) / 3.0, 1e-14);
  // At the solid's centre only the solid weighs: no gas to take.
  const double at_solid[3] = {1.0, 1.5, 0.5};
  EXPECT_FALSE(fields.at(at_solid, gas));
}

TEST(InitialFields, MassOfTheGasCells) {
  const InitialFields all = linear_fields();
  const InitialFields holed = linear_fields(0);
  // The solid cell (0, 0): width 0.5 x 1.0, n = 1 + 0.1 * 0.25 + 0.2 * 0.5.
  EXPECT_NEAR(all.mass() - holed.mass(), 0.5 * (1.0 + 0.025 + 0.1), 1e-14);
}

}  // namespace
}  // namespace bolt
