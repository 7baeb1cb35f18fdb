// Optimized mm, bmm, addmm and linear against the portable kernels.
#include "oracle.h"

namespace {

using kt::ScalarType;
using oracle::Case;
using oracle::expect_same;
using oracle::random_tensor;
using oracle::TT;

class MatmulOpt : public oracle::ThreadCounts {};

// Shapes: empty, 1, odd, and big enough to be split over threads.
const int32_t kDims[] = {0, 1, 3, 17, 64, 129};

TEST_P(MatmulOpt, MmEveryShapeAndDtype) {
  uint32_t seed = 1;
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half}) {
    for (int32_t n : kDims) {
      for (int32_t k : {0, 5, 64}) {
        for (int32_t m : {1, 17, 130}) {
          expect_same(
              "aten::mm.out",
              [&](Case& c, std::mt19937& rng) {
                c.arg_tensor(c.tensor(random_tensor(t, {n, k}, rng)));
                c.arg_tensor(c.tensor(random_tensor(t, {k, m}, rng)));
                c.arg_out_ret(c.tensor(kt::out(t, {n, m})));
              },
              seed++, t == ScalarType::Half ? 2e-3 : 1e-5);
        }
      }
    }
  }
}

TEST_P(MatmulOpt, Bmm) {
  uint32_t seed = 100;
  for (int32_t b : {1, 4, 12}) {
    for (int32_t n : {1, 16, 33}) {
      expect_same(
          "aten::bmm.out",
          [&](Case& c, std::mt19937& rng) {
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {b, n, 8}, rng)));
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {b, 8, n + 1}, rng)));
            c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {b, n, n + 1})));
          },
          seed++);
    }
  }
}

TEST_P(MatmulOpt, LinearWithAndWithoutBias) {
  uint32_t seed = 200;
  for (bool bias : {false, true}) {
    for (std::vector<int32_t> lead : {std::vector<int32_t>{1}, {7}, {2, 16}, {3, 5, 9}}) {
      expect_same(
          "aten::linear.out",
          [&](Case& c, std::mt19937& rng) {
            std::vector<int32_t> xs = lead, os = lead;
            xs.push_back(48);
            os.push_back(65);
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, xs, rng)));
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {65, 48}, rng)));
            if (bias) {
              c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {65}, rng)));
            } else {
              c.args.emplace_back();
            }
            c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, os)));
          },
          seed++);
    }
  }
}

TEST_P(MatmulOpt, AddmmBroadcastBiasAlphaBeta) {
  uint32_t seed = 300;
  for (std::vector<int32_t> bias_shape :
       {std::vector<int32_t>{40}, {1, 40}, {31, 1}, {31, 40}, {1}}) {
    for (double beta : {0.0, 1.0, 0.5}) {
      expect_same(
          "aten::addmm.out",
          [&](Case& c, std::mt19937& rng) {
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, bias_shape, rng)));
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {31, 20}, rng)));
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {20, 40}, rng)));
            c.args.emplace_back(beta);
            c.args.emplace_back(2.0);
            c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {31, 40})));
          },
          seed++);
    }
  }
}

TEST_P(MatmulOpt, BadArgumentsFailAlike) {
  expect_same(
      "aten::mm.out",
      [&](Case& c, std::mt19937& rng) {
        c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {4, 5}, rng)));
        c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {6, 3}, rng)));
        c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {4, 3})));
      },
      7, 1e-5, oracle::Expect::Failure);
  expect_same(
      "aten::mm.out",
      [&](Case& c, std::mt19937& rng) {
        c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {4, 5}, rng)));
        c.arg_tensor(c.tensor(random_tensor(ScalarType::Double, {5, 3}, rng)));
        c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {4, 3})));
      },
      8, 1e-5, oracle::Expect::Failure);
}

INSTANTIATE_TEST_SUITE_P(Threads, MatmulOpt, ::testing::Values(1u, 3u));

} // namespace
