// The AOTInductor C shim, convolution fallback (aoti_torch_cuda_convolution)
// on cuDNN 9's legacy convolution API. cuDNN is opened lazily on the first
// call (cudnn_loader.h): without it the call fails with a clear message.
// Runs on the calling thread's current stream (set by the model's stream
// guard); the output is a new stream-ordered tensor in the memory format
// PyTorch would give (channels-last when the input or weight is). The
// arguments are checked and the geometry computed by conv_geometry.h.
#include "shim_abi.h"

#include <cstdio>

using executorch::backends::cuda::aoti::TensorObj;
namespace shim = executorch::backends::cuda::aoti;

#ifdef EXECUTORCH_AOTI_NO_CUDNN

AOTI_SHIM AOTITorchError aoti_torch_cuda_convolution(
    AtenTensorHandle /*input*/, AtenTensorHandle /*weight*/, AtenTensorHandle* /*bias*/,
    const int64_t* /*stride*/, int64_t /*stride_len*/, const int64_t* /*padding*/,
    int64_t /*padding_len*/, const int64_t* /*dilation*/, int64_t /*dilation_len*/,
    int32_t /*transposed*/, const int64_t* /*output_padding*/, int64_t /*output_padding_len*/,
    int64_t /*groups*/, AtenTensorHandle* ret0) {
  if (ret0 != nullptr) *ret0 = nullptr;
  log_err(__func__,
          "this backend was built without cuDNN headers (cudnn.h): convolution is unavailable");
  return kFail;
}

#else // cuDNN headers available

#include "conv_geometry.h"
#include "cudnn_loader.h"
#include "device_pool.h"

#include <climits>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

using shim::CudnnApi;
using shim::conv::ConvProblem;
using shim::conv::Layout;
using shim::conv::View;
using shim::conv::kMaxDims;

bool cudnn_type(int32_t dtype, cudnnDataType_t* t) {
  switch (dtype) {
    case shim::kDtF32:
      *t = CUDNN_DATA_FLOAT;
      return true;
    case shim::kDtF16:
      *t = CUDNN_DATA_HALF;
      return true;
    case shim::kDtBF16:
      *t = CUDNN_DATA_BFLOAT16;
      return true;
    case shim::kDtF64:
      *t = CUDNN_DATA_DOUBLE;
      return true;
    default:
      return false;
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

// Pool block released (stream-ordered) when the scope ends.
struct PoolBlock {
  void* p = nullptr;
  size_t n = 0;
  cudaStream_t stream = nullptr;
  PoolBlock() = default;
  PoolBlock(const PoolBlock&) = delete;
  PoolBlock& operator=(const PoolBlock&) = delete;
  ~PoolBlock() { release(); }
  cudaError_t alloc(size_t bytes, int32_t dev, cudaStream_t s) {
    stream = s;
    n = bytes;
    const cudaError_t e = shim::pool_alloc(&p, bytes, dev, s);
    if (e != cudaSuccess) p = nullptr;
    return e;
  }
  void release() {
    if (p != nullptr) shim::pool_free(p, n, stream);
    p = nullptr;
  }
};

// The cuDNN descriptors of one call, destroyed on every path.
struct Descriptors {
  const CudnnApi& api;
  cudnnTensorDescriptor_t x = nullptr;                  // the convolution's input
  cudnnTensorDescriptor_t y = nullptr;                  // the convolution's output
  cudnnTensorDescriptor_t b = nullptr;                  // bias [1, C, 1, 1(, 1)]
  cudnnTensorDescriptor_t src = nullptr, dst = nullptr; // layout changes
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
cudnnStatus_t set_tensor(const CudnnApi& api, cudnnTensorDescriptor_t d, cudnnDataType_t dt, int nd,
                         const int64_t* size, const int64_t* stride) {
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
// Everything that reaches cuDNN, inline (no allocation per call): 6 scalars,
// sizes and strides of three views of up to 5 dims, 3 ints per spatial dim.
struct AlgoKey {
  static constexpr size_t kMax = 6 + 3 * 2 * 5 + 3 * 3;
  int64_t v[kMax] = {};
  size_t n = 0;
  void add(int64_t x) { v[n++] = x; }
  bool operator==(const AlgoKey& o) const {
    if (n != o.n) return false;
    for (size_t i = 0; i < n; ++i) {
      if (v[i] != o.v[i]) return false;
    }
    return true;
  }
};

struct AlgoCache {
  static constexpr size_t kMax = 64;
  std::vector<std::pair<AlgoKey, AlgoChoice> > entries; // oldest first
  const AlgoChoice* find(const AlgoKey& key) const {
    for (const auto& e : entries) {
      if (e.first == key) return &e.second;
    }
    return nullptr;
  }
  void put(const AlgoKey& key, const AlgoChoice& c) {
    for (auto& e : entries) {
      if (e.first == key) {
        e.second = c;
        return;
      }
    }
    if (entries.size() >= kMax) entries.erase(entries.begin());
    entries.emplace_back(key, c);
  }
  void drop(const AlgoKey& key) {
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

// Candidate algorithms from the heuristics, best first.
struct Candidate {
  int algo;
  cudnnMathType_t math;
  size_t workspace;
};

// One call's cuDNN state: the problem, the handle and descriptors, and the
// pointers cuDNN reads and writes.
struct Call {
  const char* fn;
  const CudnnApi& api;
  cudnnHandle_t handle;
  Descriptors& d;
  const ConvProblem& p;
  cudnnDataType_t dt;
  size_t elem;
  int32_t dev;
  cudaStream_t stream;
  Scalars sc;
  const char* xp = nullptr; // packed input
  const char* wp = nullptr; // packed weight
  View xpk, wpk;            // their views
  void* y = nullptr;        // the output

  Call(const char* fn_, const CudnnApi& api_, cudnnHandle_t handle_, Descriptors& d_,
       const ConvProblem& p_, cudnnDataType_t dt_, size_t elem_, int32_t dev_, cudaStream_t stream_)
      : fn(fn_),
        api(api_),
        handle(handle_),
        d(d_),
        p(p_),
        dt(dt_),
        elem(elem_),
        dev(dev_),
        stream(stream_) {
    sc.dbl = dt == CUDNN_DATA_DOUBLE;
  }

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

  // `v` at `src` rearranged into the packed layout `l`: `src` itself when it
  // already is, else a copy in `tmp` (cudnnTransformTensor, or the shim's
  // strided copy when cuDNN declines the source strides).
  bool pack(const View& v, const char* src, Layout l, PoolBlock* tmp, const char** out,
            View* packed, const char* what) {
    *packed = v;
    shim::conv::packed_strides(v.nd, v.size, l, packed->stride);
    if (shim::conv::is_packed(v, l)) {
      *out = src;
      return true;
    }
    AOTI_TRACE("%s: copying %s into a packed %s layout", fn, what,
               l == Layout::kChannelsLast ? "channels-last" : "contiguous");
    const size_t bytes = static_cast<size_t>(v.numel()) * elem;
    if (!cuda_ok(tmp->alloc(bytes, dev, stream), "allocating a packed copy")) return false;
    cudnnStatus_t s = set_tensor(api, d.src, dt, v.nd, v.size, v.stride);
    if (s == CUDNN_STATUS_SUCCESS) {
      s = set_tensor(api, d.dst, dt, v.nd, packed->size, packed->stride);
    }
    if (s == CUDNN_STATUS_SUCCESS) {
      s = api.cudnnTransformTensor(handle, sc.one(), d.src, src, sc.zero(), d.dst, tmp->p);
    }
    if (s != CUDNN_STATUS_SUCCESS) {
      AOTI_TRACE("%s: cudnnTransformTensor declined (%s); strided copy instead", fn,
                 api.cudnnGetErrorString(s));
      if (!cuda_ok(shim::device_strided_copy(static_cast<char*>(tmp->p), packed->stride, src,
                                             v.stride, v.size, v.nd, elem, stream),
                   "copying into a packed layout")) {
        return false;
      }
    }
    *out = static_cast<const char*>(tmp->p);
    return true;
  }

  // The convolution's own input/output: forward x -> y; transposed runs
  // cuDNN's backward-data with dy = our input and dx = our output, and the
  // filter [C_in, C_out/groups, k...] is the forward filter [K, C/groups, k...].
  // float32 is computed in true fp32 (no TF32); f16/bf16 may use tensor ops.
  bool set_descriptors() {
    int wdims[kMaxDims];
    for (int i = 0; i < p.cnd; ++i) wdims[i] = static_cast<int>(p.w.size[i]);
    const cudnnDataType_t compute = sc.dbl ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    const cudnnTensorFormat_t wfmt =
        p.layout == Layout::kChannelsLast ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
    return cudnn_ok(set_tensor(api, d.x, dt, p.cnd, xpk.size, xpk.stride), "input descriptor") &&
           cudnn_ok(set_tensor(api, d.y, dt, p.cnd, p.y.size, p.y.stride), "output descriptor") &&
           cudnn_ok(api.cudnnSetFilterNdDescriptor(d.w, dt, wfmt, p.cnd, wdims),
                    "filter descriptor") &&
           cudnn_ok(
               api.cudnnSetConvolutionNdDescriptor(d.conv, p.cnd - 2, p.cpad, p.cstride,
                                                   p.cdilation, CUDNN_CROSS_CORRELATION, compute),
               "convolution descriptor") &&
           cudnn_ok(api.cudnnSetConvolutionGroupCount(d.conv, static_cast<int>(p.groups)),
                    "group count") &&
           cudnn_ok(api.cudnnSetConvolutionMathType(d.conv, base_math()), "math type");
  }

  cudnnMathType_t base_math() const {
    return dt == CUDNN_DATA_FLOAT    ? CUDNN_FMA_MATH
           : dt == CUDNN_DATA_DOUBLE ? CUDNN_DEFAULT_MATH
                                     : CUDNN_TENSOR_OP_MATH;
  }

  // Cache key: everything that reaches cuDNN.
  AlgoKey cache_key(int32_t dtype) const {
    AlgoKey key;
    for (int64_t x : {static_cast<int64_t>(dev), static_cast<int64_t>(dtype),
                      static_cast<int64_t>(p.transposed), static_cast<int64_t>(p.layout),
                      static_cast<int64_t>(p.cnd), p.groups}) {
      key.add(x);
    }
    for (const View* v : std::initializer_list<const View*>{&xpk, &wpk, &p.y}) {
      for (int i = 0; i < p.cnd; ++i) key.add(v->size[i]);
      for (int i = 0; i < p.cnd; ++i) key.add(v->stride[i]);
    }
    for (int i = 0; i < p.cnd - 2; ++i) {
      key.add(p.cpad[i]);
      key.add(p.cstride[i]);
      key.add(p.cdilation[i]);
    }
    return key;
  }

  // One launch of a candidate with `ws` as workspace.
  bool launch(const Candidate& cand, void* ws, cudnnStatus_t* s) {
    if (dt != CUDNN_DATA_FLOAT &&
        (*s = api.cudnnSetConvolutionMathType(d.conv, cand.math)) != CUDNN_STATUS_SUCCESS) {
      return false;
    }
    if (!p.transposed) {
      *s = api.cudnnConvolutionForward(handle, sc.one(), d.x, xp, d.w, wp, d.conv,
                                       static_cast<cudnnConvolutionFwdAlgo_t>(cand.algo), ws,
                                       cand.workspace, sc.zero(), d.y, y);
    } else {
      *s = api.cudnnConvolutionBackwardData(handle, sc.one(), d.w, wp, d.x, xp, d.conv,
                                            static_cast<cudnnConvolutionBwdDataAlgo_t>(cand.algo),
                                            ws, cand.workspace, sc.zero(), d.y, y);
    }
    return *s == CUDNN_STATUS_SUCCESS;
  }

  // Workspace, launch, workspace back to the pool (stream-ordered).
  bool try_candidate(const Candidate& cand, cudnnStatus_t* s) {
    PoolBlock ws;
    if (cand.workspace > 0 && ws.alloc(cand.workspace, dev, stream) != cudaSuccess) {
      (void)cudaGetLastError(); // not sticky: clear it and try a leaner algorithm
      *s = CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
      AOTI_TRACE("%s: algo %d needs %zu workspace bytes: not available", fn, cand.algo,
                 cand.workspace);
      return false;
    }
    return launch(cand, ws.p, s);
  }

  // The heuristics' algorithms for this problem, best first.
  bool candidates(std::vector<Candidate>* out) {
    int max_count = 0, returned = 0;
    cudnnStatus_t s;
    if (!p.transposed) {
      s = api.cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &max_count);
      std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(
          static_cast<size_t>(max_count > 0 ? max_count : 1));
      if (s == CUDNN_STATUS_SUCCESS) {
        s = api.cudnnGetConvolutionForwardAlgorithm_v7(handle, d.x, d.w, d.conv, d.y, max_count,
                                                       &returned, perf.data());
      }
      for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < returned; ++i) {
        const auto& r = perf[static_cast<size_t>(i)];
        if (r.status == CUDNN_STATUS_SUCCESS) {
          out->push_back({static_cast<int>(r.algo), r.mathType, r.memory});
        }
      }
    } else {
      s = api.cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &max_count);
      std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perf(
          static_cast<size_t>(max_count > 0 ? max_count : 1));
      if (s == CUDNN_STATUS_SUCCESS) {
        s = api.cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, d.w, d.x, d.conv, d.y,
                                                            max_count, &returned, perf.data());
      }
      for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < returned; ++i) {
        const auto& r = perf[static_cast<size_t>(i)];
        if (r.status == CUDNN_STATUS_SUCCESS) {
          out->push_back({static_cast<int>(r.algo), r.mathType, r.memory});
        }
      }
    }
    return cudnn_ok(s, p.transposed ? "cudnnGetConvolutionBackwardDataAlgorithm_v7"
                                    : "cudnnGetConvolutionForwardAlgorithm_v7");
  }

  // Runs the convolution into `y`: the algorithm that ran last time for this
  // problem (this thread's cache), else the heuristics' candidates in order.
  bool run(int32_t dtype, const TensorObj* input, const TensorObj* weight, Candidate* used) {
    const AlgoKey key = cache_key(dtype);
    AlgoCache& cache = tl_algo_cache;
    cudnnStatus_t last = CUDNN_STATUS_NOT_SUPPORTED;
    if (const AlgoChoice* hit = cache.find(key)) {
      *used = Candidate{hit->algo, hit->math, hit->workspace};
      if (try_candidate(*used, &last)) return true;
      cache.drop(key);
    }
    std::vector<Candidate> cands;
    if (!candidates(&cands)) return false;
    for (const Candidate& cand : cands) {
      // float32 stays true fp32: skip anything that would run on tensor ops.
      if (dt == CUDNN_DATA_FLOAT && (cand.math == CUDNN_TENSOR_OP_MATH ||
                                     cand.math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)) {
        continue;
      }
      if (try_candidate(cand, &last)) {
        *used = cand;
        cache.put(key, AlgoChoice{cand.algo, cand.math, cand.workspace});
        return true;
      }
      AOTI_TRACE("%s: algo %d failed: %s", fn, cand.algo, api.cudnnGetErrorString(last));
    }
    log_errf(fn,
             "no cuDNN %s algorithm ran for this problem (%zu candidates; last status: %s); "
             "input %s, weight %s",
             p.transposed ? "backward-data (transposed convolution)" : "forward", cands.size(),
             api.cudnnGetErrorString(last), shim::describe(input).c_str(),
             shim::describe(weight).c_str());
    return false;
  }

  // bias [C_out] broadcast over the output's channels.
  bool add_bias(const TensorObj* b) {
    const char* bp = b->data();
    const int64_t c_out = p.c_out;
    PoolBlock b_tmp;
    if (c_out > 1 && b->strides[0] != 1) {
      const int64_t one = 1;
      if (!cuda_ok(b_tmp.alloc(static_cast<size_t>(c_out) * elem, dev, stream),
                   "allocating a bias copy")) {
        return false;
      }
      if (!cuda_ok(shim::device_strided_copy(static_cast<char*>(b_tmp.p), &one, bp,
                                             b->strides.data(), &c_out, 1, elem, stream),
                   "copying the bias")) {
        return false;
      }
      bp = static_cast<const char*>(b_tmp.p);
    }
    int64_t bsz[kMaxDims], bst[kMaxDims];
    for (int i = 0; i < p.cnd; ++i) bsz[i] = 1;
    bsz[1] = c_out;
    shim::conv::packed_strides(p.cnd, bsz, Layout::kContiguous, bst);
    return cudnn_ok(set_tensor(api, d.b, dt, p.cnd, bsz, bst), "bias descriptor") &&
           cudnn_ok(api.cudnnAddTensor(handle, sc.one(), d.b, bp, sc.one(), d.y, y),
                    "cudnnAddTensor (bias)");
  }
};

// cuDNN, this thread's handle on `dev` bound to `stream`, or null with the
// reason logged.
cudnnHandle_t open_cudnn(const char* fn, int32_t dev, cudaStream_t stream, const CudnnApi** api) {
  const char* why = nullptr;
  *api = shim::cudnn_api(&why);
  if (*api == nullptr) {
    log_err(fn, why);
    return nullptr;
  }
  cudnnStatus_t hs = CUDNN_STATUS_SUCCESS;
  cudnnHandle_t handle = shim::cudnn_handle(**api, dev, stream, &hs);
  if (handle == nullptr) {
    log_errf(fn, "no cuDNN handle (cudnnCreate or cudnnSetStream failed: %s)",
             (*api)->cudnnGetErrorString(hs));
  }
  return handle;
}

// Packs the operands, sets the descriptors, runs, adds the bias.
bool convolve(Call& c, const TensorObj* input, const TensorObj* weight, const TensorObj* b,
              PoolBlock* x_tmp, PoolBlock* w_tmp) {
  if (!c.pack(c.p.x, input->data(), c.p.layout, x_tmp, &c.xp, &c.xpk, "input") ||
      !c.pack(c.p.w, weight->data(), c.p.layout, w_tmp, &c.wp, &c.wpk, "weight") ||
      !c.set_descriptors()) {
    return false;
  }
  Candidate used{0, c.base_math(), 0};
  if (!c.run(input->dtype, input, weight, &used)) return false;
  if (b != nullptr && !c.add_bias(b)) return false;
  AOTI_TRACE("%s: %s, algo %d, math %d, workspace %zu, %s", c.fn,
             c.p.transposed ? "backward-data" : "forward", used.algo, static_cast<int>(used.math),
             used.workspace, c.p.layout == Layout::kChannelsLast ? "channels-last" : "contiguous");
  return true;
}

} // namespace

AOTI_SHIM AOTITorchError aoti_torch_cuda_convolution(
    AtenTensorHandle input, AtenTensorHandle weight, AtenTensorHandle* bias, const int64_t* stride,
    int64_t stride_len, const int64_t* padding, int64_t padding_len, const int64_t* dilation,
    int64_t dilation_len, int32_t transposed, const int64_t* output_padding,
    int64_t output_padding_len, int64_t groups, AtenTensorHandle* ret0) {
  const char* fn = __func__;
  TensorObj* b = (bias != nullptr) ? *bias : nullptr;
  AOTI_TRACE(
      "%s in=%s w=%s bias=%s stride=%s pad=%s dil=%s transposed=%d out_pad=%s "
      "groups=%lld",
      fn, input ? shim::describe(input).c_str() : "null",
      weight ? shim::describe(weight).c_str() : "null", b ? shim::describe(b).c_str() : "none",
      list_str(stride, stride_len).c_str(), list_str(padding, padding_len).c_str(),
      list_str(dilation, dilation_len).c_str(), static_cast<int>(transposed),
      list_str(output_padding, output_padding_len).c_str(), static_cast<long long>(groups));
  if (ret0 == nullptr) {
    log_err(fn, "ret0 (the output handle slot) is null");
    return kFail;
  }
  *ret0 = nullptr;
  // Nothing touches the device before the arguments pass.
  ConvProblem p;
  const shim::conv::ConvArgs args{
      stride,       stride_len,      padding,        padding_len,        dilation,
      dilation_len, transposed != 0, output_padding, output_padding_len, groups};
  cudnnDataType_t dt;
  if (!shim::conv::plan_convolution(fn, input, weight, b, args, &p) ||
      !cudnn_type(input->dtype, &dt)) {
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
  const CudnnApi* api = nullptr;
  cudnnHandle_t handle = open_cudnn(fn, dev, stream, &api);
  if (handle == nullptr) return kFail;
  Descriptors d(*api);
  Call c(fn, *api, handle, d, p, dt, input->elem_size(), dev, stream);
  if (!c.cudnn_ok(d.create(), "creating descriptors")) return kFail;
  const size_t out_bytes = static_cast<size_t>(p.y.numel()) * c.elem;
  TensorObj* out = shim::make_owned_device(out_bytes, p.nd, p.out_sizes, p.out_strides,
                                           input->dtype, dev, stream);
  if (out == nullptr) {
    log_err(fn, "could not allocate the output");
    return kFail;
  }
  c.y = out->data();
  PoolBlock x_tmp, w_tmp;
  if (out_bytes > 0 && !convolve(c, input, weight, b, &x_tmp, &w_tmp)) {
    shim::destroy_tensor(out);
    return kFail;
  }
  *ret0 = out; // an empty batch or no output channels: nothing to compute
  AOTI_TRACE("%s -> %s", fn, shim::describe(out).c_str());
  return kOk;
}

#endif // EXECUTORCH_AOTI_NO_CUDNN
