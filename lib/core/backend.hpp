#pragma once
#include <string>
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
// Makes device `index` current for this process (before any allocation or NCCL set-up).
void use_cuda_device(int index);
// PCI bus id of device `index` ("0000:1b:00.0"), to tell GPUs apart in the rank map.
std::string cuda_device_bus_id(int index);
// Free and total bytes of the current CUDA device ({0, 0} without one).
struct DeviceMemory {
  double free_bytes = 0.0, total_bytes = 0.0;
};
DeviceMemory cuda_device_memory();

}  // namespace bolt
