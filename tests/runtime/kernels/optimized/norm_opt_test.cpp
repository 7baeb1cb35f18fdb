// Optimized layer norm, batch norm and (log-)softmax against the portable
// kernels.
#include "oracle.h"

namespace {

using kt::ScalarType;
using oracle::Case;
using oracle::expect_same;
using oracle::random_tensor;
using oracle::TT;

class NormOpt : public oracle::ThreadCounts {};

TEST_P(NormOpt, LayerNorm) {
  uint32_t seed = 1;
  for (std::vector<int32_t> shape : {std::vector<int32_t>{1, 64},
                                     {2, 16, 64},
                                     {3, 5, 7},
                                     {0, 8},
                                     {4, 1},
                                     {300, 129},
                                     {1024, 257}}) { // the last is split over threads
    for (int norm_dims : {1, 2}) {
      for (bool affine : {false, true}) {
        if (norm_dims > static_cast<int>(shape.size())) continue;
        expect_same(
            "aten::native_layer_norm.out",
            [&](Case& c, std::mt19937& rng) {
              c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, shape, rng)));
              std::vector<int32_t> ns(shape.end() - norm_dims, shape.end());
              c.arg_ints(std::vector<int64_t>(ns.begin(), ns.end()));
              for (int i = 0; i < 2; ++i) {
                if (affine) {
                  c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, ns, rng)));
                } else {
                  c.args.emplace_back();
                }
              }
              c.args.emplace_back(1e-5);
              std::vector<int32_t> ms = shape;
              for (int d = 0; d < norm_dims; ++d) ms[ms.size() - 1 - d] = 1;
              TT* y = c.tensor(kt::out(ScalarType::Float, shape));
              TT* mean = c.tensor(kt::out(ScalarType::Float, ms));
              TT* rstd = c.tensor(kt::out(ScalarType::Float, ms));
              c.arg_out(y);
              c.arg_out(mean);
              c.arg_out(rstd);
              c.arg_ret_list({y, mean, rstd});
            },
            seed++, 2e-5);
      }
    }
  }
}

TEST_P(NormOpt, BatchNorm) {
  uint32_t seed = 100;
  for (std::vector<int32_t> shape :
       {std::vector<int32_t>{1, 8, 5, 5}, {2, 3, 17}, {2, 32, 64, 64}, {0, 4, 3}, {2, 5}}) {
    for (ScalarType stats : {ScalarType::Float, ScalarType::Double}) {
      expect_same(
          "aten::_native_batch_norm_legit_no_training.out",
          [&](Case& c, std::mt19937& rng) {
            const int32_t ch = shape[1];
            c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, shape, rng)));
            c.arg_tensor(c.tensor(random_tensor(stats, {ch}, rng)));
            c.arg_tensor(c.tensor(random_tensor(stats, {ch}, rng)));
            c.arg_tensor(c.tensor(random_tensor(stats, {ch}, rng)));
            TT* var = c.tensor(random_tensor(stats, {ch}, rng));
            for (int32_t i = 0; i < ch; ++i) {
              if (stats == ScalarType::Float) {
                var->data<float>()[i] = std::fabs(var->data<float>()[i]) + 0.1f;
              } else {
                var->data<double>()[i] = std::fabs(var->data<double>()[i]) + 0.1;
              }
            }
            c.arg_tensor(var);
            c.args.emplace_back(0.1);
            c.args.emplace_back(1e-5);
            TT* y = c.tensor(kt::out(ScalarType::Float, shape));
            TT* s1 = c.tensor(kt::out(ScalarType::Float, {0}));
            TT* s2 = c.tensor(kt::out(ScalarType::Float, {0}));
            c.arg_out(y);
            c.arg_tensor(s1);
            c.arg_tensor(s2);
            c.arg_ret_list({y, s1, s2});
          },
          seed++, 1e-5);
    }
  }
}

TEST_P(NormOpt, SoftmaxAndLogSoftmaxEveryDim) {
  uint32_t seed = 200;
  for (const char* op : {"aten::_softmax.out", "aten::_log_softmax.out"}) {
    for (std::vector<int32_t> shape :
         {std::vector<int32_t>{1, 4, 16, 16}, {7}, {3, 1025}, {2, 0, 3}, {5, 6, 7}, {512, 513}}) {
      for (int64_t dim = -1; dim < static_cast<int64_t>(shape.size()); ++dim) {
        expect_same(
            op,
            [&](Case& c, std::mt19937& rng) {
              c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, shape, rng)));
              c.args.emplace_back(dim);
              c.args.emplace_back(false);
              c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, shape)));
            },
            seed++, 1e-5);
      }
    }
  }
}

TEST_P(NormOpt, SoftmaxNanAndInfRows) {
  expect_same(
      "aten::_softmax.out",
      [&](Case& c, std::mt19937&) {
        TT* x = c.tensor(kt::make<float>(ScalarType::Float, {3, 3},
                                         {1, NAN, 2, -INFINITY, 0, 1, INFINITY, 1, 2}));
        c.arg_tensor(x);
        c.args.emplace_back(int64_t{1});
        c.args.emplace_back(false);
        c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {3, 3})));
      },
      1);
}

TEST_P(NormOpt, BadArgumentsFailAlike) {
  expect_same(
      "aten::native_layer_norm.out",
      [&](Case& c, std::mt19937& rng) {
        c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {2, 8}, rng)));
        c.arg_ints({4}); // does not match the trailing dim
        c.args.emplace_back();
        c.args.emplace_back();
        c.args.emplace_back(1e-5);
        TT* y = c.tensor(kt::out(ScalarType::Float, {2, 8}));
        TT* mean = c.tensor(kt::out(ScalarType::Float, {2, 1}));
        TT* rstd = c.tensor(kt::out(ScalarType::Float, {2, 1}));
        c.arg_out(y);
        c.arg_out(mean);
        c.arg_out(rstd);
        c.arg_ret_list({y, mean, rstd});
      },
      3, 1e-5, oracle::Expect::Failure);
}

INSTANTIATE_TEST_SUITE_P(Threads, NormOpt, ::testing::Values(1u, 3u));

} // namespace
