// fp32 sum.IntList and mean.dim over one run of consecutive dims: rows
// (global average pooling, RMSNorm's last dim) or a vectorized accumulation
// of outer rows. Sums in double, as the portable kernel does, so long
// reductions keep its precision. The portable kernel checks the arguments
// (prepare_sum_mean) and computes every other case.
#include <algorithm>

#include "../../portable/reduce.h"
#include "../parallel.h"
#include "../row_math.h"
#include "../simd.h"
#include "reduce_opt.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

constexpr int64_t kGrainElems = kMinTaskElems;
// Columns accumulated at once in the (count, inner) case: a stack block.
constexpr int64_t kColBlock = 512;

ET_SIMD_CLONES void col_accumulate(const float* x, int64_t n, double* acc) {
  for (int64_t i = 0; i < n; ++i) acc[i] += x[i];
}

// out[r] = sum of row r (count contiguous elements), scaled.
void reduce_rows(const float* in, int64_t rows, int64_t count, double scale, float* out) {
  const int64_t grain = kGrainElems / std::max<int64_t>(count, 1) + 1;
  parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      out[r] = static_cast<float>(sum_f64(in + r * count, count) * scale);
    }
  });
}

// out[o, i] = sum over c of in[o, c, i], scaled; split over (o, column block).
void reduce_cols(const float* in, int64_t outer, int64_t count, int64_t inner, double scale,
                 float* out) {
  const int64_t blocks = (inner + kColBlock - 1) / kColBlock;
  const int64_t grain = kGrainElems / std::max<int64_t>(count * std::min(inner, kColBlock), 1) + 1;
  parallel_for(outer * blocks, grain, [&](int64_t t0, int64_t t1) {
    double acc[kColBlock];
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t o = t / blocks, i0 = (t % blocks) * kColBlock;
      const int64_t n = std::min(kColBlock, inner - i0);
      std::fill(acc, acc + n, 0.0);
      const float* base = in + o * count * inner + i0;
      for (int64_t c = 0; c < count; ++c) col_accumulate(base + c * inner, n, acc);
      float* y = out + o * inner + i0;
      for (int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(acc[i] * scale);
    }
  });
}

bool sum_mean_fp32(const portable::SumMeanCall& c) {
  if (!c.run || c.in->scalar_type() != ScalarType::Float ||
      c.out->scalar_type() != ScalarType::Float || c.out->numel() == 0) {
    return false;
  }
  // mean of nothing is 0/0 = NaN, as in the portable kernel.
  const double scale = c.mean ? 1.0 / static_cast<double>(c.count) : 1.0;
  const float* in = c.in->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  if (c.count == 0) {
    std::fill(out, out + c.out->numel(), static_cast<float>(c.mean ? 0.0 * scale : 0.0));
  } else if (c.inner == 1) {
    reduce_rows(in, c.outer, c.count, scale, out);
  } else {
    reduce_cols(in, c.outer, c.count, c.inner, scale, out);
  }
  return true;
}

void sum_mean(KernelRuntimeContext& ctx, Span<EValue*> args, bool mean) {
  portable::SumMeanCall c;
  if (!portable::prepare_sum_mean(ctx, args, mean, &c)) return;
  if (!sum_mean_fp32(c)) portable::sum_mean_compute(c);
}

} // namespace

void mean_dim_out(KernelRuntimeContext& ctx, Span<EValue*> args) { sum_mean(ctx, args, true); }

void sum_intlist_out(KernelRuntimeContext& ctx, Span<EValue*> args) { sum_mean(ctx, args, false); }

} // namespace optimized
} // namespace runtime
} // namespace executorch
