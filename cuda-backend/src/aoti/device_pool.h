// Stream-ordered device memory for the shim's temporaries and the fallback
// ops' workspaces: one private cudaMemPool per device (not the device's
// default pool, which the application may tune), kept warm between executes
// instead of returning memory to the driver at every synchronize.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// cudaMallocFromPoolAsync on this backend's pool for `device`; nbytes 0
// gives nullptr and cudaSuccess.
cudaError_t pool_alloc(void** out, size_t nbytes, int32_t device, cudaStream_t stream);
// cudaFreeAsync: the block returns to the pool once `stream`'s queued work
// is done.
cudaError_t pool_free(void* p, cudaStream_t stream);

// Models alive on `device` (the pool gives its idle memory back to the
// driver when the last one goes).
void pool_model_created(int32_t device);
void pool_model_destroyed(int32_t device);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
