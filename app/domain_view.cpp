#include "domain_view.hpp"

#include "decomposition/gather.hpp"
#include "kernels/cell_moments.hpp"

namespace bolt {

std::vector<double> DomainView::gather_fields(const std::vector<double>& local) const {
  // The ranks of a velocity group hold the same (summed) fields: the box leader contributes.
  Block block;
  if (partition_.box_leader()) block = {partition_.box, 0, kFieldCount};
  else block.box.size = {0, 0, 0};
  return allgather_blocks(partition_.world, cells_, kFieldCount, block,
                          partition_.box_leader() ? local : std::vector<double>{});
}

std::vector<double> DomainView::face_fluxes(int axis, int side) {
  const OwnedBox& box = partition_.box;
  const bool touches = side == 0 ? box.lo[axis] == 0 : box.lo[axis] + box.size[axis] == cells_[axis];
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  std::vector<double> local;
  if (touches) local = engine_.face_fluxes(axis, side);  // collective over the velocity group
  Block block;
  block.box.size = {0, 0, 0};
  if (touches && partition_.box_leader()) {
    block.box.lo = {box.lo[a1], box.lo[a2], 0};
    block.box.size = {box.size[a1], box.size[a2], 1};
    block.column_count = 5;
  } else {
    local.clear();
  }
  return allgather_blocks(partition_.world, {cells_[a1], cells_[a2], 1}, 5, block, local);
}

std::vector<double> DomainView::state() {
  const Block block{partition_.box, partition_.velocity_lo, partition_.velocity_count};
  return allgather_blocks(partition_.world, cells_, nv_, block, engine_.state());
}

}  // namespace bolt
