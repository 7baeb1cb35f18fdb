#pragma once
namespace executorch {
namespace backends {
namespace cuda {
// Registers et_copy::_h2d_copy.out and et_copy::_d2h_copy.out with the
// runtime's kernel registry (once per process; later calls do nothing).
void register_copy_kernels();
} // namespace cuda
} // namespace backends
} // namespace executorch
