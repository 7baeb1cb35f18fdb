// Normalizations that compute their statistics: native_group_norm,
// _native_batch_norm_legit (training, or inference through the
// _no_training kernel) and _native_batch_norm_legit.no_stats. Inputs are
// (N, C, *) in any dim order; statistics accumulate in double.
#include <cmath>

#include "kernels.h"
#include "op_tables.h"
#include "reduce.h"
#include "view_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// Calls f(offset) for each element of (n, c, *) of a tensor with strides str.
template <typename F>
void for_each_in_plane(const Tensor& t, const int64_t* str, int64_t n, int64_t c, F f) {
  Shape plane;
  for (int64_t d = 2; d < t.dim(); ++d) plane.s[plane.n++] = t.sizes()[d];
  const int64_t base = n * str[0] + c * str[1];
  for_each_index(plane, [&](const int64_t* idx) { f(base + offset_of(idx, str + 2, plane.n)); });
}

// weight/bias/stat tensors: None, or floating of shape (C).
bool check_per_channel(KernelRuntimeContext& ctx, const Tensor* t, int64_t C, const char* what,
                       const char* name) {
  if (t == nullptr) return true;
  if (t->dim() != 1 || t->size(0) != C || !isFloatingType(t->scalar_type())) {
    PK_FAIL(ctx, name, "%s must be floating with shape (%lld)", what, static_cast<long long>(C));
    return false;
  }
  return true;
}

double at_or(const Tensor* t, int64_t i, double dflt) {
  return t == nullptr ? dflt
                      : load_d(t->scalar_type(), t->const_data_ptr(), static_cast<size_t>(i));
}

// The statistics and output tensors of one normalization call.
struct NormIo {
  Tensor* in = nullptr;
  Tensor* weight = nullptr;
  Tensor* bias = nullptr;
  Tensor* out = nullptr;
  int64_t istr[kMaxDim] = {}, ostr[kMaxDim] = {};
};

// Writes (x - mean) * rstd * w[c] + b[c] over the (n, c) plane.
void normalize_plane(NormIo& io, int64_t n, int64_t c, double mean, double rstd) {
  const ScalarType t = io.in->scalar_type();
  const double scale = rstd * at_or(io.weight, c, 1.0);
  const double shift = at_or(io.bias, c, 0.0) - mean * scale;
  Shape plane;
  for (int64_t d = 2; d < io.in->dim(); ++d) plane.s[plane.n++] = io.in->sizes()[d];
  const int64_t ib = n * io.istr[0] + c * io.istr[1], ob = n * io.ostr[0] + c * io.ostr[1];
  for_each_index(plane, [&](const int64_t* idx) {
    const double x = load_d(t, io.in->const_data_ptr(),
                            static_cast<size_t>(ib + offset_of(idx, io.istr + 2, plane.n)));
    store_d(t, io.out->mutable_data_ptr(),
            static_cast<size_t>(ob + offset_of(idx, io.ostr + 2, plane.n)), x * scale + shift);
  });
}

// Mean and biased variance of the planes (n0..n1) x (c0..c1), two passes.
void plane_stats(const NormIo& io, int64_t n0, int64_t n1, int64_t c0, int64_t c1, double* mean,
                 double* var, int64_t* count) {
  const ScalarType t = io.in->scalar_type();
  const void* p = io.in->const_data_ptr();
  double sum = 0;
  int64_t k = 0;
  for (int64_t n = n0; n < n1; ++n)
    for (int64_t c = c0; c < c1; ++c)
      for_each_in_plane(*io.in, io.istr, n, c, [&](int64_t o) {
        sum += load_d(t, p, static_cast<size_t>(o));
        ++k;
      });
  *mean = k > 0 ? sum / static_cast<double>(k) : 0.0;
  double sq = 0;
  for (int64_t n = n0; n < n1; ++n)
    for (int64_t c = c0; c < c1; ++c)
      for_each_in_plane(*io.in, io.istr, n, c, [&](int64_t o) {
        const double d = load_d(t, p, static_cast<size_t>(o)) - *mean;
        sq += d * d;
      });
  *var = k > 0 ? sq / static_cast<double>(k) : 0.0;
  *count = k;
}

// Reads input, weight?, bias? at 0..2 and out at out_idx; checks dtypes and
// (C) shapes and resizes out.
bool read_norm_io(KernelRuntimeContext& ctx, Args args, size_t out_idx, const char* name,
                  NormIo* io) {
  io->in = get_tensor(ctx, args, 0, name);
  if (io->in == nullptr || !get_opt_tensor(ctx, args, 1, name, &io->weight) ||
      !get_opt_tensor(ctx, args, 2, name, &io->bias)) {
    return false;
  }
  io->out = get_tensor(ctx, args, out_idx, name);
  if (io->out == nullptr || !require_floating(ctx, *io->in, name) ||
      !require_same_dtype(ctx, *io->in, *io->out, name)) {
    return false;
  }
  if (io->in->dim() < 2) {
    PK_FAIL(ctx, name, "input must be (N, C, *), got rank %zd",
            static_cast<ssize_t>(io->in->dim()));
    return false;
  }
  const int64_t C = io->in->size(1);
  if (!check_per_channel(ctx, io->weight, C, "weight", name) ||
      !check_per_channel(ctx, io->bias, C, "bias", name) ||
      !resize_out(ctx, *io->out, io->in->sizes(), name)) {
    return false;
  }
  tensor_strides(*io->in, io->istr);
  tensor_strides(*io->out, io->ostr);
  return true;
}

// A statistics output resized to `n` entries of the input's dtype.
Tensor* stats_out(KernelRuntimeContext& ctx, Args args, size_t i, const Tensor& in,
                  const Shape& shape, const char* name) {
  Tensor* t = get_tensor(ctx, args, i, name);
  if (t == nullptr || !require_same_dtype(ctx, in, *t, name) || !resize_out(ctx, *t, shape, name)) {
    return nullptr;
  }
  return t;
}

} // namespace

// native_group_norm.out(input, weight?, bias?, N, C, HxW, group, eps, *,
//                       out0, out1, out2) -> (out0, out1, out2)
bool prepare_group_norm(KernelRuntimeContext& ctx, Args args, GroupNormCall* call) {
  const char* name = "aten::native_group_norm.out";
  NormIo io;
  int64_t N, C, HxW, group;
  double eps;
  if (!check_nargs_multi_out(ctx, args, 8, 3, name) || !read_norm_io(ctx, args, 8, name, &io) ||
      !get_int(ctx, args, 3, name, &N) || !get_int(ctx, args, 4, name, &C) ||
      !get_int(ctx, args, 5, name, &HxW) || !get_int(ctx, args, 6, name, &group) ||
      !get_double(ctx, args, 7, name, &eps)) {
    return false;
  }
  const Tensor& in = *io.in;
  int64_t plane_numel = 1;
  for (int64_t d = 2; d < in.dim(); ++d) plane_numel *= in.size(d);
  if (N != in.size(0) || C != in.size(1) || HxW != plane_numel || group <= 0 || C % group != 0) {
    PK_FAIL(ctx, name, "N %lld, C %lld, HxW %lld, group %lld do not fit the input",
            static_cast<long long>(N), static_cast<long long>(C), static_cast<long long>(HxW),
            static_cast<long long>(group));
    return false;
  }
  Shape ss;
  ss.n = 2;
  ss.s[0] = static_cast<SizesType>(N);
  ss.s[1] = static_cast<SizesType>(group);
  Tensor* mean_out = stats_out(ctx, args, 9, in, ss, name);
  Tensor* rstd_out = mean_out == nullptr ? nullptr : stats_out(ctx, args, 10, in, ss, name);
  if (rstd_out == nullptr) return false;
  *call =
      GroupNormCall{io.in, io.weight, io.bias, io.out, mean_out, rstd_out, N, C, HxW, group, eps};
  return true;
}

void group_norm_compute(const GroupNormCall& c) {
  NormIo io;
  io.in = const_cast<Tensor*>(c.in);
  io.weight = const_cast<Tensor*>(c.w);
  io.bias = const_cast<Tensor*>(c.b);
  io.out = c.out;
  tensor_strides(*c.in, io.istr);
  tensor_strides(*c.out, io.ostr);
  const ScalarType t = c.in->scalar_type();
  const int64_t per = c.C / c.group;
  for (int64_t n = 0; n < c.N; ++n) {
    for (int64_t g = 0; g < c.group; ++g) {
      double mean, var;
      int64_t count;
      plane_stats(io, n, n + 1, g * per, (g + 1) * per, &mean, &var, &count);
      const double rstd = 1.0 / std::sqrt(var + c.eps);
      for (int64_t ch = g * per; ch < (g + 1) * per; ++ch) normalize_plane(io, n, ch, mean, rstd);
      const size_t k = static_cast<size_t>(n * c.group + g);
      store_d(t, c.mean_out->mutable_data_ptr(), k, mean);
      store_d(t, c.rstd_out->mutable_data_ptr(), k, rstd);
    }
  }
}

namespace {

void native_group_norm_out(KernelRuntimeContext& ctx, Args args) {
  GroupNormCall c;
  if (prepare_group_norm(ctx, args, &c)) group_norm_compute(c);
}

// Batch statistics per channel: normalizes, saves mean and 1/std, and
// updates the running statistics (unbiased variance) when given.
void batch_norm_training(KernelRuntimeContext& ctx, Args args, NormIo& io, Tensor* rm, Tensor* rv,
                         double momentum, double eps, size_t save_idx, const char* name) {
  const Tensor& in = *io.in;
  const int64_t C = in.size(1);
  Shape cs;
  cs.n = 1;
  cs.s[0] = static_cast<SizesType>(C);
  Tensor* save_mean = stats_out(ctx, args, save_idx, in, cs, name);
  Tensor* save_invstd =
      save_mean == nullptr ? nullptr : stats_out(ctx, args, save_idx + 1, in, cs, name);
  if (save_invstd == nullptr) return;
  for (int64_t c = 0; c < C; ++c) {
    double mean, var;
    int64_t count;
    plane_stats(io, 0, in.size(0), c, c + 1, &mean, &var, &count);
    const double invstd = 1.0 / std::sqrt(var + eps);
    for (int64_t n = 0; n < in.size(0); ++n) normalize_plane(io, n, c, mean, invstd);
    store_d(in.scalar_type(), save_mean->mutable_data_ptr(), static_cast<size_t>(c), mean);
    store_d(in.scalar_type(), save_invstd->mutable_data_ptr(), static_cast<size_t>(c), invstd);
    if (rm != nullptr) {
      const double unbiased =
          count > 1 ? var * static_cast<double>(count) / static_cast<double>(count - 1) : var;
      store_d(rm->scalar_type(), rm->mutable_data_ptr(), static_cast<size_t>(c),
              (1 - momentum) * at_or(rm, c, 0) + momentum * mean);
      store_d(rv->scalar_type(), rv->mutable_data_ptr(), static_cast<size_t>(c),
              (1 - momentum) * at_or(rv, c, 0) + momentum * unbiased);
    }
  }
}

// _native_batch_norm_legit.out(input, weight?, bias?, running_mean,
//     running_var, training, momentum, eps, *, out, save_mean, save_invstd)
void native_batch_norm_legit_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::_native_batch_norm_legit.out";
  bool training;
  if (!check_nargs_multi_out(ctx, args, 8, 3, name) || !get_bool(ctx, args, 5, name, &training)) {
    return;
  }
  if (!training) {
    // Inference is the _no_training kernel's job: the same arguments less
    // `training`.
    EValue* rest[11];
    for (size_t i = 0, k = 0; i < args.size(); ++i) {
      if (i != 5) rest[k++] = args[i];
    }
    batch_norm_no_training_out(ctx, Args(rest, 11));
    return;
  }
  NormIo io;
  double momentum, eps;
  if (!read_norm_io(ctx, args, 8, name, &io) || !get_double(ctx, args, 6, name, &momentum) ||
      !get_double(ctx, args, 7, name, &eps)) {
    return;
  }
  Tensor* rm = get_tensor(ctx, args, 3, name);
  Tensor* rv = rm == nullptr ? nullptr : get_tensor(ctx, args, 4, name);
  const int64_t C = io.in->size(1);
  if (rv == nullptr || !check_per_channel(ctx, rm, C, "running_mean", name) ||
      !check_per_channel(ctx, rv, C, "running_var", name)) {
    return;
  }
  batch_norm_training(ctx, args, io, rm, rv, momentum, eps, 9, name);
}

// _native_batch_norm_legit.no_stats_out(input, weight?, bias?, training,
//     momentum, eps, *, out, save_mean, save_invstd)
void native_batch_norm_legit_no_stats_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::_native_batch_norm_legit.no_stats_out";
  NormIo io;
  bool training;
  double momentum, eps;
  if (!check_nargs_multi_out(ctx, args, 6, 3, name) || !read_norm_io(ctx, args, 6, name, &io) ||
      !get_bool(ctx, args, 3, name, &training) || !get_double(ctx, args, 4, name, &momentum) ||
      !get_double(ctx, args, 5, name, &eps)) {
    return;
  }
  if (!training) {
    PK_FAIL(ctx, name, "inference needs running statistics");
    return;
  }
  batch_norm_training(ctx, args, io, nullptr, nullptr, momentum, eps, 7, name);
}

const Kernel kNormStatsKernels[] = {
    Kernel("aten::native_group_norm.out", native_group_norm_out),
    Kernel("aten::_native_batch_norm_legit.out", native_batch_norm_legit_out),
    Kernel("aten::_native_batch_norm_legit.no_stats_out", native_batch_norm_legit_no_stats_out),
};

} // namespace

Span<const Kernel> norm_stats_kernels() {
  return Span<const Kernel>(kNormStatsKernels, sizeof(kNormStatsKernels) / sizeof(Kernel));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
