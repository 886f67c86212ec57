// What a checkpoint's configuration holds (lib/driver/restart.cpp): every option the run uses,
// with its value as read, but those named free on a restart. The free list may only name options
// that exist, each named in docs/output.md (a new option is physics unless listed there); the
// options that change the physics are in the configuration, written canonically, so that the
// same value written otherwise ("1.0", boxes with other blanks) is the same configuration.
#include <gtest/gtest.h>
#include <petscsys.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "case/run_options.hpp"
#include "core/option_reader.hpp"
#include "driver/restart.hpp"
#include "petsc_environment.hpp"

namespace bolt {
namespace {

[[maybe_unused]] ::testing::Environment* const kPetsc =
    ::testing::AddGlobalTestEnvironment(new test::PetscEnvironment);

// "\nname=": a line of the configuration starts with it (configuration_with starts with "\n").
std::string line_of(std::string_view name) {
  std::string line = "\n";
  line += name;
  line += '=';
  return line;
}

// The configuration of a run with `options` ("-name", "value" pairs) on top of the defaults.
std::string configuration_with(const std::vector<std::pair<const char*, const char*>>& options) {
  PetscOptionsClear(nullptr);
  for (const auto& [name, value] : options) PetscOptionsSetValue(nullptr, name, value);
  read_run_options(PETSC_COMM_WORLD);
  std::string configuration = "\n";
  configuration += state_configuration(0.01);
  PetscOptionsClear(nullptr);
  return configuration;
}

TEST(RestartOptions, FreeOptionsExistAndAreDocumented) {
  configuration_with({});
  std::ifstream file(BOLT_SOURCE_DIR "/docs/output.md");
  ASSERT_TRUE(file.good());
  std::stringstream doc;
  doc << file.rdbuf();
  for (std::string_view name : options_free_on_restart()) {
    const bool read = std::any_of(options_read().begin(), options_read().end(),
                                  [&](const ReadOption& option) { return option.name == name; });
    EXPECT_TRUE(read) << "-" << name << " is listed free on a restart but no reader reads it";
    EXPECT_NE(doc.str().find("`-" + std::string(name) + '`'), std::string::npos)
        << "-" << name << " is free on a restart but docs/output.md does not name it";
  }
}

TEST(RestartOptions, ConfigurationHoldsWhatChangesThePhysics) {
  const std::string configuration = configuration_with({});
  for (const char* name : {"case", "grid_n", "grid_stretch", "vgrid_n", "vgrid_half_width",
                           "model_delta", "model_omega", "model_force", "model_conservative",
                           "stream_order", "ts_splitting", "solver", "bc_y_high_velocity",
                           "bc_x_low_temperature", "bc_x_low", "geometry_boxes",
                           "geometry_solids", "geometry_solid_temperature", "dt"})
    EXPECT_NE(configuration.find(line_of(name)), std::string::npos) << name;
  for (std::string_view name : options_free_on_restart())
    EXPECT_EQ(configuration.find(line_of(name)), std::string::npos) << name;
  // Options of a model the run does not use (the default is BGK) are not part of it.
  EXPECT_EQ(configuration.find("\nmc_samples="), std::string::npos);
  EXPECT_EQ(configuration.find("\nprojection_points="), std::string::npos);
  EXPECT_NE(configuration_with({{"-model_type", "hs_mc"}}).find("\nmc_samples=1024\n"),
            std::string::npos);
}

TEST(RestartOptions, ValuesAreComparedAsParsed) {
  const std::string plain = configuration_with({{"-grid_n", "8,8,1"},
                                                {"-geometry_solids", "2,2,0,2,2,1;3,3,0,1,1,1"},
                                                {"-model_delta", "1"},
                                                {"-vgrid_n", "8"}});
  const std::string written_otherwise =
      configuration_with({{"-grid_n", "8,8,1"},
                          {"-geometry_solids", " 2, 2,0,2,2,1 ;  3,3,0,1,1,1 ;"},
                          {"-model_delta", "1.0"},
                          {"-vgrid_n", "8,8,8"}});
  EXPECT_EQ(plain, written_otherwise);
  EXPECT_NE(plain.find("\ngeometry_solids=2,2,0,2,2,1; 3,3,0,1,1,1\n"), std::string::npos);
}

}  // namespace
}  // namespace bolt
