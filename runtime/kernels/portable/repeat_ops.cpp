// Element rearrangements that map each output position to an input one:
// repeat, repeat_interleave.Tensor, roll, tril.
#include "op_tables.h"
#include "view_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// repeat.out(self, repeats, *, out) -> out: out[i] = in[i mod in.size]
// with self's shape padded by leading 1s to the length of repeats.
void repeat_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::repeat.out";
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 4, 2, name, &in, &out)) return;
  IntList reps;
  if (!get_int_list(ctx, args, 1, name, &reps)) return;
  const int64_t rank = in->dim();
  if (static_cast<int64_t>(reps.n) < rank || reps.n > static_cast<size_t>(kMaxDim)) {
    PK_FAIL(ctx, name, "%zu repeats for a tensor of rank %lld", reps.n,
            static_cast<long long>(rank));
    return;
  }
  const int lead = static_cast<int>(reps.n - static_cast<size_t>(rank));
  Shape is, os;
  is.n = os.n = static_cast<int>(reps.n);
  int64_t istr[kMaxDim] = {}, in_own[kMaxDim];
  tensor_strides(*in, in_own);
  for (int d = 0; d < os.n; ++d) {
    is.s[d] = d < lead ? 1 : in->sizes()[d - lead];
    istr[d] = d < lead ? 0 : in_own[d - lead];
    int64_t size;
    if (reps.v[d] < 0 || __builtin_mul_overflow(static_cast<int64_t>(is.s[d]), reps.v[d], &size) ||
        size > INT32_MAX) {
      PK_FAIL(ctx, name, "repeat %lld of dim %d is negative or too large",
              static_cast<long long>(reps.v[d]), d);
      return;
    }
    os.s[d] = static_cast<SizesType>(size);
  }
  if (!check_numel(ctx, os, name) || !resize_out(ctx, *out, os, name)) return;
  int64_t ostr[kMaxDim];
  tensor_strides(*out, ostr);
  const ScalarType t = in->scalar_type();
  for_each_index(os, [&](const int64_t* idx) {
    int64_t src = 0;
    for (int d = 0; d < os.n; ++d) src += (idx[d] % is.s[d]) * istr[d];
    move_elem(t, in->const_data_ptr(), static_cast<size_t>(src), t, out->mutable_data_ptr(),
              static_cast<size_t>(offset_of(idx, ostr, os.n)));
  });
}

// repeat_interleave.Tensor_out(repeats, *, output_size=None, out) -> out:
// index i written repeats[i] times.
void repeat_interleave_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::repeat_interleave.Tensor_out";
  Tensor *reps, *out;
  if (!same_dtype_io(ctx, args, 4, 2, name, &reps, &out)) return;
  int64_t output_size = 0;
  bool has_size = false;
  if (!get_opt_int(ctx, args, 1, name, &output_size, &has_size)) return;
  const ScalarType t = reps->scalar_type();
  if ((t != ScalarType::Int && t != ScalarType::Long) || reps->dim() != 1) {
    PK_FAIL(ctx, name, "repeats must be a 1-D int32 or int64 tensor");
    return;
  }
  const size_t n = static_cast<size_t>(reps->numel());
  int64_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t r = load_i(t, reps->const_data_ptr(), i);
    if (r < 0 || __builtin_add_overflow(total, r, &total) || total > INT32_MAX) {
      PK_FAIL(ctx, name, "repeat %lld at %zu is negative or the total too large",
              static_cast<long long>(r), i);
      return;
    }
  }
  if (has_size && output_size != total) {
    PK_FAIL(ctx, name, "output_size %lld differs from the repeats' sum %lld",
            static_cast<long long>(output_size), static_cast<long long>(total));
    return;
  }
  const SizesType size = static_cast<SizesType>(total);
  if (!resize_out(ctx, *out, ArrayRef<SizesType>(&size, 1), name)) return;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t r = load_i(t, reps->const_data_ptr(), i);
    for (int64_t j = 0; j < r; ++j)
      store_i(t, out->mutable_data_ptr(), k++, static_cast<int64_t>(i));
  }
}

// The input position of a rolled output position (per-dim shifts in [0, n)).
int64_t rolled_source(const int64_t* idx, const Shape& s, const int64_t* shift,
                      const int64_t* istr) {
  int64_t src = 0;
  for (int d = 0; d < s.n; ++d) {
    int64_t i = idx[d] - shift[d];
    if (i < 0) i += s.s[d];
    src += i * istr[d];
  }
  return src;
}

// roll.out(self, shifts, dims=[], *, out) -> out. Without dims the tensor
// rolls as if flattened (row-major), then takes its shape back.
void roll_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::roll.out";
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 5, 3, name, &in, &out)) return;
  IntList shifts, dims;
  if (!get_int_list(ctx, args, 1, name, &shifts) || !get_int_list(ctx, args, 2, name, &dims) ||
      !resize_out(ctx, *out, in->sizes(), name)) {
    return;
  }
  const Shape s = shape_of(*in);
  const bool flat = dims.n == 0;
  if (flat ? shifts.n != 1 : shifts.n != dims.n) {
    PK_FAIL(ctx, name, "%zu shifts for %zu dims", shifts.n, dims.n);
    return;
  }
  int64_t shift[kMaxDim] = {};
  for (size_t i = 0; i < dims.n; ++i) {
    int64_t d;
    if (!norm_dim(ctx, dims.v[i], in->dim(), name, &d)) return;
    if (in->dim() > 0 && s.s[d] > 0) shift[d] = (shift[d] + shifts.v[i] % s.s[d]) % s.s[d];
  }
  for (int d = 0; d < s.n; ++d) {
    if (shift[d] < 0) shift[d] += s.s[d];
  }
  int64_t istr[kMaxDim], ostr[kMaxDim];
  tensor_strides(*in, istr);
  tensor_strides(*out, ostr);
  const int64_t numel = s.numel();
  const int64_t flat_shift = flat && numel > 0 ? ((shifts.v[0] % numel) + numel) % numel : 0;
  const ScalarType t = in->scalar_type();
  int64_t linear = 0;
  for_each_index(s, [&](const int64_t* idx) {
    int64_t src;
    if (flat) {
      // Source row-major position, unravelled into an index.
      int64_t rest = (linear - flat_shift + numel) % numel, sidx[kMaxDim];
      for (int d = s.n - 1; d >= 0; --d) {
        sidx[d] = rest % s.s[d];
        rest /= s.s[d];
      }
      src = offset_of(sidx, istr, s.n);
    } else {
      src = rolled_source(idx, s, shift, istr);
    }
    ++linear;
    move_elem(t, in->const_data_ptr(), static_cast<size_t>(src), t, out->mutable_data_ptr(),
              static_cast<size_t>(offset_of(idx, ostr, s.n)));
  });
}

// tril.out(self, diagonal=0, *, out) -> out: zero above the diagonal of the
// last two dims.
void tril_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::tril.out";
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 4, 2, name, &in, &out)) return;
  int64_t diagonal;
  if (!get_int(ctx, args, 1, name, &diagonal)) return;
  if (in->dim() < 2) {
    PK_FAIL(ctx, name, "needs a tensor of rank >= 2");
    return;
  }
  if (!resize_out(ctx, *out, in->sizes(), name)) return;
  // Sizes fit in int32, so clamping keeps the meaning and avoids overflow.
  const int64_t kBound = int64_t(1) << 32;
  diagonal = diagonal < -kBound ? -kBound : (diagonal > kBound ? kBound : diagonal);
  const Shape s = shape_of(*in);
  int64_t istr[kMaxDim], ostr[kMaxDim];
  tensor_strides(*in, istr);
  tensor_strides(*out, ostr);
  const ScalarType t = in->scalar_type();
  const size_t es = elementSizeOrZero(t);
  for_each_index(s, [&](const int64_t* idx) {
    const size_t o = static_cast<size_t>(offset_of(idx, ostr, s.n));
    if (idx[s.n - 1] - idx[s.n - 2] > diagonal) {
      std::memset(static_cast<char*>(out->mutable_data_ptr()) + o * es, 0, es);
    } else {
      move_elem(t, in->const_data_ptr(), static_cast<size_t>(offset_of(idx, istr, s.n)), t,
                out->mutable_data_ptr(), o);
    }
  });
}

const Kernel kRepeatKernels[] = {
    Kernel("aten::repeat.out", repeat_out),
    Kernel("aten::repeat_interleave.Tensor_out", repeat_interleave_tensor_out),
    Kernel("aten::roll.out", roll_out),
    Kernel("aten::tril.out", tril_out),
};

} // namespace

Span<const Kernel> repeat_kernels() {
  return Span<const Kernel>(kRepeatKernels, sizeof(kRepeatKernels) / sizeof(Kernel));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
