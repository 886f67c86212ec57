#include "solver/explicit/local_engines.hpp"

#include <optional>

#include "core/error.hpp"

namespace bolt {

std::vector<EngineConfig> local_engine_configs(const CaseSetup& setup, const Partition& partition,
                                               std::shared_ptr<Communicator> communicator) {
  // Whole-cell shifts move diagonal velocities across corner ghost cells, which only a box's own
  // periodic fill provides; halos carry face layers.
  require(setup.time_step.ghost == setup.run.order || setup.engine.grid.dim <= 1 ||
              partition.total_parts == 1,
          "time step: Courant number ", setup.time_step.courant, " >= 1 (whole-cell shifts) in ",
          setup.engine.grid.dim,
          "-D needs the whole grid in one box on one rank; lower -ts_max_courant below 1 or run on "
          "one rank");
  std::vector<EngineConfig> configs;
  for (const OwnedPart& part : partition.parts) {
    EngineConfig e = setup.engine;
    e.grid = slice_grid(setup.engine.grid, part.box.lo, part.box.size);
    e.velocity_lo = partition.velocity_lo;
    e.velocity_count = partition.velocity_count;
    e.communicator = communicator;
    const int box = setup.geometry.piece_box[part.piece];
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side) {
        const auto& segments = part.faces[a][side];
        const std::optional<FaceSpec> own = box < int(setup.run.box_faces.size())
                                                ? setup.run.box_faces[box][a][side]
                                                : std::nullopt;
        // A face with the side's condition throughout keeps the engine's whole-face default
        // (ghost corners included), as on a single box.
        if (segments.size() == 1 && segments[0].peer < 0 && !segments[0].solid && !own) continue;
        for (const FaceSegment& g : segments) {
          FaceSegmentConfig c;
          for (int k = 0; k < 2; ++k) {
            c.lo[k] = g.lo[k] - part.box.lo[(a + 1 + k) % 3];
            c.count[k] = g.size[k];
          }
          c.peer = g.peer;
          c.send_tag = g.send_tag;
          c.receive_tag = g.receive_tag;
          if (g.solid) {
            c.spec = FaceSpec{};  // diffuse wall at rest
            c.spec.temperature = setup.run.solid_temperature;
          } else if (g.self_periodic) {
            c.spec.kind = FaceKind::periodic;
          } else {
            c.spec = own ? *own : setup.engine.faces[a][side];
            require(g.peer >= 0 || c.spec.kind != FaceKind::periodic, "-bc_", "xyz"[a],
                    side ? "_high" : "_low", " periodic: part of this face has no box on the ",
                    "opposite face of the grid to connect to (-geometry_boxes)");
          }
          e.segments[a][side].push_back(c);
        }
      }
    configs.push_back(e);
  }
  return configs;
}

}  // namespace bolt
