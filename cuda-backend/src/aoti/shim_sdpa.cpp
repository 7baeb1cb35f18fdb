// The AOTInductor C shim, fused-attention fallbacks (flash, efficient and
// cuDNN scaled-dot-product attention) as "math" attention for inference:
//   S = scale * Q K^T        cuBLAS, inputs in q's dtype, S in float32
//   P = softmax(S + mask)    one block per row (sdpa_kernels.cu), float32
//                            arithmetic, P stored in v's dtype, log-sum-exp
//   O = P V                  cuBLAS, O in q's dtype
// on the calling thread's current stream. Workspaces come from the shim's
// stream-ordered pool and are bounded (kWorkspaceCap): large problems run
// in chunks of heads and query rows.
//
// Conventions:
// - q [B,H,Lq,E], k [B,Hk,Lk,E], v [B,Hk,Lk,Ev], any strides; H % Hk == 0
//   (grouped-query attention: head h reads kv head h / (H / Hk)).
// - is_causal keeps j <= i (top-left aligned, also when Lq != Lk).
// - The mask / attn_bias is additive (float32, float16, bfloat16) or a keep
//   mask (bool, true = attend), broadcastable to [B,H,Lq,Lk].
// - A fully masked row gives an output row of zeros and log-sum-exp -inf.
// - dropout_p != 0 is rejected (inference only); no RNG state is produced,
//   so philox seed/offset, cum_seq and debug-mask outputs are empty tensors.
#include "shim_abi.h"
#include "blas_handle.h"
#include "blas_layout.h"
#include "device_pool.h"
#include "sdpa_kernels.h"

#include <cublas_v2.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <vector>

using executorch::backends::cuda::aoti::TensorObj;
namespace shim = executorch::backends::cuda::aoti;

namespace {

using shim::cuda_type;
using shim::operand;

// Bytes of scores + probabilities per chunk (at least one row is processed).
constexpr int64_t kWorkspaceCap = int64_t{256} << 20;

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

// One operand of a batched row-major product: base pointer, element
// strides of a matrix (s0 rows, s1 columns) and between matrices (sb).
struct Mat {
  const void* p;
  cudaDataType_t t;
  int64_t s0, s1, sb;
  Mat transposed() const { return Mat{p, t, s1, s0, sb}; }
};

// C[b] = alpha * A[b] B[b] for b < batch; A [m,k], B [k,n], C [m,n].
// Returns false (with a message) when a layout is not expressible.
bool gemm_rm(const char* fn, const shim::CublasApi& api, cublasHandle_t h, int64_t batch, int64_t m,
             int64_t n, int64_t k, float alpha, Mat a, Mat b, Mat c, cublasComputeType_t ct) {
  cublasOperation_t opc, opa, opb;
  int64_t ldc, lda, ldb;
  if (!operand(m, n, c.s0, c.s1, &opc, &ldc)) {
    log_err(fn, "output layout not expressible as a cuBLAS operand");
    return false;
  }
  if (opc != CUBLAS_OP_N) {
    // C's columns are contiguous: compute C^T = B^T A^T instead.
    const Mat at = a.transposed();
    a = b.transposed();
    b = at;
    c = c.transposed();
    std::swap(m, n);
    if (!operand(m, n, c.s0, c.s1, &opc, &ldc) || opc != CUBLAS_OP_N) {
      log_err(fn, "output layout not expressible as a cuBLAS operand");
      return false;
    }
  }
  if (!operand(m, k, a.s0, a.s1, &opa, &lda) || !operand(k, n, b.s0, b.s1, &opb, &ldb)) {
    log_err(fn, "input layout not expressible as a cuBLAS operand");
    return false;
  }
  if (!fits_int(m) || !fits_int(n) || !fits_int(k) || !fits_int(lda) || !fits_int(ldb) ||
      !fits_int(ldc) || !fits_int(batch)) {
    log_err(fn, "a dimension or leading stride exceeds cuBLAS's 32-bit limits");
    return false;
  }
  const float beta = 0.f;
  // Row-major C = A B  <=>  column-major C^T = B^T A^T.
  cublasStatus_t st = api.cublasGemmStridedBatchedEx(
      h, opb, opa, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &alpha, b.p, b.t,
      static_cast<int>(ldb), b.sb, a.p, a.t, static_cast<int>(lda), a.sb, &beta,
      const_cast<void*>(c.p), c.t, static_cast<int>(ldc), c.sb, static_cast<int>(batch), ct,
      CUBLAS_GEMM_DEFAULT);
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "[CudaBackend shim] %s: cuBLAS status %d\n", fn, static_cast<int>(st));
    return false;
  }
  return true;
}

// PyTorch's "non-overlapping and dense": the dims of size > 1, ordered by
// stride, have strides 1, size, size*size2, ...
bool dense_non_overlapping(const TensorObj* t) {
  size_t dims[shim::Dims::kMaxRank];
  size_t n = 0;
  for (size_t i = 0; i < t->sizes.size(); ++i) {
    if (t->sizes[i] >= 2) dims[n++] = i;
  }
  std::stable_sort(dims, dims + n,
                   [&](size_t a, size_t b) { return t->strides[a] < t->strides[b]; });
  int64_t expect = 1;
  for (size_t k = 0; k < n; ++k) {
    if (t->strides[dims[k]] != expect) return false;
    expect *= t->sizes[dims[k]];
  }
  return true;
}

enum class Kind { kFlash, kEfficient, kCudnn };

// The output layout PyTorch's meta functions give (Inductor bakes it into the
// generated code). Efficient: physically [B,Lq,H,Ev], viewed as [B,H,Lq,Ev].
// Flash / cuDNN: same strides as q when q is dense and the shapes agree;
// otherwise dense in q's stride order when q is dense; otherwise
// physically [B,Lq,H,Ev].
void output_strides(Kind kind, const TensorObj* q, const int64_t sizes[4], int64_t out[4]) {
  const int64_t H = sizes[1], L = sizes[2], Ev = sizes[3];
  const int64_t blhe[4] = {L * H * Ev, Ev, H * Ev, 1};
  if (kind == Kind::kEfficient || !dense_non_overlapping(q)) {
    std::copy(blhe, blhe + 4, out);
    return;
  }
  if (q->sizes[3] == Ev) {
    std::copy(q->strides.begin(), q->strides.end(), out);
    return;
  }
  int order[4] = {0, 1, 2, 3};
  std::stable_sort(order, order + 4, [&](int a, int b) { return q->strides[a] > q->strides[b]; });
  int64_t s = 1;
  for (int i = 4; i-- > 0;) {
    out[order[i]] = s;
    s *= sizes[order[i]];
  }
}

// A [B, heads, L, D] operand: data and element strides.
struct View4 {
  const char* data;
  int64_t s[4];
};

// Stream-ordered temporaries released when the call returns (at most
// kMax: the attention takes four).
class Scratch {
 public:
  explicit Scratch(cudaStream_t s) : stream_(s) {}
  ~Scratch() {
    for (size_t i = 0; i < n_; ++i) shim::pool_free(blocks_[i], sizes_[i], stream_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  void* alloc(size_t nbytes, int32_t device) {
    void* p = nullptr;
    if (nbytes == 0 || n_ == kMax) return nullptr;
    if (shim::pool_alloc(&p, nbytes, device, stream_) != cudaSuccess) return nullptr;
    blocks_[n_] = p;
    sizes_[n_++] = nbytes;
    return p;
  }

 private:
  static constexpr size_t kMax = 8;
  cudaStream_t stream_;
  void* blocks_[kMax] = {};
  size_t sizes_[kMax] = {};
  size_t n_ = 0;
};

// `t` as a gemm-ready view: as is when each [L, D] matrix is a valid cuBLAS
// operand (as `rows x cols` with the transpose flag when `transpose`), else a
// contiguous copy in `scratch`.
bool gemm_view(const char* fn, const TensorObj* t, bool transpose, Scratch* scratch,
               cudaStream_t stream, View4* out) {
  const int64_t* sz = t->sizes.data();
  const int64_t* st = t->strides.data();
  cublasOperation_t op;
  int64_t ld;
  const bool ok = transpose ? operand(sz[3], sz[2], st[3], st[2], &op, &ld)
                            : operand(sz[2], sz[3], st[2], st[3], &op, &ld);
  if (ok && fits_int(ld)) {
    out->data = t->data();
    std::copy(st, st + 4, out->s);
    return true;
  }
  AOTI_TRACE("%s: copying %s to a contiguous workspace", fn, shim::describe(t).c_str());
  const size_t es = t->elem_size();
  const int64_t contig[4] = {sz[1] * sz[2] * sz[3], sz[2] * sz[3], sz[3], 1};
  char* p =
      static_cast<char*>(scratch->alloc(static_cast<size_t>(t->numel()) * es, t->device_index));
  if (p == nullptr && t->numel() > 0) {
    log_err(fn, "workspace allocation failed");
    return false;
  }
  cudaError_t e = shim::device_strided_copy(p, contig, t->data(), st, sz, 4, es, stream);
  if (e != cudaSuccess) {
    log_err(fn, cudaGetErrorString(e));
    return false;
  }
  out->data = p;
  std::copy(contig, contig + 4, out->s);
  return true;
}

struct MaskInfo {
  const void* data = nullptr;
  int32_t dtype = shim::kDtF32;
  int64_t s[4] = {0, 0, 0, 0};
};

bool mask_info(const char* fn, const TensorObj* m, const int64_t target[4], int32_t device,
               MaskInfo* out) {
  if (m == nullptr) return true;
  if (m->dtype != shim::kDtF32 && m->dtype != shim::kDtF16 && m->dtype != shim::kDtBF16 &&
      m->dtype != shim::kDtBool) {
    log_err(fn, "attention mask must be float32, float16, bfloat16 or bool");
    return false;
  }
  if (m->device_type != shim::kDevCuda || m->device_index != device) {
    log_err(fn, "attention mask must be on the query's CUDA device");
    return false;
  }
  const size_t nd = m->sizes.size();
  if (nd > 4) {
    log_err(fn, "attention mask has more than 4 dimensions");
    return false;
  }
  for (size_t i = 0; i < nd; ++i) {
    const size_t od = 4 - nd + i;
    if (m->sizes[i] != 1 && m->sizes[i] != target[od]) {
      log_err(fn, "attention mask does not broadcast to [B, H, Lq, Lk]");
      return false;
    }
    out->s[od] = m->sizes[i] == 1 ? 0 : m->strides[i];
  }
  out->data = m->numel() > 0 ? m->data() : nullptr;
  out->dtype = m->dtype;
  return true;
}

// The sizes of one problem: q [B,H,Lq,E], k [B,Hk,Lk,E], v [B,Hk,Lk,Ev];
// G query heads per kv head.
struct Dims {
  int64_t B, H, Lq, E, Hk, Lk, Ev, G;
};

Dims dims_of(const TensorObj* q, const TensorObj* k, const TensorObj* v) {
  const int64_t H = q->sizes[1], Hk = k->sizes[1];
  return Dims{q->sizes[0], H,           q->sizes[2], q->sizes[3],
              Hk,          k->sizes[2], v->sizes[3], Hk == 0 ? 0 : H / Hk};
}

// Workspace chunking: `heads` kv heads (each one query head of a group) x
// `rows` query rows per step, so scores + probabilities stay under
// kWorkspaceCap (float32 probabilities overwrite the scores in place).
struct Chunking {
  int64_t heads, rows;
};

Chunking chunking(const Dims& d, size_t es, bool f32) {
  const int64_t row_bytes = std::max<int64_t>(d.Lk, 1) * (f32 ? 4 : 4 + static_cast<int64_t>(es));
  Chunking c{d.Hk, d.Lq};
  if (d.Hk * d.Lq * row_bytes > kWorkspaceCap) {
    if (d.Lq * row_bytes <= kWorkspaceCap) {
      c.heads = kWorkspaceCap / (d.Lq * row_bytes);
    } else {
      c.heads = 1;
      c.rows = std::max<int64_t>(1, kWorkspaceCap / row_bytes);
    }
  }
  return c;
}

// What every chunk of one call shares.
struct Attention {
  const char* fn;
  const shim::CublasApi* api;
  cublasHandle_t h;
  cudaStream_t stream;
  cudaDataType_t dt;
  cublasComputeType_t ct;
  size_t es;
  Dims d;
  View4 q, k, v;
  const MaskInfo* mask;
  bool causal;
  float scale;
  float* scores;
  void* probs;
  int32_t probs_dtype;
  float* lse;
  const int64_t* ls; // lse strides [3]
  char* out;         // [B,H,Lq,Ev] with strides `os`
  const int64_t* os;

  bool cuda_ok(cudaError_t e) const {
    if (e == cudaSuccess) return true;
    log_err(fn, cudaGetErrorString(e));
    return false;
  }

  // S = scale Q K^T, P = softmax(S + mask), O = P V for batch b, the `nh`
  // query heads h0, h0 + G, ... (kv heads k0...) and rows i0 .. i0 + m.
  bool chunk(int64_t b, int64_t k0, int64_t nh, int64_t h0, int64_t i0, int64_t m) const {
    const int64_t G = d.G, Lk = d.Lk, E = d.E, Ev = d.Ev;
    const int64_t ies = static_cast<int64_t>(es);
    if (Lk > 0) {
      if (E == 0) {
        if (!cuda_ok(cudaMemsetAsync(scores, 0, static_cast<size_t>(nh * m * Lk) * 4, stream))) {
          return false;
        }
      } else {
        const Mat a{q.data + (b * q.s[0] + h0 * q.s[1] + i0 * q.s[2]) * ies, dt, q.s[2], q.s[3],
                    G * q.s[1]};
        const Mat bt{k.data + (b * k.s[0] + k0 * k.s[1]) * ies, dt, k.s[3], k.s[2], k.s[1]};
        const Mat c{scores, CUDA_R_32F, Lk, 1, m * Lk};
        if (!gemm_rm(fn, *api, h, nh, m, Lk, E, scale, a, bt, c, ct)) return false;
      }
    }
    shim::SdpaSoftmaxParams p;
    p.scores = scores;
    p.probs = probs;
    p.probs_dtype = probs_dtype;
    p.lse = lse;
    std::copy(ls, ls + 3, p.lse_stride);
    p.mask = mask->data;
    p.mask_dtype = mask->dtype;
    std::copy(mask->s, mask->s + 4, p.mask_stride);
    p.causal = causal;
    p.batch = b;
    p.h0 = h0;
    p.head_step = G;
    p.heads = nh;
    p.i0 = i0;
    p.rows = m;
    p.lk = Lk;
    if (!cuda_ok(shim::launch_sdpa_softmax(p, stream))) return false;
    if (Lk == 0 || Ev == 0) return true;
    const Mat a{probs, dt, Lk, 1, m * Lk};
    const Mat bv{v.data + (b * v.s[0] + k0 * v.s[1]) * ies, dt, v.s[2], v.s[3], v.s[1]};
    const Mat c{out + (b * os[0] + h0 * os[1] + i0 * os[2]) * ies, dt, os[2], os[3], G * os[1]};
    return gemm_rm(fn, *api, h, nh, m, Ev, Lk, 1.f, a, bv, c, ct);
  }
};

// Where O is written: `out` itself, or (when its [Lq, Ev] matrices have no
// unit stride: a dense q with an unusual dimension order) a contiguous
// scratch copy, then copied into `out`. *os: the strides written with.
bool output_target(const char* fn, TensorObj* out, const Dims& d, Scratch* scratch,
                   const int64_t* contig, char** ob, const int64_t** os, bool* staged) {
  *ob = out->data();
  *os = out->strides.data();
  *staged = false;
  cublasOperation_t op;
  int64_t ld;
  if (d.Lk > 0 && d.Ev > 0 &&
      (!operand(d.Lq, d.Ev, (*os)[2], (*os)[3], &op, &ld) || !fits_int(ld))) {
    *ob = static_cast<char*>(
        scratch->alloc(static_cast<size_t>(out->numel()) * out->elem_size(), out->device_index));
    if (*ob == nullptr) {
      log_err(fn, "workspace allocation failed");
      return false;
    }
    *os = contig;
    *staged = true;
  }
  return true;
}

// The attention itself into `out` (allocated [B,H,Lq,Ev]); writes the rows'
// log-sum-exp to lse[b*ls[0] + h*ls[1] + i*ls[2]] when lse is not null.
bool attention(const char* fn, const TensorObj* q, const TensorObj* k, const TensorObj* v,
               const MaskInfo& mask, bool causal, float scale, TensorObj* out, float* lse,
               const int64_t ls[3]) {
  const Dims d = dims_of(q, k, v);
  const int32_t dev = q->device_index;
  cudaStream_t stream = shim::current_stream(dev);
  if (d.B == 0 || d.H == 0 || d.Lq == 0) return true;
  if (d.Lk == 0 && d.Ev > 0) {
    // No keys: every row is fully masked; the output is zeros.
    const cudaError_t e = cudaMemsetAsync(
        out->data(), 0, static_cast<size_t>(out->numel()) * out->elem_size(), stream);
    if (e != cudaSuccess) {
      log_err(fn, cudaGetErrorString(e));
      return false;
    }
  }
  const shim::CublasApi* api = nullptr;
  const char* why = nullptr;
  cublasHandle_t h = shim::blas_handle(stream, &api, &why);
  if (h == nullptr) {
    log_err(fn, why);
    return false;
  }
  Scratch scratch(stream);
  View4 qv, kv, vv;
  if (!gemm_view(fn, q, false, &scratch, stream, &qv) ||
      !gemm_view(fn, k, true, &scratch, stream, &kv) ||
      !gemm_view(fn, v, false, &scratch, stream, &vv)) {
    return false;
  }
  cudaDataType_t dt = CUDA_R_32F;
  cuda_type(q->dtype, &dt);
  const size_t es = q->elem_size();
  const bool f32 = q->dtype == shim::kDtF32;
  const Chunking ch = chunking(d, es, f32);
  const size_t ws_elems = static_cast<size_t>(ch.heads * ch.rows * d.Lk);
  float* scores = static_cast<float*>(scratch.alloc(ws_elems * 4, dev));
  void* probs = f32 ? static_cast<void*>(scores) : scratch.alloc(ws_elems * es, dev);
  if (ws_elems > 0 && (scores == nullptr || probs == nullptr)) {
    log_err(fn, "workspace allocation failed");
    return false;
  }
  AOTI_TRACE("%s: B=%lld H=%lld Hk=%lld Lq=%lld Lk=%lld E=%lld Ev=%lld chunk heads=%lld rows=%lld",
             fn, (long long)d.B, (long long)d.H, (long long)d.Hk, (long long)d.Lq, (long long)d.Lk,
             (long long)d.E, (long long)d.Ev, (long long)ch.heads, (long long)ch.rows);
  const int64_t contig[4] = {d.H * d.Lq * d.Ev, d.Lq * d.Ev, d.Ev, 1};
  char* ob;
  const int64_t* os;
  bool staged;
  if (!output_target(fn, out, d, &scratch, contig, &ob, &os, &staged)) return false;
  // float32 inputs: true float32 products (no TF32 or other reduced modes).
  const Attention at{fn,     api,      h,
                     stream, dt,       f32 ? CUBLAS_COMPUTE_32F_PEDANTIC : CUBLAS_COMPUTE_32F,
                     es,     d,        qv,
                     kv,     vv,       &mask,
                     causal, scale,    scores,
                     probs,  v->dtype, lse,
                     ls,     ob,       os};
  for (int64_t b = 0; b < d.B; ++b) {
    for (int64_t r = 0; r < d.G; ++r) {
      for (int64_t k0 = 0; k0 < d.Hk; k0 += ch.heads) {
        const int64_t nh = std::min(ch.heads, d.Hk - k0);
        for (int64_t i0 = 0; i0 < d.Lq; i0 += ch.rows) {
          // k0 * G + r: the chunk's first query head.
          if (!at.chunk(b, k0, nh, k0 * d.G + r, i0, std::min(ch.rows, d.Lq - i0))) {
            return false;
          }
        }
      }
    }
  }
  return !staged || at.cuda_ok(shim::device_strided_copy(out->data(), out->strides.data(), ob,
                                                         contig, out->sizes.data(), 4, es, stream));
}

bool is_cuda_4d(const TensorObj* t) {
  return t != nullptr && t->device_type == shim::kDevCuda && t->sizes.size() == 4 &&
         t->strides.size() == 4;
}

// New owned device tensor (nullptr on failure).
TensorObj* new_tensor(int64_t ndim, const int64_t* sizes, const int64_t* strides, int32_t dtype,
                      int32_t device, cudaStream_t stream) {
  size_t nbytes = shim::dtype_size(dtype);
  for (int64_t i = 0; i < ndim; ++i) nbytes *= static_cast<size_t>(sizes[i]);
  return shim::make_owned_device(nbytes, ndim, sizes, strides, dtype, device, stream);
}

// q, k and v as the attention needs them; false with one line saying why.
bool check_qkv(const char* fn, const TensorObj* q, const TensorObj* k, const TensorObj* v,
               double dropout_p) {
  if (dropout_p != 0.0) {
    log_err(fn, "dropout_p != 0 is not supported (inference only)");
    return false;
  }
  if (!is_cuda_4d(q) || !is_cuda_4d(k) || !is_cuda_4d(v)) {
    log_err(fn, "query, key and value must be 4-D CUDA tensors [B, H, L, E]");
    return false;
  }
  cudaDataType_t dt;
  // float64 has a cuBLAS type but no softmax kernel instantiation.
  if (q->dtype == shim::kDtF64 || !cuda_type(q->dtype, &dt) || k->dtype != q->dtype ||
      v->dtype != q->dtype) {
    log_err(fn, "query, key and value must share one dtype: float32, float16 or bfloat16");
    return false;
  }
  if (k->device_index != q->device_index || v->device_index != q->device_index) {
    log_err(fn, "query, key and value must be on one device");
    return false;
  }
  const int64_t B = q->sizes[0], H = q->sizes[1], E = q->sizes[3];
  const int64_t Hk = k->sizes[1], Lk = k->sizes[2];
  if (k->sizes[0] != B || v->sizes[0] != B || v->sizes[1] != Hk || v->sizes[2] != Lk ||
      k->sizes[3] != E) {
    log_err(fn, "shapes must be q [B,H,Lq,E], k [B,Hk,Lk,E], v [B,Hk,Lk,Ev]");
    return false;
  }
  if (Hk == 0 ? H != 0 : H % Hk != 0) {
    log_err(fn, "query heads must be a multiple of key/value heads");
    return false;
  }
  return true;
}

// The tensors one call returns, destroyed unless handed out.
struct Results {
  TensorObj* made[8] = {}; // out, lse and the five empty results at most
  size_t n_made = 0;
  TensorObj* out = nullptr;
  TensorObj* lse = nullptr;
  float* lse_ptr = nullptr;
  int64_t ls[3] = {0, 0, 0};
  TensorObj* empties[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  bool handed_out = false;
  ~Results() {
    if (!handed_out) {
      for (size_t i = 0; i < n_made; ++i) shim::destroy_tensor(made[i]);
    }
  }
  TensorObj* make(int64_t nd, const int64_t* sizes, const int64_t* strides, int32_t dtype,
                  int32_t dev, cudaStream_t stream) {
    TensorObj* t = new_tensor(nd, sizes, strides, dtype, dev, stream);
    if (t != nullptr) made[n_made++] = t;
    return t;
  }
};

// The log-sum-exp in the shape each kind returns (efficient: [B,H,Lq]
// padded to 32 rows, zeroed, or empty without compute_lse; cuDNN:
// [B,H,Lq,1]; flash: [B,H,Lq]).
bool make_lse(const char* fn, Kind kind, bool compute_lse, const Dims& d, int32_t dev,
              cudaStream_t stream, Results* r) {
  int64_t rows = d.Lq;
  if (kind == Kind::kEfficient) {
    rows = compute_lse ? (d.Lq + 31) / 32 * 32 : 0;
    const int64_t lsz[3] = {d.B, d.H, rows};
    r->lse = r->make(3, lsz, nullptr, shim::kDtF32, dev, stream);
  } else if (kind == Kind::kCudnn) {
    const int64_t lsz[4] = {d.B, d.H, d.Lq, 1};
    r->lse = r->make(4, lsz, nullptr, shim::kDtF32, dev, stream);
  } else {
    const int64_t lsz[3] = {d.B, d.H, d.Lq};
    r->lse = r->make(3, lsz, nullptr, shim::kDtF32, dev, stream);
  }
  if (r->lse == nullptr) return false;
  r->ls[0] = d.H * rows;
  r->ls[1] = rows;
  r->ls[2] = 1;
  if (r->lse->numel() == 0) return true;
  r->lse_ptr = reinterpret_cast<float*>(r->lse->data());
  if (r->lse->numel() != d.B * d.H * d.Lq &&
      cudaMemsetAsync(r->lse_ptr, 0, static_cast<size_t>(r->lse->numel()) * 4, stream) !=
          cudaSuccess) {
    log_err(fn, "cudaMemsetAsync failed");
    return false;
  }
  return true;
}

// The shared body of the three entry points. Any return pointer may be null
// (not wanted). On failure every return handle is null and nothing leaks.
AOTITorchError sdpa(const char* fn, Kind kind, TensorObj* q, TensorObj* k, TensorObj* v,
                    TensorObj* mask_t, bool compute_lse, double dropout_p, int32_t is_causal,
                    const double* scale, AtenTensorHandle* r_out, AtenTensorHandle* r_lse,
                    AtenTensorHandle* r_cum_q, AtenTensorHandle* r_cum_k, int64_t* r_max_q,
                    int64_t* r_max_k, AtenTensorHandle* r_seed, AtenTensorHandle* r_offset,
                    AtenTensorHandle* r_debug) {
  AtenTensorHandle* rets[] = {r_out, r_lse, r_cum_q, r_cum_k, r_seed, r_offset, r_debug};
  for (AtenTensorHandle* r : rets) {
    if (r != nullptr) *r = nullptr;
  }
  AOTI_TRACE("%s q=%s k=%s v=%s mask=%s causal=%d dropout=%g scale=%s%g", fn,
             shim::describe(q).c_str(), shim::describe(k).c_str(), shim::describe(v).c_str(),
             shim::describe(mask_t).c_str(), int(is_causal), dropout_p, scale ? "" : "default/",
             scale ? *scale : 0.0);
  if (!check_qkv(fn, q, k, v, dropout_p)) return kFail;
  const Dims d = dims_of(q, k, v);
  const int64_t target[4] = {d.B, d.H, d.Lq, d.Lk};
  MaskInfo mask;
  if (!mask_info(fn, mask_t, target, q->device_index, &mask)) return kFail;

  const int32_t dev = q->device_index;
  cudaStream_t stream = shim::current_stream(dev);
  const float sc =
      static_cast<float>(scale != nullptr ? *scale : 1.0 / std::sqrt(static_cast<double>(d.E)));
  Results res;
  const int64_t osz[4] = {d.B, d.H, d.Lq, d.Ev};
  int64_t ost[4];
  output_strides(kind, q, osz, ost);
  res.out = res.make(4, osz, ost, q->dtype, dev, stream);
  if (res.out == nullptr) return kFail;
  if (r_lse != nullptr && !make_lse(fn, kind, compute_lse, d, dev, stream, &res)) return kFail;
  // Empty results (no dropout, no varlen, no debug mask).
  const int64_t zero = 0, one = 1;
  AtenTensorHandle* empty_rets[5] = {r_cum_q, r_cum_k, r_seed, r_offset, r_debug};
  const int32_t empty_dtypes[5] = {shim::kDtI64, shim::kDtI64, shim::kDtI64, shim::kDtI64,
                                   q->dtype};
  for (int i = 0; i < 5; ++i) {
    if (empty_rets[i] == nullptr) continue;
    res.empties[i] = res.make(1, &zero, &one, empty_dtypes[i], dev, stream);
    if (res.empties[i] == nullptr) return kFail;
  }
  if (!attention(fn, q, k, v, mask, is_causal != 0, sc, res.out, res.lse_ptr, res.ls)) {
    return kFail;
  }
  res.handed_out = true;
  if (r_out != nullptr) {
    *r_out = res.out;
  } else {
    shim::destroy_tensor(res.out);
  }
  if (r_lse != nullptr) *r_lse = res.lse;
  for (int i = 0; i < 5; ++i) {
    if (empty_rets[i] != nullptr) *empty_rets[i] = res.empties[i];
  }
  if (r_max_q != nullptr) *r_max_q = d.Lq;
  if (r_max_k != nullptr) *r_max_k = d.Lk;
  AOTI_TRACE("%s -> out=%s lse=%s", fn, r_out ? shim::describe(res.out).c_str() : "(not wanted)",
             shim::describe(res.lse).c_str());
  return kOk;
}

} // namespace

AOTI_SHIM AOTITorchError aoti_torch_cuda__scaled_dot_product_flash_attention(
    AtenTensorHandle query, AtenTensorHandle key, AtenTensorHandle value, double dropout_p,
    int32_t is_causal, int32_t return_debug_mask, double* scale, AtenTensorHandle* ret0,
    AtenTensorHandle* ret1, AtenTensorHandle* ret2, AtenTensorHandle* ret3, int64_t* ret4,
    int64_t* ret5, AtenTensorHandle* ret6, AtenTensorHandle* ret7, AtenTensorHandle* ret8) {
  (void)return_debug_mask; // no dropout: the debug mask is always empty
  return sdpa(__func__, Kind::kFlash, query, key, value, nullptr, true, dropout_p, is_causal, scale,
              ret0, ret1, ret2, ret3, ret4, ret5, ret6, ret7, ret8);
}

AOTI_SHIM AOTITorchError aoti_torch_cuda__scaled_dot_product_efficient_attention(
    AtenTensorHandle query, AtenTensorHandle key, AtenTensorHandle value,
    AtenTensorHandle* attn_bias, int32_t compute_log_sumexp, double dropout_p, int32_t is_causal,
    double* scale, AtenTensorHandle* ret0, AtenTensorHandle* ret1, AtenTensorHandle* ret2,
    AtenTensorHandle* ret3) {
  return sdpa(__func__, Kind::kEfficient, query, key, value,
              attn_bias != nullptr ? *attn_bias : nullptr, compute_log_sumexp != 0, dropout_p,
              is_causal, scale, ret0, ret1, nullptr, nullptr, nullptr, nullptr, ret2, ret3,
              nullptr);
}

AOTI_SHIM AOTITorchError aoti_torch_cuda__scaled_dot_product_cudnn_attention(
    AtenTensorHandle query, AtenTensorHandle key, AtenTensorHandle value,
    AtenTensorHandle* attn_bias, int32_t compute_log_sumexp, double dropout_p, int32_t is_causal,
    int32_t return_debug_mask, double* scale, AtenTensorHandle* ret0, AtenTensorHandle* ret1,
    AtenTensorHandle* ret2, AtenTensorHandle* ret3, int64_t* ret4, int64_t* ret5,
    AtenTensorHandle* ret6, AtenTensorHandle* ret7, AtenTensorHandle* ret8) {
  (void)return_debug_mask;
  // The log-sum-exp is computed either way (it costs one store per row).
  (void)compute_log_sumexp;
  return sdpa(__func__, Kind::kCudnn, query, key, value,
              attn_bias != nullptr ? *attn_bias : nullptr, true, dropout_p, is_causal, scale, ret0,
              ret1, ret2, ret3, ret4, ret5, ret6, ret7, ret8);
}
