// Optimized elementwise kernels (binary ops, activations) against the
// portable kernels.
#include <limits>

#include "oracle.h"

namespace {

using kt::ScalarType;
using oracle::Case;
using oracle::expect_same;
using oracle::random_tensor;
using oracle::TT;
using ::executorch::runtime::Error;
using Shape = std::vector<int32_t>;

// The shape of a and b broadcast together (the larger size where they
// differ: for shapes that do not broadcast, a shape the kernel must reject).
Shape broadcast_shape(const Shape& a, const Shape& b) {
  Shape r(std::max(a.size(), b.size()));
  for (size_t i = 0; i < r.size(); ++i) {
    const int32_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int32_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    r[r.size() - 1 - i] = x == 1 ? y : (y == 1 ? x : std::max(x, y));
  }
  return r;
}

class ElementwiseOpt : public oracle::ThreadCounts {};

const char* const kTensorOps[] = {"aten::add.out", "aten::sub.out", "aten::mul.out",
                                  "aten::div.out"};
const char* const kScalarOps[] = {"aten::add.Scalar_out", "aten::sub.Scalar_out",
                                  "aten::mul.Scalar_out", "aten::div.Scalar_out"};

bool has_alpha(const std::string& op) { return op.rfind("aten::add", 0) == 0 || op[6] == 's'; }

// (self, other) shape pairs: same shape, scalars, suffix, inner-dim and
// middle broadcasts, both sides broadcasting, and big enough to be split.
const std::pair<Shape, Shape> kPairs[] = {
    {{0}, {0}},
    {{1}, {1}},
    {{17}, {17}},
    {{1023}, {1023}},
    {{3, 0}, {0}},
    {{7, 17}, {17}},
    {{17}, {7, 17}},
    {{7, 17}, {1}},
    {{}, {7, 17}},
    {{2, 3, 5, 5}, {1, 1, 1, 5}},
    {{2, 3, 5, 5}, {2, 3, 1, 1}},
    {{2, 3, 5, 5}, {1, 3, 1, 1}},
    {{2, 3, 5, 5}, {2, 1, 5, 1}},
    {{4, 1}, {1, 5}},
    {{2, 12, 64, 64}, {2, 12, 64, 64}},
    {{2, 12, 64, 64}, {1, 1, 1, 64}},
    {{4, 96, 56, 56}, {4, 96, 1, 1}},
    {{300, 257}, {257}},
};

TEST_P(ElementwiseOpt, BinaryTensorShapesAndDtypes) {
  uint32_t seed = 1;
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half}) {
    for (const char* op : kTensorOps) {
      for (const auto& [sa, sb] : kPairs) {
        const bool big = kt::TT(t, sa).impl->numel() > 100000;
        for (double alpha : {1.0, 2.5, -1.0}) {
          // The portable kernel is slow on big non-fp32 cases: one each.
          if ((alpha != 1.0 && !has_alpha(op)) ||
              (big && (t != ScalarType::Float || alpha != 1.0))) {
            continue;
          }
          expect_same(
              op,
              [&](Case& c, std::mt19937& rng) {
                c.arg_tensor(c.tensor(random_tensor(t, sa, rng)));
                c.arg_tensor(c.tensor(random_tensor(t, sb, rng)));
                if (has_alpha(op)) c.args.emplace_back(alpha);
                c.arg_out_ret(c.tensor(kt::out(t, broadcast_shape(sa, sb))));
              },
              seed++, t == ScalarType::Half ? 2e-3 : 1e-5);
        }
      }
    }
  }
}

TEST_P(ElementwiseOpt, BinaryScalarOther) {
  uint32_t seed = 5000;
  for (const char* op : kScalarOps) {
    for (Shape s : {Shape{0}, Shape{1}, Shape{17}, Shape{3, 1023}, Shape{64, 1024}}) {
      for (int variant = 0; variant < 3; ++variant) {
        expect_same(
            op,
            [&](Case& c, std::mt19937& rng) {
              c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, s, rng)));
              if (variant == 0) c.args.emplace_back(0.3);        // float scalar
              if (variant == 1) c.args.emplace_back(int64_t{3}); // int scalar
              if (variant == 2) c.args.emplace_back(1.0 / 3.0);  // rounds to float
              if (has_alpha(op)) c.args.emplace_back(variant == 1 ? int64_t{2} : int64_t{1});
              c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, s)));
            },
            seed++);
      }
    }
  }
}

// Promotion (the portable kernel computes it) and wrong arguments, which
// both sets must reject.
TEST_P(ElementwiseOpt, BinaryPromotionAndErrors) {
  uint32_t seed = 9000;
  struct Spec {
    ScalarType a, b, o;
    Shape sa, sb;
  };
  const Spec specs[] = {
      {ScalarType::Float, ScalarType::Double, ScalarType::Double, {5, 7}, {7}},
      {ScalarType::Half, ScalarType::Float, ScalarType::Float, {5, 7}, {5, 7}},
      {ScalarType::Float, ScalarType::Float, ScalarType::Float, {3, 4}, {5}}, // no broadcast
      {ScalarType::Double, ScalarType::Float, ScalarType::Float, {3}, {3}},   // out too narrow
      {ScalarType::Float, ScalarType::Float, ScalarType::Int, {3}, {3}},      // can't cast
  };
  for (const char* op : kTensorOps) {
    for (const Spec& sp : specs) {
      expect_same(
          op,
          [&](Case& c, std::mt19937& rng) {
            c.arg_tensor(c.tensor(random_tensor(sp.a, sp.sa, rng)));
            c.arg_tensor(c.tensor(random_tensor(sp.b, sp.sb, rng)));
            if (has_alpha(op)) c.args.emplace_back(int64_t{1});
            c.arg_out_ret(c.tensor(kt::out(sp.o, broadcast_shape(sp.sa, sp.sb))));
          },
          seed++, 1e-5, oracle::Expect::Either);
    }
  }
}

// Unary ops taking (self, [extra args,] out).
struct UnarySpec {
  const char* op;
  std::function<void(Case&)> extra;
};

std::vector<UnarySpec> unary_specs() {
  auto none = [](Case&) {};
  return {
      {"aten::relu.out", none},
      {"aten::sigmoid.out", none},
      {"aten::tanh.out", none},
      {"aten::silu.out", none},
      {"aten::exp.out", none},
      {"aten::sqrt.out", none},
      {"aten::rsqrt.out", none},
      {"aten::neg.out", none},
      {"aten::gelu.out", [](Case& c) { c.args.emplace_back(kt::str("none")); }},
      {"aten::gelu.out", [](Case& c) { c.args.emplace_back(kt::str("tanh")); }},
      {"aten::hardtanh.out",
       [](Case& c) {
         c.args.emplace_back(-0.5);
         c.args.emplace_back(0.5);
       }},
      {"aten::hardtanh.out", // ReLU6 as exported
       [](Case& c) {
         c.args.emplace_back(0.0);
         c.args.emplace_back(6.0);
       }},
      {"aten::clamp.out",
       [](Case& c) {
         c.args.emplace_back(-0.25);
         c.args.emplace_back();
       }},
      {"aten::clamp.out",
       [](Case& c) {
         c.args.emplace_back();
         c.args.emplace_back(0.25);
       }},
      {"aten::clamp.out",
       [](Case& c) {
         c.args.emplace_back(0.3);
         c.args.emplace_back(-0.3); // min > max gives max
       }},
      {"aten::clamp.out",
       [](Case& c) {
         c.args.emplace_back(std::numeric_limits<double>::quiet_NaN());
         c.args.emplace_back(0.3);
       }},
  };
}

// Scales uniform [-1, 1) values to a range where the activations bend.
void scale(TT* t, float k) {
  if (t->dtype != ScalarType::Float) return;
  for (int64_t i = 0; i < t->impl->numel(); ++i) t->data<float>()[i] *= k;
}

TEST_P(ElementwiseOpt, UnaryShapesAndDtypes) {
  uint32_t seed = 20000;
  for (const UnarySpec& u : unary_specs()) {
    for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::BFloat16}) {
      for (Shape s :
           {Shape{0}, Shape{1}, Shape{17}, Shape{1023}, Shape{2, 3, 0}, Shape{64, 1031}}) {
        expect_same(
            u.op,
            [&](Case& c, std::mt19937& rng) {
              TT* in = c.tensor(random_tensor(t, s, rng));
              scale(in, 8.0f);
              c.arg_tensor(in);
              u.extra(c);
              c.arg_out_ret(c.tensor(kt::out(t, s)));
            },
            seed++, t == ScalarType::BFloat16 ? 1e-2 : 1e-5);
      }
    }
  }
}

// NaN, infinities, signed zeros and extremes; where the output has
// infinities the oracle's scaled tolerance does not apply, so compare here:
// NaN for NaN, exact for infinities, else 1e-5 relative to max(1, |want|).
TEST_P(ElementwiseOpt, UnarySpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> vals = {std::numeric_limits<float>::quiet_NaN(),
                                   inf,
                                   -inf,
                                   0.0f,
                                   -0.0f,
                                   1e-30f,
                                   -1e-30f,
                                   88.0f,
                                   89.0f,
                                   -87.5f,
                                   -100.0f,
                                   -104.5f,
                                   1e30f,
                                   -1e30f,
                                   5.5f,
                                   -5.5f,
                                   0.25f};
  for (const UnarySpec& u : unary_specs()) {
    std::vector<double> got[2];
    Error err[2];
    for (int set = 0; set < 2; ++set) {
      Case c;
      TT* in =
          c.tensor(kt::make<float>(ScalarType::Float, {static_cast<int32_t>(vals.size())}, vals));
      c.arg_tensor(in);
      u.extra(c);
      c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {static_cast<int32_t>(vals.size())})));
      err[set] = oracle::call_set(
          u.op, set == 0 ? oracle::BuiltinKernelSet::Portable : oracle::BuiltinKernelSet::Optimized,
          c);
      got[set] = c.outs[0]->values();
    }
    ASSERT_EQ(err[0], err[1]) << u.op;
    for (size_t i = 0; i < vals.size(); ++i) {
      const double want = got[0][i], have = got[1][i];
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(have)) << u.op << " at " << vals[i];
      } else if (std::isinf(want)) {
        EXPECT_EQ(have, want) << u.op << " at " << vals[i];
      } else {
        EXPECT_NEAR(have, want, 1e-5 * std::max(1.0, std::fabs(want))) << u.op << " at " << vals[i];
      }
    }
  }
}

TEST_P(ElementwiseOpt, UnaryErrors) {
  uint32_t seed = 30000;
  for (const UnarySpec& u : unary_specs()) {
    // A Double out for a Float self, and an out that cannot take the shape.
    for (ScalarType ot : {ScalarType::Double, ScalarType::Float}) {
      expect_same(
          u.op,
          [&](Case& c, std::mt19937& rng) {
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {4, 5}, rng)));
            u.extra(c);
            c.arg_out_ret(
                c.tensor(ot == ScalarType::Float ? kt::out(ot, {3}) : kt::out(ot, {4, 5})));
          },
          // exp, sqrt and rsqrt may write a Double out; the others reject it.
          seed++, 1e-5, ot == ScalarType::Float ? oracle::Expect::Failure : oracle::Expect::Either);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, ElementwiseOpt, ::testing::Values(1u, 3u));

} // namespace
