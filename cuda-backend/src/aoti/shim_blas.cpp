// The AOTInductor C shim, matrix-product fallbacks (mm, bmm, addmm) on
// cuBLAS. Fallbacks run on the calling thread's current stream (set by the
// model's stream guard).
#include "shim_abi.h"
#include "blas_handle.h"
#include "blas_layout.h"
#include "broadcast_kernels.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <vector>

using executorch::backends::cuda::aoti::TensorObj;
namespace shim = executorch::backends::cuda::aoti;

namespace {

using shim::cuda_type;
using shim::operand;

// out[b] = alpha * A[b] @ B[b] + beta * out[b]; A [m,k], B [k,n], out [m,n]
// (row-major views, batch strides sa/sb/sc in elements; batch 1 for mm).
AOTITorchError gemm(const char* fn, TensorObj* out, TensorObj* a, TensorObj* b, int64_t batch,
                    int64_t m, int64_t n, int64_t k, const int64_t* as, const int64_t* bs,
                    const int64_t* cs, int64_t sa, int64_t sb, int64_t sc, double alpha,
                    double beta) {
  AOTI_TRACE(
      "%s gemm batch=%lld m=%lld n=%lld k=%lld sa=%lld sb=%lld sc=%lld alpha=%g beta=%g "
      "out=%s a=%s b=%s",
      fn, (long long)batch, (long long)m, (long long)n, (long long)k, (long long)sa, (long long)sb,
      (long long)sc, alpha, beta, shim::describe(out).c_str(), shim::describe(a).c_str(),
      shim::describe(b).c_str());
  if (a->dtype != b->dtype || a->dtype != out->dtype) {
    log_err(fn, "mixed dtypes are not supported");
    return kFail;
  }
  cudaDataType_t dt;
  if (!cuda_type(a->dtype, &dt)) {
    log_err(fn, "unsupported dtype (float32, float16, bfloat16, float64)");
    return kFail;
  }
  if (m == 0 || n == 0) return kOk;
  cublasOperation_t opa, opb, opc;
  int64_t lda, ldb, ldc;
  if (!operand(m, k, as[0], as[1], &opa, &lda) || !operand(k, n, bs[0], bs[1], &opb, &ldb) ||
      !operand(m, n, cs[0], cs[1], &opc, &ldc) || opc != CUBLAS_OP_N) {
    AOTI_TRACE("%s: operand layout rejected", fn);
    log_err(fn, "unsupported operand strides");
    return kFail;
  }
  const shim::CublasApi* api = nullptr;
  const char* why = nullptr;
  cublasHandle_t h = shim::blas_handle(shim::current_stream(out->device_index), &api, &why);
  if (h == nullptr) {
    log_err(fn, why);
    return kFail;
  }
  const bool f64 = dt == CUDA_R_64F;
  const float fa = static_cast<float>(alpha), fb = static_cast<float>(beta);
  const void* pa = f64 ? static_cast<const void*>(&alpha) : &fa;
  const void* pb = f64 ? static_cast<const void*>(&beta) : &fb;
  cublasComputeType_t ct = f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  // Row-major C = A B  <=>  column-major C^T = B^T A^T.
  cublasStatus_t st;
  if (k == 0) {
    // Degenerate product: C = beta * C.
    if (beta == 0.0) {
      return cudaMemsetAsync(out->data(), 0, static_cast<size_t>(out->numel()) * out->elem_size(),
                             shim::current_stream(out->device_index)) == cudaSuccess
                 ? kOk
                 : kFail;
    }
    log_err(fn, "k == 0 with beta != 0 is not supported");
    return kFail;
  }
  if (batch == 1) {
    st = api->cublasGemmEx(h, opb, opa, static_cast<int>(n), static_cast<int>(m),
                           static_cast<int>(k), pa, b->data(), dt, static_cast<int>(ldb), a->data(),
                           dt, static_cast<int>(lda), pb, out->data(), dt, static_cast<int>(ldc),
                           ct, CUBLAS_GEMM_DEFAULT);
  } else {
    st = api->cublasGemmStridedBatchedEx(
        h, opb, opa, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), pa, b->data(),
        dt, static_cast<int>(ldb), sb, a->data(), dt, static_cast<int>(lda), sa, pb, out->data(),
        dt, static_cast<int>(ldc), sc, static_cast<int>(batch), ct, CUBLAS_GEMM_DEFAULT);
  }
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "[CudaBackend shim] %s: cuBLAS status %d\n", fn, static_cast<int>(st));
    return kFail;
  }
  return kOk;
}

bool is_cuda_2d(const TensorObj* t) {
  return t != nullptr && t->device_type == shim::kDevCuda && t->sizes.size() == 2;
}

} // namespace

AOTI_SHIM AOTITorchError aoti_torch_cuda_mm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                AtenTensorHandle mat2) {
  if (!is_cuda_2d(out) || !is_cuda_2d(self) || !is_cuda_2d(mat2) ||
      self->sizes[1] != mat2->sizes[0] || out->sizes[0] != self->sizes[0] ||
      out->sizes[1] != mat2->sizes[1]) {
    log_err(__func__, "expects CUDA matrices [m,k] x [k,n] -> [m,n]");
    return kFail;
  }
  return gemm(__func__, out, self, mat2, 1, self->sizes[0], mat2->sizes[1], self->sizes[1],
              self->strides.data(), mat2->strides.data(), out->strides.data(), 0, 0, 0, 1.0, 0.0);
}

AOTI_SHIM AOTITorchError aoti_torch_cuda_bmm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                 AtenTensorHandle mat2) {
  if (out == nullptr || self == nullptr || mat2 == nullptr || out->sizes.size() != 3 ||
      self->sizes.size() != 3 || mat2->sizes.size() != 3 || self->sizes[0] != mat2->sizes[0] ||
      out->sizes[0] != self->sizes[0] || self->sizes[2] != mat2->sizes[1] ||
      out->sizes[1] != self->sizes[1] || out->sizes[2] != mat2->sizes[2]) {
    log_err(__func__, "expects CUDA tensors [b,m,k] x [b,k,n] -> [b,m,n]");
    return kFail;
  }
  return gemm(__func__, out, self, mat2, self->sizes[0], self->sizes[1], mat2->sizes[2],
              self->sizes[2], self->strides.data() + 1, mat2->strides.data() + 1,
              out->strides.data() + 1, self->strides[0], mat2->strides[0], out->strides[0], 1.0,
              0.0);
}

AOTI_SHIM AOTITorchError aoti_torch_cuda_addmm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                   AtenTensorHandle mat1, AtenTensorHandle mat2,
                                                   double beta, double alpha) {
  if (!is_cuda_2d(out) || !is_cuda_2d(mat1) || !is_cuda_2d(mat2) || self == nullptr ||
      mat1->sizes[1] != mat2->sizes[0] || out->sizes[0] != mat1->sizes[0] ||
      out->sizes[1] != mat2->sizes[1] || self->dtype != out->dtype) {
    log_err(__func__, "expects CUDA matrices [m,k] x [k,n] -> [m,n]");
    return kFail;
  }
  const int64_t m = out->sizes[0], n = out->sizes[1];
  if (beta != 0.0 && self != out) {
    // Broadcast self ([n], [1,n], [m,1], [m,n] or a scalar) into out.
    std::vector<int64_t> ss(2, 0);
    const size_t nd = self->sizes.size();
    for (size_t i = 0; i < nd && i < 2; ++i) {
      const size_t od = 2 - nd + i;
      ss[od] = self->sizes[i] == 1 ? 0 : self->strides[i];
      if (self->sizes[i] != 1 && self->sizes[i] != out->sizes[od]) {
        log_err(__func__, "self does not broadcast to the output");
        return kFail;
      }
    }
    // One kernel launch: zero strides on broadcast dimensions.
    const cudaError_t e = shim::launch_broadcast_copy_2d(
        out->data(), out->strides[0], out->strides[1], self->data(), ss[0], ss[1], m, n,
        out->elem_size(), shim::current_stream(out->device_index));
    if (e != cudaSuccess) {
      log_err(__func__, cudaGetErrorString(e));
      return kFail;
    }
  }
  return gemm(__func__, out, mat1, mat2, 1, m, n, mat1->sizes[1], mat1->strides.data(),
              mat2->strides.data(), out->strides.data(), 0, 0, 0, alpha, beta == 0.0 ? 0.0 : beta);
}
