// The CUDA DeviceAllocator the runtime uses for planned buffers a program
// puts on the GPU (upstream 1.4's device layout) and for the copies between
// them and the host. Registered by register.cpp.
#pragma once

#include <executorch/runtime/core/device_allocator.h>

namespace executorch {
namespace backends {
namespace cuda {

// The one instance in this library. Nothing touches CUDA until its first
// call, so loading the library on a machine without a GPU is free.
runtime::DeviceAllocator& cuda_device_allocator();

} // namespace cuda
} // namespace backends
} // namespace executorch
