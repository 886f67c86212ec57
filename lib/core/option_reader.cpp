#include "option_reader.hpp"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/error.hpp"
#include "core/option_files.hpp"
#include "core/solver_options.hpp"

namespace bolt {

namespace {

// PETSc reports parse errors through its error handler; bolt reports them itself, so PETSc's
// handler is silenced around each query and the raw value is shown in bolt's message.
class QuietPetscErrors {
 public:
  QuietPetscErrors() { PetscPushErrorHandler(PetscReturnErrorHandler, nullptr); }
  ~QuietPetscErrors() { PetscPopErrorHandler(); }
};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) parts.push_back(part);
  return parts;
}

double parse_real(const std::string& name, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    fail("-", name, " ", text, ": not a finite real number");
  return value;
}

int parse_int(const std::string& name, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') fail("-", name, " ", text, ": not an integer");
  if (errno == ERANGE || value < INT_MIN || value > INT_MAX)
    fail("-", name, " ", text, ": out of the integer range [", INT_MIN, ", ", INT_MAX, "]");
  return static_cast<int>(value);
}

template <class T>
std::string list_text(const std::vector<T>& values) {
  std::ostringstream out;
  for (std::size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << values[i];
  return out.str();
}

std::vector<ReadOption>& catalogue() {
  static std::vector<ReadOption> options;
  return options;
}

std::vector<OptionUse>& use_scopes() {
  static std::vector<OptionUse> scopes;
  return scopes;
}

ReadOption* find_read(const std::string& name) {
  for (ReadOption& option : catalogue())
    if (option.name == name) return &option;
  return nullptr;
}

void record(const std::string& name, const std::string& value, bool set) {
  if (ReadOption* known = find_read(name)) {
    known->value = value;
    known->set = set;
    return;
  }
  std::optional<OptionUse> use;
  if (!use_scopes().empty()) use = use_scopes().back();
  catalogue().push_back({name, value, set, use});
}

// The shortest text that reads back as `value` (15 digits where they suffice, else 17).
std::string canonical(double value) {
  char text[40];
  for (int digits : {15, 17}) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

std::string canonical(int value) { return std::to_string(value); }

template <class T>
std::string canonical_list(const std::vector<T>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += canonical(values[i]);
  }
  return out;
}

std::string choices_text(const OptionUse& use) {
  std::string out;
  for (std::size_t i = 0; i < use.choices.size(); ++i) {
    if (i) out += i + 1 == use.choices.size() ? " or " : ", ";
    out += use.choices[i];
  }
  return out;
}

// The option as the last file that gave it wrote it, when the database still holds that value
// (the command line did not override it); nullptr otherwise.
const FileOption* given_by_file(const std::string& name, const std::string& value) {
  const FileOption* found = nullptr;
  for (const FileOption& option : file_options())
    if (option.name == name) found = &option;
  return found && found->value == value ? found : nullptr;
}

// Whether the file that gave `option` also chose, by its own `use.selector` key, one of the
// choices that use it (so a command line that chose otherwise made the option moot).
bool file_chose(const FileOption& option, const OptionUse& use) {
  const FileOption* choice = nullptr;
  for (const FileOption& other : file_options())
    if (other.name == use.selector && other.file == option.file) choice = &other;
  if (!choice) return false;
  for (const std::string& c : use.choices)
    if (c == choice->value) return true;
  return false;
}

}  // namespace

OptionUseScope::OptionUseScope(OptionUse use) { use_scopes().push_back(std::move(use)); }

OptionUseScope::~OptionUseScope() { use_scopes().pop_back(); }

const std::vector<ReadOption>& options_read() { return catalogue(); }

void record_canonical_value(const std::string& name, const std::string& value) {
  ReadOption* known = find_read(name);
  require(known != nullptr, "internal: option -", name, " recorded before it was read");
  known->value = value;
}

bool option_in_use(const ReadOption& option) {
  if (!option.use) return true;
  const ReadOption* selector = find_read(option.use->selector);
  if (!selector) return true;
  for (const std::string& choice : option.use->choices)
    if (choice == selector->value) return true;
  return false;
}

void reject_options_of_other_choices() {
  for (const ReadOption& option : catalogue()) {
    if (!option.set || option_in_use(option)) continue;
    const OptionUse& use = *option.use;
    char raw[4096] = "";
    PetscOptionsGetString(nullptr, nullptr, ("-" + option.name).c_str(), raw, sizeof raw, nullptr);
    std::string where;
    if (const FileOption* file = given_by_file(option.name, raw)) {
      if (file_chose(*file, use)) continue;
      where = " (" + file->file + ":" + std::to_string(file->line) + ")";
    }
    fail("-", option.name, " ", raw, where, ": an option of -", use.selector, " ",
         choices_text(use), ", and this run's -", use.selector, " is ",
         find_read(use.selector)->value, " (it would be ignored)");
  }
}

OptionReader::OptionReader(MPI_Comm comm, const std::string& title) : comm_(comm) {
  items_.count = 1;
  if (PetscOptionsBegin_Private(&items_, comm, nullptr, title.c_str(), "bolt"))
    fail("PETSc options: cannot open section ", title);
}

OptionReader::~OptionReader() { PetscOptionsEnd_Private(&items_); }

std::optional<std::string> OptionReader::raw(const std::string& name) const {
  char value[4096] = "";
  PetscBool set = PETSC_FALSE;
  PetscOptionsGetString(nullptr, nullptr, ("-" + name).c_str(), value, sizeof value, &set);
  if (!set) return std::nullopt;
  return std::string(value);
}

bool OptionReader::is_set(const std::string& name) const { return raw(name).has_value(); }

std::string OptionReader::text(const std::string& name, const std::string& help,
                               const std::string& fallback) {
  char value[4096];
  PetscBool set = PETSC_FALSE;
  QuietPetscErrors quiet;
  if (PetscOptionsString_Private(&items_, ("-" + name).c_str(), help.c_str(), "bolt",
                                 fallback.c_str(), value, sizeof value, &set))
    fail("-", name, ": cannot read the value");
  const std::string result = set ? std::string(value) : fallback;
  record(name, result, set);
  return result;
}

double OptionReader::real(const std::string& name, const std::string& help, double fallback) {
  const std::string value = text(name, help + " (real)", std::to_string(fallback));
  const double result = is_set(name) ? parse_real(name, value) : fallback;
  record(name, canonical(result), is_set(name));
  return result;
}

double OptionReader::positive_real(const std::string& name, const std::string& help,
                                   double fallback) {
  const double value = real(name, help, fallback);
  require(value > 0.0, "-", name, " ", value, ": must be positive");
  return value;
}

int OptionReader::integer(const std::string& name, const std::string& help, int fallback, int min,
                          int max) {
  const std::string value = text(name, help + " (integer)", std::to_string(fallback));
  const int result = is_set(name) ? parse_int(name, value) : fallback;
  record(name, canonical(result), is_set(name));
  require(result >= min && result <= max, "-", name, " ", result, ": must be in [", min, ", ",
          max, "]");
  return result;
}

bool OptionReader::flag(const std::string& name, const std::string& help, bool fallback) {
  const std::string value = text(name, help + " (true|false)", fallback ? "true" : "false");
  bool result = fallback;
  if (is_set(name)) {
    if (value == "" || value == "true" || value == "1" || value == "yes" || value == "on")
      result = true;
    else if (value == "false" || value == "0" || value == "no" || value == "off")
      result = false;
    else
      fail("-", name, " ", value, ": not a boolean; allowed: true, false");
  }
  record(name, result ? "true" : "false", is_set(name));
  return result;
}

std::string OptionReader::choice(const std::string& name, const std::string& help,
                                 const std::string& fallback,
                                 const std::vector<std::string>& allowed) {
  const std::string value = text(name, help + " (" + join(allowed) + ")", fallback);
  for (const auto& a : allowed)
    if (a == value) return value;
  fail("-", name, " ", value, ": unknown; allowed: ", join(allowed));
}

std::vector<double> OptionReader::reals_as_given(const std::string& name, const std::string& help,
                                        const std::vector<double>& fallback, bool broadcast) {
  const std::string value = text(name, help + " (" + std::to_string(fallback.size()) +
                                           " comma-separated reals)",
                                 list_text(fallback));
  if (!is_set(name)) return fallback;
  const auto parts = split(value);
  if (broadcast && parts.size() == 1) return std::vector<double>(fallback.size(), parse_real(name, parts[0]));
  require(parts.size() == fallback.size(), "-", name, " ", value, ": expected ", fallback.size(),
          " comma-separated values", broadcast ? " (or one for all)" : "");
  std::vector<double> result;
  for (const auto& p : parts) result.push_back(parse_real(name, p));
  return result;
}

std::vector<int> OptionReader::integers_as_given(const std::string& name, const std::string& help,
                                        const std::vector<int>& fallback, bool broadcast) {
  const std::string value = text(name, help + " (" + std::to_string(fallback.size()) +
                                           " comma-separated integers)",
                                 list_text(fallback));
  if (!is_set(name)) return fallback;
  const auto parts = split(value);
  if (broadcast && parts.size() == 1) return std::vector<int>(fallback.size(), parse_int(name, parts[0]));
  require(parts.size() == fallback.size(), "-", name, " ", value, ": expected ", fallback.size(),
          " comma-separated integers", broadcast ? " (or one for all)" : "");
  std::vector<int> result;
  for (const auto& p : parts) result.push_back(parse_int(name, p));
  return result;
}

std::vector<double> OptionReader::reals(const std::string& name, const std::string& help,
                                        const std::vector<double>& fallback, bool broadcast) {
  const std::vector<double> result = reals_as_given(name, help, fallback, broadcast);
  record(name, canonical_list(result), is_set(name));
  return result;
}

std::vector<int> OptionReader::integers(const std::string& name, const std::string& help,
                                        const std::vector<int>& fallback, bool broadcast) {
  const std::vector<int> result = integers_as_given(name, help, fallback, broadcast);
  record(name, canonical_list(result), is_set(name));
  return result;
}

std::vector<LeftOption> options_left() {
  PetscInt count = 0;
  char** names = nullptr;
  char** values = nullptr;
  PetscOptionsLeftGet(nullptr, &count, &names, &values);
  std::vector<LeftOption> left;
  for (PetscInt i = 0; i < count; ++i) {
    std::string given = std::string("-").append(names[i]);
    if (values[i]) given.append(" ").append(values[i]);
    left.push_back({names[i], given});
  }
  PetscOptionsLeftRestore(nullptr, &count, &names, &values);  // zeroes count
  return left;
}

std::string given_list(const std::vector<LeftOption>& options) {
  std::string list;
  for (const LeftOption& option : options) list += (list.empty() ? "" : ", ") + option.given;
  return list;
}

void reject_unused_options() {
  std::vector<LeftOption> unused;
  for (LeftOption& option : options_left()) {
    if (const SolverOptionsPrefix* solver = solver_options_prefix(option.name)) {
      // Checked by the solver once it has read them, where the run builds it.
      if (solver_in_use(*solver)) continue;
      fail(option.given, ": an option of the PETSc solver that -", solver->use.selector, " ",
           choices_text(solver->use), " builds, and this run does not build it (it would be "
           "ignored)");
    }
    unused.push_back(std::move(option));
  }
  require(unused.empty(), "unknown or unused option(s): ", given_list(unused),
          " (misspelled? run with -help to list every option)");
}

}  // namespace bolt
