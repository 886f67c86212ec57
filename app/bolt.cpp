// bolt: solver for rarefied gas flows (Boltzmann and model kinetic equations on a phase-space
// grid). Options are PETSc options; a case is a YAML file: bolt -options_file_yaml inputs/X.yaml
#include <petscsys.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "core/blas_threads.hpp"
#include "core/error.hpp"
#include "core/mpi_environment.hpp"
#include "core/option_files.hpp"
#include "core/run_context.hpp"
#include "driver/simulation.hpp"

static const char help[] =
    "bolt: rarefied gas flows by the model equations (BGK, Shakhov, ES-BGK) and the Boltzmann\n"
    "equation (-model_type hs_mc, projection).\n"
    "Run a case with -options_file_yaml inputs/<case>.yaml; -help lists every option, -version\n"
    "prints the version.\n";

// An error may be raised on every rank (a bad option) or on one (a file it cannot write). With
// several ranks, the others would wait forever in their next collective call, so the run is
// aborted. Rank 0 reports at once; another rank waits a moment first, so that an error every
// rank raised is printed once (rank 0's abort ends the others before they print).
static int report_and_stop(const char* kind, const char* message, int status) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (rank == 0) {
    std::fprintf(stderr, "bolt: %s: %s\n", kind, message);
  } else {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    std::fprintf(stderr, "bolt: %s on rank %d: %s\n", kind, rank, message);
  }
  std::fflush(stderr);
  if (size > 1) MPI_Abort(PETSC_COMM_WORLD, status);
  return status;
}

// bolt reads the case file and other files of options itself (lib/core/option_files.hpp), before
// PetscInitialize so that the command line, which PetscInitialize adds, overrides them. A fault
// is reported once MPI is up, by rank 0 alone.
static std::string insert_option_files(int& argc, char** argv) {
  const std::vector<bolt::OptionFileArgument> files = bolt::take_option_file_arguments(argc, argv);
  try {
    bolt::insert_file_options(bolt::read_option_files(files));
  } catch (const bolt::Error& error) {
    return error.what();
  }
  return {};
}

int main(int argc, char** argv) {
  const std::string file_error = insert_option_files(argc, argv);
  bolt::prepare_mpi_start();
  if (PetscInitialize(&argc, &argv, nullptr, help) != 0) {
    std::fprintf(stderr, "bolt: internal error: PETSc (or MPI) could not be initialised\n");
    return 3;
  }
  // -version: PETSc printed its own version while it started; bolt adds its own and runs nothing
  // (without a case file the default case would run).
  PetscBool version = PETSC_FALSE;
  PetscOptionsHasName(nullptr, nullptr, "-version", &version);
  if (version) {
    PetscPrintf(PETSC_COMM_WORLD, "bolt %s\n", BOLT_VERSION);
    PetscFinalize();
    return 0;
  }
  bolt::keep_blas_on_one_thread();
  int status = 0;
  try {
    if (!file_error.empty()) throw bolt::Error(file_error);
    status = bolt::run_simulation(PETSC_COMM_WORLD);
  } catch (const bolt::DeviceFault& fault) {
    const std::string where = " (" + bolt::run_context() + ")";
    status = report_and_stop("device fault", (fault.what() + where).c_str(), bolt::kDeviceFault);
  } catch (const bolt::Error& error) {
    status = report_and_stop("error", error.what(), 2);
  } catch (const std::exception& error) {
    const std::string where = " (" + bolt::run_context() + ")";
    status = report_and_stop("internal error", (error.what() + where).c_str(), 3);
  }
  PetscFinalize();
  return status;
}
