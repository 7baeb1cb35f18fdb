// The AOTInductor C shim, convolution fallback (aoti_torch_cuda_convolution)
// on cuDNN 9's legacy convolution API. cuDNN is opened lazily on the first
// call (cudnn_loader.h): without it the call fails with a clear message.
// Runs on the calling thread's current stream (set by the model's stream
// guard); the output is a new stream-ordered tensor in the memory format
// PyTorch would give (channels-last when the input or weight is).
#include "shim_abi.h"

#include <cstdio>

using executorch::backends::cuda::aoti::TensorObj;
namespace shim = executorch::backends::cuda::aoti;

#ifdef EXECUTORCH_AOTI_NO_CUDNN

AOTI_SHIM AOTITorchError aoti_torch_cuda_convolution(
    AtenTensorHandle /*input*/, AtenTensorHandle /*weight*/, AtenTensorHandle* /*bias*/,
    const int64_t* /*stride*/, int64_t /*stride_len*/, const int64_t* /*padding*/,
    int64_t /*padding_len*/, const int64_t* /*dilation*/, int64_t /*dilation_len*/,
    int32_t /*transposed*/, const int64_t* /*output_padding*/,
    int64_t /*output_padding_len*/, int64_t /*groups*/, AtenTensorHandle* ret0) {
  if (ret0 != nullptr) *ret0 = nullptr;
  log_err(__func__,
          "this backend was built without cuDNN headers (cudnn.h): convolution is unavailable");
  return kFail;
}

#else  // cuDNN headers available

#include "cudnn_loader.h"
#include "device_pool.h"

#include <climits>
#include <cstdarg>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

using shim::CudnnApi;

__attribute__((format(printf, 2, 3))) void log_errf(const char* fn, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  log_err(fn, buf);
}

constexpr int kMaxDims = 5;  // cuDNN view: N, C and up to 3 spatial dims

enum class Layout { kContiguous, kChannelsLast };

// A tensor as cuDNN sees it: 4 or 5 dims (1-D convolution gets a unit H).
struct View {
  int nd = 0;
  int64_t size[kMaxDims] = {};
  int64_t stride[kMaxDims] = {};
  int64_t numel() const {
    int64_t n = 1;
    for (int i = 0; i < nd; ++i) n *= size[i];
    return n;
  }
};

View view_of(const TensorObj* t, bool one_d) {
  View v;
  const int nd = static_cast<int>(t->sizes.size());
  if (!one_d) {
    v.nd = nd;
    for (int i = 0; i < nd; ++i) {
      v.size[i] = t->sizes[static_cast<size_t>(i)];
      v.stride[i] = t->strides[static_cast<size_t>(i)];
    }
    return v;
  }
  // [N, C, L] -> [N, C, 1, L]: the unit dim sits just outside L.
  v.nd = 4;
  v.size[0] = t->sizes[0];
  v.size[1] = t->sizes[1];
  v.size[2] = 1;
  v.size[3] = t->sizes[2];
  v.stride[0] = t->strides[0];
  v.stride[1] = t->strides[1];
  v.stride[2] = t->sizes[2] * t->strides[2] > 0 ? t->sizes[2] * t->strides[2] : 1;
  v.stride[3] = t->strides[2];
  return v;
}

// Packed strides of `size` in layout `l`: NC(D)HW, or N(D)HWC (C innermost,
// then the spatial dims from last to first, then N).
void packed_strides(int nd, const int64_t* size, Layout l, int64_t* out) {
  int64_t s = 1;
  if (l == Layout::kContiguous) {
    for (int i = nd; i-- > 0;) {
      out[i] = s;
      s *= size[i];
    }
    return;
  }
  out[1] = s;
  s *= size[1];
  for (int i = nd; i-- > 2;) {
    out[i] = s;
    s *= size[i];
  }
  out[0] = s;
}

// Whether every element of `v` lies where the packed layout `l` puts it
// (strides of unit dims do not matter).
bool is_packed(const View& v, Layout l) {
  int64_t want[kMaxDims];
  packed_strides(v.nd, v.size, l, want);
  for (int i = 0; i < v.nd; ++i) {
    if (v.size[i] != 1 && v.stride[i] != want[i]) return false;
  }
  return true;
}

// PyTorch's notion of a tensor "suggesting" the channels-last memory format,
// from its strides alone: walking C, then the spatial dims from last to
// first, then N, strides never decrease (a dim of size > 1 must step over
// the whole previous dim); a zero C stride, an empty dim, or an N stride
// equal to C's (all-unit shapes) mean contiguous. Only 4-D and 5-D tensors.
bool suggests_channels_last(const TensorObj* t) {
  const size_t nd = t->sizes.size();
  if (nd != 4 && nd != 5) return false;
  const int64_t* sz = t->sizes.data();
  const int64_t* st = t->strides.data();
  if (st[1] == 0) return false;
  size_t order[kMaxDims];
  size_t k = 0;
  order[k++] = 1;
  for (size_t i = nd; i-- > 2;) order[k++] = i;
  order[k++] = 0;
  int64_t floor = 0;
  for (size_t j = 0; j < nd; ++j) {
    const size_t d = order[j];
    if (sz[d] == 0) return false;
    if (st[d] < floor) return false;
    if (d == 0 && floor == st[1]) return false;
    floor = sz[d] > 1 ? st[d] * sz[d] : st[d];
  }
  return true;
}

bool cudnn_type(int32_t dtype, cudnnDataType_t* t) {
  switch (dtype) {
    case shim::kDtF32: *t = CUDNN_DATA_FLOAT; return true;
    case shim::kDtF16: *t = CUDNN_DATA_HALF; return true;
    case shim::kDtBF16: *t = CUDNN_DATA_BFLOAT16; return true;
    case shim::kDtF64: *t = CUDNN_DATA_DOUBLE; return true;
    default: return false;
  }
}

const char* dtype_name(int32_t dtype) {
  switch (dtype) {
    case shim::kDtF32: return "float32";
    case shim::kDtF16: return "float16";
    case shim::kDtBF16: return "bfloat16";
    case shim::kDtF64: return "float64";
    default: return "unsupported";
  }
}

std::string list_str(const int64_t* v, int64_t n) {
  if (v == nullptr) return n > 0 ? "null" : "[]";
  std::string s = "[";
  for (int64_t i = 0; i < n; ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s + "]";
}

// A convolution parameter list of length 1 (same for every spatial dim) or
// `nsp`, expanded; `allow_empty`: length 0 means all `dflt`.
bool expand_list(const char* fn, const char* what, const int64_t* v, int64_t n, int nsp,
                 bool allow_empty, int64_t dflt, int64_t* out) {
  if (n == 0 && allow_empty) {
    for (int i = 0; i < nsp; ++i) out[i] = dflt;
    return true;
  }
  if (n != 1 && n != nsp) {
    log_errf(fn, "%s has %lld values; expected 1 or %d (one per spatial dim)", what,
             static_cast<long long>(n), nsp);
    return false;
  }
  if (v == nullptr) {
    log_errf(fn, "%s is a null pointer with length %lld", what, static_cast<long long>(n));
    return false;
  }
  for (int i = 0; i < nsp; ++i) out[i] = v[n == 1 ? 0 : i];
  return true;
}

// Pool block released (stream-ordered) when the scope ends.
struct PoolBlock {
  void* p = nullptr;
  cudaStream_t stream = nullptr;
  PoolBlock() = default;
  PoolBlock(const PoolBlock&) = delete;
  PoolBlock& operator=(const PoolBlock&) = delete;
  ~PoolBlock() { release(); }
  void release() {
    if (p != nullptr) shim::pool_free(p, stream);
    p = nullptr;
  }
};

// The cuDNN descriptors of one call, destroyed on every path.
struct Descriptors {
  const CudnnApi& api;
  cudnnTensorDescriptor_t x = nullptr;  // the convolution's input
  cudnnTensorDescriptor_t y = nullptr;  // the convolution's output
  cudnnTensorDescriptor_t b = nullptr;  // bias [1, C, 1, 1(, 1)]
  cudnnTensorDescriptor_t src = nullptr, dst = nullptr;  // layout changes
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  explicit Descriptors(const CudnnApi& a) : api(a) {}
  Descriptors(const Descriptors&) = delete;
  Descriptors& operator=(const Descriptors&) = delete;
  ~Descriptors() {
    for (cudnnTensorDescriptor_t t : {x, y, b, src, dst}) {
      if (t != nullptr) api.cudnnDestroyTensorDescriptor(t);
    }
    if (w != nullptr) api.cudnnDestroyFilterDescriptor(w);
    if (conv != nullptr) api.cudnnDestroyConvolutionDescriptor(conv);
  }
  cudnnStatus_t create() {
    cudnnStatus_t s;
    for (cudnnTensorDescriptor_t* t : {&x, &y, &b, &src, &dst}) {
      if ((s = api.cudnnCreateTensorDescriptor(t)) != CUDNN_STATUS_SUCCESS) return s;
    }
    if ((s = api.cudnnCreateFilterDescriptor(&w)) != CUDNN_STATUS_SUCCESS) return s;
    return api.cudnnCreateConvolutionDescriptor(&conv);
  }
};

// BAD_PARAM when a size or stride does not fit cuDNN's int.
cudnnStatus_t set_tensor(const CudnnApi& api, cudnnTensorDescriptor_t d, cudnnDataType_t dt,
                         int nd, const int64_t* size, const int64_t* stride) {
  int dims[kMaxDims], strides[kMaxDims];
  for (int i = 0; i < nd; ++i) {
    if (size[i] < 0 || size[i] > INT_MAX || stride[i] < 0 || stride[i] > INT_MAX) {
      return CUDNN_STATUS_BAD_PARAM;
    }
    dims[i] = static_cast<int>(size[i]);
    strides[i] = static_cast<int>(stride[i]);
  }
  return api.cudnnSetTensorNdDescriptor(d, dt, nd, dims, strides);
}

// Scaling factors: double for float64 data, float otherwise.
struct Scalars {
  float f1 = 1.f, f0 = 0.f;
  double d1 = 1.0, d0 = 0.0;
  bool dbl = false;
  const void* one() const { return dbl ? static_cast<const void*>(&d1) : &f1; }
  const void* zero() const { return dbl ? static_cast<const void*>(&d0) : &f0; }
};

// Per-thread cache of the algorithm that ran for a problem (key: every
// parameter that reaches cuDNN), so the heuristics are asked once per shape.
struct AlgoChoice {
  int algo = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  size_t workspace = 0;
};
struct AlgoCache {
  static constexpr size_t kMax = 64;
  std::vector<std::pair<std::vector<int64_t>, AlgoChoice>> entries;  // oldest first
  const AlgoChoice* find(const std::vector<int64_t>& key) const {
    for (const auto& e : entries) {
      if (e.first == key) return &e.second;
    }
    return nullptr;
  }
  void put(const std::vector<int64_t>& key, const AlgoChoice& c) {
    for (auto& e : entries) {
      if (e.first == key) {
        e.second = c;
        return;
      }
    }
    if (entries.size() >= kMax) entries.erase(entries.begin());
    entries.emplace_back(key, c);
  }
  void drop(const std::vector<int64_t>& key) {
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].first == key) {
        entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
    }
  }
};
thread_local AlgoCache tl_algo_cache;

// Makes the calling thread's current device `dev` for the scope.
struct DeviceScope {
  int prev = -1;
  bool changed = false;
  cudaError_t err = cudaSuccess;
  explicit DeviceScope(int dev) {
    err = cudaGetDevice(&prev);
    if (err == cudaSuccess && prev != dev) {
      err = cudaSetDevice(dev);
      changed = err == cudaSuccess;
    }
  }
  ~DeviceScope() {
    if (changed) cudaSetDevice(prev);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
};

struct Call {
  const char* fn;
  const CudnnApi& api;
  cudnnHandle_t handle;
  Descriptors& d;
  cudnnDataType_t dt;
  int32_t dtype;
  size_t elem;
  int32_t dev;
  cudaStream_t stream;
  Scalars sc;

  bool cudnn_ok(cudnnStatus_t s, const char* what) const {
    if (s == CUDNN_STATUS_SUCCESS) return true;
    log_errf(fn, "%s failed: %s (cuDNN status %d)", what, api.cudnnGetErrorString(s),
             static_cast<int>(s));
    return false;
  }
  bool cuda_ok(cudaError_t e, const char* what) const {
    if (e == cudaSuccess) return true;
    log_errf(fn, "%s failed: %s", what, cudaGetErrorString(e));
    return false;
  }

  // `v` at `p` rearranged into the packed layout `l`: `p` itself when it
  // already is, else a copy in `tmp` (cudnnTransformTensor, or the shim's
  // strided copy when cuDNN declines the source strides).
  bool pack(const View& v, const char* p, Layout l, PoolBlock* tmp, const char** out,
            View* packed, const char* what) {
    *packed = v;
    packed_strides(v.nd, v.size, l, packed->stride);
    if (is_packed(v, l)) {
      *out = p;
      return true;
    }
    AOTI_TRACE("%s: copying %s into a packed %s layout", fn, what,
               l == Layout::kChannelsLast ? "channels-last" : "contiguous");
    const size_t bytes = static_cast<size_t>(v.numel()) * elem;
    tmp->stream = stream;
    if (!cuda_ok(shim::pool_alloc(&tmp->p, bytes, dev, stream), "allocating a packed copy")) {
      tmp->p = nullptr;
      return false;
    }
    cudnnStatus_t s = set_tensor(api, d.src, dt, v.nd, v.size, v.stride);
    if (s == CUDNN_STATUS_SUCCESS) {
      s = set_tensor(api, d.dst, dt, v.nd, packed->size, packed->stride);
    }
    if (s == CUDNN_STATUS_SUCCESS) {
      s = api.cudnnTransformTensor(handle, sc.one(), d.src, p, sc.zero(), d.dst, tmp->p);
    }
    if (s != CUDNN_STATUS_SUCCESS) {
      AOTI_TRACE("%s: cudnnTransformTensor declined (%s); strided copy instead", fn,
                 api.cudnnGetErrorString(s));
      if (!cuda_ok(shim::strided_copy(static_cast<char*>(tmp->p), packed->stride, p, v.stride,
                                      v.size, v.nd, elem, stream),
                   "copying into a packed layout")) {
        return false;
      }
    }
    *out = static_cast<const char*>(tmp->p);
    return true;
  }
};

// Candidate algorithms from the heuristics, best first.
struct Candidate {
  int algo;
  cudnnMathType_t math;
  size_t workspace;
};

} // namespace

AOTI_SHIM AOTITorchError aoti_torch_cuda_convolution(
    AtenTensorHandle input, AtenTensorHandle weight, AtenTensorHandle* bias,
    const int64_t* stride, int64_t stride_len, const int64_t* padding, int64_t padding_len,
    const int64_t* dilation, int64_t dilation_len, int32_t transposed,
    const int64_t* output_padding, int64_t output_padding_len, int64_t groups,
    AtenTensorHandle* ret0) {
  const char* fn = __func__;
  TensorObj* b = (bias != nullptr) ? *bias : nullptr;
  AOTI_TRACE("%s in=%s w=%s bias=%s stride=%s pad=%s dil=%s transposed=%d out_pad=%s "
             "groups=%lld",
             fn, input ? shim::describe(input).c_str() : "null",
             weight ? shim::describe(weight).c_str() : "null",
             b ? shim::describe(b).c_str() : "none", list_str(stride, stride_len).c_str(),
             list_str(padding, padding_len).c_str(), list_str(dilation, dilation_len).c_str(),
             static_cast<int>(transposed),
             list_str(output_padding, output_padding_len).c_str(),
             static_cast<long long>(groups));

  // ---- validation (nothing touches device memory before it passes) ------
  if (ret0 == nullptr) {
    log_err(fn, "ret0 (the output handle slot) is null");
    return kFail;
  }
  *ret0 = nullptr;
  if (input == nullptr || weight == nullptr) {
    log_err(fn, input == nullptr ? "input handle is null" : "weight handle is null");
    return kFail;
  }
  for (const TensorObj* t : {input, weight, b}) {
    if (t == nullptr) continue;
    const char* what = t == input ? "input" : t == weight ? "weight" : "bias";
    if (t->device_type != shim::kDevCuda) {
      log_errf(fn, "%s is not a CUDA tensor (device type %d)", what,
               static_cast<int>(t->device_type));
      return kFail;
    }
    if (t->device_index != input->device_index) {
      log_errf(fn, "%s is on cuda:%d but input is on cuda:%d", what,
               static_cast<int>(t->device_index), static_cast<int>(input->device_index));
      return kFail;
    }
    if (t->sizes.size() != t->strides.size()) {
      log_errf(fn, "%s handle has inconsistent sizes/strides", what);
      return kFail;
    }
  }
  if (weight->dtype != input->dtype || (b != nullptr && b->dtype != input->dtype)) {
    log_errf(fn, "mixed dtypes: input %s (%d), weight %s (%d)%s%s", dtype_name(input->dtype),
             static_cast<int>(input->dtype), dtype_name(weight->dtype),
             static_cast<int>(weight->dtype), b != nullptr ? ", bias " : "",
             b != nullptr ? dtype_name(b->dtype) : "");
    return kFail;
  }
  cudnnDataType_t dt;
  if (!cudnn_type(input->dtype, &dt)) {
    log_errf(fn, "unsupported dtype %d (float32, float16, bfloat16, float64)",
             static_cast<int>(input->dtype));
    return kFail;
  }
  const int nd = static_cast<int>(input->sizes.size());
  if (nd < 3 || nd > 5) {
    log_errf(fn, "input must be 3-D, 4-D or 5-D [N, C, spatial...] (got %d-D)", nd);
    return kFail;
  }
  if (static_cast<int>(weight->sizes.size()) != nd) {
    log_errf(fn, "weight is %d-D but input is %d-D", static_cast<int>(weight->sizes.size()),
             nd);
    return kFail;
  }
  const int nsp = nd - 2;
  if (groups <= 0) {
    log_errf(fn, "groups must be positive (got %lld)", static_cast<long long>(groups));
    return kFail;
  }
  int64_t st[3], pad[3], dil[3], opad[3] = {0, 0, 0};
  if (!expand_list(fn, "stride", stride, stride_len, nsp, false, 1, st) ||
      !expand_list(fn, "padding", padding, padding_len, nsp, false, 0, pad) ||
      !expand_list(fn, "dilation", dilation, dilation_len, nsp, false, 1, dil) ||
      (transposed && !expand_list(fn, "output_padding", output_padding, output_padding_len,
                                  nsp, true, 0, opad))) {
    return kFail;
  }
  for (int i = 0; i < nsp; ++i) {
    if (st[i] <= 0 || dil[i] <= 0 || pad[i] < 0 || opad[i] < 0) {
      log_errf(fn,
               "invalid parameters at spatial dim %d: stride %lld and dilation %lld must be "
               "positive, padding %lld and output_padding %lld non-negative",
               i, static_cast<long long>(st[i]), static_cast<long long>(dil[i]),
               static_cast<long long>(pad[i]), static_cast<long long>(opad[i]));
      return kFail;
    }
    if (transposed && opad[i] >= st[i] && opad[i] >= dil[i]) {
      log_errf(fn, "output_padding %lld must be smaller than stride %lld or dilation %lld",
               static_cast<long long>(opad[i]), static_cast<long long>(st[i]),
               static_cast<long long>(dil[i]));
      return kFail;
    }
  }
  const std::vector<int64_t>& is = input->sizes;
  const std::vector<int64_t>& ws = weight->sizes;
  for (int i = 0; i < nd; ++i) {
    if (is[static_cast<size_t>(i)] < 0 || (i > 0 && is[static_cast<size_t>(i)] == 0)) {
      log_errf(fn, "input dim %d has size %lld (only the batch dim may be empty)", i,
               static_cast<long long>(is[static_cast<size_t>(i)]));
      return kFail;
    }
    if (ws[static_cast<size_t>(i)] <= 0) {
      log_errf(fn, "weight dim %d has size %lld (must be positive)", i,
               static_cast<long long>(ws[static_cast<size_t>(i)]));
      return kFail;
    }
  }
  const int64_t c_in = is[1];
  int64_t c_out;
  if (!transposed) {
    // weight [C_out, C_in / groups, k...]
    c_out = ws[0];
    if (c_out % groups != 0) {
      log_errf(fn, "weight's output channels (%lld) are not divisible by groups (%lld)",
               static_cast<long long>(c_out), static_cast<long long>(groups));
      return kFail;
    }
    if (c_in % groups != 0 || ws[1] * groups != c_in) {
      log_errf(fn,
               "channel mismatch: input has %lld channels, weight expects %lld x %lld groups",
               static_cast<long long>(c_in), static_cast<long long>(ws[1]),
               static_cast<long long>(groups));
      return kFail;
    }
  } else {
    // weight [C_in, C_out / groups, k...]
    if (c_in % groups != 0) {
      log_errf(fn, "input channels (%lld) are not divisible by groups (%lld)",
               static_cast<long long>(c_in), static_cast<long long>(groups));
      return kFail;
    }
    if (ws[0] != c_in) {
      log_errf(fn,
               "channel mismatch: input has %lld channels, transposed weight [C_in, "
               "C_out/groups, k...] has %lld",
               static_cast<long long>(c_in), static_cast<long long>(ws[0]));
      return kFail;
    }
    c_out = ws[1] * groups;
  }
  if (b != nullptr && (b->sizes.size() != 1 || b->sizes[0] != c_out)) {
    log_errf(fn, "bias must be 1-D with %lld values (got %s)", static_cast<long long>(c_out),
             shim::describe(b).c_str());
    return kFail;
  }
  // Output sizes (original rank).
  std::vector<int64_t> os(static_cast<size_t>(nd));
  os[0] = is[0];
  os[1] = c_out;
  for (int i = 0; i < nsp; ++i) {
    const int64_t in = is[static_cast<size_t>(i + 2)];
    const int64_t k = ws[static_cast<size_t>(i + 2)];
    int64_t o;
    if (!transposed) {
      const int64_t span = in + 2 * pad[i] - dil[i] * (k - 1) - 1;
      o = span < 0 ? 0 : span / st[i] + 1;
    } else {
      o = (in - 1) * st[i] - 2 * pad[i] + dil[i] * (k - 1) + opad[i] + 1;
    }
    if (o <= 0) {
      log_errf(fn,
               "spatial dim %d: output size %lld is not positive (input %lld, kernel %lld, "
               "stride %lld, padding %lld, dilation %lld)",
               i, static_cast<long long>(o), static_cast<long long>(in),
               static_cast<long long>(k), static_cast<long long>(st[i]),
               static_cast<long long>(pad[i]), static_cast<long long>(dil[i]));
      return kFail;
    }
    os[static_cast<size_t>(i + 2)] = o;
  }

  // cuDNN views (1-D becomes 2-D with a unit H) and its int limits.
  const bool one_d = nd == 3;
  const View xv = view_of(input, one_d);
  const View wv = view_of(weight, one_d);
  const int cnd = xv.nd, cnsp = cnd - 2;
  int cpad[3], cst[3], cdil[3];
  for (int i = 0, j = 0; i < cnsp; ++i) {
    const bool unit = one_d && i == 0;
    cpad[i] = unit ? 0 : static_cast<int>(pad[j]);
    cst[i] = unit ? 1 : static_cast<int>(st[j]);
    cdil[i] = unit ? 1 : static_cast<int>(dil[j]);
    if (!unit) ++j;
  }
  View yv;
  yv.nd = cnd;
  yv.size[0] = os[0];
  yv.size[1] = os[1];
  if (one_d) {
    yv.size[2] = 1;
    yv.size[3] = os[2];
  } else {
    for (int i = 2; i < cnd; ++i) yv.size[i] = os[static_cast<size_t>(i)];
  }
  {
    bool fits = groups <= INT_MAX;
    for (int i = 0; i < nsp; ++i) {
      fits = fits && st[i] <= INT_MAX && pad[i] <= INT_MAX && dil[i] <= INT_MAX;
    }
    for (const View* v : std::initializer_list<const View*>{&xv, &wv, &yv}) {
      int64_t packed[kMaxDims];
      packed_strides(v->nd, v->size, Layout::kContiguous, packed);
      fits = fits && packed[0] * v->size[0] <= INT_MAX;
      for (int i = 0; i < v->nd; ++i) fits = fits && v->size[i] <= INT_MAX;
    }
    if (!fits) {
      log_err(fn, "tensor too large for cuDNN's 32-bit descriptors (2^31 elements or more)");
      return kFail;
    }
  }

  // Output memory format: PyTorch's cuDNN path gives channels-last when the
  // input or the weight suggests it (4-D and 5-D; never for float64).
  const Layout layout = (nd >= 4 && input->dtype != shim::kDtF64 &&
                         (suggests_channels_last(input) || suggests_channels_last(weight)))
                            ? Layout::kChannelsLast
                            : Layout::kContiguous;
  packed_strides(cnd, yv.size, layout, yv.stride);
  std::vector<int64_t> ostr(static_cast<size_t>(nd));
  if (one_d) {
    ostr = {yv.stride[0], yv.stride[1], yv.stride[3]};
  } else {
    for (int i = 0; i < nd; ++i) ostr[static_cast<size_t>(i)] = yv.stride[i];
  }

  // ---- cuDNN ---------------------------------------------------------------
  const char* why = nullptr;
  const CudnnApi* api = shim::cudnn_api(&why);
  if (api == nullptr) {
    log_err(fn, why);
    return kFail;
  }
  const int32_t dev = input->device_index;
  DeviceScope device_scope(dev);
  if (device_scope.err != cudaSuccess) {
    log_errf(fn, "cannot make cuda:%d current: %s", static_cast<int>(dev),
             cudaGetErrorString(device_scope.err));
    return kFail;
  }
  cudaStream_t stream = shim::current_stream(dev);
  cudnnStatus_t hs = CUDNN_STATUS_SUCCESS;
  cudnnHandle_t handle = shim::cudnn_handle(*api, dev, stream, &hs);
  if (handle == nullptr) {
    log_errf(fn, "no cuDNN handle (cudnnCreate or cudnnSetStream failed: %s)",
             api->cudnnGetErrorString(hs));
    return kFail;
  }
  Descriptors d(*api);
  Call c{fn, *api, handle, d, dt, input->dtype, input->elem_size(), dev, stream, Scalars{}};
  c.sc.dbl = dt == CUDNN_DATA_DOUBLE;
  if (!c.cudnn_ok(d.create(), "creating descriptors")) return kFail;

  const size_t out_bytes = static_cast<size_t>(yv.numel()) * c.elem;
  TensorObj* out = shim::make_owned_device(out_bytes, nd, os.data(), ostr.data(),
                                           input->dtype, dev, stream);
  if (out == nullptr) {
    log_err(fn, "could not allocate the output");
    return kFail;
  }
  auto fail = [&]() {
    shim::destroy_tensor(out);
    return kFail;
  };
  if (out_bytes == 0) {  // empty batch or no output channels
    *ret0 = out;
    AOTI_TRACE("%s -> %s (empty)", fn, shim::describe(out).c_str());
    return kOk;
  }

  PoolBlock x_tmp, w_tmp, b_tmp;
  const char *xp = nullptr, *wp = nullptr;
  View xpk, wpk;
  if (!c.pack(xv, input->data(), layout, &x_tmp, &xp, &xpk, "input") ||
      !c.pack(wv, weight->data(), layout, &w_tmp, &wp, &wpk, "weight")) {
    return fail();
  }

  // The convolution's own input/output: forward x -> y; transposed runs
  // cuDNN's backward-data with dy = our input and dx = our output, and the
  // filter [C_in, C_out/groups, k...] is the forward filter [K, C/groups, k...].
  int wdims[kMaxDims];
  for (int i = 0; i < cnd; ++i) wdims[i] = static_cast<int>(wv.size[i]);
  const cudnnDataType_t compute = c.sc.dbl ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  // float32 is computed in true fp32 (no TF32); f16/bf16 may use tensor ops.
  const cudnnMathType_t base_math = dt == CUDNN_DATA_FLOAT    ? CUDNN_FMA_MATH
                                    : dt == CUDNN_DATA_DOUBLE ? CUDNN_DEFAULT_MATH
                                                              : CUDNN_TENSOR_OP_MATH;
  if (!c.cudnn_ok(set_tensor(*api, d.x, dt, cnd, xpk.size, xpk.stride), "input descriptor") ||
      !c.cudnn_ok(set_tensor(*api, d.y, dt, cnd, yv.size, yv.stride), "output descriptor") ||
      !c.cudnn_ok(api->cudnnSetFilterNdDescriptor(
                      d.w, dt,
                      layout == Layout::kChannelsLast ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW,
                      cnd, wdims),
                  "filter descriptor") ||
      !c.cudnn_ok(api->cudnnSetConvolutionNdDescriptor(d.conv, cnsp, cpad, cst, cdil,
                                                       CUDNN_CROSS_CORRELATION, compute),
                  "convolution descriptor") ||
      !c.cudnn_ok(api->cudnnSetConvolutionGroupCount(d.conv, static_cast<int>(groups)),
                  "group count") ||
      !c.cudnn_ok(api->cudnnSetConvolutionMathType(d.conv, base_math), "math type")) {
    return fail();
  }

  // Cache key: everything that reaches cuDNN.
  std::vector<int64_t> key;
  key.reserve(64);
  key.insert(key.end(), {static_cast<int64_t>(dev), static_cast<int64_t>(input->dtype),
                         static_cast<int64_t>(transposed != 0), static_cast<int64_t>(layout),
                         static_cast<int64_t>(cnd), groups});
  for (const View* v : std::initializer_list<const View*>{&xpk, &wpk, &yv}) {
    key.insert(key.end(), v->size, v->size + cnd);
    key.insert(key.end(), v->stride, v->stride + cnd);
  }
  for (int i = 0; i < cnsp; ++i) key.insert(key.end(), {cpad[i], cst[i], cdil[i]});

  // Launch of one candidate; false with the status in *s on failure.
  auto launch = [&](const Candidate& cand, void* ws, cudnnStatus_t* s) {
    if (dt != CUDNN_DATA_FLOAT &&
        (*s = api->cudnnSetConvolutionMathType(d.conv, cand.math)) != CUDNN_STATUS_SUCCESS) {
      return false;
    }
    if (!transposed) {
      *s = api->cudnnConvolutionForward(handle, c.sc.one(), d.x, xp, d.w, wp, d.conv,
                                        static_cast<cudnnConvolutionFwdAlgo_t>(cand.algo), ws,
                                        cand.workspace, c.sc.zero(), d.y, out->data());
    } else {
      *s = api->cudnnConvolutionBackwardData(
          handle, c.sc.one(), d.w, wp, d.x, xp, d.conv,
          static_cast<cudnnConvolutionBwdDataAlgo_t>(cand.algo), ws, cand.workspace,
          c.sc.zero(), d.y, out->data());
    }
    return *s == CUDNN_STATUS_SUCCESS;
  };
  // Workspace, launch, workspace back to the pool (stream-ordered).
  auto try_candidate = [&](const Candidate& cand, cudnnStatus_t* s) {
    PoolBlock ws;
    ws.stream = stream;
    if (cand.workspace > 0) {
      if (shim::pool_alloc(&ws.p, cand.workspace, dev, stream) != cudaSuccess) {
        ws.p = nullptr;
        (void)cudaGetLastError();  // not sticky: clear it and try a leaner algorithm
        *s = CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
        AOTI_TRACE("%s: algo %d needs %zu workspace bytes: not available", fn, cand.algo,
                   cand.workspace);
        return false;
      }
    }
    return launch(cand, ws.p, s);
  };

  bool done = false;
  cudnnStatus_t last = CUDNN_STATUS_NOT_SUPPORTED;
  Candidate used{0, base_math, 0};
  AlgoCache& cache = tl_algo_cache;
  if (const AlgoChoice* hit = cache.find(key)) {
    used = Candidate{hit->algo, hit->math, hit->workspace};
    done = try_candidate(used, &last);
    if (!done) cache.drop(key);
  }
  if (!done) {
    std::vector<Candidate> cands;
    int max_count = 0, returned = 0;
    cudnnStatus_t s;
    if (!transposed) {
      s = api->cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &max_count);
      std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(
          static_cast<size_t>(max_count > 0 ? max_count : 1));
      if (s == CUDNN_STATUS_SUCCESS) {
        s = api->cudnnGetConvolutionForwardAlgorithm_v7(handle, d.x, d.w, d.conv, d.y,
                                                        max_count, &returned, perf.data());
      }
      for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < returned; ++i) {
        const auto& p = perf[static_cast<size_t>(i)];
        if (p.status == CUDNN_STATUS_SUCCESS) {
          cands.push_back({static_cast<int>(p.algo), p.mathType, p.memory});
        }
      }
    } else {
      s = api->cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &max_count);
      std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perf(
          static_cast<size_t>(max_count > 0 ? max_count : 1));
      if (s == CUDNN_STATUS_SUCCESS) {
        s = api->cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, d.w, d.x, d.conv, d.y,
                                                             max_count, &returned,
                                                             perf.data());
      }
      for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < returned; ++i) {
        const auto& p = perf[static_cast<size_t>(i)];
        if (p.status == CUDNN_STATUS_SUCCESS) {
          cands.push_back({static_cast<int>(p.algo), p.mathType, p.memory});
        }
      }
    }
    if (!c.cudnn_ok(s, transposed ? "cudnnGetConvolutionBackwardDataAlgorithm_v7"
                                  : "cudnnGetConvolutionForwardAlgorithm_v7")) {
      return fail();
    }
    for (const Candidate& cand : cands) {
      // float32 stays true fp32: skip anything that would run on tensor ops.
      if (dt == CUDNN_DATA_FLOAT && (cand.math == CUDNN_TENSOR_OP_MATH ||
                                     cand.math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)) {
        continue;
      }
      if (try_candidate(cand, &last)) {
        done = true;
        used = cand;
        cache.put(key, AlgoChoice{cand.algo, cand.math, cand.workspace});
        break;
      }
      AOTI_TRACE("%s: algo %d failed: %s", fn, cand.algo, api->cudnnGetErrorString(last));
    }
    if (!done) {
      log_errf(fn,
               "no cuDNN %s algorithm ran for this problem (%zu candidates; last status: %s); "
               "input %s, weight %s",
               transposed ? "backward-data (transposed convolution)" : "forward",
               cands.size(), api->cudnnGetErrorString(last), shim::describe(input).c_str(),
               shim::describe(weight).c_str());
      return fail();
    }
  }

  if (b != nullptr) {
    // bias [C_out] broadcast over the output's channels.
    const char* bp = b->data();
    if (c_out > 1 && b->strides[0] != 1) {
      const int64_t one = 1;
      b_tmp.stream = stream;
      if (!c.cuda_ok(shim::pool_alloc(&b_tmp.p, static_cast<size_t>(c_out) * c.elem, dev,
                                      stream),
                     "allocating a bias copy")) {
        b_tmp.p = nullptr;
        return fail();
      }
      if (!c.cuda_ok(shim::strided_copy(static_cast<char*>(b_tmp.p), &one, bp,
                                        b->strides.data(), &c_out, 1, c.elem, stream),
                     "copying the bias")) {
        return fail();
      }
      bp = static_cast<const char*>(b_tmp.p);
    }
    int64_t bsz[kMaxDims], bst[kMaxDims];
    for (int i = 0; i < cnd; ++i) bsz[i] = 1;
    bsz[1] = c_out;
    packed_strides(cnd, bsz, Layout::kContiguous, bst);
    if (!c.cudnn_ok(set_tensor(*api, d.b, dt, cnd, bsz, bst), "bias descriptor") ||
        !c.cudnn_ok(api->cudnnAddTensor(handle, c.sc.one(), d.b, bp, c.sc.one(), d.y,
                                        out->data()),
                    "cudnnAddTensor (bias)")) {
      return fail();
    }
  }

  *ret0 = out;
  AOTI_TRACE("%s -> %s (%s, algo %d, math %d, workspace %zu, %s)", fn,
             shim::describe(out).c_str(), transposed ? "backward-data" : "forward", used.algo,
             static_cast<int>(used.math), used.workspace,
             layout == Layout::kChannelsLast ? "channels-last" : "contiguous");
  return kOk;
}

#endif  // EXECUTORCH_AOTI_NO_CUDNN
