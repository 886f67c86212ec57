#pragma once
// Errors a user can act on: one line naming what is wrong, the value, and what is allowed.
#include <sstream>
#include <stdexcept>
#include <string>

namespace bolt {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::ostringstream message;
  (message << ... << parts);
  throw Error(message.str());
}

template <class... Parts>
void require(bool condition, const Parts&... parts) {
  if (!condition) fail(parts...);
}

}  // namespace bolt
