#pragma once
#include <string_view>

namespace bolt {

// Where kernels run. Chosen at run time (-backend); both backends run the same kernel source.
enum class Backend { cpu, cuda };
enum class Precision { single, double_ };

constexpr std::string_view to_string(Backend b) { return b == Backend::cpu ? "cpu" : "cuda"; }
constexpr std::string_view to_string(Precision p) {
  return p == Precision::single ? "float" : "double";
}

// True when this binary was built with the CUDA backend.
bool cuda_backend_compiled();
// Number of CUDA devices visible to this process (0 without the CUDA backend or a GPU).
int cuda_device_count();

}  // namespace bolt
