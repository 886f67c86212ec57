#include "solver/explicit/boxes_view.hpp"

#include "decomposition/gather.hpp"
#include "kernels/cell_moments.hpp"

namespace bolt {

std::vector<std::vector<double>> BoxesView::local_fields() {
  std::vector<std::vector<double>> fields;
  for (int i = 0; i < boxes_.size(); ++i) fields.push_back(boxes_[i].fields());
  return fields;
}

std::vector<double> BoxesView::gather_fields(const std::vector<std::vector<double>>& local) const {
  // The ranks of a velocity group hold the same (summed) fields: the leader contributes them.
  std::vector<Block> blocks;
  std::vector<double> values;
  if (partition_.box_leader())
    for (std::size_t i = 0; i < partition_.parts.size(); ++i) {
      blocks.push_back({partition_.parts[i].box, 0, kFieldCount});
      values.insert(values.end(), local[i].begin(), local[i].end());
    }
  return allgather_blocks(partition_.world, cells_, kFieldCount, blocks, values);
}

std::vector<double> BoxesView::face_fluxes(int axis, int side) {
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  std::vector<Block> blocks;
  std::vector<double> values;
  for (std::size_t i = 0; i < partition_.parts.size(); ++i) {
    const OwnedBox& box = partition_.parts[i].box;
    const bool touches =
        side == 0 ? box.lo[axis] == 0 : box.lo[axis] + box.size[axis] == cells_[axis];
    if (!touches) continue;
    // Collective over the velocity group, whose ranks own the same boxes.
    const std::vector<double> fluxes = boxes_[static_cast<int>(i)].face_fluxes(axis, side);
    if (!partition_.box_leader()) continue;
    blocks.push_back({{{box.lo[a1], box.lo[a2], 0}, {box.size[a1], box.size[a2], 1}}, 0, 5});
    values.insert(values.end(), fluxes.begin(), fluxes.end());
  }
  return allgather_blocks(partition_.world, {cells_[a1], cells_[a2], 1}, 5, blocks, values);
}

std::vector<double> BoxesView::state() {
  std::vector<Block> blocks;
  std::vector<double> values;
  for (std::size_t i = 0; i < partition_.parts.size(); ++i) {
    blocks.push_back({partition_.parts[i].box, partition_.velocity_lo, partition_.velocity_count});
    const std::vector<double> f = boxes_[static_cast<int>(i)].state();
    values.insert(values.end(), f.begin(), f.end());
  }
  return allgather_blocks(partition_.world, cells_, nv_, blocks, values);
}

}  // namespace bolt
