// et_copy::_h2d_copy.out / et_copy::_d2h_copy.out: the host<->device copies
// an exporter puts around a CUDA delegate whose I/O lives on the GPU.
// Arguments: (self, out, out-as-return); out is resized to self's shape
// (dynamic shapes, within out's planned bound). They run on the caller
// stream when a CallerStreamGuard is live, else on the legacy default stream
// (ordered with the delegate's own blocking stream). A device-to-host copy waits for the
// stream: the runtime reads the host tensor right after.
#include "copy_kernels.h"
#include "tensor_resize.h"

#include <mutex>

#include <cuda_runtime_api.h>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace {

using runtime::Error;
using runtime::EValue;
using runtime::KernelRuntimeContext;
using runtime::Span;

void copy_kernel(KernelRuntimeContext& ctx, Span<EValue*> args, bool to_device) {
  const char* name = to_device ? "et_copy::_h2d_copy.out" : "et_copy::_d2h_copy.out";
  if (args.size() < 2 || args[0] == nullptr || args[1] == nullptr || !args[0]->isTensor() ||
      !args[1]->isTensor()) {
    ET_LOG(Error, "%s: expects (Tensor self, Tensor out)", name);
    ctx.fail(Error::InvalidArgument);
    return;
  }
  const auto& src = args[0]->toTensor();
  auto& dst = args[1]->toTensor();
  if (src.scalar_type() != dst.scalar_type()) {
    ET_LOG(Error, "%s: self has dtype %d, out %d", name, static_cast<int>(src.scalar_type()),
           static_cast<int>(dst.scalar_type()));
    ctx.fail(Error::InvalidArgument);
    return;
  }
  // A dynamic shape: out takes self's shape within its planned bound.
  const Error resized = resize_like(dst, src, name);
  if (resized != Error::Ok) {
    ctx.fail(resized);
    return;
  }
  const auto caller = extension::cuda::getCallerStream();
  cudaStream_t stream = caller.has_value() ? *caller : nullptr;
  cudaError_t e = cudaSuccess;
  if (src.nbytes() > 0) {
    e = cudaMemcpyAsync(dst.mutable_data_ptr(), src.const_data_ptr(), src.nbytes(),
                        to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream);
  }
  if (e == cudaSuccess && !to_device) e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) {
    ET_LOG(Error, "%s: %s", name, cudaGetErrorString(e));
    ctx.fail(Error::Internal);
  }
}

void h2d(KernelRuntimeContext& ctx, Span<EValue*> args) { copy_kernel(ctx, args, true); }
void d2h(KernelRuntimeContext& ctx, Span<EValue*> args) { copy_kernel(ctx, args, false); }

} // namespace

void register_copy_kernels() {
  static std::once_flag once;
  std::call_once(once, [] {
    static const runtime::Kernel kernels[] = {
        runtime::Kernel("et_copy::_h2d_copy.out", &h2d),
        runtime::Kernel("et_copy::_d2h_copy.out", &d2h),
    };
    // Already registered (another copy of this library): keep the first.
    if (!runtime::registry_has_op_function("et_copy::_h2d_copy.out")) {
      const Error err = runtime::register_kernels(Span<const runtime::Kernel>(kernels, 2));
      if (err != Error::Ok) {
        ET_LOG(Error, "CudaBackend: registering the et_copy kernels failed (0x%x)",
               static_cast<unsigned>(err));
      }
    }
  });
}

} // namespace cuda
} // namespace backends
} // namespace executorch
