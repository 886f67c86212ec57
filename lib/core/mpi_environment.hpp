#pragma once
// Open MPI's settings that bolt makes before MPI starts, each only where the user has not set it
// (other MPIs ignore them):
// - MPI-IO without the "sm" shared-file-pointer component. It keeps a named semaphore per file
//   name in /dev/shm while a file is open; a rank killed during a checkpoint write (a hard time
//   limit, SIGKILL) leaves it locked, and every later open of a file of that name on the node
//   hangs. HDF5 does not use shared file pointers; the other components lock with fcntl, which
//   the kernel releases with the process.
// - A process that no launcher started (`bolt ...` on one GPU or on the cores of one node) is an
//   MPI singleton, which talks to no other process. Its MPI_Init forked a daemon to serve
//   process spawns, opened UCX's network transports and had hwloc discover the GPUs (through
//   CUDA and NVML) for a process binding it does not make: about half a second of every such
//   run (docs/validation.md). It runs isolated (no daemon: ess_singleton_isolated), with the ob1
//   messaging layer over the self transport alone, and hwloc without its GPU components.

namespace bolt {

// What MPI launchers set in a process's environment: Open MPI's mpirun and prterun, PMIx (srun
// --mpi=pmix), PMI-1 and PMI-2 (srun --mpi=pmi2, MPICH's hydra).
inline constexpr const char* kMpiLauncherVariables[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
                                                        "PMI_RANK", "PMI_FD", "PMI_SIZE"};

// Whether an MPI launcher started this process: one of those variables is set.
bool started_by_mpi_launcher();

// The settings above. Call first in main, before PetscInitialize (which starts MPI).
void prepare_mpi_start();

}  // namespace bolt
