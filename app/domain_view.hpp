#pragma once
// The whole domain as the diagnostics see it, whatever the decomposition: the fields, the fluxes
// through an outer face of the index space and f, each assembled over all ranks into global
// arrays (over the index space; cells outside the boxes stay 0) on every rank. Collective calls.
// This rank's engines hold only its boxes and velocity batch.
#include <array>
#include <vector>

#include "decomposition/partition.hpp"
#include "solver/subdomains.hpp"

namespace bolt {

class DomainView {
 public:
  DomainView(const Partition& partition, Subdomains& boxes, const std::array<int, 3>& cells, int nv)
      : partition_(partition), boxes_(boxes), cells_(cells), nv_(nv) {}

  // Engine::fields() of every owned box (collective over the velocity group).
  std::vector<std::vector<double>> local_fields();
  // kFieldCount fields per cell of the whole grid from every rank's local_fields().
  std::vector<double> gather_fields(const std::vector<std::vector<double>>& local) const;
  // 5 fluxes per position of the outer face (axis, side) (Engine::face_fluxes layout).
  std::vector<double> face_fluxes(int axis, int side);
  // f of the whole grid, every velocity.
  std::vector<double> state();

 private:
  const Partition& partition_;
  Subdomains& boxes_;
  std::array<int, 3> cells_;
  int nv_;
};

}  // namespace bolt
