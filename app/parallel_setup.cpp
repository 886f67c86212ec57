#include "parallel_setup.hpp"

#include <omp.h>
#include <petscsys.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/run_context.hpp"
#include "parallel/communicator_factory.hpp"

namespace bolt {

void bind_ranks_to_gpus(MPI_Comm comm, const RunOptions& run) {
  if (run.backend != Backend::cuda) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    char host[256] = {};
    gethostname(host, sizeof(host) - 1);
    set_run_place("rank " + std::to_string(rank) + ", host " + host + ", CPU");
    PetscSynchronizedPrintf(comm, "bolt: rank %d -> host %s -> CPU (%d OpenMP threads)\n", rank,
                            host, omp_get_max_threads());
    PetscSynchronizedFlush(comm, PETSC_STDOUT);
    return;
  }
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0, local_ranks = 1;
  MPI_Comm_rank(node, &local);
  MPI_Comm_size(node, &local_ranks);
  // Each rank sees either all GPUs of the node (mpirun; srun --gpu-bind=none) and takes the
  // one of its node-local rank, or only its own (srun --gpus-per-task with binding).
  const int device = local % cuda_device_count();
  use_cuda_device(device);
  const std::string bus = cuda_device_bus_id(device);

  // Two ranks of a node on one GPU share it: an error unless asked for.
  constexpr int kBusLength = 32;
  char mine[kBusLength] = {};
  bus.copy(mine, kBusLength - 1);
  std::vector<char> all(std::size_t(local_ranks) * kBusLength);
  MPI_Allgather(mine, kBusLength, MPI_CHAR, all.data(), kBusLength, MPI_CHAR, node);
  MPI_Comm_free(&node);
  int shared = 0;
  for (int r = 0; r < local_ranks; ++r)
    if (r != local && std::string(all.data() + r * kBusLength) == bus) shared = 1;
  MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_INT, MPI_MAX, comm);
  require(!shared || run.gpu_sharing, "-backend cuda: ", local_ranks, " ranks on a node share ",
          "its GPUs; run one rank per GPU, or pass -gpu_share to let ranks share GPUs");

  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  set_run_place("rank " + std::to_string(rank) + ", host " + host + ", GPU " +
                std::to_string(device) + " (" + bus + ")");
  PetscSynchronizedPrintf(comm, "bolt: rank %d -> host %s -> GPU %d (%s)\n", rank, host, device,
                          bus.c_str());
  PetscSynchronizedFlush(comm, PETSC_STDOUT);
}

PartitionRequest partition_request(const CaseSetup& setup) {
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

std::shared_ptr<Communicator> make_communicator(const RunOptions& run, const Partition& partition) {
  int ranks = 1;
  MPI_Comm_size(partition.world, &ranks);
  if (ranks == 1 && partition.total_parts == 1) return nullptr;  // nothing to move
#ifdef BOLT_HAVE_CUDA
  if (run.backend == Backend::cuda)
    return make_nccl_communicator(partition.world, partition.velocity_group);
#endif
  require(run.backend == Backend::cpu, "-backend ", to_string(run.backend),
          ": no communicator for this backend");
  return make_mpi_communicator(partition.world, partition.velocity_group);
}

std::vector<EngineConfig> local_engine_configs(const CaseSetup& setup, const Partition& partition,
                                               std::shared_ptr<Communicator> communicator) {
  // Whole-cell shifts move diagonal velocities across corner ghost cells, which only a box's own
  // periodic fill provides; halos carry face layers.
  require(setup.time_step.ghost == setup.run.order || setup.engine.grid.dim <= 1 ||
              partition.total_parts == 1,
          "time step: Courant number ", setup.time_step.courant,
          " >= 1 (whole-cell shifts) in ", setup.engine.grid.dim,
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
        const std::optional<FaceSpec> own =
            box < int(setup.run.box_faces.size()) ? setup.run.box_faces[box][a][side] : std::nullopt;
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
