#include "option_reader.hpp"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/error.hpp"

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

}  // namespace

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
  return set ? std::string(value) : fallback;
}

double OptionReader::real(const std::string& name, const std::string& help, double fallback) {
  const std::string value = text(name, help + " (real)", std::to_string(fallback));
  return is_set(name) ? parse_real(name, value) : fallback;
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
  require(result >= min && result <= max, "-", name, " ", result, ": must be in [", min, ", ",
          max, "]");
  return result;
}

bool OptionReader::flag(const std::string& name, const std::string& help, bool fallback) {
  const std::string value = text(name, help + " (true|false)", fallback ? "true" : "false");
  if (!is_set(name)) return fallback;
  if (value == "" || value == "true" || value == "1" || value == "yes" || value == "on") return true;
  if (value == "false" || value == "0" || value == "no" || value == "off") return false;
  fail("-", name, " ", value, ": not a boolean; allowed: true, false");
}

std::string OptionReader::choice(const std::string& name, const std::string& help,
                                 const std::string& fallback,
                                 const std::vector<std::string>& allowed) {
  const std::string value = text(name, help + " (" + join(allowed) + ")", fallback);
  for (const auto& a : allowed)
    if (a == value) return value;
  fail("-", name, " ", value, ": unknown; allowed: ", join(allowed));
}

std::vector<double> OptionReader::reals(const std::string& name, const std::string& help,
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

std::vector<int> OptionReader::integers(const std::string& name, const std::string& help,
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

void reject_unused_options() {
  PetscInt count = 0;
  char** names = nullptr;
  char** values = nullptr;
  PetscOptionsLeftGet(nullptr, &count, &names, &values);
  std::string unused;
  for (PetscInt i = 0; i < count; ++i) {
    unused += std::string(i ? ", " : "") + "-" + names[i];
    if (values[i]) unused += std::string(" ") + values[i];
  }
  PetscOptionsLeftRestore(nullptr, &count, &names, &values);  // zeroes count
  require(unused.empty(), "unknown or unused option(s): ", unused,
          " (misspelled? run with -help to list every option)");
}

}  // namespace bolt
