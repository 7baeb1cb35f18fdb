// 2-D resampling of (N, C, H, W) tensors in any dim order:
// upsample_nearest2d.vec, upsample_bilinear2d.vec, _upsample_bilinear2d_aa.
// Source coordinates follow ATen's CPU kernels (nearest computes in float,
// as ATen does, so that the chosen pixel matches it exactly).
#include <cmath>
#include <vector>

#include "op_tables.h"
#include "resample.h"
#include "view_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

struct Resample {
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  bool has_scales = false;
  double scale_h = 0, scale_w = 0; // the scale_factors argument (out / in)
  int64_t istr[4] = {}, ostr[4] = {};
};

// Output size from output_size or scale_factors (exactly one given, already
// read into has_size/size and r's scale fields), then resizes out to
// (N, C, out_h, out_w).
bool plan_resample(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, bool has_size,
                   const IntList& size, const char* name, Resample* r) {
  if (in.dim() != 4) {
    PK_FAIL(ctx, name, "input must be 4-D (N, C, H, W), got rank %zd",
            static_cast<ssize_t>(in.dim()));
    return false;
  }
  r->in_h = in.size(2);
  r->in_w = in.size(3);
  if (has_size == r->has_scales || (has_size && size.n != 2)) {
    PK_FAIL(ctx, name, "needs either output_size or scale_factors, of two values each");
    return false;
  }
  if (has_size) {
    r->out_h = size.v[0];
    r->out_w = size.v[1];
  } else {
    const double h = std::floor(static_cast<double>(r->in_h) * r->scale_h);
    const double w = std::floor(static_cast<double>(r->in_w) * r->scale_w);
    // Negated comparisons so that NaN fails too.
    if (!(h >= 0 && h <= INT32_MAX && w >= 0 && w <= INT32_MAX)) {
      PK_FAIL(ctx, name, "scale factors (%g, %g) give an invalid size", r->scale_h, r->scale_w);
      return false;
    }
    r->out_h = static_cast<int64_t>(h);
    r->out_w = static_cast<int64_t>(w);
  }
  if (r->out_h <= 0 || r->out_w <= 0 || r->out_h > INT32_MAX || r->out_w > INT32_MAX) {
    PK_FAIL(ctx, name, "output size (%lld, %lld) must be positive",
            static_cast<long long>(r->out_h), static_cast<long long>(r->out_w));
    return false;
  }
  Shape os = shape_of(in);
  os.s[2] = static_cast<SizesType>(r->out_h);
  os.s[3] = static_cast<SizesType>(r->out_w);
  if (!check_numel(ctx, os, name) || !resize_out(ctx, out, os, name)) return false;
  tensor_strides(in, r->istr);
  tensor_strides(out, r->ostr);
  return true;
}

// Reads output_size? and scale_factors? (two values when given).
bool read_resample_args(KernelRuntimeContext& ctx, Args args, size_t size_idx, size_t scales_idx,
                        const char* name, bool* has_size, IntList* size, Resample* r) {
  ArrayRef<double> scales;
  if (!get_opt_int_list(ctx, args, size_idx, name, size, has_size) ||
      !get_opt_double_list(ctx, args, scales_idx, name, &scales, &r->has_scales)) {
    return false;
  }
  if (r->has_scales) {
    if (scales.size() != 2) {
      PK_FAIL(ctx, name, "scale_factors needs two values, got %zu", scales.size());
      return false;
    }
    r->scale_h = scales[0];
    r->scale_w = scales[1];
  }
  return true;
}

// ATen's compute_scales_value: the input step per output step.
template <typename T>
T input_step(bool has_scale, double scale, int64_t in, int64_t out) {
  return has_scale && scale > 0 ? static_cast<T>(1.0 / scale)
                                : static_cast<T>(in) / static_cast<T>(out);
}

// ATen's area_pixel_compute_scale.
double area_scale(int64_t in, int64_t out, bool align_corners, bool has_scale, double scale) {
  if (align_corners) {
    return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  }
  return input_step<double>(has_scale, scale, in, out);
}

void copy_plan(const Tensor* in, Tensor* out, const Resample& r, ResampleCall* call) {
  call->in = in;
  call->out = out;
  call->in_h = r.in_h;
  call->in_w = r.in_w;
  call->out_h = r.out_h;
  call->out_w = r.out_w;
  for (int i = 0; i < 4; ++i) {
    call->istr[i] = r.istr[i];
    call->ostr[i] = r.ostr[i];
  }
}

// upsample_nearest2d.vec_out(input, output_size?, scale_factors?, *, out) -> out
void upsample_nearest2d_vec_out(KernelRuntimeContext& ctx, Args args) {
  ResampleCall c;
  if (prepare_upsample_nearest2d(ctx, args, &c)) upsample_nearest2d_compute(c);
}

// upsample_bilinear2d.vec_out(input, output_size?, align_corners,
//                             scale_factors?, *, out) -> out
void upsample_bilinear2d_vec_out(KernelRuntimeContext& ctx, Args args) {
  ResampleCall c;
  if (prepare_upsample_bilinear2d(ctx, args, &c)) upsample_bilinear2d_compute(c);
}

// The antialiasing (triangle) filter's taps of one output position along
// one axis, ATen's _compute_indices_min_size_weights_aa with interp_size 2.
struct AaTaps {
  int64_t first = 0, count = 0;
  double center = 0, invscale = 1, total = 0;
  double weight(int64_t j) const {
    const double x = std::fabs((static_cast<double>(j + first) - center + 0.5) * invscale);
    return x < 1.0 ? 1.0 - x : 0.0;
  }
};

AaTaps aa_taps(int64_t o, int64_t in, double scale) {
  AaTaps a;
  const double support = scale >= 1.0 ? scale : 1.0;
  a.center = scale * (static_cast<double>(o) + 0.5);
  a.invscale = scale >= 1.0 ? 1.0 / scale : 1.0;
  const int64_t lo = static_cast<int64_t>(a.center - support + 0.5);
  const int64_t hi = static_cast<int64_t>(a.center + support + 0.5);
  a.first = lo > 0 ? lo : 0;
  a.count = (hi < in ? hi : in) - a.first;
  for (int64_t j = 0; j < a.count; ++j) a.total += a.weight(j);
  return a;
}

// _upsample_bilinear2d_aa.out(self, output_size, align_corners, scales_h?,
//                             scales_w?, *, out) -> out
void upsample_bilinear2d_aa_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::_upsample_bilinear2d_aa.out";
  Tensor *in, *out;
  bool align = false, has_h = false, has_w = false;
  double sh_arg = 0, sw_arg = 0;
  if (!same_dtype_io(ctx, args, 7, 5, name, &in, &out) || !get_bool(ctx, args, 2, name, &align) ||
      !get_opt_double(ctx, args, 3, name, &sh_arg, &has_h) ||
      !get_opt_double(ctx, args, 4, name, &sw_arg, &has_w) || !require_floating(ctx, *in, name)) {
    return;
  }
  // output_size is required here; the scales only refine the step.
  Resample r;
  IntList size;
  if (!get_int_list(ctx, args, 1, name, &size) ||
      !plan_resample(ctx, *in, *out, true, size, name, &r)) {
    return;
  }
  const double sh = area_scale(r.in_h, r.out_h, align, has_h, sh_arg);
  const double sw = area_scale(r.in_w, r.out_w, align, has_w, sw_arg);
  const ScalarType t = in->scalar_type();
  const void* ip = in->const_data_ptr();
  for (int64_t n = 0; n < in->size(0); ++n) {
    for (int64_t c = 0; c < in->size(1); ++c) {
      const int64_t ib = n * r.istr[0] + c * r.istr[1], ob = n * r.ostr[0] + c * r.ostr[1];
      for (int64_t y = 0; y < r.out_h; ++y) {
        const AaTaps ty = aa_taps(y, r.in_h, sh);
        for (int64_t x = 0; x < r.out_w; ++x) {
          const AaTaps tx = aa_taps(x, r.in_w, sw);
          double acc = 0;
          for (int64_t j = 0; j < ty.count; ++j) {
            double row = 0;
            const int64_t rb = ib + (ty.first + j) * r.istr[2];
            for (int64_t k = 0; k < tx.count; ++k) {
              row += tx.weight(k) *
                     load_d(t, ip, static_cast<size_t>(rb + (tx.first + k) * r.istr[3]));
            }
            acc += ty.weight(j) * row;
          }
          const double norm = ty.total * tx.total;
          store_d(t, out->mutable_data_ptr(),
                  static_cast<size_t>(ob + y * r.ostr[2] + x * r.ostr[3]),
                  norm > 0 ? acc / norm : 0.0);
        }
      }
    }
  }
}

const Kernel kUpsampleKernels[] = {
    Kernel("aten::upsample_nearest2d.vec_out", upsample_nearest2d_vec_out),
    Kernel("aten::upsample_bilinear2d.vec_out", upsample_bilinear2d_vec_out),
    Kernel("aten::_upsample_bilinear2d_aa.out", upsample_bilinear2d_aa_out),
};

} // namespace

int64_t nearest_source(int64_t o, int64_t in, int64_t out, float step) {
  if (in == out) return o;
  if (out == 2 * in) return o >> 1;
  const int64_t i = static_cast<int64_t>(std::floor(static_cast<float>(o) * step));
  return i < in - 1 ? i : in - 1;
}

Taps bilinear_taps(int64_t o, int64_t in, int64_t out, double step, bool align_corners) {
  Taps t;
  if (in == out) { // ATen copies then, whatever the scale factor says
    t.i0 = t.i1 = o;
    return t;
  }
  double src =
      align_corners ? step * static_cast<double>(o) : step * (static_cast<double>(o) + 0.5) - 0.5;
  if (src < 0) src = 0;
  t.i0 = static_cast<int64_t>(src);
  if (t.i0 > in - 1) t.i0 = in - 1;
  t.i1 = t.i0 < in - 1 ? t.i0 + 1 : t.i0;
  t.w1 = src - static_cast<double>(t.i0);
  if (t.w1 > 1) t.w1 = 1;
  t.w0 = 1.0 - t.w1;
  return t;
}

void upsample_nearest2d_compute(const ResampleCall& c) {
  const ScalarType t = c.in->scalar_type();
  // The source column of each output column, worked out once.
  std::vector<int64_t> src_x(static_cast<size_t>(c.out_w));
  for (int64_t x = 0; x < c.out_w; ++x)
    src_x[x] = nearest_source(x, c.in_w, c.out_w, c.near_w) * c.istr[3];
  for (int64_t n = 0; n < c.in->size(0); ++n) {
    for (int64_t ch = 0; ch < c.in->size(1); ++ch) {
      const int64_t ib = n * c.istr[0] + ch * c.istr[1], ob = n * c.ostr[0] + ch * c.ostr[1];
      for (int64_t y = 0; y < c.out_h; ++y) {
        const int64_t row = ib + nearest_source(y, c.in_h, c.out_h, c.near_h) * c.istr[2];
        for (int64_t x = 0; x < c.out_w; ++x) {
          move_elem(t, c.in->const_data_ptr(), static_cast<size_t>(row + src_x[x]), t,
                    c.out->mutable_data_ptr(),
                    static_cast<size_t>(ob + y * c.ostr[2] + x * c.ostr[3]));
        }
      }
    }
  }
}

void upsample_bilinear2d_compute(const ResampleCall& c) {
  const ScalarType t = c.in->scalar_type();
  const void* ip = c.in->const_data_ptr();
  // Each output column's taps, worked out once.
  std::vector<Taps> col_taps(static_cast<size_t>(c.out_w));
  for (int64_t x = 0; x < c.out_w; ++x)
    col_taps[x] = bilinear_taps(x, c.in_w, c.out_w, c.step_w, c.align_corners);
  for (int64_t n = 0; n < c.in->size(0); ++n) {
    for (int64_t ch = 0; ch < c.in->size(1); ++ch) {
      const int64_t ib = n * c.istr[0] + ch * c.istr[1], ob = n * c.ostr[0] + ch * c.ostr[1];
      for (int64_t y = 0; y < c.out_h; ++y) {
        const Taps ty = bilinear_taps(y, c.in_h, c.out_h, c.step_h, c.align_corners);
        const int64_t r0 = ib + ty.i0 * c.istr[2], r1 = ib + ty.i1 * c.istr[2];
        for (int64_t x = 0; x < c.out_w; ++x) {
          const Taps& tx = col_taps[x];
          const int64_t c0 = tx.i0 * c.istr[3], c1 = tx.i1 * c.istr[3];
          auto at = [&](int64_t off) { return load_d(t, ip, static_cast<size_t>(off)); };
          const double v = ty.w0 * (tx.w0 * at(r0 + c0) + tx.w1 * at(r0 + c1)) +
                           ty.w1 * (tx.w0 * at(r1 + c0) + tx.w1 * at(r1 + c1));
          store_d(t, c.out->mutable_data_ptr(),
                  static_cast<size_t>(ob + y * c.ostr[2] + x * c.ostr[3]), v);
        }
      }
    }
  }
}

bool prepare_upsample_nearest2d(KernelRuntimeContext& ctx, Args args, ResampleCall* call) {
  const char* name = "aten::upsample_nearest2d.vec_out";
  Tensor *in, *out;
  Resample r;
  IntList size;
  bool has_size = false;
  if (!same_dtype_io(ctx, args, 5, 3, name, &in, &out) ||
      !read_resample_args(ctx, args, 1, 2, name, &has_size, &size, &r) ||
      !plan_resample(ctx, *in, *out, has_size, size, name, &r)) {
    return false;
  }
  copy_plan(in, out, r, call);
  call->near_h = input_step<float>(r.has_scales, r.scale_h, r.in_h, r.out_h);
  call->near_w = input_step<float>(r.has_scales, r.scale_w, r.in_w, r.out_w);
  return true;
}

bool prepare_upsample_bilinear2d(KernelRuntimeContext& ctx, Args args, ResampleCall* call) {
  const char* name = "aten::upsample_bilinear2d.vec_out";
  Tensor *in, *out;
  bool align = false;
  Resample r;
  IntList size;
  bool has_size = false;
  if (!same_dtype_io(ctx, args, 6, 4, name, &in, &out) || !get_bool(ctx, args, 2, name, &align) ||
      !require_floating(ctx, *in, name) ||
      !read_resample_args(ctx, args, 1, 3, name, &has_size, &size, &r) ||
      !plan_resample(ctx, *in, *out, has_size, size, name, &r)) {
    return false;
  }
  copy_plan(in, out, r, call);
  call->align_corners = align;
  call->step_h = area_scale(r.in_h, r.out_h, align, r.has_scales, r.scale_h);
  call->step_w = area_scale(r.in_w, r.out_w, align, r.has_scales, r.scale_w);
  return true;
}

Span<const Kernel> upsample_kernels() {
  return Span<const Kernel>(kUpsampleKernels, sizeof(kUpsampleKernels) / sizeof(Kernel));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
