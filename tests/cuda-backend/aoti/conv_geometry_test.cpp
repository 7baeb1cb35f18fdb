// plan_convolution: the argument checks and the geometry (output sizes,
// memory format, cuDNN views) behind aoti_torch_cuda_convolution, on plain
// tensor objects (no GPU). The numbers are PyTorch's conv output-size
// formulas worked by hand for each case.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aoti/conv_geometry.h"

namespace aoti = executorch::backends::cuda::aoti;
using aoti::TensorObj;
using aoti::conv::ConvArgs;
using aoti::conv::ConvProblem;
using aoti::conv::Layout;
using Vec = std::vector<int64_t>;

namespace {

Vec contiguous(const Vec& sizes) {
  Vec s(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;) s[i - 1] = s[i] * sizes[i];
  return s;
}

TensorObj tensor(const Vec& sizes, Vec strides = {}, int32_t dtype = aoti::kDtF32,
                 int32_t device_type = aoti::kDevCuda) {
  TensorObj t;
  const Vec st = strides.empty() ? contiguous(sizes) : strides;
  EXPECT_TRUE(t.sizes.assign(sizes.data(), sizes.data() + sizes.size()));
  EXPECT_TRUE(t.strides.assign(st.data(), st.data() + st.size()));
  t.dtype = dtype;
  t.device_type = device_type;
  return t;
}

struct Params {
  Vec stride{1}, padding{0}, dilation{1}, output_padding{};
  bool transposed = false;
  int64_t groups = 1;
  ConvArgs args() const {
    return ConvArgs{stride.data(),
                    static_cast<int64_t>(stride.size()),
                    padding.data(),
                    static_cast<int64_t>(padding.size()),
                    dilation.data(),
                    static_cast<int64_t>(dilation.size()),
                    transposed,
                    output_padding.data(),
                    static_cast<int64_t>(output_padding.size()),
                    groups};
  }
};

Vec out_sizes(const ConvProblem& p) { return Vec(p.out_sizes, p.out_sizes + p.nd); }
Vec out_strides(const ConvProblem& p) { return Vec(p.out_strides, p.out_strides + p.nd); }

// plan_convolution's verdict and its stderr line.
bool plan(const TensorObj& in, const TensorObj& w, const TensorObj* b, const Params& prm,
          ConvProblem* p, std::string* err = nullptr) {
  testing::internal::CaptureStderr();
  const bool ok = aoti::conv::plan_convolution("conv", &in, &w, b, prm.args(), p);
  const std::string text = testing::internal::GetCapturedStderr();
  if (err != nullptr) *err = text;
  return ok;
}

TEST(ConvGeometry, Plain2d) {
  ConvProblem p;
  const TensorObj in = tensor({2, 3, 16, 16}), w = tensor({8, 3, 3, 3}), b = tensor({8});
  ASSERT_TRUE(plan(in, w, &b, Params{}, &p));
  EXPECT_EQ(out_sizes(p), (Vec{2, 8, 14, 14}));
  EXPECT_EQ(out_strides(p), (Vec{8 * 14 * 14, 14 * 14, 14, 1}));
  EXPECT_EQ(p.layout, Layout::kContiguous);
  EXPECT_EQ(p.cnd, 4);
  EXPECT_EQ(p.c_out, 8);
}

TEST(ConvGeometry, StridePaddingDilationGroups) {
  Params prm;
  prm.stride = {2};
  prm.padding = {1};
  prm.dilation = {2};
  prm.groups = 2;
  ConvProblem p;
  // (10 + 2*1 - 2*(3-1) - 1) / 2 + 1 = 4
  ASSERT_TRUE(plan(tensor({1, 4, 10, 10}), tensor({6, 2, 3, 3}), nullptr, prm, &p));
  EXPECT_EQ(out_sizes(p), (Vec{1, 6, 4, 4}));
  EXPECT_EQ(p.cstride[0], 2);
  EXPECT_EQ(p.cpad[1], 1);
  EXPECT_EQ(p.cdilation[1], 2);
}

TEST(ConvGeometry, PerDimLists) {
  Params prm;
  prm.stride = {1, 2};
  prm.padding = {0, 3};
  ConvProblem p;
  // H: 9 - 2 + 1 = 8; W: (9 + 6 - 2 - 1) / 2 + 1 = 7
  ASSERT_TRUE(plan(tensor({1, 1, 9, 9}), tensor({1, 1, 2, 3}), nullptr, prm, &p));
  EXPECT_EQ(out_sizes(p), (Vec{1, 1, 8, 7}));
}

TEST(ConvGeometry, Transposed) {
  Params prm;
  prm.transposed = true;
  prm.stride = {2};
  prm.padding = {1};
  prm.output_padding = {1};
  ConvProblem p;
  // (5-1)*2 - 2*1 + 1*(3-1) + 1 + 1 = 10; weight [C_in, C_out/groups, k, k]
  ASSERT_TRUE(plan(tensor({1, 4, 5, 5}), tensor({4, 3, 3, 3}), nullptr, prm, &p));
  EXPECT_EQ(out_sizes(p), (Vec{1, 3, 10, 10}));
  EXPECT_EQ(p.c_out, 3);
}

TEST(ConvGeometry, OneDimensionalGetsAUnitHeight) {
  ConvProblem p;
  ASSERT_TRUE(plan(tensor({2, 3, 20}), tensor({5, 3, 4}), nullptr, Params{}, &p));
  EXPECT_EQ(out_sizes(p), (Vec{2, 5, 17}));
  EXPECT_EQ(out_strides(p), (Vec{85, 17, 1}));
  ASSERT_EQ(p.cnd, 4);
  EXPECT_EQ(Vec(p.y.size, p.y.size + 4), (Vec{2, 5, 1, 17}));
  EXPECT_EQ(Vec(p.x.size, p.x.size + 4), (Vec{2, 3, 1, 20}));
  EXPECT_EQ(p.cstride[0], 1);
  EXPECT_EQ(p.cpad[0], 0);
}

TEST(ConvGeometry, ThreeDimensional) {
  ConvProblem p;
  ASSERT_TRUE(plan(tensor({1, 2, 4, 5, 6}), tensor({3, 2, 2, 2, 2}), nullptr, Params{}, &p));
  EXPECT_EQ(out_sizes(p), (Vec{1, 3, 3, 4, 5}));
  EXPECT_EQ(p.cnd, 5);
}

TEST(ConvGeometry, ChannelsLastInputGivesChannelsLastOutput) {
  ConvProblem p;
  const TensorObj in = tensor({1, 3, 8, 8}, {192, 1, 24, 3});
  ASSERT_TRUE(plan(in, tensor({8, 3, 3, 3}), nullptr, Params{}, &p));
  EXPECT_EQ(p.layout, Layout::kChannelsLast);
  EXPECT_EQ(out_strides(p), (Vec{288, 1, 48, 8}));
  // float64 stays contiguous, as PyTorch's cuDNN path does.
  const TensorObj in64 = tensor({1, 3, 8, 8}, {192, 1, 24, 3}, aoti::kDtF64);
  ASSERT_TRUE(plan(in64, tensor({8, 3, 3, 3}, {}, aoti::kDtF64), nullptr, Params{}, &p));
  EXPECT_EQ(p.layout, Layout::kContiguous);
}

TEST(ConvGeometry, PackedAndChannelsLastDetection) {
  const TensorObj cl = tensor({2, 4, 3, 3}, {36, 1, 12, 4});
  EXPECT_TRUE(aoti::conv::suggests_channels_last(&cl));
  const TensorObj nchw = tensor({2, 4, 3, 3});
  EXPECT_FALSE(aoti::conv::suggests_channels_last(&nchw));
  const TensorObj units = tensor({1, 1, 1, 1});
  EXPECT_FALSE(aoti::conv::suggests_channels_last(&units));
  aoti::conv::View v;
  v.nd = 4;
  const int64_t sz[4] = {2, 4, 3, 3}, st[4] = {36, 1, 12, 4};
  for (int i = 0; i < 4; ++i) {
    v.size[i] = sz[i];
    v.stride[i] = st[i];
  }
  EXPECT_TRUE(aoti::conv::is_packed(v, Layout::kChannelsLast));
  EXPECT_FALSE(aoti::conv::is_packed(v, Layout::kContiguous));
}

TEST(ConvGeometry, EmptyBatchIsAllowed) {
  ConvProblem p;
  ASSERT_TRUE(plan(tensor({0, 3, 8, 8}), tensor({4, 3, 3, 3}), nullptr, Params{}, &p));
  EXPECT_EQ(out_sizes(p), (Vec{0, 4, 6, 6}));
}

struct BadCase {
  const char* name;
  TensorObj in, w;
  std::vector<TensorObj> bias;
  Params prm;
  const char* says; // a phrase the error line must hold
};

TEST(ConvGeometry, BadArgumentsFailWithOneLineNamingTheProblem) {
  Params groups3;
  groups3.groups = 3;
  Params bad_stride_len;
  bad_stride_len.stride = {1, 1, 1};
  Params neg_pad;
  neg_pad.padding = {-1};
  Params zero_groups;
  zero_groups.groups = 0;
  Params big_opad;
  big_opad.transposed = true;
  big_opad.output_padding = {2};
  Params null_list;
  null_list.stride.clear();
  const std::vector<BadCase> cases = {
      {"channel mismatch",
       tensor({1, 4, 8, 8}),
       tensor({8, 3, 3, 3}),
       {},
       Params{},
       "channel mismatch"},
      {"groups do not divide",
       tensor({1, 4, 8, 8}),
       tensor({8, 2, 3, 3}),
       {},
       groups3,
       "not divisible by groups"},
      {"bias shape",
       tensor({1, 3, 8, 8}),
       tensor({8, 3, 3, 3}),
       {tensor({7})},
       Params{},
       "bias must be 1-D with 8 values"},
      {"host tensor",
       tensor({1, 3, 8, 8}, {}, aoti::kDtF32, aoti::kDevCpu),
       tensor({8, 3, 3, 3}),
       {},
       Params{},
       "not a CUDA tensor"},
      {"mixed dtypes",
       tensor({1, 3, 8, 8}),
       tensor({8, 3, 3, 3}, {}, aoti::kDtBF16),
       {},
       Params{},
       "mixed dtypes"},
      {"int dtype",
       tensor({1, 3, 8, 8}, {}, aoti::kDtI32),
       tensor({8, 3, 3, 3}, {}, aoti::kDtI32),
       {},
       Params{},
       "unsupported dtype 3"},
      {"rank", tensor({3, 8}), tensor({8, 3}), {}, Params{}, "3-D, 4-D or 5-D"},
      {"weight rank", tensor({1, 3, 8, 8}), tensor({8, 3, 3}), {}, Params{}, "weight is 3-D"},
      {"stride list",
       tensor({1, 3, 8, 8}),
       tensor({8, 3, 3, 3}),
       {},
       bad_stride_len,
       "stride has 3 values"},
      {"empty stride list",
       tensor({1, 3, 8, 8}),
       tensor({8, 3, 3, 3}),
       {},
       null_list,
       "stride has 0 values"},
      {"negative padding", tensor({1, 3, 8, 8}), tensor({8, 3, 3, 3}), {}, neg_pad, "non-negative"},
      {"zero groups",
       tensor({1, 3, 8, 8}),
       tensor({8, 3, 3, 3}),
       {},
       zero_groups,
       "groups must be positive"},
      {"kernel larger than input",
       tensor({1, 3, 2, 2}),
       tensor({8, 3, 3, 3}),
       {},
       Params{},
       "output size 0 is not positive"},
      {"output padding",
       tensor({1, 3, 4, 4}),
       tensor({3, 2, 3, 3}),
       {},
       big_opad,
       "output_padding 2 must be smaller"},
      {"empty channel dim",
       tensor({1, 0, 8, 8}),
       tensor({8, 0, 3, 3}),
       {},
       Params{},
       "only the batch dim may be empty"},
      {"over cuDNN's int",
       tensor({1, 1, int64_t{1} << 31, 1}),
       tensor({1, 1, 1, 1}),
       {},
       Params{},
       "too large for cuDNN"},
  };
  for (const BadCase& c : cases) {
    ConvProblem p;
    std::string err;
    const TensorObj* b = c.bias.empty() ? nullptr : &c.bias[0];
    EXPECT_FALSE(plan(c.in, c.w, b, c.prm, &p, &err)) << c.name;
    EXPECT_NE(err.find(c.says), std::string::npos) << c.name << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << c.name << ": " << err;
  }
}

TEST(ConvGeometry, NullHandlesAreRejected) {
  ConvProblem p;
  const TensorObj w = tensor({8, 3, 3, 3});
  testing::internal::CaptureStderr();
  EXPECT_FALSE(aoti::conv::plan_convolution("conv", nullptr, &w, nullptr, Params{}.args(), &p));
  EXPECT_NE(testing::internal::GetCapturedStderr().find("input handle is null"), std::string::npos);
}

} // namespace
