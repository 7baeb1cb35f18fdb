// quantized_decomposed::embedding_byte, embedding_4bit and embedding_2bit
// (.out and .dtype_out): gathers rows of a quantized [rows, cols] weight and
// dequantizes them, out[..., j] = (w[row, j] - zp[row, g]) * scale[row, g]
// with g = j / (embedding_dim / groups), in float as upstream. Scales are
// [rows] or [rows, groups] (float32, float16, bfloat16), zero points the same
// shape or None. byte: uint8/int8 weights, one value a byte; 4bit: each uint8
// holds two values, element 2k in the high nibble, 2k+1 in the low one, each
// stored + 8; 2bit: four values a byte, element 4k+i in bits 2i..2i+1, each
// stored + 2 (upstream's packing). Out: indices.shape + [embedding_dim].
#include "quant_util.h"
#include "quantized_tables.h"

namespace executorch {
namespace runtime {
namespace quantized {
namespace {

const std::initializer_list<ScalarType> kParamTypes = {ScalarType::Float, ScalarType::Half,
                                                       ScalarType::BFloat16};

struct EmbeddingArgs {
  const Tensor* weight = nullptr;
  ChannelParams params; // per (row, group)
  int64_t groups = 1;
  int64_t dim = 0; // unpacked embedding dim
  const Tensor* indices = nullptr;
};

// Value j of a weight row, unpacked (nbit 8: the weight's own dtype).
inline int64_t weight_value(ScalarType wt, const void* row, int64_t j, int nbit) {
  const uint8_t* b = static_cast<const uint8_t*>(row);
  if (nbit == 4) {
    const uint8_t v = b[j >> 1];
    return static_cast<int64_t>((j & 1) != 0 ? (v & 0x0F) : (v >> 4)) - 8;
  }
  if (nbit == 2) {
    return static_cast<int64_t>((b[j >> 2] >> (2 * (j & 3))) & 3) - 2;
  }
  return load_i(wt, row, static_cast<size_t>(j));
}

// weight: 2-D, contiguous, uint8 (or int8 for nbit 8); sets the unpacked dim.
bool check_weight(KernelRuntimeContext& ctx, const char* op, const Tensor& w, int nbit,
                  EmbeddingArgs* a) {
  if (w.dim() != 2) {
    PK_FAIL(ctx, op, "weight must be 2-D, got %zd dims", static_cast<ssize_t>(w.dim()));
    return false;
  }
  const bool byte_ok =
      w.scalar_type() == ScalarType::Byte || (nbit == 8 && w.scalar_type() == ScalarType::Char);
  if (!byte_ok) {
    PK_FAIL(ctx, op, "weight has unsupported dtype %s", toString(w.scalar_type()));
    return false;
  }
  if (!require_contiguous(ctx, w, op)) return false;
  int64_t dim = 0;
  if (!::executorch::runtime::internal::checked_mul<int64_t>(w.size(1), 8 / nbit, &dim) ||
      dim > std::numeric_limits<int32_t>::max()) {
    PK_FAIL(ctx, op, "the unpacked embedding dim of %zd packed columns is too large",
            static_cast<ssize_t>(w.size(1)));
    return false;
  }
  a->weight = &w;
  a->dim = dim;
  return true;
}

// scales: [rows] or [rows, groups] with groups dividing the embedding dim;
// zero points (optional) of the same shape; all float params, contiguous.
bool check_params(KernelRuntimeContext& ctx, const char* op, const Tensor& s, const Tensor* zp,
                  EmbeddingArgs* a) {
  if (!require_dtype_in(ctx, op, s, "weight_scales", kParamTypes) ||
      !require_contiguous(ctx, s, op)) {
    return false;
  }
  if ((s.dim() != 1 && s.dim() != 2) || s.size(0) != a->weight->size(0)) {
    PK_FAIL(ctx, op, "weight_scales must be [rows] or [rows, groups] with rows = %zd",
            static_cast<ssize_t>(a->weight->size(0)));
    return false;
  }
  a->groups = s.dim() == 2 ? s.size(1) : 1;
  if (a->groups < 1 || a->dim % a->groups != 0) {
    PK_FAIL(ctx, op, "%lld groups do not divide the embedding dim %lld",
            static_cast<long long>(a->groups), static_cast<long long>(a->dim));
    return false;
  }
  if (zp != nullptr) {
    if (!require_dtype_in(ctx, op, *zp, "weight_zero_points", kParamTypes) ||
        !require_contiguous(ctx, *zp, op)) {
      return false;
    }
    if (zp->sizes() != s.sizes()) {
      PK_FAIL(ctx, op, "weight_zero_points must have weight_scales' shape");
      return false;
    }
  }
  a->params.scale = &s;
  a->params.zero_point = zp;
  return true;
}

// indices: int32 or int64, contiguous, each a row of the weight.
bool check_indices(KernelRuntimeContext& ctx, const char* op, const Tensor& idx, EmbeddingArgs* a) {
  if (!require_dtype_in(ctx, op, idx, "indices", {ScalarType::Int, ScalarType::Long}) ||
      !require_contiguous(ctx, idx, op)) {
    return false;
  }
  if (idx.dim() + 1 > kMaxDim) {
    PK_FAIL(ctx, op, "indices have too many dims (%zd)", static_cast<ssize_t>(idx.dim()));
    return false;
  }
  const int64_t rows = a->weight->size(0);
  const size_t n = static_cast<size_t>(idx.numel());
  for (size_t i = 0; i < n; ++i) {
    const int64_t r = load_i(idx.scalar_type(), idx.const_data_ptr(), i);
    if (r < 0 || r >= rows) {
      PK_FAIL(ctx, op, "index %lld is out of range [0, %lld)", static_cast<long long>(r),
              static_cast<long long>(rows));
      return false;
    }
  }
  a->indices = &idx;
  return true;
}

// Out: float32, float16 or bfloat16, resized to indices.shape + [dim].
bool prepare_out(KernelRuntimeContext& ctx, const char* op, const EmbeddingArgs& a, Tensor& out) {
  if (!require_dtype_in(ctx, op, out, "out", kParamTypes)) return false;
  Shape sh = shape_of(*a.indices);
  sh.s[sh.n++] = static_cast<SizesType>(a.dim);
  return resize_out(ctx, out, sh, op);
}

void gather_dequantize(const EmbeddingArgs& a, int nbit, Tensor& out) {
  const Tensor& w = *a.weight;
  const ScalarType wt = w.scalar_type(), ot = out.scalar_type();
  const size_t row_bytes = static_cast<size_t>(w.size(1)) * elementSize(wt);
  const int64_t group_size = a.groups > 0 && a.dim > 0 ? a.dim / a.groups : 1;
  const size_t n = static_cast<size_t>(a.indices->numel());
  void* op = out.mutable_data_ptr();
  size_t o = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t r = load_i(a.indices->scalar_type(), a.indices->const_data_ptr(), i);
    const void* row =
        static_cast<const char*>(w.const_data_ptr()) + static_cast<size_t>(r) * row_bytes;
    for (int64_t j = 0; j < a.dim; ++j, ++o) {
      const size_t q = static_cast<size_t>(r * a.groups + j / group_size);
      const float scale = static_cast<float>(a.params.scale_at(q));
      const float zp = a.params.zero_point == nullptr
                           ? 0.0f
                           : static_cast<float>(load_d(a.params.zero_point->scalar_type(),
                                                       a.params.zero_point->const_data_ptr(), q));
      const float v = static_cast<float>(weight_value(wt, row, j, nbit));
      store_d(ot, op, o, (v - zp) * scale);
    }
  }
}

// (weight, scales, zero_points?, quant_min, quant_max, indices[, dtype?], out)
void embedding_impl(KernelRuntimeContext& ctx, Args args, const char* name, int nbit,
                    bool dtype_overload) {
  const size_t n_in = dtype_overload ? 7 : 6;
  if (!check_nargs(ctx, args, n_in + 2, name)) return;
  Tensor* w = get_tensor(ctx, args, 0, name);
  Tensor* s = w != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* zp = nullptr;
  Tensor* idx = nullptr;
  int64_t qmin = 0, qmax = 0;
  ScalarType dtype = ScalarType::Undefined;
  bool has_dtype = false;
  if (s == nullptr || !get_opt_tensor(ctx, args, 2, name, &zp) ||
      !get_int(ctx, args, 3, name, &qmin) || !get_int(ctx, args, 4, name, &qmax) ||
      (idx = get_tensor(ctx, args, 5, name)) == nullptr ||
      (dtype_overload && !get_opt_dtype(ctx, args, 6, name, &dtype, &has_dtype))) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, n_in, name);
  if (out == nullptr) return;
  if (qmin > qmax) {
    PK_FAIL(ctx, name, "weight_quant_min %lld is greater than weight_quant_max %lld",
            static_cast<long long>(qmin), static_cast<long long>(qmax));
    return;
  }
  EmbeddingArgs a;
  if (!check_weight(ctx, name, *w, nbit, &a) || !check_params(ctx, name, *s, zp, &a) ||
      !check_indices(ctx, name, *idx, &a) || !prepare_out(ctx, name, a, *out)) {
    return;
  }
  // .out computes in the scales' dtype (upstream reads them as out's dtype);
  // .dtype_out in the requested dtype.
  const ScalarType want =
      dtype_overload ? (has_dtype ? dtype : out->scalar_type()) : s->scalar_type();
  if (out->scalar_type() != want) {
    PK_FAIL(ctx, name, "out has dtype %s, expected %s", toString(out->scalar_type()),
            toString(want));
    return;
  }
  gather_dequantize(a, nbit, *out);
}

#define EMBEDDING_KERNEL(fn, op_name, nbit, dtype_overload)                            \
  void fn(KernelRuntimeContext& ctx, Args args) {                                      \
    embedding_impl(ctx, args, "quantized_decomposed::" op_name, nbit, dtype_overload); \
  }
EMBEDDING_KERNEL(embedding_byte_out, "embedding_byte.out", 8, false)
EMBEDDING_KERNEL(embedding_byte_dtype_out, "embedding_byte.dtype_out", 8, true)
EMBEDDING_KERNEL(embedding_4bit_out, "embedding_4bit.out", 4, false)
EMBEDDING_KERNEL(embedding_4bit_dtype_out, "embedding_4bit.dtype_out", 4, true)
EMBEDDING_KERNEL(embedding_2bit_out, "embedding_2bit.out", 2, false)
EMBEDDING_KERNEL(embedding_2bit_dtype_out, "embedding_2bit.dtype_out", 2, true)
#undef EMBEDDING_KERNEL

const Kernel kEmbeddingKernels[] = {
    Kernel("quantized_decomposed::embedding_byte.out", embedding_byte_out),
    Kernel("quantized_decomposed::embedding_byte.dtype_out", embedding_byte_dtype_out),
    Kernel("quantized_decomposed::embedding_4bit.out", embedding_4bit_out),
    Kernel("quantized_decomposed::embedding_4bit.dtype_out", embedding_4bit_dtype_out),
    Kernel("quantized_decomposed::embedding_2bit.out", embedding_2bit_out),
    Kernel("quantized_decomposed::embedding_2bit.dtype_out", embedding_2bit_dtype_out),
};

} // namespace

Span<const Kernel> embedding_kernels() {
  return Span<const Kernel>(kEmbeddingKernels,
                            sizeof(kEmbeddingKernels) / sizeof(kEmbeddingKernels[0]));
}

} // namespace quantized
} // namespace runtime
} // namespace executorch
