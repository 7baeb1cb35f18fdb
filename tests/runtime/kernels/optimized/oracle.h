// The portable kernel as the oracle of the optimized one: both run on the same
// arguments (built twice from one seed) and must fail alike or give the same
// outputs within a tolerance relative to the output's largest magnitude.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include <executorch/extension/threadpool/threadpool.h>
#include <executorch/runtime/kernel/builtin_kernels.h>

#include "kernel_test_util.h"

namespace oracle {

using kt::TT;
using ::executorch::runtime::BuiltinKernelSet;
using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;

// One call's arguments with the storage behind them; outs are compared.
struct Case {
  std::vector<std::unique_ptr<TT>> owned;
  std::vector<std::unique_ptr<kt::IntListArg>> lists;
  std::vector<std::unique_ptr<kt::TensorListArg>> rets;
  std::vector<EValue> args;
  std::vector<TT*> outs;

  TT* tensor(std::unique_ptr<TT> t) {
    owned.push_back(std::move(t));
    return owned.back().get();
  }
  void arg_tensor(TT* t) { args.emplace_back(t->tensor()); }
  void arg_out(TT* t) {
    outs.push_back(t);
    args.emplace_back(t->tensor());
  }
  // The out argument and the returned value (the same tensor).
  void arg_out_ret(TT* t) {
    arg_out(t);
    args.emplace_back(t->tensor());
  }
  // The returned tuple of a multi-output operator: its outs as one list.
  void arg_ret_list(const std::vector<TT*>& ts) {
    rets.push_back(std::make_unique<kt::TensorListArg>(ts));
    args.push_back(rets.back()->ev());
  }
  void arg_ints(std::vector<int64_t> v) {
    lists.push_back(std::make_unique<kt::IntListArg>(std::move(v)));
    args.push_back(lists.back()->ev());
  }
};

// A float tensor of `sizes` with values uniform in [-1, 1) drawn from rng.
inline std::unique_ptr<TT> random_tensor(kt::ScalarType t, std::vector<int32_t> sizes,
                                         std::mt19937& rng) {
  auto r = std::make_unique<TT>(t, std::move(sizes));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const size_t n = static_cast<size_t>(r->impl->numel());
  for (size_t i = 0; i < n; ++i) {
    const float v = dist(rng);
    switch (t) {
      case kt::ScalarType::Float:
        r->data<float>()[i] = v;
        break;
      case kt::ScalarType::Double:
        r->data<double>()[i] = v;
        break;
      case kt::ScalarType::Half:
        r->data<kt::Half>()[i] = kt::Half(v);
        break;
      case kt::ScalarType::BFloat16:
        r->data<kt::BFloat16>()[i] = kt::BFloat16(v);
        break;
      default:
        ADD_FAILURE() << "random_tensor: unsupported dtype";
        return r;
    }
  }
  return r;
}

inline Error call_set(const char* name, BuiltinKernelSet set, Case& c) {
  auto fn = ::executorch::runtime::get_builtin_kernel(name, set);
  EXPECT_NE(fn, nullptr) << name << " has no kernel in that set";
  if (fn == nullptr) return Error::OperatorMissing;
  std::vector<EValue*> ptrs;
  for (auto& v : c.args) ptrs.push_back(&v);
  kt::KernelRuntimeContext ctx;
  fn(ctx, kt::Span<EValue*>(ptrs.data(), ptrs.size()));
  return ctx.failure_state();
}

// What a case must do: run (the usual case: a test that both sets reject
// alike by mistake must not pass unnoticed), be rejected, or either (a loop
// over shapes some of which do not fit).
enum class Expect { Success, Failure, Either };

// Compares the first `count` outs of two runs of a case: within rel_tol of
// the output's largest magnitude, or, with rel_tol 0, identical (NaN for NaN,
// the sign of zero included).
inline void compare_outs(const char* name, uint32_t seed, const Case& portable,
                         const Case& optimized, double rel_tol, size_t count) {
  for (size_t o = 0; o < count && o < portable.outs.size() && o < optimized.outs.size(); ++o) {
    EXPECT_EQ(portable.outs[o]->shape(), optimized.outs[o]->shape()) << name << " out " << o;
    const std::vector<double> want = portable.outs[o]->values();
    const std::vector<double> got = optimized.outs[o]->values();
    if (want.size() != got.size()) return;
    double scale = 1.0;
    for (double v : want) scale = std::max(scale, std::fabs(v));
    for (size_t i = 0; i < want.size(); ++i) {
      const bool same =
          std::isnan(want[i])
              ? std::isnan(got[i])
              : (rel_tol == 0.0
                     ? want[i] == got[i] && std::signbit(want[i]) == std::signbit(got[i])
                     : got[i] == want[i] || std::fabs(got[i] - want[i]) <= rel_tol * scale);
      if (!same) {
        ADD_FAILURE() << name << " seed " << seed << " out " << o << " at " << i << ": " << got[i]
                      << " vs " << want[i];
        return;
      }
    }
  }
}

// Builds the case twice from `seed`, runs both sets and compares: within
// rel_tol of the output's largest magnitude, or, with rel_tol 0, identical
// (NaN for NaN, the sign of zero included). True when outputs were compared.
inline bool expect_same(const char* name, const std::function<void(Case&, std::mt19937&)>& build,
                        uint32_t seed, double rel_tol = 1e-5, Expect expect = Expect::Success) {
  Case portable, optimized;
  std::mt19937 rng_a(seed), rng_b(seed);
  build(portable, rng_a);
  build(optimized, rng_b);
  const Error ep = call_set(name, BuiltinKernelSet::Portable, portable);
  const Error eo = call_set(name, BuiltinKernelSet::Optimized, optimized);
  EXPECT_EQ(ep, eo) << name << " seed " << seed << ": the sets disagree on failing";
  if (expect == Expect::Success) {
    EXPECT_EQ(ep, Error::Ok) << name << " seed " << seed;
  }
  if (expect == Expect::Failure) {
    EXPECT_NE(ep, Error::Ok) << name << " seed " << seed;
  }
  if (ep != Error::Ok || eo != Error::Ok) return false;
  EXPECT_EQ(portable.outs.size(), optimized.outs.size());
  compare_outs(name, seed, portable, optimized, rel_tol, portable.outs.size());
  return true;
}

// Runs each test at 1 thread and at several (the optimized kernels split work
// over the process's pool).
class ThreadCounts : public ::testing::TestWithParam<uint32_t> {
 protected:
  void SetUp() override {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ::executorch::extension::threadpool::get_threadpool()->_unsafe_reset_threadpool(GetParam());
#pragma GCC diagnostic pop
  }
};

} // namespace oracle
