#include "solver/solver_type.hpp"

#include <string>

namespace bolt {

PartitionRequest case_partition_request(const CaseSetup& setup) {
  const EngineConfig& e = setup.engine;
  PartitionRequest r;
  r.kind = setup.run.decomposition;
  r.velocity_ranks = setup.run.velocity_ranks;
  r.geometry = setup.geometry;
  for (int a = 0; a < 3; ++a) {
    r.active[a] = e.grid.active[a];
    r.periodic[a] = e.grid.active[a] && e.faces[a][0].kind == FaceKind::periodic;
  }
  r.ghost = e.grid.ghost;
  r.nv = e.velocities.size();
  r.sums_per_cell = e.model->sums_per_cell();
  const std::string whole_rows = e.model->whole_rows_reason();
  if (!whole_rows.empty()) {
    r.velocity_split_allowed = false;
    r.velocity_split_refusal = whole_rows;
  }
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      const FaceSpec& f = e.faces[a][s];
      if (e.grid.active[a] &&
          (f.kind == FaceKind::specular || (f.kind == FaceKind::wall && f.accommodation < 1.0))) {
        r.velocity_split_allowed = false;
        r.velocity_split_refusal = std::string("-bc_") + "xyz"[a] + (s ? "_high" : "_low") +
                                   " reflects specularly, which needs the mirrored velocities";
      }
    }
  return r;
}

}  // namespace bolt
