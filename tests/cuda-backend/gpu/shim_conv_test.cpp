// aoti_torch_cuda_convolution (cuDNN) against double-precision CPU
// references: 1-D/2-D/3-D, groups and depthwise, stride/padding/dilation,
// bias, transposed convolution, channels-last and strided layouts (output
// strides checked against what PyTorch gives), bfloat16, a caller stream set
// through the stream guard, and argument errors. Exit 77 without a GPU.
#include "shim_test_util.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <utility>

using namespace shim_test;

namespace {

using Vec = std::vector<int64_t>;

// ---- layouts ----------------------------------------------------------------

Vec channels_last(const Vec& sizes) {
  // C innermost, then the spatial dims from last to first, then N.
  const size_t nd = sizes.size();
  Vec s(nd);
  int64_t acc = 1;
  s[1] = acc;
  acc *= sizes[1];
  for (size_t i = nd; i-- > 2;) {
    s[i] = acc;
    acc *= sizes[i];
  }
  s[0] = acc;
  return s;
}

int64_t span(const Vec& sizes, const Vec& strides) {
  int64_t n = 1;
  for (size_t i = 0; i < sizes.size(); ++i) n += (sizes[i] - 1) * strides[i];
  return n;
}

// Logical row-major values of a strided view of `storage`.
std::vector<double> gather(const std::vector<float>& storage, const Vec& sizes,
                           const Vec& strides) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> out(static_cast<size_t>(n));
  Vec idx(sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (size_t i = 0; i < sizes.size(); ++i) off += idx[i] * strides[i];
    out[static_cast<size_t>(k)] = storage[static_cast<size_t>(off)];
    for (size_t i = sizes.size(); i-- > 0;) {
      if (++idx[i] < sizes[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

std::vector<float> make_storage(int64_t n, uint32_t seed, int32_t dtype) {
  std::vector<float> v = random_values(static_cast<size_t>(n), seed);
  if (dtype == kBF16) {
    for (float& x : v) x = from_bf16(to_bf16(x));
  }
  return v;
}

// ---- reference --------------------------------------------------------------

struct Spec {
  int64_t n = 1, ci = 1, co = 1, groups = 1;
  int nsp = 2;
  bool transposed = false;
  // Spatial parameters padded to 3 dims (leading unit dims).
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1}, op[3] = {0, 0, 0};
};

// x [N, Ci, in...]; w forward [Co, Ci/g, k...], transposed [Ci, Co/g, k...].
std::vector<double> reference(const Spec& sp, const std::vector<double>& x,
                              const std::vector<double>& w, const std::vector<double>* bias) {
  const int64_t osp = sp.out[0] * sp.out[1] * sp.out[2];
  const int64_t isp = sp.in[0] * sp.in[1] * sp.in[2];
  const int64_t ksp = sp.k[0] * sp.k[1] * sp.k[2];
  std::vector<double> y(static_cast<size_t>(sp.n * sp.co * osp), 0.0);
  for (int64_t n = 0; n < sp.n; ++n) {
    for (int64_t c = 0; c < sp.co; ++c) {
      for (int64_t o = 0; o < osp; ++o) {
        y[static_cast<size_t>((n * sp.co + c) * osp + o)] =
            bias ? (*bias)[static_cast<size_t>(c)] : 0.0;
      }
    }
  }
  const int64_t cig = sp.ci / sp.groups, cog = sp.co / sp.groups;
  for (int64_t n = 0; n < sp.n; ++n) {
    for (int64_t g = 0; g < sp.groups; ++g) {
      for (int64_t a = 0; a < cig; ++a) {   // input channel within the group
        for (int64_t b = 0; b < cog; ++b) { // output channel within the group
          const int64_t ic = g * cig + a, oc = g * cog + b;
          const double* wk = sp.transposed ? &w[static_cast<size_t>((ic * cog + b) * ksp)]
                                           : &w[static_cast<size_t>((oc * cig + a) * ksp)];
          const double* xi = &x[static_cast<size_t>((n * sp.ci + ic) * isp)];
          double* yo = &y[static_cast<size_t>((n * sp.co + oc) * osp)];
          for (int64_t k0 = 0; k0 < sp.k[0]; ++k0)
            for (int64_t k1 = 0; k1 < sp.k[1]; ++k1)
              for (int64_t k2 = 0; k2 < sp.k[2]; ++k2) {
                const double wv = wk[(k0 * sp.k[1] + k1) * sp.k[2] + k2];
                if (!sp.transposed) {
                  // y[o] += x[o*s - p + k*d] * w[k]
                  for (int64_t o0 = 0; o0 < sp.out[0]; ++o0) {
                    const int64_t i0 = o0 * sp.s[0] - sp.p[0] + k0 * sp.d[0];
                    if (i0 < 0 || i0 >= sp.in[0]) continue;
                    for (int64_t o1 = 0; o1 < sp.out[1]; ++o1) {
                      const int64_t i1 = o1 * sp.s[1] - sp.p[1] + k1 * sp.d[1];
                      if (i1 < 0 || i1 >= sp.in[1]) continue;
                      for (int64_t o2 = 0; o2 < sp.out[2]; ++o2) {
                        const int64_t i2 = o2 * sp.s[2] - sp.p[2] + k2 * sp.d[2];
                        if (i2 < 0 || i2 >= sp.in[2]) continue;
                        yo[(o0 * sp.out[1] + o1) * sp.out[2] + o2] +=
                            xi[(i0 * sp.in[1] + i1) * sp.in[2] + i2] * wv;
                      }
                    }
                  }
                } else {
                  // y[i*s - p + k*d] += x[i] * w[k]
                  for (int64_t i0 = 0; i0 < sp.in[0]; ++i0) {
                    const int64_t o0 = i0 * sp.s[0] - sp.p[0] + k0 * sp.d[0];
                    if (o0 < 0 || o0 >= sp.out[0]) continue;
                    for (int64_t i1 = 0; i1 < sp.in[1]; ++i1) {
                      const int64_t o1 = i1 * sp.s[1] - sp.p[1] + k1 * sp.d[1];
                      if (o1 < 0 || o1 >= sp.out[1]) continue;
                      for (int64_t i2 = 0; i2 < sp.in[2]; ++i2) {
                        const int64_t o2 = i2 * sp.s[2] - sp.p[2] + k2 * sp.d[2];
                        if (o2 < 0 || o2 >= sp.out[2]) continue;
                        yo[(o0 * sp.out[1] + o1) * sp.out[2] + o2] +=
                            xi[(i0 * sp.in[1] + i1) * sp.in[2] + i2] * wv;
                      }
                    }
                  }
                }
              }
        }
      }
    }
  }
  return y;
}

// ---- cases -----------------------------------------------------------------

enum class Lay { kContig, kChannelsLast, kStrided, kPermuted };

struct Case {
  std::string name;
  int64_t n = 1, ci = 1, co = 1;
  Vec in, k;                  // spatial sizes
  Vec stride, pad, dil, opad; // as passed (length 1 or one per spatial dim)
  int64_t groups = 1;
  bool transposed = false;
  bool bias = false;
  int64_t bias_stride = 1;
  int32_t dtype = kF32;
  Lay in_lay = Lay::kContig;
  Lay w_lay = Lay::kContig;
  bool expect_cl = false; // channels-last output expected
  bool on_stream = false; // through a stream guard on a gated non-default stream
};

Case mk(std::string name, int64_t n, int64_t ci, int64_t co, Vec in, Vec k, Vec stride, Vec pad,
        Vec dil, Vec opad, int64_t groups = 1, bool transposed = false, bool bias = false) {
  Case c;
  c.name = std::move(name);
  c.n = n;
  c.ci = ci;
  c.co = co;
  c.in = std::move(in);
  c.k = std::move(k);
  c.stride = std::move(stride);
  c.pad = std::move(pad);
  c.dil = std::move(dil);
  c.opad = std::move(opad);
  c.groups = groups;
  c.transposed = transposed;
  c.bias = bias;
  return c;
}

Vec strides_for(const Vec& sizes, Lay l, Vec* storage_sizes) {
  *storage_sizes = sizes;
  switch (l) {
    case Lay::kContig:
      return contiguous(sizes);
    case Lay::kChannelsLast:
      return channels_last(sizes);
    case Lay::kStrided: {
      // A slice [..., :W] of a buffer 3 wider in the last dim.
      Vec big = sizes;
      big.back() += 3;
      return contiguous(big);
    }
    case Lay::kPermuted: {
      // dims 0 and 1 swapped in memory: neither contiguous nor channels-last.
      Vec sw = sizes;
      std::swap(sw[0], sw[1]);
      Vec cs = contiguous(sw);
      std::swap(cs[0], cs[1]);
      return cs;
    }
  }
  return contiguous(sizes);
}

// Host callback holding a stream until the test opens it (5 s at most).
struct Gate {
  std::atomic<int> open{0};
  std::atomic<int> timed_out{0};
};
void CUDART_CB gate_fn(void* p) {
  Gate* g = static_cast<Gate*>(p);
  const auto t0 = std::chrono::steady_clock::now();
  while (!g->open.load()) {
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(5)) {
      g->timed_out = 1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

void run_case(const Case& c) {
  const int nsp = static_cast<int>(c.in.size());
  const double tol = c.dtype == kBF16 ? 2e-2 : 1e-4;
  Spec sp;
  sp.n = c.n;
  sp.ci = c.ci;
  sp.co = c.co;
  sp.groups = c.groups;
  sp.nsp = nsp;
  sp.transposed = c.transposed;
  auto pick = [](const Vec& v, int i, int64_t dflt) {
    return v.empty() ? dflt : v[v.size() == 1 ? 0 : static_cast<size_t>(i)];
  };
  for (int i = 0; i < nsp; ++i) {
    const int j = 3 - nsp + i;
    sp.in[j] = c.in[static_cast<size_t>(i)];
    sp.k[j] = c.k[static_cast<size_t>(i)];
    sp.s[j] = pick(c.stride, i, 1);
    sp.p[j] = pick(c.pad, i, 0);
    sp.d[j] = pick(c.dil, i, 1);
    sp.op[j] = pick(c.opad, i, 0);
    sp.out[j] = c.transposed ? (sp.in[j] - 1) * sp.s[j] - 2 * sp.p[j] + sp.d[j] * (sp.k[j] - 1) +
                                   sp.op[j] + 1
                             : (sp.in[j] + 2 * sp.p[j] - sp.d[j] * (sp.k[j] - 1) - 1) / sp.s[j] + 1;
  }
  Vec xs = {c.n, c.ci}, ws, ys = {c.n, c.co};
  ws = c.transposed ? Vec{c.ci, c.co / c.groups} : Vec{c.co, c.ci / c.groups};
  for (int i = 0; i < nsp; ++i) {
    xs.push_back(c.in[static_cast<size_t>(i)]);
    ws.push_back(c.k[static_cast<size_t>(i)]);
    ys.push_back(sp.out[3 - nsp + i]);
  }
  Vec unused;
  const Vec xst = strides_for(xs, c.in_lay, &unused);
  const Vec wst = strides_for(ws, c.w_lay, &unused);
  std::vector<float> xstore = make_storage(span(xs, xst), 11, c.dtype);
  std::vector<float> wstore = make_storage(span(ws, wst), 23, c.dtype);
  const int64_t bst = c.bias_stride;
  std::vector<float> bstore = make_storage(1 + (c.co - 1) * bst, 37, c.dtype);
  std::vector<double> x = gather(xstore, xs, xst);
  std::vector<double> w = gather(wstore, ws, wst);
  std::vector<double> bias = gather(bstore, {c.co}, {bst});

  DeviceTensor dx(xstore, xs, xst, c.dtype);
  DeviceTensor dw(wstore, ws, wst, c.dtype);
  DeviceTensor db(bstore, {c.co}, {bst}, c.dtype);
  AtenTensorHandle bh = db.h;

  cudaStream_t stream = nullptr;
  void* guard = nullptr;
  Gate gate;
  if (c.on_stream) {
    // Warm-up on the default stream first: the first launch of a kernel
    // loads its module (CUDA lazy loading), which waits for the whole
    // context and so would wait for the held stream below.
    AtenTensorHandle warm = nullptr;
    aoti_torch_cuda_convolution(
        dx.h, dw.h, c.bias ? &bh : nullptr, c.stride.data(), static_cast<int64_t>(c.stride.size()),
        c.pad.data(), static_cast<int64_t>(c.pad.size()), c.dil.data(),
        static_cast<int64_t>(c.dil.size()), c.transposed ? 1 : 0, c.opad.data(),
        static_cast<int64_t>(c.opad.size()), c.groups, &warm);
    cudaDeviceSynchronize();
    if (warm != nullptr) aoti_torch_delete_tensor_object(warm);
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaLaunchHostFunc(stream, gate_fn, &gate);
    aoti_torch_create_cuda_stream_guard(stream, 0, &guard);
  }
  AtenTensorHandle out = nullptr;
  const AOTITorchError err = aoti_torch_cuda_convolution(
      dx.h, dw.h, c.bias ? &bh : nullptr, c.stride.data(), static_cast<int64_t>(c.stride.size()),
      c.pad.data(), static_cast<int64_t>(c.pad.size()), c.dil.data(),
      static_cast<int64_t>(c.dil.size()), c.transposed ? 1 : 0, c.opad.data(),
      static_cast<int64_t>(c.opad.size()), c.groups, &out);
  bool queued_behind_gate = true;
  if (c.on_stream) {
    aoti_torch_delete_cuda_stream_guard(guard);
    queued_behind_gate = cudaStreamQuery(stream) == cudaErrorNotReady;
    // New input values while the stream is held: work queued on `stream`
    // reads these; work wrongly sent elsewhere already ran on the old ones.
    xstore = make_storage(span(xs, xst), 99, c.dtype);
    x = gather(xstore, xs, xst);
    if (c.dtype == kBF16) {
      std::vector<uint16_t> raw(xstore.size());
      for (size_t i = 0; i < raw.size(); ++i) raw[i] = to_bf16(xstore[i]);
      cudaMemcpy(dx.data, raw.data(), raw.size() * 2, cudaMemcpyHostToDevice);
    } else {
      cudaMemcpy(dx.data, xstore.data(), xstore.size() * 4, cudaMemcpyHostToDevice);
    }
    gate.open = 1;
    cudaStreamSynchronize(stream);
  }
  const std::vector<double> want = reference(sp, x, w, c.bias ? &bias : nullptr);

  bool ok = true;
  double e = INFINITY;
  std::string detail;
  if (err != 0 || out == nullptr) {
    ok = false;
    detail = "call failed (rc " + std::to_string(err) + ")";
  } else {
    int64_t nd = 0, *sz = nullptr, *st = nullptr;
    aoti_torch_get_dim(out, &nd);
    aoti_torch_get_sizes(out, &sz);
    aoti_torch_get_strides(out, &st);
    const Vec got_sizes(sz, sz + nd), got_strides(st, st + nd);
    const Vec want_strides = c.expect_cl ? channels_last(ys) : contiguous(ys);
    if (got_sizes != ys) {
      ok = false;
      detail += " wrong output sizes;";
    }
    if (got_sizes == ys && got_strides != want_strides) {
      ok = false;
      detail += c.expect_cl ? " output strides not channels-last;" : " output not contiguous;";
    }
    if (c.on_stream) {
      if (gate.timed_out) {
        ok = false;
        detail += " the call waited for the held stream (gate timed out after 5 s);";
      }
      if (!queued_behind_gate) {
        ok = false;
        detail += " nothing queued on the guard's stream;";
      }
    }
    if (got_sizes == ys) {
      e = max_rel_err(read_back(out, c.dtype), want);
      if (!(e <= tol)) {
        ok = false;
        detail += " values off;";
      }
    }
    const cudaError_t ce = cudaGetLastError();
    if (ce != cudaSuccess) {
      ok = false;
      detail += std::string(" CUDA error ") + cudaGetErrorString(ce) + ";";
    }
  }
  if (out != nullptr) aoti_torch_delete_tensor_object(out);
  if (stream != nullptr) {
    gate.open = 1;
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
  }
  if (ok) {
    std::printf("ok %s err=%.3g\n", c.name.c_str(), e);
  } else {
    EXPECT(false, "%s err=%.3g (tol %.1g):%s", c.name.c_str(), e, tol, detail.c_str());
  }
}

// ---- argument errors -----------------------------------------------------

void expect_error(const char* name, AtenTensorHandle x, AtenTensorHandle w, const Vec& stride,
                  const Vec& pad, const Vec& dil, int64_t groups, bool null_ret = false,
                  AtenTensorHandle* bias = nullptr) {
  AtenTensorHandle out = w; // a stale non-null value: must come back null
  const AOTITorchError err = aoti_torch_cuda_convolution(
      x, w, bias, stride.data(), static_cast<int64_t>(stride.size()), pad.data(),
      static_cast<int64_t>(pad.size()), dil.data(), static_cast<int64_t>(dil.size()), 0, nullptr, 0,
      groups, null_ret ? nullptr : &out);
  const bool ok = err != 0 && (null_ret || out == nullptr);
  if (ok) {
    std::printf("ok %s (rejected)\n", name);
  } else {
    EXPECT(false, "%s: rc %d, out %p", name, static_cast<int>(err), out);
    if (err == 0 && out != nullptr) aoti_torch_delete_tensor_object(out);
  }
}

void error_cases() {
  std::vector<float> v(8 * 4 * 11 * 11, 0.5f);
  DeviceTensor x4(v, {2, 4, 8, 8}, contiguous({2, 4, 8, 8}), kF32);
  DeviceTensor x6(v, {1, 6, 8, 8}, contiguous({1, 6, 8, 8}), kF32);
  DeviceTensor w_ci3(v, {8, 3, 3, 3}, contiguous({8, 3, 3, 3}), kF32);
  DeviceTensor w_co4(v, {4, 2, 3, 3}, contiguous({4, 2, 3, 3}), kF32);
  DeviceTensor w_ok(v, {8, 4, 3, 3}, contiguous({8, 4, 3, 3}), kF32);
  DeviceTensor w_big(v, {8, 4, 11, 11}, contiguous({8, 4, 11, 11}), kF32);
  DeviceTensor w_bf16(v, {8, 4, 3, 3}, contiguous({8, 4, 3, 3}), kBF16);
  DeviceTensor w_3d(v, {8, 4, 3}, contiguous({8, 4, 3}), kF32);
  DeviceTensor b_wrong(v, {5}, {1}, kF32);
  AtenTensorHandle bw = b_wrong.h;
  const Vec one = {1}, zero = {0};
  expect_error("error_channel_mismatch", x4.h, w_ci3.h, one, zero, one, 1);
  expect_error("error_groups_not_dividing", x6.h, w_co4.h, one, zero, one, 3);
  expect_error("error_null_ret0", x4.h, w_ok.h, one, zero, one, 1, true);
  expect_error("error_mixed_dtypes", x4.h, w_bf16.h, one, zero, one, 1);
  expect_error("error_rank_mismatch", x4.h, w_3d.h, one, zero, one, 1);
  expect_error("error_stride_list_length", x4.h, w_ok.h, {1, 1, 1}, zero, one, 1);
  expect_error("error_zero_stride", x4.h, w_ok.h, {0}, zero, one, 1);
  expect_error("error_negative_padding", x4.h, w_ok.h, one, {-1}, one, 1);
  expect_error("error_zero_groups", x4.h, w_ok.h, one, zero, one, 0);
  expect_error("error_kernel_larger_than_input", x4.h, w_big.h, one, zero, one, 1);
  expect_error("error_bias_size", x4.h, w_ok.h, one, zero, one, 1, false, &bw);
  expect_error("error_null_input", nullptr, w_ok.h, one, zero, one, 1);
}

} // namespace

int main() {
  require_gpu();
  std::vector<Case> cases;
  auto add = [&](Case c) { cases.push_back(std::move(c)); };
  // name, n, ci, co, in, k, stride, pad, dil, opad
  add(mk("conv2d_bias_stride2", 2, 3, 8, {9, 11}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {0, 0}, 1, false,
         true));
  add(mk("conv2d_no_bias", 2, 4, 6, {8, 8}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {0, 0}));
  add(mk("conv2d_groups2", 2, 8, 6, {7, 9}, {3, 3}, {1}, {1}, {1}, {0}, 2, false, true));
  add(mk("conv2d_depthwise", 2, 8, 8, {10, 10}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 8, false,
         true));
  add(mk("conv2d_depthwise_multiplier2", 1, 4, 8, {9, 7}, {5, 3}, {2, 1}, {2, 1}, {1, 1}, {0, 0},
         4));
  add(mk("conv2d_dilation2", 1, 4, 5, {12, 12}, {3, 3}, {1, 1}, {2, 2}, {2, 2}, {0, 0}, 1, false,
         true));
  add(mk("conv2d_asymmetric", 1, 3, 4, {10, 13}, {2, 5}, {1, 2}, {0, 2}, {2, 1}, {0, 0}));
  add(mk("conv1d", 2, 4, 6, {17}, {5}, {2}, {2}, {1}, {0}, 1, false, true));
  add(mk("conv1d_groups_dilation", 2, 6, 9, {20}, {3}, {1}, {0}, {3}, {0}, 3));
  add(mk("conv3d", 2, 3, 4, {6, 7, 5}, {3, 3, 3}, {1}, {1}, {1}, {0}, 1, false, true));
  add(mk("conv3d_stride_groups", 1, 4, 6, {7, 8, 6}, {3, 2, 3}, {2, 1, 2}, {1, 0, 1}, {1, 2, 1},
         {0, 0, 0}, 2));
  add(mk("conv_transpose2d_stride2_outpad1_bias", 2, 4, 6, {5, 6}, {3, 3}, {2, 2}, {1, 1}, {1, 1},
         {1, 1}, 1, true, true));
  add(mk("conv_transpose2d_groups2_dilation", 1, 6, 4, {5, 4}, {3, 2}, {1, 2}, {1, 0}, {2, 1},
         {0, 1}, 2, true, true));
  add(mk("conv_transpose1d", 2, 3, 5, {9}, {4}, {3}, {1}, {1}, {2}, 1, true, true));
  add(mk("conv_transpose3d", 1, 4, 2, {3, 4, 3}, {2, 3, 2}, {2}, {0}, {1}, {1}, 1, true, true));
  {
    Case c = mk("conv2d_channels_last_input", 2, 8, 16, {9, 9}, {3, 3}, {1, 1}, {1, 1}, {1, 1},
                {0, 0}, 1, false, true);
    c.in_lay = Lay::kChannelsLast;
    c.expect_cl = true;
    add(c);
  }
  {
    Case c = mk("conv2d_channels_last_weight", 2, 8, 16, {9, 9}, {3, 3}, {2, 2}, {1, 1}, {1, 1},
                {0, 0}, 1, false, true);
    c.w_lay = Lay::kChannelsLast;
    c.expect_cl = true;
    add(c);
  }
  {
    Case c = mk("conv2d_channels_last_both_depthwise", 1, 16, 16, {8, 8}, {3, 3}, {1, 1}, {1, 1},
                {1, 1}, {0, 0}, 16, false, true);
    c.in_lay = Lay::kChannelsLast;
    c.w_lay = Lay::kChannelsLast;
    c.expect_cl = true;
    add(c);
  }
  {
    Case c = mk("conv3d_channels_last", 1, 4, 8, {5, 6, 7}, {3, 3, 3}, {1}, {1}, {1}, {0}, 1, false,
                true);
    c.in_lay = Lay::kChannelsLast;
    c.w_lay = Lay::kChannelsLast;
    c.expect_cl = true;
    add(c);
  }
  {
    Case c = mk("conv_transpose2d_channels_last", 2, 8, 4, {5, 5}, {3, 3}, {2, 2}, {1, 1}, {1, 1},
                {1, 1}, 1, true, true);
    c.in_lay = Lay::kChannelsLast;
    c.expect_cl = true;
    add(c);
  }
  {
    Case c = mk("conv2d_noncontiguous_weight", 2, 6, 5, {8, 8}, {3, 3}, {1, 1}, {1, 1}, {1, 1},
                {0, 0}, 1, false, true);
    c.w_lay = Lay::kPermuted;
    add(c);
  }
  {
    Case c = mk("conv2d_strided_input_strided_bias", 2, 4, 6, {8, 10}, {3, 3}, {1, 1}, {1, 1},
                {1, 1}, {0, 0}, 2, false, true);
    c.in_lay = Lay::kStrided;
    c.bias_stride = 3;
    add(c);
  }
  {
    Case c = mk("conv2d_bf16", 2, 8, 16, {10, 10}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 1, false,
                true);
    c.dtype = kBF16;
    add(c);
  }
  {
    Case c = mk("conv2d_bf16_channels_last", 2, 16, 32, {8, 8}, {3, 3}, {2, 2}, {1, 1}, {1, 1},
                {0, 0}, 1, false, true);
    c.dtype = kBF16;
    c.in_lay = Lay::kChannelsLast;
    c.w_lay = Lay::kChannelsLast;
    c.expect_cl = true;
    add(c);
  }
  {
    Case c = mk("conv_transpose2d_bf16", 1, 8, 8, {6, 6}, {4, 4}, {2, 2}, {1, 1}, {1, 1}, {0, 0}, 1,
                true, true);
    c.dtype = kBF16;
    add(c);
  }
  {
    Case c = mk("conv2d_stream_guard", 2, 4, 8, {12, 12}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 1,
                false, true);
    c.on_stream = true;
    add(c);
  }
  {
    Case c = mk("conv2d_bf16_stream_guard_channels_last", 2, 8, 8, {6, 6}, {3, 3}, {1, 1}, {1, 1},
                {1, 1}, {0, 0}, 1, false, true);
    c.on_stream = true;
    c.dtype = kBF16;
    c.in_lay = Lay::kChannelsLast;
    c.expect_cl = true;
    add(c);
  }
  {
    // Repeats a shape: the per-thread algorithm cache's hit path.
    Case c = mk("conv2d_bias_stride2_again", 2, 3, 8, {9, 11}, {3, 3}, {2, 2}, {1, 1}, {1, 1},
                {0, 0}, 1, false, true);
    add(c);
  }
  for (const Case& c : cases) run_case(c);
  error_cases();
  {
    // Empty batch: an empty output of the right shape.
    std::vector<float> v(64, 0.f);
    DeviceTensor x(v, {0, 4, 6, 6}, contiguous({0, 4, 6, 6}), kF32);
    DeviceTensor w(v, {2, 4, 3, 3}, contiguous({2, 4, 3, 3}), kF32);
    const Vec one = {1}, zero = {0};
    AtenTensorHandle out = nullptr;
    const AOTITorchError err =
        aoti_torch_cuda_convolution(x.h, w.h, nullptr, one.data(), 1, zero.data(), 1, one.data(), 1,
                                    0, zero.data(), 1, 1, &out);
    int64_t nd = 0, *sz = nullptr;
    if (err == 0 && out != nullptr) {
      aoti_torch_get_dim(out, &nd);
      aoti_torch_get_sizes(out, &sz);
    }
    const bool ok = err == 0 && nd == 4 && sz[0] == 0 && sz[1] == 2 && sz[2] == 4 && sz[3] == 4;
    if (out != nullptr) aoti_torch_delete_tensor_object(out);
    if (ok) {
      std::printf("ok conv2d_empty_batch\n");
    } else {
      EXPECT(false, "conv2d_empty_batch: rc %d", static_cast<int>(err));
    }
  }
  cudaDeviceSynchronize();
  return gpu_test::finish();
}
