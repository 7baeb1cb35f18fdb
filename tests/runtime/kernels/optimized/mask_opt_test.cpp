// Optimized mask kernels (where, comparisons, logical_not, pow.Tensor_Scalar)
// against the portable kernels: results must be identical, NaN and infinities
// included.
#include <cmath>
#include <limits>
#include <string>
#include <tuple>

#include "oracle.h"

namespace {

using kt::ScalarType;
using oracle::Case;
using oracle::TT;
using ::executorch::runtime::BuiltinKernelSet;
using ::executorch::runtime::Error;
using Shape = std::vector<int32_t>;

int compared = 0; // calls whose outputs were compared (expect_identical)

// Each test must have compared outputs, not only seen both sets fail.
class MaskOpt : public oracle::ThreadCounts {
 protected:
  void SetUp() override {
    oracle::ThreadCounts::SetUp();
    compared = 0;
  }
  void TearDown() override {
    std::printf("compared outputs of %d calls\n", compared);
    EXPECT_GT(compared, 0);
  }
};

size_t numel_of(const Shape& s) {
  size_t n = 1;
  for (int32_t v : s) n *= static_cast<size_t>(v);
  return n;
}

// Values that make comparisons tie and pow hit its special cases.
float special_value(std::mt19937& rng) {
  static const float kVals[] = {0.0f,  -0.0f, 1.0f,     -1.0f,     0.5f,   2.0f,
                                -2.5f, NAN,   INFINITY, -INFINITY, 1e-40f, 3.0e38f};
  const uint32_t r = rng() % 32;
  if (r < sizeof(kVals) / sizeof(kVals[0])) return kVals[r];
  return std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng);
}

std::unique_ptr<TT> tensor_of(ScalarType t, const Shape& s, std::mt19937& rng) {
  auto r = std::make_unique<TT>(t, s);
  for (size_t i = 0; i < numel_of(s); ++i) {
    const float v = special_value(rng);
    switch (t) {
      case ScalarType::Float:
        r->data<float>()[i] = v;
        break;
      case ScalarType::Double:
        r->data<double>()[i] = v;
        break;
      case ScalarType::Half:
        r->data<kt::Half>()[i] = kt::Half(v);
        break;
      case ScalarType::Long:
        r->data<int64_t>()[i] = static_cast<int64_t>(rng() % 7) - 3;
        break;
      case ScalarType::Int:
        r->data<int32_t>()[i] = static_cast<int32_t>(rng() % 7) - 3;
        break;
      case ScalarType::Bool:
      case ScalarType::Byte:
        r->data<uint8_t>()[i] = static_cast<uint8_t>(rng() % 2);
        break;
      default:
        ADD_FAILURE() << "tensor_of: unsupported dtype";
    }
  }
  return r;
}

// Both sets on the same arguments: they fail alike or give identical outs
// (NaN for NaN, the sign of zero included).
void expect_identical(const char* name, const std::function<void(Case&, std::mt19937&)>& build,
                      uint32_t seed) {
  if (oracle::expect_same(name, build, seed, 0.0, oracle::Expect::Either)) ++compared;
}

// The shapes broadcast together (the larger size where two differ: shapes
// that do not broadcast give a shape the kernel must reject).
Shape broadcast_of(const std::vector<Shape>& shapes) {
  size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape r(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    for (const Shape& s : shapes) {
      const int32_t v = i < s.size() ? s[s.size() - 1 - i] : 1;
      int32_t& m = r[rank - 1 - i];
      m = m == 1 ? v : (v == 1 ? m : std::max(m, v));
    }
  }
  return r;
}

// (a, b) shape pairs: same shape, scalars, suffix, inner-dim and middle
// broadcasts, both broadcasting, big enough to be split, and mismatches.
const std::pair<Shape, Shape> kPairs[] = {
    {{0}, {0}},
    {{1}, {1}},
    {{17}, {17}},
    {{3, 0}, {0}},
    {{7, 17}, {17}},
    {{17}, {7, 17}},
    {{7, 17}, {1}},
    {{}, {7, 17}},
    {{2, 3, 5, 5}, {1, 1, 5, 5}},
    {{2, 3, 5, 5}, {2, 3, 1, 1}},
    {{2, 3, 5, 5}, {2, 1, 5, 1}},
    {{4, 1}, {1, 5}},
    {{2, 12, 64, 64}, {1, 1, 64, 64}},
    {{300, 257}, {257}},
    {{3, 4}, {5}},
};

const char* const kCmp[] = {"eq", "ne", "lt", "le", "gt", "ge"};

TEST_P(MaskOpt, ComparisonTensor) {
  uint32_t seed = 1;
  for (const char* cmp : kCmp) {
    const std::string op = std::string("aten::") + cmp + ".Tensor_out";
    for (const auto& [sa, sb] : kPairs) {
      for (auto [ta, tb, to] :
           {std::make_tuple(ScalarType::Float, ScalarType::Float, ScalarType::Bool),
            std::make_tuple(ScalarType::Float, ScalarType::Float, ScalarType::Float),
            std::make_tuple(ScalarType::Float, ScalarType::Long, ScalarType::Bool),
            std::make_tuple(ScalarType::Long, ScalarType::Long, ScalarType::Bool),
            std::make_tuple(ScalarType::Half, ScalarType::Float, ScalarType::Bool)}) {
        if (numel_of(sa) > 10000 && (ta != ScalarType::Float || tb != ScalarType::Float)) continue;
        expect_identical(
            op.c_str(),
            [&](Case& c, std::mt19937& rng) {
              c.arg_tensor(c.tensor(tensor_of(ta, sa, rng)));
              c.arg_tensor(c.tensor(tensor_of(tb, sb, rng)));
              c.arg_out_ret(c.tensor(kt::out(to, broadcast_of({sa, sb}))));
            },
            seed++);
      }
    }
  }
}

TEST_P(MaskOpt, ComparisonScalar) {
  uint32_t seed = 1000;
  for (const char* cmp : kCmp) {
    const std::string op = std::string("aten::") + cmp + ".Scalar_out";
    for (Shape s : {Shape{0}, Shape{1}, Shape{}, Shape{17}, Shape{3, 1023}, Shape{64, 1024}}) {
      for (int variant = 0; variant < 5; ++variant) {
        expect_identical(
            op.c_str(),
            [&](Case& c, std::mt19937& rng) {
              c.arg_tensor(c.tensor(tensor_of(ScalarType::Float, s, rng)));
              if (variant == 0) c.args.emplace_back(0.5);
              if (variant == 1) c.args.emplace_back(int64_t{-1});
              if (variant == 2) c.args.emplace_back(1.0 / 3.0); // rounds to float
              if (variant == 3) c.args.emplace_back(std::numeric_limits<double>::quiet_NaN());
              if (variant == 4) c.args.emplace_back(-std::numeric_limits<double>::infinity());
              c.arg_out_ret(c.tensor(kt::out(ScalarType::Bool, s)));
            },
            seed++);
      }
    }
  }
}

TEST_P(MaskOpt, Where) {
  uint32_t seed = 2000;
  // (cond, self, other) shapes.
  const Shape kTriples[][3] = {
      {{0}, {0}, {0}},
      {{1}, {1}, {1}},
      {{17}, {17}, {17}},
      {{7, 17}, {7, 17}, {}},
      {{7, 17}, {}, {7, 17}},
      {{1, 1, 64, 64}, {2, 12, 64, 64}, {}},
      {{1, 1, 64, 64}, {}, {2, 12, 64, 64}},
      {{2, 1, 1, 5}, {2, 3, 5, 5}, {1}},
      {{5, 1}, {1, 5}, {5, 5}},
      {{300, 257}, {257}, {300, 257}},
      {{3, 4}, {4}, {5}},
  };
  for (const auto& t : kTriples) {
    for (auto [tc, ta, tb, to] :
         {std::make_tuple(ScalarType::Bool, ScalarType::Float, ScalarType::Float,
                          ScalarType::Float),
          std::make_tuple(ScalarType::Byte, ScalarType::Float, ScalarType::Float,
                          ScalarType::Float),
          std::make_tuple(ScalarType::Bool, ScalarType::Float, ScalarType::Double,
                          ScalarType::Double),
          std::make_tuple(ScalarType::Bool, ScalarType::Long, ScalarType::Float, ScalarType::Float),
          std::make_tuple(ScalarType::Bool, ScalarType::Float, ScalarType::Float, ScalarType::Long),
          std::make_tuple(ScalarType::Float, ScalarType::Float, ScalarType::Float,
                          ScalarType::Float)}) {
      if (numel_of(t[1]) > 10000 && ta != ScalarType::Float) continue;
      expect_identical(
          "aten::where.self_out",
          [&](Case& c, std::mt19937& rng) {
            c.arg_tensor(c.tensor(tensor_of(tc, t[0], rng)));
            c.arg_tensor(c.tensor(tensor_of(ta, t[1], rng)));
            c.arg_tensor(c.tensor(tensor_of(tb, t[2], rng)));
            c.arg_out_ret(c.tensor(kt::out(to, broadcast_of({t[0], t[1], t[2]}))));
          },
          seed++);
    }
  }
}

TEST_P(MaskOpt, LogicalNot) {
  uint32_t seed = 3000;
  for (Shape s : {Shape{0}, Shape{1}, Shape{}, Shape{17}, Shape{3, 1023}, Shape{64, 1024}}) {
    for (auto [ti, to] : {std::make_pair(ScalarType::Bool, ScalarType::Bool),
                          std::make_pair(ScalarType::Byte, ScalarType::Bool),
                          std::make_pair(ScalarType::Float, ScalarType::Bool),
                          std::make_pair(ScalarType::Bool, ScalarType::Float),
                          std::make_pair(ScalarType::Long, ScalarType::Bool)}) {
      expect_identical(
          "aten::logical_not.out",
          [&](Case& c, std::mt19937& rng) {
            c.arg_tensor(c.tensor(tensor_of(ti, s, rng)));
            c.arg_out_ret(c.tensor(kt::out(to, s)));
          },
          seed++);
    }
  }
  // An out that cannot take self's shape fails in both sets.
  expect_identical(
      "aten::logical_not.out",
      [&](Case& c, std::mt19937& rng) {
        c.arg_tensor(c.tensor(tensor_of(ScalarType::Bool, {4, 5}, rng)));
        c.arg_out_ret(c.tensor(
            std::make_unique<TT>(ScalarType::Bool, Shape{3}, 0, kt::TensorShapeDynamism::STATIC)));
      },
      seed++);
}

TEST_P(MaskOpt, PowTensorScalar) {
  uint32_t seed = 4000;
  const double kExps[] = {2.0, 0.5, 1.0, 3.0, -1.0, -0.5, 0.0, 1.0 / 3.0, 2.5};
  for (Shape s : {Shape{0}, Shape{1}, Shape{}, Shape{17}, Shape{3, 1023}, Shape{64, 1024}}) {
    for (double e : kExps) {
      for (auto [ti, to] : {std::make_pair(ScalarType::Float, ScalarType::Float),
                            std::make_pair(ScalarType::Half, ScalarType::Half),
                            std::make_pair(ScalarType::Float, ScalarType::Double)}) {
        if (numel_of(s) > 10000 && ti != ScalarType::Float) continue;
        expect_identical(
            "aten::pow.Tensor_Scalar_out",
            [&](Case& c, std::mt19937& rng) {
              c.arg_tensor(c.tensor(tensor_of(ti, s, rng)));
              c.args.emplace_back(e);
              c.arg_out_ret(c.tensor(kt::out(to, s)));
            },
            seed++);
      }
    }
    // An integer exponent, and integer tensors (the portable loop).
    expect_identical(
        "aten::pow.Tensor_Scalar_out",
        [&](Case& c, std::mt19937& rng) {
          c.arg_tensor(c.tensor(tensor_of(ScalarType::Float, s, rng)));
          c.args.emplace_back(int64_t{2});
          c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, s)));
        },
        seed++);
  }
  // Wrong arguments fail alike: bool self, a float result into an int out.
  for (auto [ti, to] : {std::make_pair(ScalarType::Bool, ScalarType::Bool),
                        std::make_pair(ScalarType::Float, ScalarType::Long)}) {
    expect_identical(
        "aten::pow.Tensor_Scalar_out",
        [&](Case& c, std::mt19937& rng) {
          c.arg_tensor(c.tensor(tensor_of(ti, {5}, rng)));
          c.args.emplace_back(ti == ScalarType::Bool ? oracle::EValue(true) : oracle::EValue(2.0));
          c.arg_out_ret(c.tensor(kt::out(to, {5})));
        },
        seed++);
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, MaskOpt, ::testing::Values(1u, 3u));

} // namespace
