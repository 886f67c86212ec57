#pragma once
// PETSc (and with it MPI) for a test binary whose tests call PETSc, as a GoogleTest global
// environment. Register it once per binary:
//   ::testing::AddGlobalTestEnvironment(new bolt::test::PetscEnvironment);
#include <gtest/gtest.h>
#include <petscsys.h>

namespace bolt::test {

class PetscEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { ASSERT_EQ(PetscInitializeNoArguments(), 0); }
  void TearDown() override { PetscFinalize(); }
};

}  // namespace bolt::test
