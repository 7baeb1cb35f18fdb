// Optimized upsample_nearest2d and upsample_bilinear2d against the portable
// kernels: up and down, integer and fractional factors, sizes and scales,
// align_corners both ways, and the cases they hand back to the portable
// kernel (other dtypes, channels-last) or refuse alike.
#include "oracle.h"

namespace {

using kt::ScalarType;
using oracle::Case;
using oracle::expect_same;
using oracle::EValue;
using oracle::random_tensor;

class ResampleOpt : public oracle::ThreadCounts {};

// The optional double list scale_factors (outlives both runs of a case).
struct Scales {
  std::vector<double> v;
  EValue ev() const { return EValue(::executorch::runtime::ArrayRef<double>(v.data(), v.size())); }
};

struct Shape {
  int32_t n, c, h, w, oh, ow;
};

const Shape kShapes[] = {
    {1, 3, 4, 5, 8, 10},  // 2x
    {2, 4, 7, 3, 21, 9},  // 3x
    {1, 2, 6, 9, 4, 5},   // down
    {1, 1, 5, 5, 7, 12},  // fractional
    {1, 40, 8, 8, 16, 16} // many planes: split over the pool
};

// op is nearest (5 args) or bilinear (6 args: align_corners third).
void resample_case(const char* op, bool bilinear, const Shape& s, bool by_scales, bool align,
                   ScalarType t, uint32_t seed, oracle::Expect expect = oracle::Expect::Success) {
  const Scales scales{{static_cast<double>(s.oh) / s.h, static_cast<double>(s.ow) / s.w}};
  expect_same(
      op,
      [&](Case& c, std::mt19937& rng) {
        c.arg_tensor(c.tensor(random_tensor(t, {s.n, s.c, s.h, s.w}, rng)));
        if (by_scales) {
          c.args.emplace_back();
        } else {
          c.arg_ints({s.oh, s.ow});
        }
        if (bilinear) c.args.emplace_back(align);
        if (by_scales) {
          c.args.push_back(scales.ev());
        } else {
          c.args.emplace_back();
        }
        c.arg_out_ret(c.tensor(kt::out(t, {s.n, s.c, s.oh, s.ow})));
      },
      seed, 1e-6, expect);
}

TEST_P(ResampleOpt, NearestSizesAndScales) {
  uint32_t seed = 1;
  for (const Shape& s : kShapes) {
    for (bool by_scales : {false, true}) {
      resample_case("aten::upsample_nearest2d.vec_out", false, s, by_scales, false,
                    ScalarType::Float, seed++);
    }
  }
}

TEST_P(ResampleOpt, BilinearSizesScalesAndAlignCorners) {
  uint32_t seed = 100;
  for (const Shape& s : kShapes) {
    for (bool by_scales : {false, true}) {
      for (bool align : {false, true}) {
        resample_case("aten::upsample_bilinear2d.vec_out", true, s, by_scales, align,
                      ScalarType::Float, seed++);
      }
    }
  }
}

TEST_P(ResampleOpt, OtherDtypesTakeThePortablePath) {
  const Shape s{1, 2, 3, 4, 6, 8};
  resample_case("aten::upsample_nearest2d.vec_out", false, s, false, false, ScalarType::Double, 7);
  resample_case("aten::upsample_bilinear2d.vec_out", true, s, false, false, ScalarType::Half, 8);
}

TEST_P(ResampleOpt, BadArgumentsFailAlike) {
  // Output size zero, then a rank-3 input: both sets refuse.
  const Shape zero{1, 1, 2, 2, 0, 3};
  resample_case("aten::upsample_nearest2d.vec_out", false, zero, false, false, ScalarType::Float, 9,
                oracle::Expect::Failure);
  expect_same(
      "aten::upsample_bilinear2d.vec_out",
      [](Case& c, std::mt19937& rng) {
        c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {2, 3, 4}, rng)));
        c.arg_ints({6, 8});
        c.args.emplace_back(false);
        c.args.emplace_back();
        c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {2, 6, 8})));
      },
      10, 1e-6, oracle::Expect::Failure);
}

INSTANTIATE_TEST_SUITE_P(Threads, ResampleOpt, ::testing::Values(1u, 3u));

} // namespace
