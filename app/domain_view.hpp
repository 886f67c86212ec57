#pragma once
// The whole domain as the diagnostics see it, whatever the decomposition: the fields, the fluxes
// through a boundary face and f, each assembled over all ranks into global arrays on every rank
// (collective calls). The engine of this rank holds only its box and velocity batch.
#include <array>
#include <vector>

#include "decomposition/partition.hpp"
#include "solver/engine.hpp"

namespace bolt {

class DomainView {
 public:
  DomainView(const Partition& partition, Engine& engine, const std::array<int, 3>& cells, int nv)
      : partition_(partition), engine_(engine), cells_(cells), nv_(nv) {}

  // kFieldCount fields per cell of the whole grid, from this rank's Engine::fields().
  std::vector<double> gather_fields(const std::vector<double>& local) const;
  // 5 fluxes per position of the whole face (Engine::face_fluxes layout).
  std::vector<double> face_fluxes(int axis, int side);
  // f of the whole grid, every velocity.
  std::vector<double> state();

 private:
  const Partition& partition_;
  Engine& engine_;
  std::array<int, 3> cells_;
  int nv_;
};

}  // namespace bolt
