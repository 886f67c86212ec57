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

// A fault of the machine rather than of the input: a CUDA or NCCL call that failed. Reported
// with the rank, host, device and phase of the run (run_context.hpp), and the whole job exits.
class DeviceFault : public Error {
 public:
  using Error::Error;
};

template <class... Parts>
[[noreturn]] void fail_device(const Parts&... parts) {
  std::ostringstream message;
  (message << ... << parts);
  throw DeviceFault(message.str());
}

}  // namespace bolt
