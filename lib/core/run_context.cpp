#include "run_context.hpp"

namespace bolt {

namespace {
std::string& place() {
  static std::string value;
  return value;
}
std::string& phase() {
  static std::string value = "setup";
  return value;
}
}  // namespace

void set_run_place(const std::string& value) { place() = value; }

void set_run_phase(const std::string& value) { phase() = value; }

std::string run_context() {
  return (place().empty() ? std::string("this rank") : place()) + ", during " + phase();
}

}  // namespace bolt
