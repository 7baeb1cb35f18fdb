#include "aoti/conv_geometry.h"

#include <climits>
#include <initializer_list>

#include "aoti/shim_log.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {
namespace conv {

namespace {

long long ll(int64_t v) { return static_cast<long long>(v); }

const char* dtype_name(int32_t dtype) {
  switch (dtype) {
    case kDtF32:
      return "float32";
    case kDtF16:
      return "float16";
    case kDtBF16:
      return "bfloat16";
    case kDtF64:
      return "float64";
    default:
      return "unsupported";
  }
}

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

// A parameter list of length 1 (same for every spatial dim) or `nsp`,
// expanded; `allow_empty`: length 0 means all `dflt`.
bool expand_list(const char* fn, const char* what, const int64_t* v, int64_t n, int nsp,
                 bool allow_empty, int64_t dflt, int64_t* out) {
  if (n == 0 && allow_empty) {
    for (int i = 0; i < nsp; ++i) out[i] = dflt;
    return true;
  }
  if (n != 1 && n != nsp) {
    log_errf(fn, "%s has %lld values; expected 1 or %d (one per spatial dim)", what, ll(n), nsp);
    return false;
  }
  if (v == nullptr) {
    log_errf(fn, "%s is a null pointer with length %lld", what, ll(n));
    return false;
  }
  for (int i = 0; i < nsp; ++i) out[i] = v[n == 1 ? 0 : i];
  return true;
}

// Device, dtype and rank of input, weight and bias.
bool check_tensors(const char* fn, const TensorObj* input, const TensorObj* weight,
                   const TensorObj* bias) {
  if (input == nullptr || weight == nullptr) {
    log_errf(fn, "%s handle is null", input == nullptr ? "input" : "weight");
    return false;
  }
  for (const TensorObj* t : {input, weight, bias}) {
    if (t == nullptr) continue;
    const char* what = t == input ? "input" : t == weight ? "weight" : "bias";
    if (t->device_type != kDevCuda) {
      log_errf(fn, "%s is not a CUDA tensor (device type %d)", what, int(t->device_type));
      return false;
    }
    if (t->device_index != input->device_index) {
      log_errf(fn, "%s is on cuda:%d but input is on cuda:%d", what, int(t->device_index),
               int(input->device_index));
      return false;
    }
    if (t->sizes.size() != t->strides.size()) {
      log_errf(fn, "%s handle has inconsistent sizes/strides", what);
      return false;
    }
  }
  if (weight->dtype != input->dtype || (bias != nullptr && bias->dtype != input->dtype)) {
    log_errf(fn, "mixed dtypes: input %s (%d), weight %s (%d)%s%s", dtype_name(input->dtype),
             int(input->dtype), dtype_name(weight->dtype), int(weight->dtype),
             bias != nullptr ? ", bias " : "", bias != nullptr ? dtype_name(bias->dtype) : "");
    return false;
  }
  const int32_t dt = input->dtype;
  if (dt != kDtF32 && dt != kDtF16 && dt != kDtBF16 && dt != kDtF64) {
    log_errf(fn, "unsupported dtype %d (float32, float16, bfloat16, float64)", int(dt));
    return false;
  }
  const int nd = static_cast<int>(input->sizes.size());
  if (nd < 3 || nd > 5) {
    log_errf(fn, "input must be 3-D, 4-D or 5-D [N, C, spatial...] (got %d-D)", nd);
    return false;
  }
  if (static_cast<int>(weight->sizes.size()) != nd) {
    log_errf(fn, "weight is %d-D but input is %d-D", int(weight->sizes.size()), nd);
    return false;
  }
  return true;
}

// Stride, padding, dilation, output padding and groups into `p`.
bool read_params(const char* fn, const ConvArgs& a, ConvProblem* p) {
  const int nsp = p->nsp;
  if (a.groups <= 0) {
    log_errf(fn, "groups must be positive (got %lld)", ll(a.groups));
    return false;
  }
  p->groups = a.groups;
  p->transposed = a.transposed;
  if (!expand_list(fn, "stride", a.stride, a.stride_len, nsp, false, 1, p->stride) ||
      !expand_list(fn, "padding", a.padding, a.padding_len, nsp, false, 0, p->padding) ||
      !expand_list(fn, "dilation", a.dilation, a.dilation_len, nsp, false, 1, p->dilation) ||
      (a.transposed && !expand_list(fn, "output_padding", a.output_padding, a.output_padding_len,
                                    nsp, true, 0, p->output_padding))) {
    return false;
  }
  for (int i = 0; i < nsp; ++i) {
    const int64_t st = p->stride[i], pad = p->padding[i], dil = p->dilation[i],
                  opad = p->output_padding[i];
    if (st <= 0 || dil <= 0 || pad < 0 || opad < 0) {
      log_errf(fn,
               "invalid parameters at spatial dim %d: stride %lld and dilation %lld must be "
               "positive, padding %lld and output_padding %lld non-negative",
               i, ll(st), ll(dil), ll(pad), ll(opad));
      return false;
    }
    if (a.transposed && opad >= st && opad >= dil) {
      log_errf(fn, "output_padding %lld must be smaller than stride %lld or dilation %lld",
               ll(opad), ll(st), ll(dil));
      return false;
    }
  }
  return true;
}

// Sizes of input and weight, channel counts and the bias shape; sets c_out.
bool check_channels(const char* fn, const TensorObj* input, const TensorObj* weight,
                    const TensorObj* bias, ConvProblem* p) {
  const Dims& is = input->sizes;
  const Dims& ws = weight->sizes;
  for (size_t i = 0; i < is.size(); ++i) {
    if (is[i] < 0 || (i > 0 && is[i] == 0)) {
      log_errf(fn, "input dim %zu has size %lld (only the batch dim may be empty)", i, ll(is[i]));
      return false;
    }
    if (ws[i] <= 0) {
      log_errf(fn, "weight dim %zu has size %lld (must be positive)", i, ll(ws[i]));
      return false;
    }
  }
  const int64_t c_in = is[1], groups = p->groups;
  if (!p->transposed) {
    // weight [C_out, C_in / groups, k...]
    p->c_out = ws[0];
    if (p->c_out % groups != 0) {
      log_errf(fn, "weight's output channels (%lld) are not divisible by groups (%lld)",
               ll(p->c_out), ll(groups));
      return false;
    }
    if (c_in % groups != 0 || ws[1] * groups != c_in) {
      log_errf(fn, "channel mismatch: input has %lld channels, weight expects %lld x %lld groups",
               ll(c_in), ll(ws[1]), ll(groups));
      return false;
    }
  } else {
    // weight [C_in, C_out / groups, k...]
    if (c_in % groups != 0) {
      log_errf(fn, "input channels (%lld) are not divisible by groups (%lld)", ll(c_in),
               ll(groups));
      return false;
    }
    if (ws[0] != c_in) {
      log_errf(fn,
               "channel mismatch: input has %lld channels, transposed weight [C_in, "
               "C_out/groups, k...] has %lld",
               ll(c_in), ll(ws[0]));
      return false;
    }
    p->c_out = ws[1] * groups;
  }
  if (bias != nullptr && (bias->sizes.size() != 1 || bias->sizes[0] != p->c_out)) {
    log_errf(fn, "bias must be 1-D with %lld values (got %zu-D, first dim %lld)", ll(p->c_out),
             bias->sizes.size(), bias->sizes.empty() ? 0LL : ll(bias->sizes[0]));
    return false;
  }
  return true;
}

// Output sizes in the input's rank.
bool output_sizes(const char* fn, const TensorObj* input, const TensorObj* weight, ConvProblem* p) {
  p->out_sizes[0] = input->sizes[0];
  p->out_sizes[1] = p->c_out;
  for (int i = 0; i < p->nsp; ++i) {
    const int64_t in = input->sizes[static_cast<size_t>(i + 2)];
    const int64_t k = weight->sizes[static_cast<size_t>(i + 2)];
    const int64_t st = p->stride[i], pad = p->padding[i], dil = p->dilation[i];
    int64_t o;
    if (!p->transposed) {
      const int64_t span = in + 2 * pad - dil * (k - 1) - 1;
      o = span < 0 ? 0 : span / st + 1;
    } else {
      o = (in - 1) * st - 2 * pad + dil * (k - 1) + p->output_padding[i] + 1;
    }
    if (o <= 0) {
      log_errf(fn,
               "spatial dim %d: output size %lld is not positive (input %lld, kernel %lld, "
               "stride %lld, padding %lld, dilation %lld)",
               i, ll(o), ll(in), ll(k), ll(st), ll(pad), ll(dil));
      return false;
    }
    p->out_sizes[i + 2] = o;
  }
  return true;
}

// The cuDNN views and int parameters; false when something does not fit
// cuDNN's 32-bit descriptors.
bool cudnn_views(const char* fn, const TensorObj* input, const TensorObj* weight, ConvProblem* p) {
  const bool one_d = p->nd == 3;
  p->x = view_of(input, one_d);
  p->w = view_of(weight, one_d);
  p->cnd = p->x.nd;
  const int cnsp = p->cnd - 2;
  bool fits = p->groups <= INT_MAX;
  for (int i = 0, j = 0; i < cnsp; ++i) {
    const bool unit = one_d && i == 0;
    const int64_t pad = unit ? 0 : p->padding[j], st = unit ? 1 : p->stride[j],
                  dil = unit ? 1 : p->dilation[j];
    fits = fits && pad <= INT_MAX && st <= INT_MAX && dil <= INT_MAX;
    p->cpad[i] = static_cast<int>(pad);
    p->cstride[i] = static_cast<int>(st);
    p->cdilation[i] = static_cast<int>(dil);
    if (!unit) ++j;
  }
  View& y = p->y;
  y.nd = p->cnd;
  y.size[0] = p->out_sizes[0];
  y.size[1] = p->out_sizes[1];
  if (one_d) {
    y.size[2] = 1;
    y.size[3] = p->out_sizes[2];
  } else {
    for (int i = 2; i < p->cnd; ++i) y.size[i] = p->out_sizes[i];
  }
  for (const View* v : std::initializer_list<const View*>{&p->x, &p->w, &p->y}) {
    int64_t packed[kMaxDims] = {};
    packed_strides(v->nd, v->size, Layout::kContiguous, packed);
    fits = fits && packed[0] * v->size[0] <= INT_MAX;
    for (int i = 0; i < v->nd; ++i) fits = fits && v->size[i] <= INT_MAX;
  }
  if (!fits) {
    log_errf(fn, "tensor too large for cuDNN's 32-bit descriptors (2^31 elements or more)");
  }
  return fits;
}

// Output memory format: PyTorch's cuDNN path gives channels-last when the
// input or the weight suggests it (4-D and 5-D; never for float64).
void output_layout(const TensorObj* input, const TensorObj* weight, ConvProblem* p) {
  p->layout = (p->nd >= 4 && input->dtype != kDtF64 &&
               (suggests_channels_last(input) || suggests_channels_last(weight)))
                  ? Layout::kChannelsLast
                  : Layout::kContiguous;
  packed_strides(p->cnd, p->y.size, p->layout, p->y.stride);
  if (p->nd == 3) {
    p->out_strides[0] = p->y.stride[0];
    p->out_strides[1] = p->y.stride[1];
    p->out_strides[2] = p->y.stride[3];
  } else {
    for (int i = 0; i < p->nd; ++i) p->out_strides[i] = p->y.stride[i];
  }
}

} // namespace

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

bool is_packed(const View& v, Layout l) {
  int64_t want[kMaxDims];
  packed_strides(v.nd, v.size, l, want);
  for (int i = 0; i < v.nd; ++i) {
    if (v.size[i] != 1 && v.stride[i] != want[i]) return false;
  }
  return true;
}

// Walking C, then the spatial dims from last to first, then N, strides
// never decrease (a dim of size > 1 must step over the whole previous dim);
// a zero C stride, an empty dim, or an N stride equal to C's (all-unit
// shapes) mean contiguous.
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

bool plan_convolution(const char* fn, const TensorObj* input, const TensorObj* weight,
                      const TensorObj* bias, const ConvArgs& args, ConvProblem* p) {
  *p = ConvProblem{};
  if (!check_tensors(fn, input, weight, bias)) return false;
  p->nd = static_cast<int>(input->sizes.size());
  p->nsp = p->nd - 2;
  if (!read_params(fn, args, p) || !check_channels(fn, input, weight, bias, p) ||
      !output_sizes(fn, input, weight, p) || !cudnn_views(fn, input, weight, p)) {
    return false;
  }
  output_layout(input, weight, p);
  return true;
}

} // namespace conv
} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
