#include "geometry.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace bolt {

namespace {

int hi(const OwnedBox& b, int a) { return b.lo[a] + b.size[a]; }

std::string describe(const OwnedBox& b) {
  std::ostringstream s;
  s << "[" << b.lo[0] << "," << b.lo[1] << "," << b.lo[2] << " +" << b.size[0] << "x" << b.size[1]
    << "x" << b.size[2] << "]";
  return s.str();
}

bool overlap(const OwnedBox& a, const OwnedBox& b) {
  for (int d = 0; d < 3; ++d)
    if (std::max(a.lo[d], b.lo[d]) >= std::min(hi(a, d), hi(b, d))) return false;
  return true;
}

// The rectangle where `low`'s high face on `axis` touches `high`'s low face; size 0 if none.
FaceRect touch(const OwnedBox& low, const OwnedBox& high, int axis) {
  FaceRect r;
  r.axis = axis;
  r.side = 1;
  r.plane = hi(low, axis);
  if (hi(low, axis) != high.lo[axis]) return r;
  for (int t = 0; t < 2; ++t) {
    const int d = (axis + 1 + t) % 3;
    const int from = std::max(low.lo[d], high.lo[d]), to = std::min(hi(low, d), hi(high, d));
    if (to <= from) return FaceRect{axis, 1, r.plane, {0, 0}, {0, 0}};
    r.lo[t] = from;
    r.size[t] = to - from;
  }
  return r;
}

bool whole_face(const OwnedBox& b, const FaceRect& r) {
  for (int t = 0; t < 2; ++t) {
    const int d = (r.axis + 1 + t) % 3;
    if (r.lo[t] != b.lo[d] || r.size[t] != b.size[d]) return false;
  }
  return true;
}

// `box` minus `solid`: up to six boxes, cut first across x, then y, then z.
std::vector<OwnedBox> subtract(const OwnedBox& box, const OwnedBox& solid) {
  if (!overlap(box, solid)) return {box};
  std::vector<OwnedBox> parts;
  OwnedBox rest = box;
  for (int d = 0; d < 3; ++d) {
    if (solid.lo[d] > rest.lo[d]) {
      OwnedBox below = rest;
      below.size[d] = solid.lo[d] - rest.lo[d];
      parts.push_back(below);
    }
    if (hi(solid, d) < hi(rest, d)) {
      OwnedBox above = rest;
      above.lo[d] = hi(solid, d);
      above.size[d] = hi(rest, d) - hi(solid, d);
      parts.push_back(above);
    }
    const int from = std::max(rest.lo[d], solid.lo[d]), to = std::min(hi(rest, d), hi(solid, d));
    rest.lo[d] = from;
    rest.size[d] = to - from;
  }
  return parts;  // `rest` is inside the solid
}

void check_inside(const OwnedBox& b, const std::array<int, 3>& extent, const std::string& option,
                  const char* what, std::size_t index) {
  for (int a = 0; a < 3; ++a)
    require(b.lo[a] >= 0 && b.size[a] >= 1 && hi(b, a) <= extent[a], option, ": ", what, " ",
            index, " ", describe(b), " is not inside the index space of ", extent[0], " x ",
            extent[1], " x ", extent[2], " cells (-grid_n)");
}

}  // namespace

std::int64_t Geometry::fluid_cells() const {
  std::int64_t n = 0;
  for (const OwnedBox& p : pieces) n += p.cells();
  return n;
}

bool Geometry::fluid(int i, int j, int k) const {
  const int c[3] = {i, j, k};
  for (const OwnedBox& p : pieces) {
    bool in = true;
    for (int a = 0; a < 3; ++a) in = in && c[a] >= p.lo[a] && c[a] < hi(p, a);
    if (in) return true;
  }
  return false;
}

std::vector<OwnedBox> parse_boxes(const std::string& text, const std::string& option) {
  std::vector<OwnedBox> boxes;
  std::stringstream all(text);
  std::string item;
  while (std::getline(all, item, ';')) {
    if (item.find_first_not_of(" \t") == std::string::npos) continue;
    std::stringstream fields(item);
    std::string field;
    std::vector<int> values;
    while (std::getline(fields, field, ',')) {
      std::size_t used = 0;
      int value = 0;
      try {
        value = std::stoi(field, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      require(used > 0 && field.find_first_not_of(" \t", used) == std::string::npos, option, " ",
              text, ": '", field, "' is not an integer; each box is x,y,z,nx,ny,nz (lower corner, ",
              "cells per axis), boxes separated by ';'");
      values.push_back(value);
    }
    require(values.size() == 6, option, " ", text, ": '", item, "' has ", values.size(),
            " numbers; each box is x,y,z,nx,ny,nz (lower corner, cells per axis)");
    boxes.push_back({{values[0], values[1], values[2]}, {values[3], values[4], values[5]}});
  }
  return boxes;
}

Geometry make_geometry(const std::array<int, 3>& extent, const std::vector<OwnedBox>& boxes,
                       const std::vector<OwnedBox>& solids, const std::string& boxes_option,
                       const std::string& solids_option) {
  Geometry g;
  g.extent = extent;
  g.boxes = boxes.empty() ? std::vector<OwnedBox>{whole_grid(extent)} : boxes;
  g.solids = solids;
  for (std::size_t i = 0; i < g.boxes.size(); ++i) check_inside(g.boxes[i], extent, boxes_option, "box", i);
  for (std::size_t i = 0; i < g.solids.size(); ++i)
    check_inside(g.solids[i], extent, solids_option, "solid", i);
  for (std::size_t i = 0; i < g.boxes.size(); ++i)
    for (std::size_t j = i + 1; j < g.boxes.size(); ++j) {
      require(!overlap(g.boxes[i], g.boxes[j]), boxes_option, ": boxes ", i, " ",
              describe(g.boxes[i]), " and ", j, " ", describe(g.boxes[j]), " overlap");
      for (int a = 0; a < 3; ++a)
        for (int order = 0; order < 2; ++order) {
          const OwnedBox& low = order == 0 ? g.boxes[i] : g.boxes[j];
          const OwnedBox& high = order == 0 ? g.boxes[j] : g.boxes[i];
          const FaceRect r = touch(low, high, a);
          if (r.size[0] == 0) continue;
          require(whole_face(low, r) || whole_face(high, r), boxes_option, ": boxes ", i, " ",
                  describe(g.boxes[i]), " and ", j, " ", describe(g.boxes[j]),
                  " touch on axis ", "xyz"[a], " over part of both faces; a connection must be the ",
                  "whole face of one of them");
        }
    }

  for (std::size_t b = 0; b < g.boxes.size(); ++b) {
    std::vector<OwnedBox> parts{g.boxes[b]};
    for (const OwnedBox& solid : g.solids) {
      std::vector<OwnedBox> next;
      for (const OwnedBox& p : parts)
        for (const OwnedBox& q : subtract(p, solid)) next.push_back(q);
      parts = next;
    }
    for (const OwnedBox& p : parts) {
      g.pieces.push_back(p);
      g.piece_box.push_back(static_cast<int>(b));
    }
  }
  require(!g.pieces.empty(), solids_option, ": the solids fill every box; no gas is left");

  for (std::size_t i = 0; i < g.pieces.size(); ++i)
    for (std::size_t j = 0; j < g.pieces.size(); ++j) {
      if (i == j) continue;
      for (int a = 0; a < 3; ++a) {
        const FaceRect r = touch(g.pieces[i], g.pieces[j], a);
        if (r.size[0] > 0) g.contacts.push_back({static_cast<int>(i), static_cast<int>(j), r});
      }
    }
  return g;
}

}  // namespace bolt
