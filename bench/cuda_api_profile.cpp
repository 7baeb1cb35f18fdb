// LD_PRELOAD library for gpu_bench: splits the host time of one execute into
// the CUDA runtime and driver calls it makes (the driver's time) and the rest
// (the runtime's own code, the shim, and the libraries it calls through
// dlsym'd pointers, such as cuBLAS). perf is not on the GPU host, so the
// split is measured by interposing the calls the backend and the AOTI .so
// make through the dynamic linker.
//
// gpu_bench looks up et_cuda_api_profile_scope() with dlsym(RTLD_DEFAULT):
// scope(label) before a timed execute, scope(nullptr) after. Only calls made
// inside a scope are counted. At exit the library prints, per label, to
// stderr: executes, the median wall time of the scope, the median time inside
// interposed calls, the median of the rest, and per call name the calls and
// microseconds per execute.
//
//   LD_PRELOAD=build/bench/libcuda_api_profile.so gpu_bench --device-io ...
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace {

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

struct CallTotals {
  uint64_t calls = 0;
  uint64_t ns = 0;
};

struct LabelStats {
  std::vector<double> wall_us, api_us;
  std::map<std::string, CallTotals> by_call;
};

// gpu_bench times one execute at a time on one thread: no locking.
struct Profile {
  std::map<std::string, LabelStats> labels;
  LabelStats* current = nullptr;
  uint64_t scope_start = 0, scope_api_ns = 0;

  ~Profile() { print(); }
  void print() const;
};

Profile& profile() {
  static Profile p;
  return p;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

void Profile::print() const {
  for (const auto& [label, s] : labels) {
    const size_t n = s.wall_us.size();
    if (n == 0) continue;
    std::vector<double> rest(n);
    for (size_t i = 0; i < n; ++i) rest[i] = s.wall_us[i] - s.api_us[i];
    std::fprintf(stderr,
                 "cuda_api_profile %s: %zu executes, median us: scope %.2f, in CUDA calls %.2f, "
                 "rest %.2f\n",
                 label.c_str(), n, median(s.wall_us), median(s.api_us), median(rest));
    for (const auto& [name, t] : s.by_call) {
      std::fprintf(stderr, "cuda_api_profile %s:   %-28s %6.2f calls %8.2f us per execute\n",
                   label.c_str(), name.c_str(), double(t.calls) / double(n),
                   double(t.ns) / 1e3 / double(n));
    }
  }
}

// Times one interposed call when a scope is open.
class Timed {
 public:
  explicit Timed(const char* name) : name_(name), t0_(profile().current ? now_ns() : 0) {}
  ~Timed() {
    Profile& p = profile();
    if (p.current == nullptr || t0_ == 0) return;
    const uint64_t ns = now_ns() - t0_;
    CallTotals& t = p.current->by_call[name_];
    ++t.calls;
    t.ns += ns;
    p.scope_api_ns += ns;
  }

 private:
  const char* name_;
  uint64_t t0_;
};

// The definition after this library's. libcudart opens libcuda.so.1 outside
// the global scope, so the driver's functions are looked up there too.
template <typename Fn>
Fn next_symbol(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (f == nullptr) {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver != nullptr) f = dlsym(driver, name);
  }
  if (f == nullptr) std::fprintf(stderr, "cuda_api_profile: no next %s\n", name);
  return reinterpret_cast<Fn>(f);
}

} // namespace

extern "C" __attribute__((visibility("default"))) void et_cuda_api_profile_scope(
    const char* label) {
  Profile& p = profile();
  if (label != nullptr) {
    p.current = &p.labels[label];
    p.scope_api_ns = 0;
    p.scope_start = now_ns();
    return;
  }
  if (p.current == nullptr) return;
  const uint64_t wall = now_ns() - p.scope_start;
  p.current->wall_us.push_back(double(wall) / 1e3);
  p.current->api_us.push_back(double(p.scope_api_ns) / 1e3);
  p.current = nullptr;
}

// One interposer per call: same signature, forwards to the next definition.
// An unresolved next symbol returns the error value (e.g. cudaErrorUnknown).
#define ET_INTERPOSE(ret, fail, name, params, args)                   \
  extern "C" __attribute__((visibility("default"))) ret name params { \
    using Fn = ret(*) params;                                         \
    static const Fn real = next_symbol<Fn>(#name);                    \
    if (real == nullptr) return fail;                                 \
    Timed timed(#name);                                               \
    return real args;                                                 \
  }

ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaMemcpyAsync,
             (void* d, const void* s, size_t n, cudaMemcpyKind k, cudaStream_t st),
             (d, s, n, k, st))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaMemcpy2DAsync,
             (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k,
              cudaStream_t st),
             (d, dp, s, sp, w, h, k, st))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaMemsetAsync,
             (void* d, int v, size_t n, cudaStream_t st), (d, v, n, st))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaMemcpy,
             (void* d, const void* s, size_t n, cudaMemcpyKind k), (d, s, n, k))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaGraphLaunch, (cudaGraphExec_t g, cudaStream_t st),
             (g, st))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaStreamWaitEvent,
             (cudaStream_t st, cudaEvent_t ev, unsigned int flags), (st, ev, flags))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaEventRecord, (cudaEvent_t ev, cudaStream_t st),
             (ev, st))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaEventSynchronize, (cudaEvent_t ev), (ev))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaStreamSynchronize, (cudaStream_t st), (st))
#if CUDART_VERSION >= 12000 // cudaStreamGetId is CUDA 12's
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaStreamGetId,
             (cudaStream_t st, unsigned long long* id), (st, id))
#endif
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaPointerGetAttributes,
             (cudaPointerAttributes * a, const void* p), (a, p))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaGetDevice, (int* d), (d))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaSetDevice, (int d), (d))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaGetLastError, (), ())
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaMallocAsync, (void** p, size_t n, cudaStream_t st),
             (p, n, st))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaMallocFromPoolAsync,
             (void** p, size_t n, cudaMemPool_t pool, cudaStream_t st), (p, n, pool, st))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaFreeAsync, (void* p, cudaStream_t st), (p, st))
ET_INTERPOSE(cudaError_t, cudaErrorUnknown, cudaLaunchKernel,
             (const void* f, dim3 g, dim3 b, void** a, size_t sh, cudaStream_t st),
             (f, g, b, a, sh, st))
// The driver API, as the AOTI .so calls it (it links libcuda.so.1 for its
// Triton kernels). CUresult is an int enum; 999 is CUDA_ERROR_UNKNOWN.
ET_INTERPOSE(int, 999, cuLaunchKernel,
             (void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
              unsigned shared, void* st, void** params, void** extra),
             (f, gx, gy, gz, bx, by, bz, shared, st, params, extra))
