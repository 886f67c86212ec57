#pragma once
// The whole domain as the explicit march's engines hold it (solver/domain_view.hpp).
#include <array>
#include <vector>

#include "decomposition/partition.hpp"
#include "solver/domain_view.hpp"
#include "solver/explicit/subdomains.hpp"

namespace bolt {

// The view of the explicit march: the engines of this rank's boxes and velocity batch.
class BoxesView : public DomainView {
 public:
  BoxesView(const Partition& partition, Subdomains& boxes, const std::array<int, 3>& cells, int nv)
      : partition_(partition), boxes_(boxes), cells_(cells), nv_(nv) {}

  std::vector<std::vector<double>> local_fields() override;
  std::vector<double> gather_fields(const std::vector<std::vector<double>>& local) const override;
  std::vector<double> face_fluxes(int axis, int side) override;
  std::vector<double> state() override;

 private:
  const Partition& partition_;
  Subdomains& boxes_;
  std::array<int, 3> cells_;
  int nv_;
};

}  // namespace bolt
