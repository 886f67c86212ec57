#pragma once
// Typed access to PETSc's options database with a help string and a default for every option
// (so -help documents all of them) and one-line errors that name the option, the value and what
// is allowed. One OptionReader is one PetscOptionsBegin/End section (a group of options with a
// common prefix such as -grid_ or -model_).
#include <petscsys.h>

#include <optional>
#include <string>
#include <vector>

namespace bolt {

class OptionReader {
 public:
  OptionReader(MPI_Comm comm, const std::string& title);
  ~OptionReader();
  OptionReader(const OptionReader&) = delete;
  OptionReader& operator=(const OptionReader&) = delete;

  double real(const std::string& name, const std::string& help, double fallback);
  double positive_real(const std::string& name, const std::string& help, double fallback);
  int integer(const std::string& name, const std::string& help, int fallback, int min, int max);
  bool flag(const std::string& name, const std::string& help, bool fallback);
  std::string text(const std::string& name, const std::string& help, const std::string& fallback);
  // One of `allowed`; anything else is an error listing them.
  std::string choice(const std::string& name, const std::string& help, const std::string& fallback,
                     const std::vector<std::string>& allowed);
  // Exactly `count` comma-separated reals (or one value, repeated, when `broadcast`).
  std::vector<double> reals(const std::string& name, const std::string& help,
                            const std::vector<double>& fallback, bool broadcast = false);
  std::vector<int> integers(const std::string& name, const std::string& help,
                            const std::vector<int>& fallback, bool broadcast = false);
  bool is_set(const std::string& name) const;

 private:
  std::optional<std::string> raw(const std::string& name) const;
  MPI_Comm comm_;
  PetscOptionItems items_{};
};

// Fails with a list of the options nobody read (misspelled or not meaningful for this run).
void reject_unused_options();

}  // namespace bolt
