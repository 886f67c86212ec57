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
  std::vector<double> reals_as_given(const std::string& name, const std::string& help,
                                     const std::vector<double>& fallback, bool broadcast);
  std::vector<int> integers_as_given(const std::string& name, const std::string& help,
                                     const std::vector<int>& fallback, bool broadcast);
  MPI_Comm comm_;
  PetscOptionItems items_{};
};

// Fails with a list of the options nobody read (misspelled or not meaningful for this run).
void reject_unused_options();

// An option set but not read so far (PETSc's options left): its name without the '-', and the
// option as given ("-name value").
struct LeftOption {
  std::string name, given;
};
std::vector<LeftOption> options_left();

// The options' `given` texts, comma-separated.
std::string given_list(const std::vector<LeftOption>& options);

// Which runs use an option: those whose `selector` option (model_type, solver, case) is one of
// `choices`. An option without one is used by every run.
struct OptionUse {
  std::string selector;
  std::vector<std::string> choices;
};

// While alive, the options read belong to `use` (the registries read every model's and every
// solver's options, so that -help lists them all).
class OptionUseScope {
 public:
  explicit OptionUseScope(OptionUse use);
  ~OptionUseScope();
  OptionUseScope(const OptionUseScope&) = delete;
  OptionUseScope& operator=(const OptionUseScope&) = delete;
};

// An option as read: the value it took (given or default), written canonically (numbers as
// parsed, lists in full, so "1.0" and "1" are one value), whether it was given, and its use.
struct ReadOption {
  std::string name, value;
  bool set = false;
  std::optional<OptionUse> use;
};

// Every option a reader asked for, in reading order.
const std::vector<ReadOption>& options_read();

// The recorded value of `name` when a reader parsed the text itself (the geometry's boxes).
void record_canonical_value(const std::string& name, const std::string& value);

// Whether the run uses `option` (its selector's value among its choices).
bool option_in_use(const ReadOption& option);

// Fails naming an option that was given for a choice this run did not make (-mc_samples with
// -model_type bgk), and which choice uses it. A case file's option is let pass when the file
// made that choice itself and the command line changed it (-model_type bgk on an hs_mc case).
void reject_options_of_other_choices();

}  // namespace bolt
