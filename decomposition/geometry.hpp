#pragma once
// The domain as a union of boxes in one global integer index space, minus solid boxes
// (DESIGN.md, "Decomposition"): the shock tube is a wide section A and a narrow section B
// attached to the middle of A's right face; an obstacle is a solid box inside a section.
//
// Solids are cut out by splitting the boxes around them, so the domain becomes a set of disjoint
// fluid boxes ("pieces"). Where two pieces touch, their faces connect over the common
// rectangle; every other part of a face is a boundary: the case's condition for that side of the
// axis on the outer walls, a wall at rest on the faces of solids.
#include <array>
#include <string>
#include <vector>

#include "owned_box.hpp"

namespace bolt {

// A rectangle on the face of a box: `axis` is the face normal, the box lies on side `side` of
// the plane at index `plane`; lo/size are global cell indices along the two other axes, (axis +
// 1) % 3 and (axis + 2) % 3.
struct FaceRect {
  int axis = 0, side = 0, plane = 0;
  std::array<int, 2> lo{0, 0}, size{0, 0};
};

// Two pieces touching over a rectangle: cells of `low` below the plane, of `high` above it.
struct Contact {
  int low = 0, high = 0;  // piece indices
  FaceRect rect;          // side 1 (the low piece's high face)
};

struct Geometry {
  std::array<int, 3> extent{1, 1, 1};  // the index space (the grid of -grid_n)
  std::vector<OwnedBox> boxes;          // as given (sections)
  std::vector<OwnedBox> solids;
  std::vector<OwnedBox> pieces;         // disjoint fluid boxes: boxes minus solids
  std::vector<int> piece_box;           // the section each piece comes from
  std::vector<Contact> contacts;

  bool single_box() const { return pieces.size() == 1 && boxes.size() == 1; }
  std::int64_t fluid_cells() const;
  bool fluid(int i, int j, int k) const;  // cell inside some piece
};

// Validates and builds the geometry. Errors (bolt::Error) name the option: `boxes_option` for a
// box outside the index space or two overlapping boxes or two boxes touching over a rectangle
// that is the whole face of neither (a connection of unequal extent), `solids_option` for a solid
// outside the index space. No boxes: one box filling the index space.
Geometry make_geometry(const std::array<int, 3>& extent, const std::vector<OwnedBox>& boxes,
                       const std::vector<OwnedBox>& solids, const std::string& boxes_option,
                       const std::string& solids_option);

// Parses "x,y,z,nx,ny,nz; x,y,z,nx,ny,nz; ..." (lower corner and cells per axis), naming the
// option in errors.
std::vector<OwnedBox> parse_boxes(const std::string& text, const std::string& option);

}  // namespace bolt
