// Optimized convolution against the portable kernel: depthwise, pointwise,
// grouped, strided, padded, dilated, 1-D, bias or none, empty batches; max
// pooling, and its values-only variant.
#include "kernel/internal_ops.h"
#include "oracle.h"

namespace {

using kt::ScalarType;
using oracle::Case;
using oracle::expect_same;
using oracle::random_tensor;
using oracle::TT;

struct Conv {
  int32_t n, c, h, w, oc, kh, kw, groups;
  int64_t stride, pad, dil;
  bool bias;
};

int32_t out_size(int32_t in, int32_t k, int64_t s, int64_t p, int64_t d) {
  return static_cast<int32_t>((in + 2 * p - d * (k - 1) - 1) / s + 1);
}

void build(const Conv& v, bool one_d, Case& c, std::mt19937& rng) {
  const int32_t oh = out_size(v.h, v.kh, v.stride, v.pad, v.dil);
  const int32_t ow = out_size(v.w, v.kw, v.stride, v.pad, v.dil);
  if (one_d) {
    c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {v.n, v.c, v.w}, rng)));
    c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {v.oc, v.c / v.groups, v.kw}, rng)));
  } else {
    c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {v.n, v.c, v.h, v.w}, rng)));
    c.arg_tensor(
        c.tensor(random_tensor(ScalarType::Float, {v.oc, v.c / v.groups, v.kh, v.kw}, rng)));
  }
  if (v.bias) {
    c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {v.oc}, rng)));
  } else {
    c.args.emplace_back();
  }
  const size_t spatial = one_d ? 1 : 2;
  c.arg_ints(std::vector<int64_t>(spatial, v.stride));
  c.arg_ints(std::vector<int64_t>(spatial, v.pad));
  c.arg_ints(std::vector<int64_t>(spatial, v.dil));
  c.args.emplace_back(false);
  c.arg_ints(std::vector<int64_t>(spatial, 0));
  c.args.emplace_back(static_cast<int64_t>(v.groups));
  c.arg_out_ret(c.tensor(one_d ? kt::out(ScalarType::Float, {v.n, v.oc, ow})
                               : kt::out(ScalarType::Float, {v.n, v.oc, oh, ow})));
}

class ConvOpt : public oracle::ThreadCounts {};

const Conv kCases[] = {
    {1, 3, 17, 19, 8, 3, 3, 1, 1, 1, 1, true},     // plain 3x3, odd sizes
    {2, 8, 16, 16, 16, 1, 1, 1, 1, 0, 1, true},    // pointwise as one GEMM
    {1, 8, 15, 15, 16, 1, 1, 1, 2, 0, 1, false},   // strided 1x1 (im2col)
    {1, 16, 14, 14, 16, 3, 3, 16, 1, 1, 1, true},  // depthwise
    {1, 16, 14, 14, 16, 3, 3, 16, 2, 1, 1, false}, // depthwise, strided
    {1, 8, 9, 9, 16, 5, 5, 8, 1, 2, 1, true},      // depthwise, multiplier 2
    {1, 4, 2, 2, 4, 3, 3, 4, 1, 1, 1, true},       // depthwise, a 2x2 plane
    {1, 4, 7, 5, 4, 3, 3, 4, 2, 1, 2, true},       // depthwise, strided and dilated
    {1, 3, 11, 13, 3, 5, 5, 3, 3, 2, 1, false},    // depthwise, stride 3
    {1, 4, 6, 6, 4, 3, 3, 4, 1, 3, 1, true},       // depthwise, padding past the kernel
    {1, 2, 600, 600, 2, 3, 3, 2, 1, 1, 1, true},   // depthwise in bands of rows
    {1, 2, 530, 300, 4, 3, 3, 2, 2, 1, 1, true},   // the same, strided, multiplier 2
    {1, 6, 9, 3, 6, 3, 3, 6, 1, 1, 1, true},       // depthwise, 3 columns (mostly edges)
    {1, 4, 10, 12, 4, 3, 3, 4, 1, 2, 2, true},     // depthwise, dilated, same width
    {1, 4, 1, 16, 4, 3, 3, 4, 1, 1, 1, false},     // depthwise, one input row
    {1, 4, 5, 9, 8, 7, 7, 4, 1, 3, 1, true},       // depthwise, kernel taller than the plane
    {1, 4, 9, 37, 8, 5, 5, 4, 1, 2, 1, true},      // depthwise, same width, 5x5, multiplier 2
    {1, 3, 12, 40, 3, 3, 3, 3, 1, 2, 2, false},    // depthwise, same width, dilated
    {1, 8, 10, 11, 6, 3, 3, 2, 1, 1, 1, true},     // grouped, same width (im2col from the input)
    {1, 4, 6, 9, 5, 5, 5, 1, 1, 2, 1, true},       // 5x5 same width, kernel near the plane's size
    {1, 4, 9, 9, 4, 7, 7, 4, 1, 3, 1, true},       // depthwise 7x7 (taps in threes, one left)
    {1, 2, 5, 33, 2, 7, 7, 2, 1, 3, 1, false},     // the same, same width
    {1, 2, 8, 8, 2, 4, 4, 2, 1, 2, 1, true},       // depthwise 4x4
    {1, 40, 4, 4, 40, 3, 3, 40, 1, 1, 1, true},    // depthwise 16 channels at a time, 8 left
    {2, 32, 8, 8, 32, 3, 3, 32, 2, 1, 1, false},   // the same, strided, batch of 2
    {1, 16, 2, 2, 16, 3, 3, 16, 1, 1, 1, true},    // the same, a 2x2 plane
    {1, 24, 6, 6, 24, 5, 5, 24, 1, 2, 1, true},    // the same, 5x5
    {1, 16, 7, 7, 16, 3, 3, 16, 1, 2, 2, true},    // the same, dilated
    {1, 18, 9, 7, 18, 3, 3, 18, 3, 0, 1, false},   // the same, stride 3, no padding
    {1, 8, 12, 12, 12, 3, 3, 4, 1, 1, 1, true},    // grouped
    {1, 4, 20, 20, 6, 3, 3, 1, 1, 2, 2, true},     // dilated
    {2, 3, 64, 64, 16, 7, 7, 1, 2, 3, 1, false},   // a stem (several chunks)
    {1, 8, 32, 32, 8, 3, 3, 1, 1, 1, 1, true},     // same width, 1024 columns (padded rows)
    {1, 4, 64, 64, 8, 3, 3, 1, 2, 1, 1, false},    // strided, 1024 columns (padded rows)
    {0, 3, 8, 8, 4, 3, 3, 1, 1, 1, 1, true},       // empty batch
    {1, 64, 3, 7300, 2, 3, 3, 1, 1, 1, 1, true},   // one row's unfolding past the scratch
    {1, 1, 8, 8, 2, 3, 3, 1, 1, 0, 1, true},       // one input channel
    // At least as many output channels as output columns: split by channels.
    {1, 16, 5, 5, 32, 3, 3, 1, 1, 1, 1, true},    // same width
    {1, 12, 9, 9, 40, 3, 3, 1, 2, 1, 1, false},   // strided (phase split)
    {1, 24, 6, 6, 64, 1, 1, 1, 1, 0, 1, true},    // pointwise
    {1, 256, 7, 7, 256, 3, 3, 1, 1, 1, 1, true},  // enough work for 3 threads
    {1, 512, 7, 7, 256, 1, 1, 1, 1, 0, 1, false}, // the same, pointwise
};

TEST_P(ConvOpt, MatchesPortable2d) {
  uint32_t seed = 1;
  for (const Conv& v : kCases) {
    expect_same(
        "aten::convolution.out", [&](Case& c, std::mt19937& rng) { build(v, false, c, rng); },
        seed++, 1e-5);
  }
}

TEST_P(ConvOpt, MatchesPortable1d) {
  uint32_t seed = 50;
  for (Conv v : kCases) {
    v.h = v.kh = 1;
    expect_same(
        "aten::convolution.out", [&](Case& c, std::mt19937& rng) { build(v, true, c, rng); },
        seed++, 1e-5);
  }
}

TEST_P(ConvOpt, BadGroupsFailAlike) {
  Conv v{1, 6, 8, 8, 4, 3, 3, 4, 1, 1, 1, true}; // 6 channels do not split in 4 groups
  expect_same(
      "aten::convolution.out", [&](Case& c, std::mt19937& rng) { build(v, false, c, rng); }, 9,
      1e-5, oracle::Expect::Failure);
}

struct Pool {
  std::vector<int32_t> shape;
  int64_t k, s, p, d;
  bool ceil;
};

const Pool kPools[] = {
    {{1, 8, 16, 16}, 3, 2, 1, 1, false}, {{2, 3, 17, 13}, 2, 2, 0, 1, true},
    {{4, 9, 9}, 3, 1, 1, 2, false},      {{1, 16, 64, 64}, 3, 2, 1, 1, true},
    {{0, 2, 4, 4}, 2, 2, 0, 1, false},   {{1, 2, 300, 300}, 3, 1, 1, 1, false}, // in bands
    {{1, 3, 10, 11}, 3, 3, 1, 1, true},  {{2, 2, 9, 9}, 2, 2, 1, 1, false},
    {{1, 4, 12, 12}, 3, 2, 1, 2, true},
};

// max_pool2d_with_indices.out's arguments, the input with NaNs and ties, at
// the edge and inside, that must follow the same rules.
void build_pool(const Pool& pl, Case& c, std::mt19937& rng) {
  TT* x = c.tensor(random_tensor(ScalarType::Float, pl.shape, rng));
  const int64_t n = x->impl->numel();
  if (n > 5) {
    float* v = x->data<float>();
    // Windows with only -inf inside (the top rows; all of the second
    // plane): a padded sample must not win.
    const int64_t w = pl.shape.back(), plane = w * pl.shape[pl.shape.size() - 2];
    std::fill(v, v + std::min<int64_t>(n, 2 * w), -INFINITY);
    std::fill(v + std::min(n, plane), v + std::min(n, 2 * plane), -INFINITY);
    v[3] = NAN;
    v[5] = v[4];
    v[n / 2] = NAN;
    v[n / 2 + 2] = v[n / 2 + 1] = v[n / 3];
    std::fill(v + n / 4, v + n / 4 + 5, -INFINITY);
  }
  c.arg_tensor(x);
  c.arg_ints({pl.k, pl.k});
  c.arg_ints({pl.s, pl.s});
  c.arg_ints({pl.p, pl.p});
  c.arg_ints({pl.d, pl.d});
  c.args.emplace_back(pl.ceil);
  std::vector<int32_t> os = pl.shape; // resized by the kernel
  TT* y = c.tensor(kt::out(ScalarType::Float, os));
  TT* ind = c.tensor(kt::out(ScalarType::Long, os));
  c.arg_out(y);
  c.arg_out(ind);
  c.arg_ret_list({y, ind});
}

TEST_P(ConvOpt, MaxPoolMatchesPortable) {
  uint32_t seed = 500;
  for (const Pool& pl : kPools) {
    expect_same(
        "aten::max_pool2d_with_indices.out",
        [&](Case& c, std::mt19937& rng) { build_pool(pl, c, rng); }, seed++);
  }
}

// The values-only variant (for calls whose indices nothing reads): the same
// values as the portable kernel, bit for bit.
TEST_P(ConvOpt, MaxPoolValuesMatchPortable) {
  uint32_t seed = 600;
  for (const Pool& pl : kPools) {
    Case portable, optimized;
    std::mt19937 rng_a(seed), rng_b(seed);
    build_pool(pl, portable, rng_a);
    build_pool(pl, optimized, rng_b);
    ASSERT_EQ(oracle::call_set("aten::max_pool2d_with_indices.out",
                               ::executorch::runtime::BuiltinKernelSet::Portable, portable),
              oracle::Error::Ok);
    ASSERT_EQ(oracle::call_set(::executorch::runtime::internal::kMaxPool2dValuesOp,
                               ::executorch::runtime::BuiltinKernelSet::Optimized, optimized),
              oracle::Error::Ok);
    oracle::compare_outs("max_pool2d_values", seed++, portable, optimized, 0.0, 1);
  }
}

// Windows of zeros of both signs: the first of equal maxima wins, so the
// sign of each output zero tells whether the taps were visited in order.
TEST_P(ConvOpt, MaxPoolSignedZeroTies) {
  uint32_t seed = 700;
  for (const Pool& pl : kPools) {
    auto build = [&](Case& c, std::mt19937& rng) {
      build_pool(pl, c, rng);
      float* v = c.owned[0]->data<float>();
      const int64_t n = c.owned[0]->impl->numel();
      for (int64_t i = 0; i < n; ++i) v[i] = (i * 7 / 3) % 2 == 0 ? -0.0f : 0.0f;
    };
    Case portable, optimized;
    std::mt19937 rng_a(seed), rng_b(seed);
    build(portable, rng_a);
    build(optimized, rng_b);
    ASSERT_EQ(oracle::call_set("aten::max_pool2d_with_indices.out",
                               ::executorch::runtime::BuiltinKernelSet::Portable, portable),
              oracle::Error::Ok);
    ASSERT_EQ(oracle::call_set(::executorch::runtime::internal::kMaxPool2dValuesOp,
                               ::executorch::runtime::BuiltinKernelSet::Optimized, optimized),
              oracle::Error::Ok);
    oracle::compare_outs("max_pool2d_values zeros", seed, portable, optimized, 0.0, 1);
    expect_same("aten::max_pool2d_with_indices.out", build, seed++, 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, ConvOpt, ::testing::Values(1u, 3u));

} // namespace
