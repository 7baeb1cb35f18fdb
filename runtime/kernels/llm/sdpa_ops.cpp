// The attention operators of upstream's extension/llm/custom_ops
// (op_sdpa.cpp):
//   custom_sdpa.out(Tensor query, Tensor key, Tensor value, SymInt start_pos,
//     Tensor? attn_mask=None, float drpout_p=0., bool is_causal=False,
//     float? scale=None, *, Tensor(a!) out) -> Tensor(a!)
//   sdpa_with_kv_cache.out(Tensor query, Tensor key, Tensor value,
//     Tensor(a!) key_cache, Tensor(b!) value_cache, SymInt start_pos,
//     SymInt seq_len, Tensor? attn_mask=None, float drpout_p=0.,
//     bool is_causal=False, float? scale=None, *, Tensor(c!) out)
//     -> Tensor(c!)
//   custom_quantized_sdpa.out(Tensor query, Tensor key, Tensor value,
//     SymInt start_pos, Tensor? attn_mask=None, float drpout_p=0.,
//     bool is_causal=False, float? scale=None, Tensor? q_zero_points=None,
//     Tensor? q_scales=None, Tensor? k_zero_points=None,
//     Tensor? k_scales=None, Tensor? v_zero_points=None,
//     Tensor? v_scales=None, bool is_seq_at_dim_2=False, *,
//     Tensor(a!) out) -> Tensor(a!)
//
// query is [B, S, H, D], key and value the caches [B, L, Hkv, D] (H a
// multiple of Hkv: query head h reads cache head h / (H / Hkv)); out has
// query's shape. The query's rows sit at positions start_pos .. start_pos +
// S - 1. Without attn_mask the keys are the first start_pos + S cache
// positions and is_causal lets row s see keys 0 .. start_pos + s; with
// attn_mask (float32 [S, L], added to the scaled scores) every cache
// position is a key and is_causal must be false. scale defaults to
// 1 / sqrt(D); drpout_p is ignored, as upstream. Scores, softmax and the
// weighted sum are computed in float32.
//
// sdpa_with_kv_cache first writes key and value ([B, seq_len, Hkv, D]) into
// the caches at start_pos (as update_cache), then attends as custom_sdpa.
// custom_quantized_sdpa takes int8 q/k/v with per-token int8 zero points
// and float32 scales (shape [B, S, H, 1] in the operand's layout) and
// attends over the dequantized values ((x - zp) * scale) into a float out;
// is_seq_at_dim_2 selects the [B, H, S, D] layout for every operand.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "llm_tables.h"
#include "llm_util.h"

namespace executorch {
namespace runtime {
namespace llm {
namespace {

// Sizes and element strides of a contiguous 4-D attention operand, in its
// [B, S, H, D] or [B, H, S, D] layout; the head dim is the innermost.
struct Layout {
  int64_t batch = 0, seq = 0, heads = 0, dim = 0;
  size_t sb = 0, ss = 0, sh = 0;
  size_t at(int64_t b, int64_t s, int64_t h) const {
    return static_cast<size_t>(b) * sb + static_cast<size_t>(s) * ss + static_cast<size_t>(h) * sh;
  }
};

Layout layout_of(const Tensor& t, bool seq_at_dim_2) {
  Layout l;
  l.batch = t.size(0);
  l.dim = t.size(3);
  const size_t inner = static_cast<size_t>(t.size(2)) * static_cast<size_t>(t.size(3));
  l.sb = static_cast<size_t>(t.size(1)) * inner;
  if (seq_at_dim_2) {
    l.heads = t.size(1);
    l.seq = t.size(2);
    l.sh = inner;
    l.ss = static_cast<size_t>(t.size(3));
  } else {
    l.seq = t.size(1);
    l.heads = t.size(2);
    l.ss = inner;
    l.sh = static_cast<size_t>(t.size(3));
  }
  return l;
}

// One operand: float data, or int8 data with per-token parameters.
struct Operand {
  const Tensor* t = nullptr;
  Layout l;
  const int8_t* zp = nullptr; // int8 operands only
  const float* sc = nullptr;
  Layout pl; // the parameters' layout (dim 1)

  // Row (b, s, h) as float32 into dst[0, dim).
  void load(int64_t b, int64_t s, int64_t h, float* dst) const {
    const size_t base = l.at(b, s, h);
    const size_t n = static_cast<size_t>(l.dim);
    switch (t->scalar_type()) {
      case ScalarType::Float: {
        const float* p = t->const_data_ptr<float>() + base;
        for (size_t d = 0; d < n; ++d) dst[d] = p[d];
        break;
      }
      case ScalarType::Half: {
        const Half* p = t->const_data_ptr<Half>() + base;
        for (size_t d = 0; d < n; ++d) dst[d] = static_cast<float>(p[d]);
        break;
      }
      case ScalarType::BFloat16: {
        const BFloat16* p = t->const_data_ptr<BFloat16>() + base;
        for (size_t d = 0; d < n; ++d) dst[d] = static_cast<float>(p[d]);
        break;
      }
      case ScalarType::Char: {
        const int8_t* p = t->const_data_ptr<int8_t>() + base;
        const size_t q = pl.at(b, s, h);
        const int32_t z = zp[q];
        const float scale = sc[q];
        for (size_t d = 0; d < n; ++d) dst[d] = static_cast<float>(p[d] - z) * scale;
        break;
      }
      default:
        break;
    }
  }
};

// Everything an attention call reads, checked.
struct Spec {
  Operand q, k, v;
  Layout ol; // out's
  Tensor* out = nullptr;
  const float* mask = nullptr; // [S, kv_len] or null
  int64_t start_pos = 0;
  int64_t kv_len = 0;
  bool causal = false;
  float scale = 1;
};

// The arguments of one call, as read from the EValues.
struct SdpaArgs {
  Tensor* q = nullptr;
  Tensor* k = nullptr;
  Tensor* v = nullptr;
  int64_t start_pos = 0;
  Tensor* mask = nullptr;
  bool is_causal = false;
  bool has_scale = false;
  double scale = 0;
  // custom_quantized_sdpa's zero points and scales for q, k, v (or null).
  Tensor* qp[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
  bool seq_at_dim_2 = false;
  Tensor* out = nullptr;
};

bool is_attn_float(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Half || t == ScalarType::BFloat16;
}

// Checks an int8 operand's per-token zero points (int8) and scales
// (float32): 4-D, contiguous, the operand's sizes but a last dim of 1.
bool check_token_params(KernelRuntimeContext& ctx, const char* op, const char* what,
                        const Tensor& t, const Tensor& zp, const Tensor& sc, bool seq_at_dim_2,
                        Operand* o) {
  if (zp.scalar_type() != ScalarType::Char || sc.scalar_type() != ScalarType::Float) {
    PK_FAIL(ctx, op, "%s zero points must be int8 and scales float32, got %s and %s", what,
            toString(zp.scalar_type()), toString(sc.scalar_type()));
    return false;
  }
  for (const Tensor* p : {&zp, &sc}) {
    if (p->dim() != 4 || p->size(0) != t.size(0) || p->size(1) != t.size(1) ||
        p->size(2) != t.size(2) || p->size(3) != 1) {
      PK_FAIL(ctx, op, "%s quantization parameters must have shape [%zd, %zd, %zd, 1]", what,
              static_cast<ssize_t>(t.size(0)), static_cast<ssize_t>(t.size(1)),
              static_cast<ssize_t>(t.size(2)));
      return false;
    }
    if (!require_contiguous(ctx, *p, op)) return false;
  }
  o->zp = zp.const_data_ptr<int8_t>();
  o->sc = sc.const_data_ptr<float>();
  o->pl = layout_of(zp, seq_at_dim_2);
  return true;
}

// Ranks, dtypes and dim orders of query, key, value and out.
bool check_tensors(KernelRuntimeContext& ctx, const char* op, const SdpaArgs& a) {
  const Tensor& q = *a.q;
  const Tensor& k = *a.k;
  const Tensor& v = *a.v;
  if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4) {
    PK_FAIL(ctx, op, "query, key and value must be 4-D, got ranks %zd, %zd, %zd",
            static_cast<ssize_t>(q.dim()), static_cast<ssize_t>(k.dim()),
            static_cast<ssize_t>(v.dim()));
    return false;
  }
  if (k.scalar_type() != q.scalar_type() || v.scalar_type() != q.scalar_type()) {
    PK_FAIL(ctx, op, "key (%s) and value (%s) must have query's dtype %s",
            toString(k.scalar_type()), toString(v.scalar_type()), toString(q.scalar_type()));
    return false;
  }
  const bool quantized = q.scalar_type() == ScalarType::Char;
  if (!quantized && !is_attn_float(q.scalar_type())) {
    PK_FAIL(
        ctx, op, "query must be float32, float16 or bfloat16%s, got %s",
        a.qp[0] != nullptr || a.qp[1] != nullptr ? " (or int8 with quantization parameters)" : "",
        toString(q.scalar_type()));
    return false;
  }
  const ScalarType ot = a.out->scalar_type();
  if (quantized ? !is_attn_float(ot) : ot != q.scalar_type()) {
    PK_FAIL(ctx, op, "out has dtype %s, expected %s", toString(ot),
            quantized ? "a float dtype" : toString(q.scalar_type()));
    return false;
  }
  if (!require_contiguous(ctx, q, op) || !require_contiguous(ctx, k, op) ||
      !require_contiguous(ctx, v, op)) {
    return false;
  }
  if (k.sizes() != v.sizes()) {
    PK_FAIL(ctx, op, "key and value must have the same shape");
    return false;
  }
  return true;
}

// The layouts of query, key and value; key/value heads must divide query's.
bool set_layouts(KernelRuntimeContext& ctx, const char* op, const SdpaArgs& a, Spec* s) {
  const Tensor& q = *a.q;
  const Tensor& k = *a.k;
  const Tensor& v = *a.v;
  s->q.t = &q;
  s->k.t = &k;
  s->v.t = &v;
  s->q.l = layout_of(q, a.seq_at_dim_2);
  s->k.l = layout_of(k, a.seq_at_dim_2);
  s->v.l = layout_of(v, a.seq_at_dim_2);
  const Layout& ql = s->q.l;
  const Layout& kl = s->k.l;
  if (kl.batch != ql.batch || kl.dim != ql.dim) {
    PK_FAIL(ctx, op,
            "query and key/value differ in batch (%lld vs %lld) or head dim (%lld vs %lld)",
            static_cast<long long>(ql.batch), static_cast<long long>(kl.batch),
            static_cast<long long>(ql.dim), static_cast<long long>(kl.dim));
    return false;
  }
  if (kl.heads <= 0 || ql.heads % kl.heads != 0) {
    PK_FAIL(ctx, op, "query heads (%lld) must be a multiple of key/value heads (%lld)",
            static_cast<long long>(ql.heads), static_cast<long long>(kl.heads));
    return false;
  }
  return true;
}

// int8 query, key and value: each needs its per-token zero points and scales.
bool set_quant_params(KernelRuntimeContext& ctx, const char* op, const SdpaArgs& a, Spec* s) {
  if (a.q->scalar_type() != ScalarType::Char) return true;
  const char* names[3] = {"query", "key", "value"};
  const Tensor* ts[3] = {a.q, a.k, a.v};
  Operand* os[3] = {&s->q, &s->k, &s->v};
  for (int i = 0; i < 3; ++i) {
    if (a.qp[2 * i] == nullptr || a.qp[2 * i + 1] == nullptr) {
      PK_FAIL(ctx, op, "int8 %s needs zero points and scales", names[i]);
      return false;
    }
    if (!check_token_params(ctx, op, names[i], *ts[i], *a.qp[2 * i], *a.qp[2 * i + 1],
                            a.seq_at_dim_2, os[i])) {
      return false;
    }
  }
  return true;
}

// The keys each query row sees: the first start_pos + S cache positions, or
// every position under an additive [S, L] mask.
bool set_key_range(KernelRuntimeContext& ctx, const char* op, const SdpaArgs& a, Spec* s) {
  const Layout& ql = s->q.l;
  const int64_t cache_len = s->k.l.seq;
  if (a.start_pos < 0) {
    PK_FAIL(ctx, op, "start_pos %lld is negative", static_cast<long long>(a.start_pos));
    return false;
  }
  if (a.mask != nullptr) {
    const Tensor& m = *a.mask;
    if (a.is_causal) {
      PK_FAIL(ctx, op, "attn_mask and is_causal cannot both be set");
      return false;
    }
    if (m.scalar_type() != ScalarType::Float || m.dim() != 2 || m.size(0) != ql.seq ||
        m.size(1) != cache_len) {
      PK_FAIL(ctx, op,
              "attn_mask must be float32 of shape [%lld, %lld] (query length, cache "
              "length)",
              static_cast<long long>(ql.seq), static_cast<long long>(cache_len));
      return false;
    }
    if (!require_contiguous(ctx, m, op)) return false;
    s->mask = m.const_data_ptr<float>();
    s->kv_len = cache_len;
  } else {
    if (ql.seq > cache_len - a.start_pos) {
      PK_FAIL(ctx, op, "start_pos %lld + query length %lld exceeds the cache length %lld",
              static_cast<long long>(a.start_pos), static_cast<long long>(ql.seq),
              static_cast<long long>(cache_len));
      return false;
    }
    s->kv_len = a.start_pos + ql.seq;
  }
  return true;
}

// Checks the arguments, resizes out and fills *s; nothing is written.
bool prepare(KernelRuntimeContext& ctx, const char* op, const SdpaArgs& a, Spec* s) {
  if (!check_tensors(ctx, op, a) || !set_layouts(ctx, op, a, s) ||
      !set_quant_params(ctx, op, a, s) || !set_key_range(ctx, op, a, s)) {
    return false;
  }
  const Layout& ql = s->q.l;
  const Tensor& q = *a.q;
  s->start_pos = a.start_pos;
  s->causal = a.is_causal;
  s->scale = a.has_scale ? static_cast<float>(a.scale)
                         : static_cast<float>(1.0 / std::sqrt(static_cast<double>(ql.dim)));
  if (!resize_out(ctx, *a.out, q.sizes(), op)) return false;
  s->out = a.out;
  s->ol = layout_of(*a.out, a.seq_at_dim_2);
  return true;
}

// softmax(q k^T * scale + mask) v for every batch line, head and row.
void attend(const Spec& s) {
  const Layout& ql = s.q.l;
  const int64_t reps = ql.heads / s.k.l.heads;
  const size_t dim = static_cast<size_t>(ql.dim);
  const size_t kv = static_cast<size_t>(s.kv_len);
  if (ql.batch == 0 || ql.seq == 0 || ql.heads == 0 || dim == 0) return;
  std::vector<float> keys(kv * dim), values(kv * dim), row(dim), acc(dim), scores(kv);
  const ScalarType ot = s.out->scalar_type();
  void* out = s.out->mutable_data_ptr();
  for (int64_t b = 0; b < ql.batch; ++b) {
    for (int64_t kh = 0; kh < s.k.l.heads; ++kh) {
      // This cache head's keys and values, as float32 rows.
      for (size_t j = 0; j < kv; ++j) {
        s.k.load(b, static_cast<int64_t>(j), kh, keys.data() + j * dim);
        s.v.load(b, static_cast<int64_t>(j), kh, values.data() + j * dim);
      }
      for (int64_t h = kh * reps; h < (kh + 1) * reps; ++h) {
        for (int64_t r = 0; r < ql.seq; ++r) {
          s.q.load(b, r, h, row.data());
          // Row r sits at position start_pos + r: causally it sees keys up to there.
          const size_t n = s.causal ? std::min(kv, static_cast<size_t>(s.start_pos + r + 1)) : kv;
          const float* m = s.mask != nullptr ? s.mask + static_cast<size_t>(r) * kv : nullptr;
          float mx = -std::numeric_limits<float>::infinity();
          for (size_t j = 0; j < n; ++j) {
            const float* kr = keys.data() + j * dim;
            float dot = 0;
            for (size_t d = 0; d < dim; ++d) dot += row[d] * kr[d];
            float x = dot * s.scale;
            if (m != nullptr) x += m[j];
            scores[j] = x;
            mx = std::max(mx, x);
          }
          // A row whose every score is -inf gives NaN, as upstream and torch.
          float sum = 0;
          for (size_t j = 0; j < n; ++j) {
            scores[j] = std::exp(scores[j] - mx);
            sum += scores[j];
          }
          std::fill(acc.begin(), acc.end(), 0.0f);
          for (size_t j = 0; j < n; ++j) {
            const float p = scores[j];
            const float* vr = values.data() + j * dim;
            for (size_t d = 0; d < dim; ++d) acc[d] += p * vr[d];
          }
          const float inv = 1.0f / sum;
          const size_t o = s.ol.at(b, r, h);
          for (size_t d = 0; d < dim; ++d) store_d(ot, out, o + d, acc[d] * inv);
        }
      }
    }
  }
}

// Reads query, key, value, start_pos, attn_mask, drpout_p, is_causal and
// scale from args[0..7], the head custom_sdpa and custom_quantized_sdpa
// share.
bool read_common(KernelRuntimeContext& ctx, const char* op, Args args, SdpaArgs* a) {
  a->q = get_tensor(ctx, args, 0, op);
  a->k = a->q != nullptr ? get_tensor(ctx, args, 1, op) : nullptr;
  a->v = a->k != nullptr ? get_tensor(ctx, args, 2, op) : nullptr;
  double dropout = 0;
  return a->v != nullptr && get_int(ctx, args, 3, op, &a->start_pos) &&
         get_opt_tensor(ctx, args, 4, op, &a->mask) && get_double(ctx, args, 5, op, &dropout) &&
         get_bool(ctx, args, 6, op, &a->is_causal) &&
         get_opt_double(ctx, args, 7, op, &a->scale, &a->has_scale);
}

void custom_sdpa_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "llama::custom_sdpa.out";
  if (!check_nargs(ctx, args, 10, name)) return;
  SdpaArgs a;
  Spec s;
  if (!read_common(ctx, name, args, &a) || (a.out = get_tensor(ctx, args, 8, name)) == nullptr ||
      !prepare(ctx, name, a, &s)) {
    return;
  }
  attend(s);
}

void custom_quantized_sdpa_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "llama::custom_quantized_sdpa.out";
  if (!check_nargs(ctx, args, 17, name)) return;
  SdpaArgs a;
  Spec s;
  if (!read_common(ctx, name, args, &a)) return;
  // The schema's order: q_zero_points, q_scales, k_zero_points, k_scales,
  // v_zero_points, v_scales.
  for (size_t i = 0; i < 6; ++i) {
    if (!get_opt_tensor(ctx, args, 8 + i, name, &a.qp[i])) return;
  }
  if (!get_bool(ctx, args, 14, name, &a.seq_at_dim_2) ||
      (a.out = get_tensor(ctx, args, 15, name)) == nullptr || !prepare(ctx, name, a, &s)) {
    return;
  }
  attend(s);
}

void sdpa_with_kv_cache_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "llama::sdpa_with_kv_cache.out";
  if (!check_nargs(ctx, args, 13, name)) return;
  // (query, key, value, key_cache, value_cache, start_pos, seq_len,
  //  attn_mask, drpout_p, is_causal, scale, out): attention reads the
  // caches as its key and value.
  Tensor* q = get_tensor(ctx, args, 0, name);
  Tensor* k = q != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* v = k != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  Tensor* kc = v != nullptr ? get_tensor(ctx, args, 3, name) : nullptr;
  Tensor* vc = kc != nullptr ? get_tensor(ctx, args, 4, name) : nullptr;
  SdpaArgs a;
  int64_t seq_len = 0;
  double dropout = 0;
  if (vc == nullptr || !get_int(ctx, args, 5, name, &a.start_pos) ||
      !get_int(ctx, args, 6, name, &seq_len) || !get_opt_tensor(ctx, args, 7, name, &a.mask) ||
      !get_double(ctx, args, 8, name, &dropout) || !get_bool(ctx, args, 9, name, &a.is_causal) ||
      !get_opt_double(ctx, args, 10, name, &a.scale, &a.has_scale) ||
      (a.out = get_tensor(ctx, args, 11, name)) == nullptr) {
    return;
  }
  if (q->dim() != 4 || k->dim() != 4 || v->dim() != 4 || q->size(1) != seq_len ||
      k->size(1) != seq_len || v->size(1) != seq_len) {
    PK_FAIL(ctx, name, "query, key and value must be 4-D with seq_len (%lld) positions at dim 1",
            static_cast<long long>(seq_len));
    return;
  }
  if (kc->sizes() != vc->sizes()) {
    PK_FAIL(ctx, name, "key_cache and value_cache must have the same shape");
    return;
  }
  // Everything is checked before either cache is written.
  a.q = q;
  a.k = kc;
  a.v = vc;
  Spec s;
  if (!check_cache_write(ctx, name, *k, *kc, a.start_pos, "key_cache") ||
      !check_cache_write(ctx, name, *v, *vc, a.start_pos, "value_cache") ||
      !prepare(ctx, name, a, &s)) {
    return;
  }
  write_cache(*k, *kc, a.start_pos);
  write_cache(*v, *vc, a.start_pos);
  attend(s);
}

const Kernel kSdpaKernels[] = {
    Kernel("llama::custom_sdpa.out", custom_sdpa_out),
    Kernel("llama::sdpa_with_kv_cache.out", sdpa_with_kv_cache_out),
    Kernel("llama::custom_quantized_sdpa.out", custom_quantized_sdpa_out),
};

} // namespace

Span<const Kernel> sdpa_kernels() {
  return Span<const Kernel>(kSdpaKernels, sizeof(kSdpaKernels) / sizeof(kSdpaKernels[0]));
}

} // namespace llm
} // namespace runtime
} // namespace executorch
