// The fused-attention fallbacks of the AOTInductor shim (flash, efficient and
// cuDNN SDPA, implemented as math attention on cuBLAS) against a
// double-precision CPU reference: masks (additive with stride-0 broadcast,
// bool), causal (square and Lq < Lk), grouped-query heads, transposed
// [B,L,H,E] views and the output layouts Inductor expects, bf16, log-sum-exp,
// a non-default current stream, workspace chunking, and error cases.
// One line per case; exit 1 on any failure, 77 without a GPU.
#include "shim_test_util.h"

#include <algorithm>
#include <functional>
#include <string>

using namespace shim_test;

namespace {

constexpr int32_t kBool = 11;
constexpr int32_t kI64 = 4;
enum class Op { kFlash, kEfficient, kCudnn };
enum class Layout { kContiguous, kBLHE }; // [B,H,L,E] or a transposed [B,L,H,E]
enum class MaskKind { kNone, kAdd2dExpanded, kBiasB11K, kBool, kAdd2d };

const char* op_name(Op op) {
  return op == Op::kFlash ? "flash" : op == Op::kEfficient ? "efficient" : "cudnn";
}

struct Case {
  std::string name;
  Op op = Op::kFlash;
  int32_t dtype = kF32;
  int64_t B = 1, H = 2, Hk = 2, Lq = 8, Lk = 8, E = 16, Ev = 16;
  bool causal = false;
  bool has_scale = false;
  double scale = 0.0;
  Layout layout = Layout::kContiguous;
  MaskKind mask = MaskKind::kNone;
  int32_t mask_dtype = kF32;
  bool check_lse = false;
  bool fully_masked_row = false; // the bool mask drops every key of row 1
  void* stream = nullptr;        // made current with a stream guard
  std::vector<int64_t> rows;     // (b*H + h)*Lq + i rows to check; empty = all
};

// Strides of a [B,heads,L,D] tensor in `layout`.
std::vector<int64_t> layout_strides(Layout l, int64_t B, int64_t Hn, int64_t L, int64_t D) {
  if (l == Layout::kContiguous) return contiguous({B, Hn, L, D});
  return {L * Hn * D, D, Hn * D, 1};
}

// Storage holding `logical` (row-major over `sizes`) at `strides`.
std::vector<float> to_storage(const std::vector<float>& logical, const std::vector<int64_t>& sizes,
                              const std::vector<int64_t>& strides) {
  int64_t span = 1;
  for (size_t i = 0; i < sizes.size(); ++i) span += (sizes[i] - 1) * strides[i];
  std::vector<float> st(static_cast<size_t>(span), 0.f);
  std::vector<int64_t> idx(sizes.size(), 0);
  for (size_t k = 0; k < logical.size(); ++k) {
    int64_t off = 0;
    for (size_t i = 0; i < sizes.size(); ++i) off += idx[i] * strides[i];
    st[static_cast<size_t>(off)] = logical[k];
    for (size_t i = sizes.size(); i-- > 0;) {
      if (++idx[i] < sizes[i]) break;
      idx[i] = 0;
    }
  }
  return st;
}

// Values as the device sees them (bf16 rounding).
std::vector<float> rounded(std::vector<float> v, int32_t dtype) {
  if (dtype == kBF16) {
    for (float& x : v) x = from_bf16(to_bf16(x));
  }
  return v;
}

// Double-precision reference of one row: output [Ev] and log-sum-exp.
// bias(j) is the additive mask, keep(j) the bool/causal keep decision.
void reference_row(const Case& c, const std::vector<float>& q, const std::vector<float>& k,
                   const std::vector<float>& v, int64_t b, int64_t h, int64_t i, double scale,
                   const std::function<double(int64_t)>& bias,
                   const std::function<bool(int64_t)>& keep, std::vector<double>* out,
                   double* lse) {
  const int64_t kh = h / (c.H / c.Hk);
  std::vector<double> s(static_cast<size_t>(c.Lk));
  double mx = -INFINITY;
  for (int64_t j = 0; j < c.Lk; ++j) {
    if (!keep(j)) {
      s[j] = -INFINITY;
      continue;
    }
    double acc = 0;
    for (int64_t e = 0; e < c.E; ++e) {
      acc += double(q[((b * c.H + h) * c.Lq + i) * c.E + e]) *
             double(k[((b * c.Hk + kh) * c.Lk + j) * c.E + e]);
    }
    s[j] = acc * scale + bias(j);
    mx = std::max(mx, s[j]);
  }
  out->assign(static_cast<size_t>(c.Ev), 0.0);
  if (mx == -INFINITY) {
    *lse = -INFINITY;
    return;
  }
  double sum = 0;
  for (int64_t j = 0; j < c.Lk; ++j) sum += s[j] == -INFINITY ? 0.0 : std::exp(s[j] - mx);
  *lse = mx + std::log(sum);
  for (int64_t j = 0; j < c.Lk; ++j) {
    if (s[j] == -INFINITY) continue;
    const double p = std::exp(s[j] - mx) / sum;
    for (int64_t e = 0; e < c.Ev; ++e) {
      (*out)[e] += p * double(v[((b * c.Hk + kh) * c.Lk + j) * c.Ev + e]);
    }
  }
}

int64_t numel_of(AtenTensorHandle h) {
  int64_t n = -1;
  aoti_torch_get_numel(h, &n);
  return n;
}
int32_t dtype_of(AtenTensorHandle h) {
  int32_t d = -1;
  aoti_torch_get_dtype(h, &d);
  return d;
}
std::vector<int64_t> sizes_of(AtenTensorHandle h) {
  int64_t nd = 0, *p = nullptr;
  aoti_torch_get_dim(h, &nd);
  aoti_torch_get_sizes(h, &p);
  return std::vector<int64_t>(p, p + nd);
}
std::vector<int64_t> strides_of(AtenTensorHandle h) {
  int64_t nd = 0, *p = nullptr;
  aoti_torch_get_dim(h, &nd);
  aoti_torch_get_strides(h, &p);
  return std::vector<int64_t>(p, p + nd);
}
std::string ints(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

// Reads a float32 tensor's raw storage (contiguous tensors only).
std::vector<float> read_raw_f32(AtenTensorHandle h, int64_t n) {
  void* p = nullptr;
  aoti_torch_get_data_ptr(h, &p);
  std::vector<float> out(static_cast<size_t>(n));
  cudaDeviceSynchronize();
  if (n > 0) cudaMemcpy(out.data(), p, out.size() * 4, cudaMemcpyDeviceToHost);
  return out;
}

// Runs one case; prints one line; returns true on success.
bool run_case(const Case& c) {
  const int before = failures();
  const double tol = c.dtype == kBF16 ? 2e-2 : 1e-4;
  const std::vector<int64_t> qs{c.B, c.H, c.Lq, c.E}, ks{c.B, c.Hk, c.Lk, c.E},
      vs{c.B, c.Hk, c.Lk, c.Ev};
  const uint32_t seed = static_cast<uint32_t>(std::hash<std::string>()(c.name));
  const std::vector<float> q = rounded(random_values(c.B * c.H * c.Lq * c.E, seed), c.dtype);
  const std::vector<float> k = rounded(random_values(c.B * c.Hk * c.Lk * c.E, seed + 1), c.dtype);
  const std::vector<float> v = rounded(random_values(c.B * c.Hk * c.Lk * c.Ev, seed + 2), c.dtype);
  const auto qst = layout_strides(c.layout, c.B, c.H, c.Lq, c.E);
  const auto kst = layout_strides(c.layout, c.B, c.Hk, c.Lk, c.E);
  const auto vst = layout_strides(c.layout, c.B, c.Hk, c.Lk, c.Ev);
  DeviceTensor dq(to_storage(q, qs, qst), qs, qst, c.dtype);
  DeviceTensor dk(to_storage(k, ks, kst), ks, kst, c.dtype);
  DeviceTensor dv(to_storage(v, vs, vst), vs, vst, c.dtype);

  // Masks. add[] is indexed by the broadcast source; keep[] likewise.
  std::vector<float> add;
  std::vector<unsigned char> keepv;
  DeviceTensor* dmask = nullptr;
  void* bool_data = nullptr;
  AtenTensorHandle mask_h = nullptr;
  std::function<double(int64_t, int64_t, int64_t, int64_t)> bias = [](int64_t, int64_t, int64_t,
                                                                      int64_t) { return 0.0; };
  std::function<bool(int64_t, int64_t, int64_t, int64_t)> keep = [](int64_t, int64_t, int64_t,
                                                                    int64_t) { return true; };
  if (c.mask == MaskKind::kAdd2dExpanded || c.mask == MaskKind::kAdd2d) {
    add = rounded(random_values(c.Lq * c.Lk, seed + 3, -2.f, 2.f), c.mask_dtype);
    add[static_cast<size_t>(c.Lk - 1)] = -INFINITY; // one masked-out key in row 0
    if (c.mask == MaskKind::kAdd2d) {
      dmask = new DeviceTensor(add, {c.Lq, c.Lk}, {c.Lk, 1}, c.mask_dtype);
    } else {
      dmask = new DeviceTensor(add, {c.B, c.H, c.Lq, c.Lk}, {0, 0, c.Lk, 1}, c.mask_dtype);
    }
    mask_h = dmask->h;
    bias = [&](int64_t, int64_t, int64_t i, int64_t j) { return double(add[i * c.Lk + j]); };
  } else if (c.mask == MaskKind::kBiasB11K) {
    add = rounded(random_values(c.B * c.Lk, seed + 3, -3.f, 1.f), c.mask_dtype);
    dmask = new DeviceTensor(add, {c.B, 1, 1, c.Lk}, {c.Lk, c.Lk, c.Lk, 1}, c.mask_dtype);
    mask_h = dmask->h;
    bias = [&](int64_t b, int64_t, int64_t, int64_t j) { return double(add[b * c.Lk + j]); };
  } else if (c.mask == MaskKind::kBool) {
    // [B,1,Lq,Lk], expanded over heads.
    std::mt19937 g(seed + 4);
    keepv.resize(static_cast<size_t>(c.B * c.Lq * c.Lk));
    for (auto& x : keepv) x = (g() % 3) != 0;
    for (int64_t b = 0; b < c.B; ++b) {
      keepv[static_cast<size_t>(b * c.Lq * c.Lk)] = 1; // row 0 keeps key 0
      if (c.fully_masked_row && c.Lq > 1) {
        for (int64_t j = 0; j < c.Lk; ++j)
          keepv[static_cast<size_t>((b * c.Lq + 1) * c.Lk + j)] = 0;
      }
    }
    cudaMalloc(&bool_data, keepv.size());
    cudaMemcpy(bool_data, keepv.data(), keepv.size(), cudaMemcpyHostToDevice);
    const int64_t msz[4] = {c.B, c.H, c.Lq, c.Lk}, mst[4] = {c.Lq * c.Lk, 0, c.Lk, 1};
    aoti_torch_create_tensor_from_blob(bool_data, 4, msz, mst, 0, kBool, kCuda, 0, &mask_h);
    keep = [&](int64_t b, int64_t, int64_t i, int64_t j) {
      return keepv[static_cast<size_t>((b * c.Lq + i) * c.Lk + j)] != 0;
    };
  }

  void* guard = nullptr;
  if (c.stream != nullptr) aoti_torch_create_cuda_stream_guard(c.stream, 0, &guard);

  double scale_v = c.scale;
  double* scale = c.has_scale ? &scale_v : nullptr;
  AtenTensorHandle out = nullptr, lse = nullptr, r2 = nullptr, r3 = nullptr, r6 = nullptr,
                   r7 = nullptr, r8 = nullptr;
  int64_t maxq = -1, maxk = -1;
  AOTITorchError err = 1;
  AtenTensorHandle* maskp = mask_h ? &mask_h : nullptr;
  switch (c.op) {
    case Op::kFlash:
      err = aoti_torch_cuda__scaled_dot_product_flash_attention(dq.h, dk.h, dv.h, 0.0, c.causal, 0,
                                                                scale, &out, &lse, &r2, &r3, &maxq,
                                                                &maxk, &r6, &r7, &r8);
      break;
    case Op::kEfficient:
      err = aoti_torch_cuda__scaled_dot_product_efficient_attention(
          dq.h, dk.h, dv.h, maskp, c.check_lse ? 1 : 0, 0.0, c.causal, scale, &out, &lse, &r6, &r7);
      break;
    case Op::kCudnn:
      err = aoti_torch_cuda__scaled_dot_product_cudnn_attention(dq.h, dk.h, dv.h, maskp, 1, 0.0,
                                                                c.causal, 0, scale, &out, &lse, &r2,
                                                                &r3, &maxq, &maxk, &r6, &r7, &r8);
      break;
  }
  if (guard != nullptr) aoti_torch_delete_cuda_stream_guard(guard);

  EXPECT(err == 0, "%s: returned %d", c.name.c_str(), err);
  double err_out = 0, err_lse = 0;
  if (err == 0 && out != nullptr) {
    // Output layout: what PyTorch's meta functions give.
    std::vector<int64_t> want_st;
    const std::vector<int64_t> osz{c.B, c.H, c.Lq, c.Ev};
    if (c.op == Op::kEfficient || c.layout == Layout::kBLHE) {
      want_st = {c.Lq * c.H * c.Ev, c.Ev, c.H * c.Ev, 1};
    } else {
      want_st = contiguous(osz);
    }
    EXPECT(sizes_of(out) == osz, "%s: output sizes %s", c.name.c_str(),
           ints(sizes_of(out)).c_str());
    EXPECT(strides_of(out) == want_st, "%s: output strides %s, want %s", c.name.c_str(),
           ints(strides_of(out)).c_str(), ints(want_st).c_str());
    EXPECT(dtype_of(out) == c.dtype, "%s: output dtype %d", c.name.c_str(), dtype_of(out));

    const std::vector<float> got = read_back(out, c.dtype);
    std::vector<float> lse_got;
    if (lse != nullptr && numel_of(lse) > 0) lse_got = read_raw_f32(lse, numel_of(lse));
    const int64_t lse_row = c.op == Op::kEfficient ? (c.Lq + 31) / 32 * 32 : c.Lq;
    std::vector<int64_t> rows = c.rows;
    if (rows.empty()) {
      for (int64_t r = 0; r < c.B * c.H * c.Lq; ++r) rows.push_back(r);
    }
    const double sc = c.has_scale ? c.scale : 1.0 / std::sqrt(double(c.E));
    std::vector<float> got_sel, lse_sel;
    std::vector<double> want_sel, lse_want;
    for (int64_t r : rows) {
      const int64_t b = r / (c.H * c.Lq), h = (r / c.Lq) % c.H, i = r % c.Lq;
      std::vector<double> o;
      double l;
      reference_row(
          c, q, k, v, b, h, i, sc, [&](int64_t j) { return bias(b, h, i, j); },
          [&](int64_t j) { return keep(b, h, i, j) && !(c.causal && j > i); }, &o, &l);
      for (int64_t e = 0; e < c.Ev; ++e) {
        got_sel.push_back(got[static_cast<size_t>(r * c.Ev + e)]);
        want_sel.push_back(o[e]);
      }
      if (c.check_lse) {
        const float gl =
            lse_got.empty() ? NAN : lse_got[static_cast<size_t>((b * c.H + h) * lse_row + i)];
        if (std::isinf(l)) {
          EXPECT(std::isinf(gl) && gl < 0, "%s: lse of a fully masked row is %g, want -inf",
                 c.name.c_str(), gl);
        } else {
          lse_sel.push_back(gl);
          lse_want.push_back(l);
        }
      }
    }
    err_out = max_rel_err(got_sel, want_sel);
    EXPECT(err_out <= tol, "%s: output max_rel_err %.3g > %.3g", c.name.c_str(), err_out, tol);
    if (c.check_lse) {
      err_lse = max_rel_err(lse_sel, lse_want);
      EXPECT(err_lse <= tol, "%s: logsumexp max_rel_err %.3g > %.3g", c.name.c_str(), err_lse, tol);
    }
    // Result shapes besides the output.
    EXPECT(lse != nullptr && dtype_of(lse) == kF32, "%s: logsumexp missing or not float32",
           c.name.c_str());
    if (lse != nullptr) {
      std::vector<int64_t> want_lse{c.B, c.H, c.Lq};
      if (c.op == Op::kCudnn) want_lse.push_back(1);
      if (c.op == Op::kEfficient) want_lse[2] = c.check_lse ? lse_row : 0;
      EXPECT(sizes_of(lse) == want_lse, "%s: logsumexp sizes %s", c.name.c_str(),
             ints(sizes_of(lse)).c_str());
      if (c.op == Op::kEfficient && c.check_lse) {
        for (int64_t bh = 0; bh < c.B * c.H; ++bh) {
          for (int64_t i = c.Lq; i < lse_row; ++i) {
            EXPECT(lse_got[static_cast<size_t>(bh * lse_row + i)] == 0.f,
                   "%s: logsumexp padding not zero", c.name.c_str());
          }
        }
      }
    }
    for (AtenTensorHandle e : {r6, r7}) {
      EXPECT(e != nullptr && numel_of(e) == 0 && dtype_of(e) == kI64,
             "%s: philox seed/offset not an empty int64 tensor", c.name.c_str());
    }
    if (c.op != Op::kEfficient) {
      EXPECT(r2 && r3 && numel_of(r2) == 0 && numel_of(r3) == 0 && dtype_of(r2) == kI64,
             "%s: cum_seq not empty int64 tensors", c.name.c_str());
      EXPECT(r8 && numel_of(r8) == 0 && dtype_of(r8) == c.dtype,
             "%s: debug mask not an empty tensor", c.name.c_str());
      EXPECT(maxq == c.Lq && maxk == c.Lk, "%s: max_seqlen %lld %lld", c.name.c_str(),
             (long long)maxq, (long long)maxk);
    }
  }
  for (AtenTensorHandle h : {out, lse, r2, r3, r6, r7, r8}) {
    if (h != nullptr) aoti_torch_delete_tensor_object(h);
  }
  if (c.mask == MaskKind::kBool) {
    aoti_torch_delete_tensor_object(mask_h);
    cudaFree(bool_data);
  }
  delete dmask;
  const bool ok = failures() == before;
  std::printf("%s %-44s %-9s out_err=%.3g lse_err=%.3g\n", ok ? "ok  " : "FAIL", c.name.c_str(),
              op_name(c.op), err_out, err_lse);
  return ok;
}

// Calls that must fail cleanly: non-zero, no handle returned.
void error_cases() {
  const std::vector<int64_t> s{1, 2, 4, 8}, s_bad{1, 2, 4, 6};
  std::vector<float> vals(64, 0.5f);
  DeviceTensor q(vals, s, contiguous(s), kF32);
  DeviceTensor k(vals, s, contiguous(s), kF32);
  DeviceTensor k_bad(vals, s_bad, contiguous(s_bad), kF32);
  DeviceTensor v(vals, s, contiguous(s), kF32);
  {
    AtenTensorHandle out = nullptr, lse = nullptr;
    const AOTITorchError e = aoti_torch_cuda__scaled_dot_product_flash_attention(
        q.h, k.h, v.h, 0.1, 0, 0, nullptr, &out, &lse, nullptr, nullptr, nullptr, nullptr, nullptr,
        nullptr, nullptr);
    const bool ok = e != 0 && out == nullptr && lse == nullptr;
    EXPECT(ok, "dropout_p=0.1: returned %d, out=%p", e, out);
    std::printf("%s %-44s\n", ok ? "ok  " : "FAIL", "error: dropout_p 0.1 rejected");
  }
  {
    AtenTensorHandle out = nullptr, lse = nullptr, s6 = nullptr, s7 = nullptr;
    const AOTITorchError e = aoti_torch_cuda__scaled_dot_product_efficient_attention(
        q.h, k_bad.h, v.h, nullptr, 1, 0.0, 0, nullptr, &out, &lse, &s6, &s7);
    const bool ok = e != 0 && out == nullptr && lse == nullptr && s6 == nullptr && s7 == nullptr;
    EXPECT(ok, "mismatched E: returned %d, out=%p", e, out);
    std::printf("%s %-44s\n", ok ? "ok  " : "FAIL", "error: mismatched head dim E rejected");
  }
  {
    // A mask that does not broadcast: [Lq+1, Lk].
    DeviceTensor m(std::vector<float>(5 * 4, 0.f), {5, 4}, {4, 1}, kF32);
    AtenTensorHandle out = nullptr;
    const AOTITorchError e = aoti_torch_cuda__scaled_dot_product_efficient_attention(
        q.h, k.h, v.h, &m.h, 0, 0.0, 0, nullptr, &out, nullptr, nullptr, nullptr);
    const bool ok = e != 0 && out == nullptr;
    EXPECT(ok, "bad mask: returned %d", e);
    std::printf("%s %-44s\n", ok ? "ok  " : "FAIL", "error: non-broadcastable mask rejected");
  }
}

} // namespace

int main() {
  require_gpu();
  std::vector<Case> cases;
  auto add = [&](Case c) { cases.push_back(std::move(c)); };
  {
    Case c;
    c.name = "f32 no mask, default scale";
    c.B = 2;
    c.H = 3;
    c.Hk = 3;
    c.Lq = 17;
    c.Lk = 23;
    c.E = 32;
    c.Ev = 32;
    c.check_lse = true;
    add(c);
  }
  {
    Case c;
    c.name = "f32 explicit scale 0.3, Ev != E";
    c.B = 1;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 9;
    c.Lk = 40;
    c.E = 24;
    c.Ev = 8;
    c.has_scale = true;
    c.scale = 0.3;
    add(c);
  }
  {
    Case c;
    c.name = "f32 causal Lq == Lk";
    c.B = 2;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 33;
    c.Lk = 33;
    c.E = 16;
    c.Ev = 16;
    c.causal = true;
    c.check_lse = true;
    add(c);
  }
  {
    Case c;
    c.name = "f32 causal Lq < Lk (top-left)";
    c.B = 1;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 5;
    c.Lk = 300;
    c.E = 16;
    c.Ev = 16;
    c.causal = true;
    add(c);
  }
  for (Op op : {Op::kEfficient, Op::kCudnn}) {
    Case c;
    c.name = "f32 additive [Lq,Lk] mask, stride-0 B,H";
    c.op = op;
    c.B = 2;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 12;
    c.Lk = 20;
    c.E = 16;
    c.Ev = 16;
    c.mask = MaskKind::kAdd2dExpanded;
    c.check_lse = true;
    add(c);
  }
  {
    Case c;
    c.name = "f32 additive 2-D mask tensor";
    c.op = Op::kEfficient;
    c.B = 1;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 7;
    c.Lk = 19;
    c.E = 8;
    c.Ev = 8;
    c.mask = MaskKind::kAdd2d;
    add(c);
  }
  {
    Case c;
    c.name = "f32 [B,1,1,Lk] bias + causal";
    c.op = Op::kEfficient;
    c.B = 3;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 10;
    c.Lk = 10;
    c.E = 16;
    c.Ev = 16;
    c.mask = MaskKind::kBiasB11K;
    c.causal = true;
    c.check_lse = true;
    add(c);
  }
  {
    Case c;
    c.name = "f32 bool mask, a fully masked row";
    c.op = Op::kEfficient;
    c.B = 2;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 6;
    c.Lk = 37;
    c.E = 16;
    c.Ev = 16;
    c.mask = MaskKind::kBool;
    c.fully_masked_row = true;
    c.check_lse = true;
    add(c);
  }
  {
    Case c;
    c.name = "f32 GQA H=4 Hk=2";
    c.B = 2;
    c.H = 4;
    c.Hk = 2;
    c.Lq = 11;
    c.Lk = 29;
    c.E = 16;
    c.Ev = 16;
    c.check_lse = true;
    add(c);
  }
  {
    Case c;
    c.name = "f32 GQA H=4 Hk=2 causal, cudnn";
    c.op = Op::kCudnn;
    c.B = 1;
    c.H = 4;
    c.Hk = 2;
    c.Lq = 16;
    c.Lk = 16;
    c.E = 32;
    c.Ev = 32;
    c.causal = true;
    add(c);
  }
  for (Op op : {Op::kFlash, Op::kEfficient, Op::kCudnn}) {
    Case c;
    c.name = "f32 q/k/v transposed views of [B,L,H,E]";
    c.op = op;
    c.B = 2;
    c.H = 3;
    c.Hk = 3;
    c.Lq = 13;
    c.Lk = 21;
    c.E = 16;
    c.Ev = 16;
    c.layout = Layout::kBLHE;
    add(c);
  }
  {
    Case c;
    c.name = "f32 [B,L,H,E] views, Ev != E, GQA";
    c.B = 1;
    c.H = 4;
    c.Hk = 1;
    c.Lq = 6;
    c.Lk = 14;
    c.E = 16;
    c.Ev = 24;
    c.layout = Layout::kBLHE;
    add(c);
  }
  {
    Case c;
    c.name = "f32 efficient contiguous q (output [B,L,H,Ev])";
    c.op = Op::kEfficient;
    c.B = 2;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 40;
    c.Lk = 12;
    c.E = 8;
    c.Ev = 8;
    c.check_lse = true; // Lq=40: padded to 64, tail zero
    add(c);
  }
  {
    Case c;
    c.name = "f32 decode Lq=1";
    c.B = 2;
    c.H = 8;
    c.Hk = 2;
    c.Lq = 1;
    c.Lk = 77;
    c.E = 64;
    c.Ev = 64;
    c.check_lse = true;
    add(c);
  }
  {
    Case c;
    c.name = "bf16 no mask";
    c.dtype = kBF16;
    c.B = 2;
    c.H = 4;
    c.Hk = 4;
    c.Lq = 32;
    c.Lk = 48;
    c.E = 64;
    c.Ev = 64;
    c.check_lse = true;
    add(c);
  }
  {
    Case c;
    c.name = "bf16 causal, bf16 additive mask";
    c.op = Op::kCudnn;
    c.dtype = kBF16;
    c.mask_dtype = kBF16;
    c.B = 1;
    c.H = 4;
    c.Hk = 4;
    c.Lq = 24;
    c.Lk = 24;
    c.E = 64;
    c.Ev = 64;
    c.causal = true;
    c.mask = MaskKind::kAdd2dExpanded;
    add(c);
  }
  {
    Case c;
    c.name = "bf16 [B,L,H,E] views";
    c.op = Op::kCudnn;
    c.dtype = kBF16;
    c.B = 2;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 20;
    c.Lk = 20;
    c.E = 32;
    c.Ev = 32;
    c.layout = Layout::kBLHE;
    add(c);
  }
  cudaStream_t stream = nullptr;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  {
    Case c;
    c.name = "f32 on a non-default stream (stream guard)";
    c.B = 2;
    c.H = 2;
    c.Hk = 2;
    c.Lq = 64;
    c.Lk = 64;
    c.E = 32;
    c.Ev = 32;
    c.causal = true;
    c.stream = stream;
    add(c);
  }
  {
    // 5 heads x 4096 x 4096 float32 scores exceed the 256 MiB workspace:
    // chunks of 4 heads, then 1.
    Case c;
    c.name = "f32 chunked heads (5 x 4096^2 scores)";
    c.B = 1;
    c.H = 5;
    c.Hk = 5;
    c.Lq = 4096;
    c.Lk = 4096;
    c.E = 16;
    c.Ev = 16;
    c.causal = true;
    for (int64_t h : {0, 3, 4}) {
      for (int64_t i : {0, 1, 2047, 4095}) c.rows.push_back(h * c.Lq + i);
    }
    add(c);
  }
  {
    // One bf16 head of 6000 x 8192 scores + probabilities exceeds it: chunks
    // of 5461 query rows, then 539.
    Case c;
    c.name = "bf16 chunked rows (6000 x 8192 scores)";
    c.dtype = kBF16;
    c.B = 1;
    c.H = 2;
    c.Hk = 1;
    c.Lq = 6000;
    c.Lk = 8192;
    c.E = 16;
    c.Ev = 16;
    for (int64_t h : {0, 1}) {
      for (int64_t i : {0, 5460, 5461, 5999}) c.rows.push_back(h * c.Lq + i);
    }
    add(c);
  }

  for (const Case& c : cases) run_case(c);
  error_cases();
  cudaStreamDestroy(stream);
  return gpu_test::finish();
}
