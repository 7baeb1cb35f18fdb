// Several threads run optimized kernels at once: they share the process's one
// thread pool (its run() calls take turns) and must each get the result the
// portable kernel gives alone. Run under ThreadSanitizer by .ci/sanitizers.sh.
#include <thread>
#include <vector>

#include "optimized/oracle.h"

namespace {

using kt::ScalarType;
using oracle::Case;
using oracle::random_tensor;

// mm of 96 x 80 @ 80 x 112: big enough to be split over the pool.
void build_mm(Case& c, std::mt19937& rng) {
  c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {96, 80}, rng)));
  c.arg_tensor(c.tensor(random_tensor(ScalarType::Float, {80, 112}, rng)));
  c.arg_out_ret(c.tensor(kt::out(ScalarType::Float, {96, 112})));
}

TEST(KernelPool, ThreadsShareThePool) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ::executorch::extension::threadpool::get_threadpool()->_unsafe_reset_threadpool(3);
#pragma GCC diagnostic pop
  Case want;
  std::mt19937 rng(7);
  build_mm(want, rng);
  ASSERT_EQ(oracle::call_set("aten::mm.out", oracle::BuiltinKernelSet::Portable, want),
            oracle::Error::Ok);
  const std::vector<double> expected = want.outs[0]->values();

  std::vector<int> bad(4, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < bad.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        Case c;
        std::mt19937 r(7);
        build_mm(c, r);
        if (oracle::call_set("aten::mm.out", oracle::BuiltinKernelSet::Optimized, c) !=
            oracle::Error::Ok) {
          ++bad[t];
          continue;
        }
        const std::vector<double> got = c.outs[0]->values();
        for (size_t i = 0; i < got.size(); ++i) {
          if (std::fabs(got[i] - expected[i]) > 1e-4) {
            ++bad[t];
            break;
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (size_t t = 0; t < bad.size(); ++t) EXPECT_EQ(bad[t], 0) << "thread " << t;
}

} // namespace
