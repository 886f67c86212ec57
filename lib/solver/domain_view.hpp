#pragma once
// The whole domain as the diagnostics see it, whatever the solver and the decomposition: the
// fields, the fluxes through an outer face of the index space and f, each as global arrays (over
// the index space; cells outside the boxes stay 0) on every rank. Collective calls. Each solver
// has its view (Solver::domain()): BoxesView (explicit/boxes_view.hpp) for the explicit march,
// whose engines hold only this rank's boxes and velocity batch; the iterative solver's in
// iterative_steady.cpp.
#include <vector>

namespace bolt {

class DomainView {
 public:
  virtual ~DomainView() = default;
  // kFieldCount fields per cell of every box this rank writes (collective over the velocity
  // group).
  virtual std::vector<std::vector<double>> local_fields() = 0;
  // kFieldCount fields per cell of the whole grid from every rank's local_fields().
  virtual std::vector<double> gather_fields(const std::vector<std::vector<double>>& local) const = 0;
  // 5 fluxes per position of the outer face (axis, side) (Engine::face_fluxes layout).
  virtual std::vector<double> face_fluxes(int axis, int side) = 0;
  // f of the whole grid, every velocity (a solver that never stores f throws bolt::Error).
  virtual std::vector<double> state() = 0;
};

}  // namespace bolt
