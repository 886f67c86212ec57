// Axes (lib/grid/axis.*) and the padded physical grid
// (lib/grid/physical_grid.*): stretched-axis geometry, the padded numbering,
// and the errors for impossible specifications.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/error.hpp"
#include "grid/axis.hpp"
#include "grid/physical_grid.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::kEps;

// Geometry every axis must have, to round-off: widths sum to the length (bound:
// cells * eps * length for the running sum), faces strictly increasing from lo
// to hi exactly, widths equal to face differences, centres the face midpoints.
void expect_consistent(const Axis &axis, const AxisSpec &spec) {
  const double length = spec.hi - spec.lo;
  const double tol =
      4 * spec.cells * kEps * std::max(std::abs(spec.lo), std::abs(spec.hi));
  ASSERT_EQ(axis.cells(), spec.cells);
  ASSERT_EQ(axis.faces.size(), std::size_t(spec.cells + 1));
  ASSERT_EQ(axis.centres.size(), std::size_t(spec.cells));
  double sum = 0.0;
  for (double w : axis.widths)
    sum += w;
  EXPECT_NEAR(sum, length, tol);
  EXPECT_EQ(axis.faces.front(), spec.lo);
  EXPECT_EQ(axis.faces.back(), spec.hi);
  for (int i = 0; i < spec.cells; ++i) {
    EXPECT_LT(axis.faces[i], axis.faces[i + 1]);
    EXPECT_NEAR(axis.faces[i + 1] - axis.faces[i], axis.widths[i], tol);
    EXPECT_NEAR(axis.centres[i], 0.5 * (axis.faces[i] + axis.faces[i + 1]),
                tol);
  }
}

// Expected width sequence, fine to coarse, from the spec's definition: each
// cell 1/ratio times wider than its neighbour towards the fine end(s). Checked
// as neighbour ratios w_fine/w_coarse, to 16 eps relative (one division and two
// rounded widths).
TEST(Axis, StretchedNeighbourRatios) {
  const double r = 0.8;
  for (int n : {1, 2, 5, 6, 9}) {
    for (FineAt where :
         {FineAt::low, FineAt::high, FineAt::both, FineAt::centre}) {
      AxisSpec spec{n, -0.5, 2.0, r, where};
      const Axis axis = make_axis(spec, "test", "x");
      SCOPED_TRACE(std::string(to_string(where)) + " n=" + std::to_string(n));
      expect_consistent(axis, spec);
      EXPECT_EQ(axis.uniform, n == 1);
      const auto &w = axis.widths;
      const double tol = 16 * kEps;
      for (int i = 0; i + 1 < n; ++i) {
        const double right_over_left = w[i + 1] / w[i];
        double expected = 1.0;
        switch (where) {
        case FineAt::low:
          expected = 1.0 / r;
          break; // grows left to right
        case FineAt::high:
          expected = r;
          break;           // shrinks left to right
        case FineAt::both: // grows to the middle, then shrinks
          if (n % 2 == 0 && i == n / 2 - 1)
            expected = 1.0; // the two middle cells are equal
          else
            expected = (i < n / 2) ? 1.0 / r : r;
          break;
        case FineAt::centre:
          if (n % 2 == 0 && i == n / 2 - 1)
            expected = 1.0;
          else
            expected = (i < n / 2) ? r : 1.0 / r;
          break;
        case FineAt::none:
          break;
        }
        EXPECT_NEAR(right_over_left, expected, tol * expected)
            << "cells " << i << "," << i + 1;
      }
      // Symmetric layouts are mirror images.
      if (where == FineAt::both || where == FineAt::centre) {
        for (int i = 0; i < n; ++i)
          EXPECT_NEAR(w[i], w[n - 1 - i], 4 * kEps * w[i]);
      }
    }
  }
}

TEST(Axis, UniformWhenRatioOneOrNoFineEnd) {
  for (const AxisSpec &spec : {AxisSpec{7, 0.0, 1.0, 1.0, FineAt::low},
                               AxisSpec{7, 0.0, 1.0, 0.5, FineAt::none}}) {
    const Axis axis = make_axis(spec, "test", "x");
    EXPECT_TRUE(axis.uniform);
    expect_consistent(axis, spec);
    for (double w : axis.widths)
      EXPECT_EQ(w, 1.0 / 7.0);
    EXPECT_EQ(axis.min_width(), 1.0 / 7.0);
  }
}

TEST(Axis, RejectsImpossibleSpecs) {
  EXPECT_THROW(make_axis({4, 0.0, 1.0, 1.5, FineAt::low}, "grid", "x"),
               Error); // ratio > 1
  EXPECT_THROW(make_axis({4, 0.0, 1.0, 0.0, FineAt::low}, "grid", "x"),
               Error); // ratio = 0
  EXPECT_THROW(make_axis({4, 0.0, 1.0, -0.5, FineAt::low}, "grid", "x"),
               Error); // ratio < 0
  EXPECT_THROW(make_axis({4, 1.0, 1.0, 1.0, FineAt::none}, "grid", "x"),
               Error); // hi = lo
  EXPECT_THROW(make_axis({4, 1.0, 0.0, 1.0, FineAt::none}, "grid", "x"),
               Error); // hi < lo
  EXPECT_THROW(make_axis({0, 0.0, 1.0, 1.0, FineAt::none}, "grid", "x"),
               Error); // no cells
  EXPECT_THROW(make_axis({-3, 0.0, 1.0, 1.0, FineAt::none}, "grid", "x"), Error);
  EXPECT_THROW(parse_fine_at("middle", "-x_fine"), Error);
  EXPECT_EQ(parse_fine_at("center", "-x_fine"), FineAt::centre);
  // The message names the option so the user can act on it.
  try {
    make_axis({4, 0.0, 1.0, 2.0, FineAt::low}, "grid", "x");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("-grid_stretch"), std::string::npos)
        << e.what();
  }
}

// Padded numbering: ghost layers only on active axes, x fastest, padded_index
// consistent with the strides.
TEST(PhysicalGrid, PaddedNumbering) {
  std::array<AxisSpec, 3> specs{AxisSpec{5, 0.0, 1.0}, AxisSpec{3, 0.0, 2.0},
                                AxisSpec{1, 0.0, 1.0}};
  const PhysicalGrid g = make_physical_grid(specs, 2);
  EXPECT_EQ(g.dim, 2);
  EXPECT_TRUE(g.active[0]);
  EXPECT_TRUE(g.active[1]);
  EXPECT_FALSE(g.active[2]);
  EXPECT_EQ(g.padded(0), 9);
  EXPECT_EQ(g.padded(1), 7);
  EXPECT_EQ(g.padded(2), 1);
  EXPECT_EQ(g.interior_cells(), 15);
  EXPECT_EQ(g.padded_cells(), 63);
  const auto s = g.strides();
  EXPECT_EQ(s[0], 1);
  EXPECT_EQ(s[1], 9);
  EXPECT_EQ(s[2], 63);
  EXPECT_EQ(g.padded_index(0, 0, 0), 2 + 2 * 9);
  EXPECT_EQ(g.padded_index(4, 2, 0), 6 + 4 * 9);
  // Distinct interior cells map to distinct padded cells inside the padded box.
  std::set<std::int64_t> seen;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 5; ++i) {
      const auto p = g.padded_index(i, j, 0);
      EXPECT_GE(p, 0);
      EXPECT_LT(p, g.padded_cells());
      seen.insert(p);
    }
  EXPECT_EQ(seen.size(), 15u);

  const PhysicalGrid h = test::homogeneous_grid();
  EXPECT_EQ(h.dim, 0);
  EXPECT_EQ(h.padded_cells(), 1);
  EXPECT_EQ(h.padded_index(0, 0, 0), 0);
}

TEST(PhysicalGrid, RejectsTooFewCellsForGhostDepth) {
  std::array<AxisSpec, 3> specs{AxisSpec{3, 0.0, 1.0}, AxisSpec{1, 0.0, 1.0},
                                AxisSpec{1, 0.0, 1.0}};
  EXPECT_NO_THROW(make_physical_grid(specs, 3));
  EXPECT_THROW(make_physical_grid(specs, 4), Error);
  EXPECT_THROW(make_physical_grid(specs, 0), Error);
}

} // namespace
} // namespace bolt
