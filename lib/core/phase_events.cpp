#include "core/phase_events.hpp"

#include <petscsys.h>

#include <map>
#include <string>

#ifdef BOLT_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>  // header-only: no library to link
#endif

namespace bolt {

namespace {

// Engines also run outside bolt's driver without PETSc (unit tests): their phases then log
// nothing.
bool petsc_running() {
  PetscBool initialised = PETSC_FALSE;
  PetscInitialized(&initialised);
  return initialised == PETSC_TRUE;
}

}  // namespace

int phase_event(const char* name) {
  if (!petsc_running()) return -1;
  static PetscClassId bolt_class = [] {
    PetscClassId id;
    PetscClassIdRegister("bolt", &id);
    return id;
  }();
  static std::map<std::string, PetscLogEvent> events;
  const auto found = events.find(name);
  if (found != events.end()) return found->second;
  PetscLogEvent event;
  PetscLogEventRegister(name, bolt_class, &event);
  return events[name] = event;
}

bool phases_timed() {
  PetscBool active = PETSC_FALSE;
  if (petsc_running()) PetscLogIsActive(&active);
  return active == PETSC_TRUE;
}

void begin_phase(int event, const char* name) {
  if (event >= 0) PetscLogEventBegin(event, 0, 0, 0, 0);
#ifdef BOLT_HAVE_CUDA
  nvtxRangePushA(name);
#else
  (void)name;
#endif
}

void end_phase(int event) {
#ifdef BOLT_HAVE_CUDA
  nvtxRangePop();
#endif
  if (event >= 0) PetscLogEventEnd(event, 0, 0, 0, 0);
}

}  // namespace bolt
