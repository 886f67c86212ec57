#include "driver/parallel_setup.hpp"

#include <omp.h>
#include <petscsys.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/run_context.hpp"
#include "parallel/communicator_factory.hpp"

namespace bolt {

namespace {

// The cores this process may run on (its CPU affinity); 0 where the system does not say.
int affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
  return CPU_COUNT(&set);
}

// A note when the rank's host work is held to fewer cores than it could have. mpirun binds each
// rank to one core by default (for two ranks or fewer), and OpenMP then starts one thread there,
// or takes turns on it with the threads OMP_NUM_THREADS asks for: the host's share of a run (the
// CPU backend; with a GPU, the iterative solver's update, correction and warm starts) runs on
// one core of many. Under Slurm the allocation chose the cores: only the turns are noted.
void note_held_cores(MPI_Comm comm, int rank, int local_ranks) {
  const int threads = omp_get_max_threads(), cores = affinity_cores();
  const int share = int(sysconf(_SC_NPROCESSORS_ONLN)) / std::max(local_ranks, 1);
  const char* remedy =
      "mpirun --bind-to none or --map-by slot:PE=<cores> (Slurm: --cpus-per-task) gives it more";
  if (cores <= 0) return;
  if (threads > cores)
    PetscSynchronizedPrintf(comm,
                            "bolt: note: rank %d runs %d OpenMP threads on %d core%s of its CPU "
                            "affinity, where they take turns; %s, OMP_NUM_THREADS fewer threads\n",
                            rank, threads, cores, cores == 1 ? "" : "s", remedy);
  else if (cores < share && !std::getenv("SLURM_JOB_ID"))
    PetscSynchronizedPrintf(comm,
                            "bolt: note: rank %d may use %d of its node's cores (its CPU affinity) "
                            "where its share is %d; %s\n",
                            rank, cores, share, remedy);
}

}  // namespace

NodePlacement bind_ranks_to_gpus(MPI_Comm comm, const RunOptions& run) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0, local_ranks = 1;
  MPI_Comm_rank(node, &local);
  MPI_Comm_size(node, &local_ranks);
  if (run.backend != Backend::cuda) {
    MPI_Comm_free(&node);
    set_run_place("rank " + std::to_string(rank) + ", host " + host + ", CPU");
    PetscSynchronizedPrintf(comm, "bolt: rank %d -> host %s -> CPU (%d OpenMP threads)\n", rank,
                            host, omp_get_max_threads());
    note_held_cores(comm, rank, local_ranks);
    PetscSynchronizedFlush(comm, PETSC_STDOUT);
    return {local_ranks, false};
  }
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

  set_run_place("rank " + std::to_string(rank) + ", host " + host + ", GPU " +
                std::to_string(device) + " (" + bus + ")");
  PetscSynchronizedPrintf(comm, "bolt: rank %d -> host %s -> GPU %d (%s)\n", rank, host, device,
                          bus.c_str());
  note_held_cores(comm, rank, local_ranks);
  PetscSynchronizedFlush(comm, PETSC_STDOUT);
  return {local_ranks, shared != 0};
}

std::shared_ptr<Communicator> make_communicator(const RunOptions& run, const Partition& partition,
                                                [[maybe_unused]] const NodePlacement& placement) {
  int ranks = 1;
  MPI_Comm_size(partition.world, &ranks);
  if (ranks == 1 && partition.total_parts == 1) return nullptr;  // nothing to move
#ifdef BOLT_HAVE_CUDA
  if (run.backend == Backend::cuda)
    return placement.shared_gpus
               ? make_staged_communicator(partition.world, partition.velocity_group)
               : make_nccl_communicator(partition.world, partition.velocity_group);
#endif
  require(run.backend == Backend::cpu, "-backend ", to_string(run.backend),
          ": no communicator for this backend");
  return make_mpi_communicator(partition.world, partition.velocity_group);
}

}  // namespace bolt
