#include "parallel_setup.hpp"

#include <petscsys.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernels/relaxation.hpp"

namespace bolt {

void bind_ranks_to_gpus(MPI_Comm comm, const RunOptions& run) {
  if (run.backend != Backend::cuda) return;
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0, local_ranks = 1;
  MPI_Comm_rank(node, &local);
  MPI_Comm_size(node, &local_ranks);
  MPI_Comm_free(&node);
  const int devices = cuda_device_count();
  int ok = local_ranks <= devices || run.gpu_sharing;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  require(ok, "-backend cuda: ", local_ranks, " ranks on a node with ", devices,
          " visible GPUs; run one rank per GPU, or pass -gpu_share to let ranks share GPUs");
  const int device = local % devices;
  use_cuda_device(device);

  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  PetscSynchronizedPrintf(comm, "bolt: rank %d -> host %s -> GPU %d (%s)\n", rank, host, device,
                          cuda_device_bus_id(device).c_str());
  PetscSynchronizedFlush(comm, PETSC_STDOUT);
}

PartitionRequest partition_request(const CaseSetup& setup) {
  const EngineConfig& e = setup.engine;
  PartitionRequest r;
  r.kind = setup.run.decomposition;
  r.velocity_ranks = setup.run.velocity_ranks;
  for (int a = 0; a < 3; ++a) {
    r.cells[a] = e.grid.cells(a);
    r.active[a] = e.grid.active[a];
    r.periodic[a] = e.grid.active[a] && e.faces[a][0].kind == FaceKind::periodic;
  }
  r.ghost = e.grid.ghost;
  r.nv = e.velocities.size();
  r.sums_per_cell = e.model == ModelKind::bgk ? 5 : 10;
  if (e.model == ModelKind::hs_mc) {
    r.velocity_split_allowed = false;
    r.velocity_split_refusal = "-model_type hs_mc collides every velocity of a cell with the others";
  }
  if (e.relaxation.conservative_iterations > 0) {
    r.velocity_split_allowed = false;
    r.velocity_split_refusal = "-model_conservative needs every velocity of a cell";
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
  if (ranks == 1) return nullptr;
#ifdef BOLT_HAVE_CUDA
  if (run.backend == Backend::cuda)
    return make_nccl_communicator(partition.world, partition.velocity_group);
#endif
  require(run.backend == Backend::cpu, "-backend ", to_string(run.backend),
          ": no communicator for this backend");
  return make_mpi_communicator(partition.world, partition.velocity_group);
}

EngineConfig local_engine_config(const CaseSetup& setup, const Partition& partition,
                                 std::shared_ptr<Communicator> communicator) {
  EngineConfig e = setup.engine;
  e.grid = slice_grid(setup.engine.grid, partition.box.lo, partition.box.size);
  e.velocity_lo = partition.velocity_lo;
  e.velocity_count = partition.velocity_count;
  e.neighbour = partition.neighbour;
  e.communicator = std::move(communicator);
  return e;
}

}  // namespace bolt
