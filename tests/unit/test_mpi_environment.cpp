// The settings made before MPI starts (lib/core/mpi_environment.hpp): a process is taken as
// started by a launcher from each launcher's variable, a singleton gets its start settings, a
// launched process keeps Open MPI's defaults, and a value the user set is never replaced.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include "core/mpi_environment.hpp"

namespace bolt {
namespace {

// The variables the tests touch, put back as they were (the tests themselves run under mpiexec).
class SavedEnvironment {
 public:
  SavedEnvironment() {
    for (const char* name : kMpiLauncherVariables) save_and_unset(name);
    save_and_unset("OMPI_MCA_sharedfp");
    for (const char* name : kSingletonSettings) save_and_unset(name);
  }
  ~SavedEnvironment() {
    for (const auto& [name, value] : saved_) {
      if (value)
        setenv(name.c_str(), value->c_str(), 1);
      else
        unsetenv(name.c_str());
    }
  }
  // What a singleton alone gets (the MPI-IO setting is made for every process).
  static constexpr const char* kSingletonSettings[] = {
      "OMPI_MCA_ess_singleton_isolated", "OMPI_MCA_pml", "OMPI_MCA_btl", "HWLOC_COMPONENTS"};

 private:
  void save_and_unset(const char* name) {
    const char* value = std::getenv(name);
    saved_[name] = value ? std::optional<std::string>(value) : std::nullopt;
    unsetenv(name);
  }

  std::map<std::string, std::optional<std::string>> saved_;
};

std::string value_of(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "(unset)";
}

TEST(MpiEnvironment, EachLauncherVariableMeansLaunched) {
  const SavedEnvironment saved;
  EXPECT_FALSE(started_by_mpi_launcher());
  for (const char* name : kMpiLauncherVariables) {
    setenv(name, "1", 1);
    EXPECT_TRUE(started_by_mpi_launcher()) << name;
    unsetenv(name);
  }
}

TEST(MpiEnvironment, ASingletonStartsIsolatedOnItsOwnTransport) {
  const SavedEnvironment saved;
  prepare_mpi_start();
  EXPECT_EQ(value_of("OMPI_MCA_sharedfp"), "^sm");
  EXPECT_EQ(value_of("OMPI_MCA_ess_singleton_isolated"), "1");
  EXPECT_EQ(value_of("OMPI_MCA_pml"), "ob1");
  EXPECT_EQ(value_of("OMPI_MCA_btl"), "self");
  EXPECT_EQ(value_of("HWLOC_COMPONENTS"), "-cuda,-nvml,-opencl,-gl,-rsmi,-levelzero");
}

TEST(MpiEnvironment, ALaunchedProcessKeepsOpenMpisDefaults) {
  const SavedEnvironment saved;
  setenv("PMIX_RANK", "0", 1);
  prepare_mpi_start();
  EXPECT_EQ(value_of("OMPI_MCA_sharedfp"), "^sm");
  for (const char* name : SavedEnvironment::kSingletonSettings)
    EXPECT_EQ(value_of(name), "(unset)") << name;
}

TEST(MpiEnvironment, TheUsersValuesWin) {
  const SavedEnvironment saved;
  setenv("OMPI_MCA_pml", "ucx", 1);
  setenv("OMPI_MCA_sharedfp", "sm", 1);
  prepare_mpi_start();
  EXPECT_EQ(value_of("OMPI_MCA_pml"), "ucx");
  EXPECT_EQ(value_of("OMPI_MCA_sharedfp"), "sm");
  EXPECT_EQ(value_of("OMPI_MCA_btl"), "self");
}

}  // namespace
}  // namespace bolt
