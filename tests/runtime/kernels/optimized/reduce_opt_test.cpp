// Optimized sum, mean and group norm against the portable kernels.
#include "oracle.h"

namespace {

using kt::ScalarType;
using oracle::Case;
using oracle::expect_same;
using oracle::random_tensor;
using oracle::TT;

class ReduceOpt : public oracle::ThreadCounts {};

// Every subset of dims (as a bit mask) of a shape, as a dim list.
std::vector<int64_t> dims_of(unsigned mask, size_t rank, bool negative) {
  std::vector<int64_t> v;
  for (size_t d = 0; d < rank; ++d) {
    if (mask & (1u << d))
      v.push_back(negative ? static_cast<int64_t>(d) - static_cast<int64_t>(rank)
                           : static_cast<int64_t>(d));
  }
  return v;
}

size_t numel(const std::vector<int32_t>& s) {
  size_t n = 1;
  for (int32_t v : s) n *= static_cast<size_t>(v);
  return n;
}

// The output shape the kernel resizes to (a wrong dim list keeps the rank).
std::vector<int32_t> out_shape(const std::vector<int32_t>& shape, const std::vector<int64_t>& dims,
                               bool none_dims, bool keepdim) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> red(shape.size(), none_dims || dims.empty());
  for (int64_t d : dims) {
    const int64_t k = d < 0 ? d + rank : d;
    if (k < 0 || k >= rank) return shape;
    red[static_cast<size_t>(k)] = true;
  }
  std::vector<int32_t> o;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!red[d]) {
      o.push_back(shape[d]);
    } else if (keepdim) {
      o.push_back(1);
    }
  }
  return o;
}

void sum_mean_case(const char* op, const std::vector<int32_t>& shape,
                   const std::vector<int64_t>& dims, bool none_dims, bool keepdim, bool dtype,
                   ScalarType in_t, ScalarType out_t, uint32_t seed,
                   oracle::Expect expect = oracle::Expect::Success) {
  expect_same(
      op,
      [&](Case& c, std::mt19937& rng) {
        c.arg_tensor(c.tensor(random_tensor(in_t, shape, rng)));
        if (none_dims) {
          c.args.emplace_back();
        } else {
          c.arg_ints(dims);
        }
        c.args.emplace_back(keepdim);
        if (dtype) {
          c.args.emplace_back(static_cast<int64_t>(out_t));
        } else {
          c.args.emplace_back();
        }
        c.arg_out_ret(
            c.tensor(kt::out(out_t, out_shape(shape, dims, none_dims, keepdim), numel(shape) + 1)));
      },
      seed, 1e-5, expect);
}

TEST_P(ReduceOpt, SumAndMeanEveryDimSubset) {
  uint32_t seed = 1;
  for (const char* op : {"aten::mean.out", "aten::sum.IntList_out"}) {
    for (std::vector<int32_t> shape : {std::vector<int32_t>{2, 3, 7, 7},
                                       {1, 64, 5, 5},
                                       {3, 1, 4},
                                       {7},
                                       {5, 0, 3},
                                       {1},
                                       {4, 513},
                                       {2, 1030, 3},
                                       {1, 1, 1, 1}}) {
      const unsigned subsets = 1u << shape.size();
      for (unsigned m = 1; m < subsets; ++m) {
        for (bool keepdim : {false, true}) {
          sum_mean_case(op, shape, dims_of(m, shape.size(), (m & 1) != 0), false, keepdim,
                        (seed % 3) == 0, ScalarType::Float, ScalarType::Float, seed);
          ++seed;
        }
      }
    }
  }
}

TEST_P(ReduceOpt, GlobalPoolAndLastDimShapes) {
  uint32_t seed = 1000;
  for (const char* op : {"aten::mean.out", "aten::sum.IntList_out"}) {
    sum_mean_case(op, {1, 576, 7, 7}, {-1, -2}, false, true, false, ScalarType::Float,
                  ScalarType::Float, seed++);
    sum_mean_case(op, {2, 37, 512}, {-1}, false, true, false, ScalarType::Float, ScalarType::Float,
                  seed++);
    sum_mean_case(op, {2, 37, 100003 / 37}, {1}, false, false, false, ScalarType::Float,
                  ScalarType::Float, seed++);
    sum_mean_case(op, {300, 7}, {0}, false, false, false, ScalarType::Float, ScalarType::Float,
                  seed++);
    sum_mean_case(op, {100000}, {0}, false, false, false, ScalarType::Float, ScalarType::Float,
                  seed++);
  }
}

TEST_P(ReduceOpt, AllDimsScalarAndOtherDtypes) {
  uint32_t seed = 2000;
  for (const char* op : {"aten::mean.out", "aten::sum.IntList_out"}) {
    sum_mean_case(op, {3, 4}, {}, true, false, false, ScalarType::Float, ScalarType::Float, seed++);
    sum_mean_case(op, {3, 4}, {}, false, true, false, ScalarType::Float, ScalarType::Float, seed++);
    sum_mean_case(op, {}, {}, true, false, false, ScalarType::Float, ScalarType::Float, seed++);
    sum_mean_case(op, {}, {0}, false, true, false, ScalarType::Float, ScalarType::Float, seed++);
    sum_mean_case(op, {0}, {0}, false, false, false, ScalarType::Float, ScalarType::Float, seed++);
    sum_mean_case(op, {3, 5}, {1}, false, false, true, ScalarType::Float, ScalarType::Double,
                  seed++);
    sum_mean_case(op, {3, 5}, {1}, false, false, false, ScalarType::Double, ScalarType::Double,
                  seed++);
    sum_mean_case(op, {3, 5}, {0}, false, false, false, ScalarType::Half, ScalarType::Half, seed++);
  }
}

TEST_P(ReduceOpt, NanAndInfPropagate) {
  for (const char* op : {"aten::mean.out", "aten::sum.IntList_out"}) {
    for (int64_t dim : {0, 1}) {
      expect_same(
          op,
          [&](Case& c, std::mt19937&) {
            c.arg_tensor(c.tensor(kt::make<float>(ScalarType::Float, {3, 3},
                                                  {1, NAN, 2, -INFINITY, 0, 1, INFINITY, 1, 2})));
            c.arg_ints({dim});
            c.args.emplace_back(false);
            c.args.emplace_back();
            c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {3})));
          },
          1);
    }
  }
}

TEST_P(ReduceOpt, BadArgumentsFailAlike) {
  for (const char* op : {"aten::mean.out", "aten::sum.IntList_out"}) {
    // A dim out of range, a repeated dim, a dtype that is not out's.
    sum_mean_case(op, {2, 3}, {2}, false, false, false, ScalarType::Float, ScalarType::Float, 1,
                  oracle::Expect::Failure);
    sum_mean_case(op, {2, 3}, {1, -1}, false, false, false, ScalarType::Float, ScalarType::Float, 2,
                  oracle::Expect::Failure);
    expect_same(
        op,
        [&](Case& c, std::mt19937& rng) {
          c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {2, 3}, rng)));
          c.arg_ints({1});
          c.args.emplace_back(false);
          c.args.emplace_back(static_cast<int64_t>(ScalarType::Double));
          c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {2})));
        },
        3, 1e-5, oracle::Expect::Failure);
  }
}

void group_norm_case(std::vector<int32_t> shape, int64_t group, bool affine, ScalarType t,
                     uint32_t seed, oracle::Expect expect = oracle::Expect::Success) {
  expect_same(
      "aten::native_group_norm.out",
      [&](Case& c, std::mt19937& rng) {
        const int32_t C = shape.size() > 1 ? shape[1] : 1;
        int64_t hxw = 1;
        for (size_t d = 2; d < shape.size(); ++d) hxw *= shape[d];
        c.arg_tensor(c.tensor(random_tensor(t, shape, rng)));
        for (int i = 0; i < 2; ++i) {
          if (affine) {
            c.arg_tensor(c.tensor(random_tensor(t, {C}, rng)));
          } else {
            c.args.emplace_back();
          }
        }
        c.args.emplace_back(static_cast<int64_t>(shape[0]));
        c.args.emplace_back(static_cast<int64_t>(C));
        c.args.emplace_back(hxw);
        c.args.emplace_back(group);
        c.args.emplace_back(1e-5);
        TT* o = c.tensor(kt::out(t, shape));
        TT* mean = c.tensor(kt::out(t, {shape[0], static_cast<int32_t>(group)}));
        TT* rstd = c.tensor(kt::out(t, {shape[0], static_cast<int32_t>(group)}));
        c.arg_out(o);
        c.arg_out(mean);
        c.arg_out(rstd);
        c.arg_ret_list({o, mean, rstd});
      },
      seed, 2e-5, expect);
}

TEST_P(ReduceOpt, GroupNorm) {
  uint32_t seed = 3000;
  for (std::vector<int32_t> shape : {std::vector<int32_t>{1, 512, 3199},
                                     {2, 8, 5, 5},
                                     {3, 6, 7},
                                     {0, 4, 3},
                                     {2, 4},
                                     {1, 4, 0}}) {
    for (int64_t group : {1, 2, 4}) {
      // 6 channels do not split into 4 groups.
      const oracle::Expect expect = shape.size() > 1 && shape[1] % group != 0
                                        ? oracle::Expect::Failure
                                        : oracle::Expect::Success;
      for (bool affine : {false, true}) {
        group_norm_case(shape, group, affine, ScalarType::Float, seed++, expect);
      }
    }
  }
  group_norm_case({2, 4, 9}, 2, true, ScalarType::Double, seed++);
  group_norm_case({2, 6, 9}, 4, true, ScalarType::Float, seed++, oracle::Expect::Failure);
  group_norm_case({2, 6, 9}, 0, false, ScalarType::Float, seed++, oracle::Expect::Failure);
}

INSTANTIATE_TEST_SUITE_P(Threads, ReduceOpt, ::testing::Values(1u, 3u));

} // namespace
