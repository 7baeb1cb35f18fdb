// 2-D convolution (groups, stride, padding, dilation; 1-D through H=1) and
// 2-D pooling (max with indices, average).
#include <algorithm>
#include <cmath>

#include "conv.h"

#include "kernels.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// Reads a 1- or 2-entry int list into (h, w); an empty list gives `dflt`.
bool pair(KernelRuntimeContext& ctx, Args args, size_t i, const char* name, int64_t dflt_h,
          int64_t dflt_w, int64_t* h, int64_t* w, size_t spatial) {
  IntList l;
  if (!get_int_list(ctx, args, i, name, &l)) return false;
  if (l.n == 0) {
    *h = dflt_h;
    *w = dflt_w;
  } else if (l.n == 1) {
    *h = *w = l.v[0];
    if (spatial == 1) *h = dflt_h;
  } else if (l.n == 2 && spatial == 2) {
    *h = l.v[0];
    *w = l.v[1];
  } else {
    PK_FAIL(ctx, name, "argument %zu: expected %zu values, got %zu", i, spatial, l.n);
    return false;
  }
  return true;
}

int64_t pool_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  const int64_t eff = in + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0);
  if (eff < 0) return 0;
  int64_t o = eff / s + 1;
  if (ceil && (o - 1) * s >= in + p) --o;
  return o;
}

// Reads stride, padding, dilation, transposed, output_padding and groups.
bool read_conv_params(KernelRuntimeContext& ctx, Args args, const char* name, size_t spatial,
                      ConvGeom* g) {
  int64_t oph, opw;
  bool transposed;
  if (!pair(ctx, args, 3, name, 1, 1, &g->sh, &g->sw, spatial) ||
      !pair(ctx, args, 4, name, 0, 0, &g->ph, &g->pw, spatial) ||
      !pair(ctx, args, 5, name, 1, 1, &g->dh, &g->dw, spatial) ||
      !get_bool(ctx, args, 6, name, &transposed) ||
      !pair(ctx, args, 7, name, 0, 0, &oph, &opw, spatial) ||
      !get_int(ctx, args, 8, name, &g->groups)) {
    return false;
  }
  if (transposed) {
    PK_FAIL(ctx, name, "transposed convolution is not supported");
    return false;
  }
  return true;
}

bool check_conv_tensors(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& w,
                        const Tensor* bias, const Tensor& out, const char* name) {
  return require_floating(ctx, in, name) && require_same_dtype(ctx, in, w, name) &&
         require_same_dtype(ctx, in, out, name) &&
         (bias == nullptr || require_same_dtype(ctx, in, *bias, name)) &&
         require_contiguous(ctx, in, name) && require_contiguous(ctx, w, name) &&
         require_contiguous(ctx, out, name);
}

// Fills the sizes in `g` from the tensors and checks they fit together.
bool plan_conv_sizes(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& w,
                     const Tensor* bias, size_t spatial, const char* name, ConvGeom* g) {
  const int64_t rank = in.dim();
  g->N = in.size(0);
  g->C = in.size(1);
  g->H = spatial == 2 ? in.size(2) : 1;
  g->W = in.size(rank - 1);
  g->OC = w.size(0);
  g->ICg = w.size(1);
  g->KH = spatial == 2 ? w.size(2) : 1;
  g->KW = w.size(rank - 1);
  if (g->groups <= 0 || g->C % g->groups != 0 || g->OC % g->groups != 0 ||
      g->ICg != g->C / g->groups) {
    PK_FAIL(ctx, name, "channels (%lld in, %lld out, %lld per group) do not fit %lld groups",
            static_cast<long long>(g->C), static_cast<long long>(g->OC),
            static_cast<long long>(g->ICg), static_cast<long long>(g->groups));
    return false;
  }
  if (g->sh <= 0 || g->sw <= 0 || g->dh <= 0 || g->dw <= 0 || g->ph < 0 || g->pw < 0) {
    PK_FAIL(ctx, name, "stride/dilation must be positive and padding non-negative");
    return false;
  }
  if (bias != nullptr && (bias->dim() != 1 || bias->size(0) != g->OC)) {
    PK_FAIL(ctx, name, "bias must have shape (%lld)", static_cast<long long>(g->OC));
    return false;
  }
  const int64_t span_h = g->H + 2 * g->ph - g->dh * (g->KH - 1) - 1;
  const int64_t span_w = g->W + 2 * g->pw - g->dw * (g->KW - 1) - 1;
  g->OH = span_h / g->sh + 1;
  g->OW = span_w / g->sw + 1;
  if (span_h < 0 || span_w < 0) {
    PK_FAIL(ctx, name, "kernel larger than the padded input");
    return false;
  }
  return true;
}

Shape conv_out_shape(const ConvGeom& g, int64_t rank) {
  Shape os;
  os.n = static_cast<int>(rank);
  os.s[0] = static_cast<SizesType>(g.N);
  os.s[1] = static_cast<SizesType>(g.OC);
  if (rank == 4) {
    os.s[2] = static_cast<SizesType>(g.OH);
    os.s[3] = static_cast<SizesType>(g.OW);
  } else {
    os.s[2] = static_cast<SizesType>(g.OW);
  }
  return os;
}

} // namespace

// Direct convolution, accumulating each output element in double.
void conv_direct(const Tensor& in, const Tensor& w, const Tensor* bias, Tensor& out,
                 const ConvGeom& g) {
  const ScalarType t = in.scalar_type();
  const void* ip = in.const_data_ptr();
  const void* wp = w.const_data_ptr();
  void* op = out.mutable_data_ptr();
  const int64_t OCg = g.OC / g.groups;
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t oc = 0; oc < g.OC; ++oc) {
      const int64_t grp = oc / OCg;
      const double b =
          bias != nullptr ? load_d(t, bias->const_data_ptr(), static_cast<size_t>(oc)) : 0.0;
      for (int64_t oh = 0; oh < g.OH; ++oh) {
        for (int64_t ow = 0; ow < g.OW; ++ow) {
          double acc = 0;
          for (int64_t ic = 0; ic < g.ICg; ++ic) {
            const int64_t c = grp * g.ICg + ic;
            for (int64_t kh = 0; kh < g.KH; ++kh) {
              const int64_t ih = oh * g.sh - g.ph + kh * g.dh;
              if (ih < 0 || ih >= g.H) continue;
              for (int64_t kw = 0; kw < g.KW; ++kw) {
                const int64_t iw = ow * g.sw - g.pw + kw * g.dw;
                if (iw < 0 || iw >= g.W) continue;
                acc +=
                    load_d(t, ip, static_cast<size_t>(((n * g.C + c) * g.H + ih) * g.W + iw)) *
                    load_d(t, wp, static_cast<size_t>(((oc * g.ICg + ic) * g.KH + kh) * g.KW + kw));
              }
            }
          }
          store_d(t, op, static_cast<size_t>(((n * g.OC + oc) * g.OH + oh) * g.OW + ow), acc + b);
        }
      }
    }
  }
}

// convolution.out(input, weight, bias?, stride, padding, dilation, transposed,
//                 output_padding, groups, *, out) -> out
bool prepare_convolution(KernelRuntimeContext& ctx, Args args, ConvCall* call) {
  const char* name = "aten::convolution.out";
  if (!check_nargs(ctx, args, 11, name)) return false;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return false;
  Tensor* w = get_tensor(ctx, args, 1, name);
  if (w == nullptr) return false;
  Tensor* bias = nullptr;
  if (!get_opt_tensor(ctx, args, 2, name, &bias)) return false;
  Tensor* out = get_tensor(ctx, args, 9, name);
  if (out == nullptr) return false;
  const int64_t rank = in->dim();
  if ((rank != 3 && rank != 4) || w->dim() != rank) {
    PK_FAIL(ctx, name, "only 1-D and 2-D convolutions are supported");
    return false;
  }
  const size_t spatial = static_cast<size_t>(rank - 2);
  ConvGeom g;
  if (!read_conv_params(ctx, args, name, spatial, &g) ||
      !check_conv_tensors(ctx, *in, *w, bias, *out, name) ||
      !plan_conv_sizes(ctx, *in, *w, bias, spatial, name, &g) ||
      !resize_out(ctx, *out, conv_out_shape(g, rank), name)) {
    return false;
  }
  *call = ConvCall{in, w, bias, out, g};
  return true;
}

void convolution_out(KernelRuntimeContext& ctx, Args args) {
  ConvCall c;
  if (prepare_convolution(ctx, args, &c)) conv_direct(*c.in, *c.w, c.bias, *c.out, c.g);
}

namespace {

bool pool_prologue(KernelRuntimeContext& ctx, Args args, const char* name, Tensor* in,
                   bool has_dilation, bool ceil, PoolGeom* g, Shape* os) {
  if (in->dim() != 3 && in->dim() != 4) {
    PK_FAIL(ctx, name, "input must be 3-D or 4-D");
    return false;
  }
  if (!pair(ctx, args, 1, name, 0, 0, &g->kh, &g->kw, 2)) return false;
  if (!pair(ctx, args, 2, name, g->kh, g->kw, &g->sh, &g->sw, 2)) return false;
  if (!pair(ctx, args, 3, name, 0, 0, &g->ph, &g->pw, 2)) return false;
  g->dh = g->dw = 1;
  if (has_dilation && !pair(ctx, args, 4, name, 1, 1, &g->dh, &g->dw, 2)) return false;
  if (g->kh <= 0 || g->kw <= 0 || g->sh <= 0 || g->sw <= 0 || g->dh <= 0 || g->dw <= 0 ||
      g->ph < 0 || g->pw < 0 || g->ph * 2 > g->kh || g->pw * 2 > g->kw) {
    PK_FAIL(ctx, name, "invalid kernel/stride/padding/dilation");
    return false;
  }
  const int64_t r = in->dim();
  g->H = in->size(r - 2);
  g->W = in->size(r - 1);
  g->planes = in->numel() == 0 ? 0 : 1;
  for (int64_t d = 0; d < r - 2; ++d) g->planes *= in->size(d);
  if (in->numel() == 0) {
    g->planes = 0;
  }
  g->OH = pool_out_size(g->H, g->kh, g->sh, g->ph, g->dh, ceil);
  g->OW = pool_out_size(g->W, g->kw, g->sw, g->pw, g->dw, ceil);
  if (g->OH <= 0 || g->OW <= 0) {
    PK_FAIL(ctx, name, "output would be empty");
    return false;
  }
  *os = shape_of(*in);
  os->s[r - 2] = static_cast<SizesType>(g->OH);
  os->s[r - 1] = static_cast<SizesType>(g->OW);
  return true;
}
} // namespace

// max_pool2d_with_indices.out(self, kernel_size, stride=[], padding=0,
//     dilation=1, ceil_mode=False, *, out, indices) -> (out, indices)
bool prepare_max_pool2d(KernelRuntimeContext& ctx, Args args, MaxPoolCall* call) {
  const char* name = "aten::max_pool2d_with_indices.out";
  if (!check_nargs_multi_out(ctx, args, 6, 2, name)) return false;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return false;
  bool ceil;
  if (!get_bool(ctx, args, 5, name, &ceil)) return false;
  Tensor* out = get_tensor(ctx, args, 6, name);
  if (out == nullptr) return false;
  Tensor* ind = get_tensor(ctx, args, 7, name);
  if (ind == nullptr) return false;
  if (in->scalar_type() == ScalarType::Bool || !require_same_dtype(ctx, *in, *out, name) ||
      !require_contiguous(ctx, *in, name) || !require_contiguous(ctx, *out, name) ||
      !require_contiguous(ctx, *ind, name)) {
    if (ctx.failure_state() == Error::Ok) PK_FAIL(ctx, name, "bool is not supported");
    return false;
  }
  if (ind->scalar_type() != ScalarType::Long) {
    PK_FAIL(ctx, name, "indices must be int64");
    return false;
  }
  PoolGeom g;
  Shape os;
  if (!pool_prologue(ctx, args, name, in, true, ceil, &g, &os) ||
      !resize_out(ctx, *out, os, name) || !resize_out(ctx, *ind, os, name)) {
    return false;
  }
  *call = MaxPoolCall{in, out, ind, g};
  return true;
}

void max_pool_planes(const MaxPoolCall& c) {
  const PoolGeom& g = c.g;
  const Tensor* in = c.in;
  Tensor *out = c.out, *ind = c.ind;
  const ScalarType t = in->scalar_type();
  const void* ip = in->const_data_ptr();
  void* op = out->mutable_data_ptr();
  int64_t* idp = ind->mutable_data_ptr<int64_t>();
  for (int64_t p = 0; p < g.planes; ++p) {
    const size_t base = static_cast<size_t>(p * g.H * g.W);
    auto load = [&](int64_t i) { return load_d(t, ip, base + static_cast<size_t>(i)); };
    for (int64_t oh = 0; oh < g.OH; ++oh) {
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        const size_t o = static_cast<size_t>((p * g.OH + oh) * g.OW + ow);
        double best;
        max_pool_window(g, oh, ow, load, &best, &idp[o]);
        store_d(t, op, o, best);
      }
    }
  }
}

void max_pool2d_with_indices_out(KernelRuntimeContext& ctx, Args args) {
  MaxPoolCall c;
  if (prepare_max_pool2d(ctx, args, &c)) max_pool_planes(c);
}

// avg_pool2d.out(self, kernel_size, stride=[], padding=0, ceil_mode=False,
//     count_include_pad=True, divisor_override=None, *, out) -> out
void avg_pool2d_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::avg_pool2d.out";
  if (!check_nargs(ctx, args, 9, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return;
  bool ceil, include_pad;
  int64_t divisor = 0;
  bool has_div = false;
  if (!get_bool(ctx, args, 4, name, &ceil) || !get_bool(ctx, args, 5, name, &include_pad) ||
      !get_opt_int(ctx, args, 6, name, &divisor, &has_div)) {
    return;
  }
  if (has_div && divisor == 0) {
    PK_FAIL(ctx, name, "divisor_override must be non-zero");
    return;
  }
  Tensor* out = get_tensor(ctx, args, 7, name);
  if (out == nullptr) return;
  if (!require_floating(ctx, *in, name) || !require_same_dtype(ctx, *in, *out, name) ||
      !require_contiguous(ctx, *in, name) || !require_contiguous(ctx, *out, name)) {
    return;
  }
  PoolGeom g;
  Shape os;
  if (!pool_prologue(ctx, args, name, in, false, ceil, &g, &os) ||
      !resize_out(ctx, *out, os, name)) {
    return;
  }
  const ScalarType t = in->scalar_type();
  const void* ip = in->const_data_ptr();
  void* op = out->mutable_data_ptr();
  for (int64_t p = 0; p < g.planes; ++p) {
    for (int64_t oh = 0; oh < g.OH; ++oh) {
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        int64_t h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
        int64_t h1 = std::min(h0 + g.kh, g.H + g.ph), w1 = std::min(w0 + g.kw, g.W + g.pw);
        const int64_t pool = (h1 - h0) * (w1 - w0);
        h0 = std::max<int64_t>(h0, 0);
        w0 = std::max<int64_t>(w0, 0);
        h1 = std::min(h1, g.H);
        w1 = std::min(w1, g.W);
        double sum = 0;
        for (int64_t ih = h0; ih < h1; ++ih) {
          for (int64_t iw = w0; iw < w1; ++iw) {
            sum += load_d(t, ip, static_cast<size_t>(p * g.H * g.W + ih * g.W + iw));
          }
        }
        const int64_t div = has_div ? divisor : include_pad ? pool : (h1 - h0) * (w1 - w0);
        store_d(t, op, static_cast<size_t>((p * g.OH + oh) * g.OW + ow),
                div == 0 ? NAN : sum / static_cast<double>(div));
      }
    }
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch
