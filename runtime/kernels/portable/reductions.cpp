// Reductions: _softmax, _log_softmax, mean.dim, sum.IntList, amax, argmax.
#include <cmath>

#include "reduce.h"
#include "softmax.h"

#include "kernels.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// The split of a tensor around one dim: outer x size x inner.
struct DimSplit {
  int64_t outer = 1, size = 1, inner = 1;
};
DimSplit split_at(const Tensor& t, int64_t dim) {
  DimSplit s;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t v = t.sizes()[d];
    if (d < dim)
      s.outer *= v;
    else if (d == dim)
      s.size = v;
    else
      s.inner *= v;
  }
  return s;
}

} // namespace

bool prepare_softmax(KernelRuntimeContext& ctx, Args args, bool log, SoftmaxCall* call) {
  const char* name = log ? "aten::_log_softmax.out" : "aten::_softmax.out";
  if (!check_nargs(ctx, args, 5, name)) return false;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return false;
  int64_t dim;
  bool half_to_float;
  if (!get_int(ctx, args, 1, name, &dim) || !get_bool(ctx, args, 2, name, &half_to_float)) {
    return false;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return false;
  if (half_to_float) {
    PK_FAIL(ctx, name, "half_to_float=True is not supported");
    return false;
  }
  if (!require_floating(ctx, *in, name) || !require_same_dtype(ctx, *in, *out, name) ||
      !require_contiguous(ctx, *in, name) || !require_contiguous(ctx, *out, name) ||
      !norm_dim(ctx, dim, in->dim(), name, &dim) || !resize_out(ctx, *out, in->sizes(), name)) {
    return false;
  }
  const DimSplit s = in->dim() == 0 ? DimSplit{} : split_at(*in, dim);
  *call = SoftmaxCall{in, out, s.outer, s.size, s.inner, log};
  return true;
}

void softmax_rows(const SoftmaxCall& c) {
  const ScalarType t = c.in->scalar_type();
  const void* ip = c.in->const_data_ptr();
  void* op = c.out->mutable_data_ptr();
  for (int64_t o = 0; o < c.outer; ++o) {
    for (int64_t i = 0; i < c.inner; ++i) {
      const int64_t base = o * c.size * c.inner + i;
      double mx = -INFINITY;
      for (int64_t d = 0; d < c.size; ++d) {
        const double v = load_d(t, ip, static_cast<size_t>(base + d * c.inner));
        if (std::isnan(v) || v > mx) mx = v;
        if (std::isnan(v)) break;
      }
      double sum = 0;
      for (int64_t d = 0; d < c.size; ++d) {
        sum += std::exp(load_d(t, ip, static_cast<size_t>(base + d * c.inner)) - mx);
      }
      const double lse = std::log(sum);
      for (int64_t d = 0; d < c.size; ++d) {
        const size_t idx = static_cast<size_t>(base + d * c.inner);
        const double x = load_d(t, ip, idx) - mx;
        store_d(t, op, idx, c.log ? x - lse : std::exp(x) / sum);
      }
    }
  }
}

namespace {

// Which dims a reduction covers, and the output shape.
struct Reduce {
  bool mask[kMaxDim] = {};
  Shape out;
};

// dims: the list (empty or None = all dims).
bool plan_reduce(KernelRuntimeContext& ctx, const Tensor& in, const IntList& dims, bool has_dims,
                 bool keepdim, const char* name, Reduce* r) {
  const int64_t rank = in.dim();
  if (!has_dims || dims.n == 0) {
    for (int64_t d = 0; d < rank; ++d) r->mask[d] = true;
  } else {
    for (size_t i = 0; i < dims.n; ++i) {
      int64_t d;
      if (!norm_dim(ctx, dims.v[i], rank, name, &d)) return false;
      if (rank == 0) continue;
      if (r->mask[d]) {
        PK_FAIL(ctx, name, "dim %lld appears twice", static_cast<long long>(d));
        return false;
      }
      r->mask[d] = true;
    }
  }
  r->out.n = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (!r->mask[d]) {
      r->out.s[r->out.n++] = in.sizes()[d];
    } else if (keepdim) {
      r->out.s[r->out.n++] = 1;
    }
  }
  return true;
}

// Calls f(out_index, in_offset) for every input element.
template <typename F>
void for_each_reduce(const Tensor& in, const Reduce& r, F f) {
  const Shape s = shape_of(in);
  const int64_t total = s.numel();
  if (total == 0) return;
  // Output stride of each input dim (0 on reduced dims).
  int64_t ostr[kMaxDim] = {};
  int64_t running = 1;
  for (int d = s.n - 1; d >= 0; --d) {
    if (!r.mask[d]) {
      ostr[d] = running;
      running *= s.s[d];
    }
  }
  int64_t counter[kMaxDim] = {};
  int64_t o = 0;
  for (int64_t idx = 0; idx < total; ++idx) {
    f(static_cast<size_t>(o), static_cast<size_t>(idx));
    for (int d = s.n - 1; d >= 0; --d) {
      if (++counter[d] < s.s[d]) {
        o += ostr[d];
        break;
      }
      o -= ostr[d] * (s.s[d] - 1);
      counter[d] = 0;
    }
  }
}

// The dtype rules of sum/mean: an explicit dtype must be the output's, mean
// needs a floating output, and otherwise the input must cast to the output.
bool check_sum_dtypes(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& out,
                      bool has_dtype, int64_t dtype, bool mean, const char* name) {
  const ScalarType ot = out.scalar_type();
  if (has_dtype && dtype != static_cast<int64_t>(ot)) {
    PK_FAIL(ctx, name, "dtype argument differs from the output's dtype");
    return false;
  }
  if (mean && !isFloatingType(ot)) {
    PK_FAIL(ctx, name, "mean needs a floating output, got %s", toString(ot));
    return false;
  }
  if (!has_dtype && !canCast(in.scalar_type(), ot)) {
    PK_FAIL(ctx, name, "cannot write %s into %s", toString(in.scalar_type()), toString(ot));
    return false;
  }
  return true;
}

// True when no kept dim follows a reduced one: each output then sums one
// contiguous run of the input.
bool reduced_dims_trailing(const Tensor& in, const Reduce& r) {
  bool seen = false;
  for (int64_t d = 0; d < in.dim(); ++d) {
    if (r.mask[d])
      seen = true;
    else if (seen)
      return false;
  }
  return true;
}

// Sums (or averages) in double, so narrow float outputs round only once.
void sum_floating(const Tensor& in, Tensor& out, const Reduce& r, bool mean) {
  const size_t on = static_cast<size_t>(out.numel());
  const int64_t count = on == 0 ? 0 : in.numel() / static_cast<int64_t>(on);
  const ScalarType it = in.scalar_type(), ot = out.scalar_type();
  const void* ip = in.const_data_ptr();
  void* op = out.mutable_data_ptr();
  if (reduced_dims_trailing(in, r)) {
    for (size_t j = 0; j < on; ++j) {
      double a = 0;
      for (int64_t c = 0; c < count; ++c)
        a += load_d(it, ip, j * static_cast<size_t>(count) + static_cast<size_t>(c));
      store_d(ot, op, j, mean ? a / static_cast<double>(count) : a);
    }
    return;
  }
  // Otherwise accumulate a chunk of outputs at a time, one pass over the
  // input per chunk, keeping the accumulators on the stack.
  constexpr size_t kChunk = 256;
  double acc[kChunk];
  for (size_t base = 0; base < on; base += kChunk) {
    const size_t len = on - base < kChunk ? on - base : kChunk;
    for (size_t j = 0; j < len; ++j) acc[j] = 0;
    for_each_reduce(in, r, [&](size_t o, size_t i) {
      if (o >= base && o < base + len) acc[o - base] += load_d(it, ip, i);
    });
    for (size_t j = 0; j < len; ++j) {
      store_d(ot, op, base + j, mean ? acc[j] / static_cast<double>(count) : acc[j]);
    }
  }
}

// Integer sums wrap like the output dtype does.
void sum_integral(const Tensor& in, Tensor& out, const Reduce& r) {
  const size_t on = static_cast<size_t>(out.numel());
  const ScalarType it = in.scalar_type(), ot = out.scalar_type();
  const void* ip = in.const_data_ptr();
  void* op = out.mutable_data_ptr();
  for (size_t j = 0; j < on; ++j) store_i(ot, op, j, 0);
  for_each_reduce(in, r, [&](size_t o, size_t i) {
    store_i(ot, op, o, wrap_add(load_i(ot, op, o), load_i(it, ip, i)));
  });
}

// The (outer, count, inner) split when the reduced dims are consecutive.
void find_run(const Tensor& in, SumMeanCall* c) {
  int64_t first = -1, last = -1;
  for (int64_t d = 0; d < in.dim(); ++d) {
    if (!c->mask[d]) continue;
    if (first < 0) first = d;
    last = d;
  }
  c->run = true;
  c->outer = 1;
  c->count = 1;
  c->inner = 1;
  for (int64_t d = 0; d < in.dim(); ++d) {
    const int64_t v = in.sizes()[d];
    if (first >= 0 && d >= first && d <= last) {
      if (!c->mask[d]) c->run = false;
      c->count *= v;
    } else if (first >= 0 && d > last) {
      c->inner *= v;
    } else {
      c->outer *= v;
    }
  }
}

} // namespace

// sum/mean: self, dim?, keepdim, dtype?, out
bool prepare_sum_mean(KernelRuntimeContext& ctx, Args args, bool mean, SumMeanCall* call) {
  const char* name = mean ? "aten::mean.out" : "aten::sum.IntList_out";
  if (!check_nargs(ctx, args, 6, name)) return false;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return false;
  IntList dims;
  bool has_dims = false, keepdim = false;
  if (!get_opt_int_list(ctx, args, 1, name, &dims, &has_dims) ||
      !get_bool(ctx, args, 2, name, &keepdim)) {
    return false;
  }
  int64_t dtype = 0;
  bool has_dtype = false;
  if (!get_opt_int(ctx, args, 3, name, &dtype, &has_dtype)) return false;
  Tensor* out = get_tensor(ctx, args, 4, name);
  if (out == nullptr) return false;
  Reduce r;
  if (!check_sum_dtypes(ctx, *in, *out, has_dtype, dtype, mean, name) ||
      !require_contiguous(ctx, *in, name) || !require_contiguous(ctx, *out, name) ||
      !plan_reduce(ctx, *in, dims, has_dims, keepdim, name, &r) ||
      !resize_out(ctx, *out, r.out, name)) {
    return false;
  }
  call->in = in;
  call->out = out;
  call->mean = mean;
  for (int d = 0; d < kMaxDim; ++d) call->mask[d] = r.mask[d];
  find_run(*in, call);
  return true;
}

void sum_mean_compute(const SumMeanCall& c) {
  Reduce r;
  for (int d = 0; d < kMaxDim; ++d) r.mask[d] = c.mask[d];
  if (isFloatingType(c.out->scalar_type()) || isFloatingType(c.in->scalar_type())) {
    sum_floating(*c.in, *c.out, r, c.mean);
  } else {
    sum_integral(*c.in, *c.out, r);
  }
}

namespace {

void sum_mean(KernelRuntimeContext& ctx, Args args, bool mean) {
  SumMeanCall c;
  if (prepare_sum_mean(ctx, args, mean, &c)) sum_mean_compute(c);
}

} // namespace

void softmax_out(KernelRuntimeContext& ctx, Args args) {
  SoftmaxCall c;
  if (prepare_softmax(ctx, args, false, &c)) softmax_rows(c);
}
void log_softmax_out(KernelRuntimeContext& ctx, Args args) {
  SoftmaxCall c;
  if (prepare_softmax(ctx, args, true, &c)) softmax_rows(c);
}
void mean_dim_out(KernelRuntimeContext& ctx, Args args) { sum_mean(ctx, args, true); }
void sum_intlist_out(KernelRuntimeContext& ctx, Args args) { sum_mean(ctx, args, false); }

// amax.out(self, dim=[], keepdim=False, *, out) -> out
void amax_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::amax.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return;
  IntList dims;
  bool keepdim = false;
  if (!get_int_list(ctx, args, 1, name, &dims) || !get_bool(ctx, args, 2, name, &keepdim)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  Reduce r;
  if (!require_same_dtype(ctx, *in, *out, name) || !require_contiguous(ctx, *in, name) ||
      !require_contiguous(ctx, *out, name) ||
      !plan_reduce(ctx, *in, dims, true, keepdim, name, &r) ||
      !resize_out(ctx, *out, r.out, name)) {
    return;
  }
  if (in->numel() == 0 && out->numel() > 0) {
    PK_FAIL(ctx, name, "cannot reduce over an empty dimension");
    return;
  }
  const ScalarType t = in->scalar_type();
  const void* ip = in->const_data_ptr();
  void* op = out->mutable_data_ptr();
  const size_t on = static_cast<size_t>(out->numel());
  // Marks which outputs got their first value (outputs are at most numel).
  if (isFloatingType(t)) {
    for (size_t j = 0; j < on; ++j) store_d(t, op, j, -INFINITY);
    for_each_reduce(*in, r, [&](size_t o, size_t i) {
      const double v = load_d(t, ip, i), cur = load_d(t, op, o);
      if (std::isnan(cur)) return;
      if (std::isnan(v) || v > cur) store_d(t, op, o, v);
    });
  } else {
    bool first_pass = true;
    (void)first_pass;
    // Seed each output with its first input by a pass that always writes the
    // max of (current, v), starting from the dtype's lowest value.
    const int64_t lowest = t == ScalarType::Byte || t == ScalarType::Bool ? 0
                           : t == ScalarType::Char                        ? INT8_MIN
                           : t == ScalarType::Short                       ? INT16_MIN
                           : t == ScalarType::Int                         ? INT32_MIN
                                                                          : INT64_MIN;
    for (size_t j = 0; j < on; ++j) store_i(t, op, j, lowest);
    for_each_reduce(*in, r, [&](size_t o, size_t i) {
      const int64_t v = load_i(t, ip, i);
      if (v > load_i(t, op, o)) store_i(t, op, o, v);
    });
  }
}

// argmax.out(self, dim=None, keepdim=False, *, out) -> out
void argmax_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::argmax.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return;
  int64_t dim = 0;
  bool has_dim = false, keepdim = false;
  if (!get_opt_int(ctx, args, 1, name, &dim, &has_dim) || !get_bool(ctx, args, 2, name, &keepdim)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  if (out->scalar_type() != ScalarType::Long) {
    PK_FAIL(ctx, name, "output must be int64, got %s", toString(out->scalar_type()));
    return;
  }
  if (in->scalar_type() == ScalarType::Bool) {
    PK_FAIL(ctx, name, "bool input is not supported");
    return;
  }
  if (!require_contiguous(ctx, *in, name) || !require_contiguous(ctx, *out, name)) return;
  if (in->numel() == 0) {
    PK_FAIL(ctx, name, "argmax of an empty tensor");
    return;
  }
  const ScalarType t = in->scalar_type();
  const void* ip = in->const_data_ptr();
  int64_t* op = out->mutable_data_ptr<int64_t>();
  DimSplit s;
  Shape os;
  if (!has_dim) {
    s.size = in->numel();
    os.n = keepdim ? static_cast<int>(in->dim()) : 0;
    for (int d = 0; d < os.n; ++d) os.s[d] = 1;
  } else {
    if (!norm_dim(ctx, dim, in->dim(), name, &dim)) return;
    if (in->dim() > 0) {
      s = split_at(*in, dim);
      if (s.size == 0) {
        PK_FAIL(ctx, name, "argmax over an empty dimension");
        return;
      }
    }
    for (int64_t d = 0; d < in->dim(); ++d) {
      if (d != dim)
        os.s[os.n++] = in->sizes()[d];
      else if (keepdim)
        os.s[os.n++] = 1;
    }
  }
  if (!resize_out(ctx, *out, os, name)) return;
  op = out->mutable_data_ptr<int64_t>();
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t i = 0; i < s.inner; ++i) {
      const int64_t base = o * s.size * s.inner + i;
      int64_t best = 0;
      double bv = load_d(t, ip, static_cast<size_t>(base));
      for (int64_t d = 1; d < s.size && !std::isnan(bv); ++d) {
        const double v = load_d(t, ip, static_cast<size_t>(base + d * s.inner));
        if (std::isnan(v) || v > bv) {
          bv = v;
          best = d;
        }
      }
      op[o * s.inner + i] = best;
    }
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch
