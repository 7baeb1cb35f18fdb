// fp32 GEMM: the optimized aten::mm.out kernel (through the built-in kernel
// table, as a program calls it) against the system CBLAS called directly on
// the same shapes, at the pool's thread count. BLAS alone gets the same
// number of threads through its own knob (OpenBLAS/BLIS/FlexiBLAS, found at
// run time) for its measurement only. Rounds alternate A B A B; each cell is
// the median over rounds of a round's median call time.
// Usage: gemm_bench [--threads N] [--rounds R] [--budget-ms MS]
// Prints one Markdown row per shape: GFLOP/s of each and ours/BLAS.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cblas.h>

#include <executorch/extension/threadpool/threadpool.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/kernel/builtin_kernels.h>

namespace {

namespace rt = ::executorch::runtime;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;

struct Shape {
  const char* what;
  int m, n, k;
};

// Corpus shapes (linear layers, im2col convolutions) and square ones.
const Shape kShapes[] = {
    {"bert ffn up, seq 16", 16, 128, 64},
    {"kv_decoder prefill ffn, seq 63", 63, 128, 64},
    {"resnet18_narrow stem (im2col)", 1024, 8, 147},
    {"mobilenet 1x1 at 32x32, 16->96", 96, 1024, 16},
    {"square 256", 256, 256, 256},
    {"square 512", 512, 512, 512},
    {"square 1024", 1024, 1024, 1024},
};

// BLAS's own thread-count knob, where the loaded BLAS has one.
void blas_threads(int n) {
  using SetInt = void (*)(int);
  if (auto f = reinterpret_cast<SetInt>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) f(n);
  if (auto f = reinterpret_cast<SetInt>(dlsym(RTLD_DEFAULT, "flexiblas_set_num_threads"))) f(n);
}

// A contiguous float tensor over caller-owned storage.
struct Mat {
  std::vector<float> data;
  TensorImpl::SizesType sizes[2];
  TensorImpl impl;
  Mat(int rows, int cols, std::mt19937& rng)
      : data(static_cast<size_t>(rows) * cols),
        sizes{rows, cols},
        impl(ScalarType::Float, 2, sizes, data.data()) {
    std::uniform_real_distribution<float> d(-1, 1);
    for (float& v : data) v = d(rng);
  }
};

template <typename F>
double median_call_us(F f, double budget_ms) {
  f(); // warm-up
  std::vector<double> t;
  const auto end = std::chrono::steady_clock::now() +
                   std::chrono::microseconds(static_cast<int64_t>(budget_ms * 1000));
  while (t.size() < 3 || (std::chrono::steady_clock::now() < end && t.size() < 5000)) {
    const auto a = std::chrono::steady_clock::now();
    f();
    t.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  int threads = 1, rounds = 5;
  double budget_ms = 150;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) threads = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--budget-ms") == 0) budget_ms = std::atof(argv[i + 1]);
  }
  if (threads < 1 || rounds < 1) {
    std::fprintf(stderr, "usage: gemm_bench [--threads N>=1] [--rounds R>=1] [--budget-ms MS]\n");
    return 2;
  }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ::executorch::extension::threadpool::get_threadpool()->_unsafe_reset_threadpool(threads);
#pragma GCC diagnostic pop
  const rt::OpFunction mm = rt::get_builtin_kernel("aten::mm.out", rt::BuiltinKernelSet::Optimized);
  if (mm == nullptr) {
    std::fprintf(stderr, "gemm_bench: this build has no optimized aten::mm.out\n");
    return 1;
  }
  std::printf(
      "| shape (M x N x K) | threads | ours GFLOP/s | BLAS alone GFLOP/s | ours / BLAS |\n");
  std::printf("|---|---|---|---|---|\n");
  std::mt19937 rng(0);
  for (const Shape& s : kShapes) {
    Mat a(s.m, s.k, rng), b(s.k, s.n, rng), c(s.m, s.n, rng);
    rt::EValue ev[4] = {rt::EValue(Tensor(&a.impl)), rt::EValue(Tensor(&b.impl)),
                        rt::EValue(Tensor(&c.impl)), rt::EValue(Tensor(&c.impl))};
    rt::EValue* args[4] = {&ev[0], &ev[1], &ev[2], &ev[3]};
    auto ours = [&] {
      rt::KernelRuntimeContext ctx;
      mm(ctx, rt::Span<rt::EValue*>(args, 4));
    };
    auto blas = [&] {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0f, a.data.data(),
                  s.k, b.data.data(), s.n, 0.0f, c.data.data(), s.n);
    };
    std::vector<double> ours_us, blas_us;
    for (int r = 0; r < rounds; ++r) {
      ours_us.push_back(median_call_us(ours, budget_ms));
      blas_threads(threads);
      blas_us.push_back(median_call_us(blas, budget_ms));
      blas_threads(1); // what the optimized kernels set for themselves
    }
    const double flop = 2.0 * s.m * s.n * s.k;
    const double o = flop / median(ours_us) / 1e3, b2 = flop / median(blas_us) / 1e3;
    std::printf("| %s (%d x %d x %d) | %d | %.1f | %.1f | %.2f |\n", s.what, s.m, s.n, s.k, threads,
                o, b2, o / b2);
  }
  return 0;
}
