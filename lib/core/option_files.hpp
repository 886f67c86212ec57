#pragma once
// The files of options a run is given (-options_file_yaml CASE.yaml, -options_file FILE), read by
// bolt itself rather than by PETSc: every fault is one line naming the file and the line
// ("inputs/x.yaml:7: grid_n given twice (first at line 3)"), a key given twice or a second YAML
// document is refused instead of silently overriding, a directory or a FIFO is refused before it
// is opened, and an include cycle (a file naming itself through -options_file lines) is refused
// instead of recursing until the stack overflows.
//
// The options are inserted into PETSc's options database before PetscInitialize, which then adds
// the command line: an option on the command line overrides the files wherever it stands.
#include <string>
#include <vector>

namespace bolt {

// One option a file gave: its name without the dash, its value ("" for none) and where.
struct FileOption {
  std::string name, value;
  std::string file;
  int line = 0;
};

// A file named on the command line: the option that named it and its path.
struct OptionFileArgument {
  std::string option, path;
};

// Takes every "-options_file_yaml FILE" and "-options_file FILE" out of argv (PETSc would
// otherwise read them again inside PetscInitialize), in command-line order.
std::vector<OptionFileArgument> take_option_file_arguments(int& argc, char** argv);

// Reads the files and the files they include (-options_file / -options_file_yaml lines or keys,
// paths as given, relative to the working directory). Throws bolt::Error "FILE:LINE: what".
std::vector<FileOption> read_option_files(const std::vector<OptionFileArgument>& files);

// Sets the options in PETSc's options database (callable before PetscInitialize) and remembers
// them for file_options(). A later file's value replaces an earlier one's.
void insert_file_options(const std::vector<FileOption>& options);

// The options the files gave, as inserted (the command line may have overridden some).
const std::vector<FileOption>& file_options();

}  // namespace bolt
