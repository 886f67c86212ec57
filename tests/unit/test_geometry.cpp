// The domain as boxes (decomposition/geometry) and its cut into owned parts with face segments
// (decomposition/partition): bad geometry is refused naming the option; solids are cut out
// exactly; the two-section shock tube's faces connect where the sections touch and are walls
// elsewhere, with message tags that pair up between the two sides.
#include <gtest/gtest.h>

#include <mpi.h>

#include <string>

#include "core/error.hpp"
#include "decomposition/geometry.hpp"
#include "decomposition/partition.hpp"

namespace bolt {
namespace {

OwnedBox box(int x, int y, int nx, int ny) { return {{x, y, 0}, {nx, ny, 1}}; }

std::string error_of(const std::array<int, 3>& extent, const std::vector<OwnedBox>& boxes,
                     const std::vector<OwnedBox>& solids) {
  try {
    make_geometry(extent, boxes, solids, "-geometry_boxes", "-geometry_solids");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Geometry, BadGeometryNamesTheOption) {
  const std::array<int, 3> extent{10, 8, 1};
  EXPECT_NE(error_of(extent, {box(0, 0, 11, 8)}, {}).find("-geometry_boxes"), std::string::npos);
  EXPECT_NE(error_of(extent, {box(0, 0, 5, 8), box(4, 0, 5, 8)}, {}).find("overlap"),
            std::string::npos);
  // Touching over part of both faces: neither face is the whole connection.
  EXPECT_NE(error_of(extent, {box(0, 0, 5, 5), box(5, 2, 5, 5)}, {}).find("whole face"),
            std::string::npos);
  EXPECT_NE(error_of(extent, {box(0, 0, 5, 5)}, {box(4, 4, 2, 6)}).find("-geometry_solids"),
            std::string::npos);
  EXPECT_EQ(error_of(extent, {box(0, 0, 5, 8), box(5, 2, 5, 4)}, {}), "");
}

TEST(Geometry, SolidsAreCutOutExactly) {
  const Geometry g =
      make_geometry({12, 10, 1}, {}, {box(4, 3, 3, 2)}, "-geometry_boxes", "-geometry_solids");
  EXPECT_EQ(g.fluid_cells(), 12 * 10 - 3 * 2);
  std::int64_t counted = 0;
  for (int j = 0; j < 10; ++j)
    for (int i = 0; i < 12; ++i) {
      const bool in_solid = i >= 4 && i < 7 && j >= 3 && j < 5;
      EXPECT_EQ(g.fluid(i, j, 0), !in_solid) << i << "," << j;
      int owners = 0;
      for (const OwnedBox& p : g.pieces)
        owners += i >= p.lo[0] && i < p.lo[0] + p.size[0] && j >= p.lo[1] && j < p.lo[1] + p.size[1];
      EXPECT_EQ(owners, in_solid ? 0 : 1) << "pieces must not overlap: " << i << "," << j;
      counted += owners;
    }
  EXPECT_EQ(counted, g.fluid_cells());
}

TEST(Partition, ShockTubeFacesConnectWhereTheSectionsTouch) {
  PartitionRequest r;
  r.kind = DecompositionKind::space;
  r.geometry = make_geometry({48, 8, 1}, {box(0, 0, 16, 8), box(16, 2, 32, 4)}, {},
                             "-geometry_boxes", "-geometry_solids");
  r.active = {true, true, false};
  r.nv = 8;
  Partition p = make_partition(MPI_COMM_SELF, r);
  ASSERT_EQ(p.parts.size(), 2u);
  const OwnedPart& a = p.parts[0].box.lo[0] == 0 ? p.parts[0] : p.parts[1];
  const OwnedPart& b = p.parts[0].box.lo[0] == 0 ? p.parts[1] : p.parts[0];
  // A's right face: the middle 4 cells connect to B, the 2 + 2 cells around them are walls.
  int connected = 0, walls = 0;
  for (const FaceSegment& s : a.faces[0][1]) {
    if (s.peer >= 0) {
      ++connected;
      EXPECT_EQ(s.lo[0], 2);
      EXPECT_EQ(s.size[0], 4);
    } else {
      walls += s.size[0];
      EXPECT_FALSE(s.solid);
    }
  }
  EXPECT_EQ(connected, 1);
  EXPECT_EQ(walls, 4);
  // B's left face is connected as a whole; the tags pair up.
  ASSERT_EQ(b.faces[0][0].size(), 1u);
  const FaceSegment& from_b = b.faces[0][0][0];
  EXPECT_EQ(from_b.peer, 0);
  for (const FaceSegment& s : a.faces[0][1])
    if (s.peer >= 0) {
      EXPECT_EQ(s.send_tag, from_b.receive_tag);
      EXPECT_EQ(s.receive_tag, from_b.send_tag);
    }
  // Outer faces are boundaries.
  for (const FaceSegment& s : b.faces[0][1]) EXPECT_LT(s.peer, 0);
  free_partition(p);
}

}  // namespace
}  // namespace bolt
