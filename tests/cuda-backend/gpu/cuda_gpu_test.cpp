// GPU suite for CudaBackend: runs AOTInductor fixtures (.pte + .ptd written by
// tools/export/export_cuda.py) through the registered backend directly
// (init/execute/destroy), comparing with eager PyTorch reference outputs.
// Usage: cuda_gpu_test DIR... (each DIR holds model.pte, aoti_cuda_blob.ptd,
// input<i>.bin, output<i>.bin). Exits 77 when no CUDA device is usable.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <variant>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/runtime.h>

#include "fixture_loader.h"
#include "gpu_test_util.h"

namespace rt = executorch::runtime;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;

using gpu_test::Fixture;
using gpu_test::IoSpec;
using gpu_test::load_fixture;
using gpu_test::read_file;

// Max error over output j (the metric: gpu_test::output_error).
static double compare(const Fixture& fx, size_t j, const std::vector<uint8_t>& got) {
  return gpu_test::output_error(got.data(), got.size(), fx.outs[j].dtype == ScalarType::BFloat16,
                                fx.ref[j]);
}

// Tensors over caller memory (host or device).
struct Io {
  std::vector<std::vector<int32_t>> sizes;
  std::vector<std::unique_ptr<TensorImpl>> impls;
  std::vector<rt::EValue> vals;
  std::vector<rt::EValue*> ptrs;
  std::vector<void*> bufs;
  bool device = false;
  void add(const IoSpec& s, void* data) {
    sizes.push_back(s.sizes);
    impls.emplace_back(
        new TensorImpl(s.dtype, ssize_t(s.sizes.size()), sizes.back().data(), data, nullptr,
                       nullptr, executorch::aten::TensorShapeDynamism::STATIC,
                       device ? rt::etensor::DeviceType::CUDA : rt::etensor::DeviceType::CPU, 0));
    bufs.push_back(data);
  }
  void finish() {
    sizes.reserve(0);
    for (auto& i : impls) vals.emplace_back(Tensor(i.get()));
    for (auto& v : vals) ptrs.push_back(&v);
  }
};

static void make_io(const Fixture& fx, Io& io, bool device) {
  io.device = device;
  io.sizes.reserve(16);
  for (size_t i = 0; i < fx.ins.size(); ++i) {
    void* p;
    if (device) {
      cudaMalloc(&p, fx.ins[i].nbytes());
      cudaMemcpy(p, fx.in_data[i].data(), fx.ins[i].nbytes(), cudaMemcpyHostToDevice);
    } else {
      p = const_cast<uint8_t*>(fx.in_data[i].data());
    }
    io.add(fx.ins[i], p);
  }
  for (auto& o : fx.outs) {
    void* p;
    if (device) {
      cudaMalloc(&p, o.nbytes());
      cudaMemset(p, 0, o.nbytes());
    } else {
      p = std::calloc(1, o.nbytes());
    }
    io.add(o, p);
  }
  io.finish();
}
static void free_io(const Fixture& fx, Io& io) {
  for (size_t i = 0; i < io.bufs.size(); ++i) {
    if (io.device)
      cudaFree(io.bufs[i]);
    else if (i >= fx.ins.size())
      std::free(io.bufs[i]);
  }
}
static std::vector<uint8_t> fetch(const Io& io, size_t k, size_t n, cudaStream_t s = nullptr) {
  std::vector<uint8_t> v(n);
  if (io.device) {
    cudaMemcpyAsync(v.data(), io.bufs[k], n, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
  } else
    std::memcpy(v.data(), io.bufs[k], n);
  return v;
}

// BackendInterface::init on the fixture's processed bytes and compile specs.
static rt::Result<rt::DelegateHandle*> init_fixture(rt::BackendInterface* be, Fixture& fx,
                                                    rt::Span<const rt::BackendOption> options) {
  std::vector<rt::CompileSpec> cs;
  for (auto& s : fx.specs)
    cs.push_back(rt::CompileSpec{s.first.c_str(), {s.second.data(), s.second.size()}});
  rt::FreeableBuffer processed(fx.processed.data(), fx.processed.size(), nullptr);
  rt::BackendInitContext ictx(nullptr, nullptr, "forward", &fx.ndm, options);
  return be->init(ictx, &processed, rt::ArrayRef<rt::CompileSpec>(cs.data(), cs.size()));
}

// Error lines the runtime logs while `capturing` is set (section 7).
static std::vector<std::string> g_error_lines;
static bool g_capturing = false;
static void capture_errors(rt::LogLevel level, const char*, const char*, size_t, const char* msg,
                           size_t len) {
  if (g_capturing && level >= rt::LogLevel::Error) g_error_lines.emplace_back(msg, len);
  std::fprintf(stderr, "%.*s\n", static_cast<int>(len), msg);
}

// init of `a`'s model with `weights` (another fixture's blob) under the
// weights key: in the 1.4 layout (keys in the processed bytes) and, with
// empty processed bytes, under the 1.1-1.3 method keys. Both must fail with
// InvalidExternalData and a line saying the .ptd is not this model's.
static void init_with_foreign_weights(rt::BackendInterface* be, const Fixture& a,
                                      const std::vector<uint8_t>& weights, const char* from) {
  const std::string text(a.processed.begin(), a.processed.end());
  const size_t nl = text.find('\n');
  if (nl == std::string::npos) {
    EXPECT(false, "%s: processed bytes hold no key pair", a.dir.c_str());
    return;
  }
  const std::string so_key = text.substr(0, nl), weights_key = text.substr(nl + 1);
  for (bool legacy : {false, true}) {
    Fixture f;
    f.dir = a.dir;
    f.specs = a.specs;
    if (legacy) {
      f.ndm.blobs["forward_so_blob"] = a.ndm.blobs.at(so_key);
      f.ndm.blobs["forward_weights_blob"] = weights;
    } else {
      f.processed = a.processed;
      f.ndm.blobs = a.ndm.blobs;
      f.ndm.blobs[weights_key] = weights;
    }
    g_error_lines.clear();
    g_capturing = true;
    auto h = init_fixture(be, f, {});
    g_capturing = false;
    bool named = false;
    for (const std::string& l : g_error_lines) {
      named = named || l.find("not written for this model") != std::string::npos;
    }
    std::printf("  %s with the weights of %s (%s keys): %s\n", a.dir.c_str(), from,
                legacy ? "1.1-1.3" : "1.4", h.ok() ? "ACCEPTED" : "refused");
    EXPECT(!h.ok() && h.error() == rt::Error::InvalidExternalData && named,
           "%s with %s's weights (%s keys): init %s (0x%x), error line %s", a.dir.c_str(), from,
           legacy ? "legacy" : "1.4", h.ok() ? "succeeded" : "failed",
           h.ok() ? 0u : unsigned(h.error()), named ? "found" : "missing");
    if (h.ok()) be->destroy(*h);
  }
}

// An int diagnostic of the backend's get_option; -1 where it gives none.
static int int_option(const char* key) {
  rt::BackendOption opt{};
  std::strcpy(opt.key, key);
  opt.value = -1;
  if (rt::get_option("CudaBackend", rt::Span<rt::BackendOption>(&opt, 1)) != rt::Error::Ok)
    return -1;
  const int* v = std::get_if<int>(&opt.value);
  return v ? *v : -1;
}

static rt::Error run(rt::BackendInterface* be, Fixture& fx, Io& io) {
  rt::BackendExecutionContext ctx;
  return be->execute(ctx, fx.handle, rt::Span<rt::EValue*>(io.ptrs.data(), io.ptrs.size()));
}

// What the backend holds (its get_option diagnostics): shim tensor handles
// and storages alive, and its pools' reserved, used and stream-cached KiB.
// -1 where the backend does not say.
struct BackendHeld {
  int handles = -1, storages = -1, reserved_kib = -1, used_kib = -1, cached_kib = -1;
};
static BackendHeld backend_held() {
  const char* keys[] = {"live_tensor_handles", "live_storages", "pool_reserved_kib",
                        "pool_used_kib", "pool_cached_kib"};
  rt::BackendOption opts[5] = {};
  for (size_t i = 0; i < 5; ++i) {
    std::strcpy(opts[i].key, keys[i]);
    opts[i].value = -1;
  }
  BackendHeld h;
  if (rt::get_option("CudaBackend", rt::Span<rt::BackendOption>(opts, 5)) != rt::Error::Ok)
    return h;
  int* out[] = {&h.handles, &h.storages, &h.reserved_kib, &h.used_kib, &h.cached_kib};
  for (size_t i = 0; i < 5; ++i) {
    if (const int* v = std::get_if<int>(&opts[i].value)) *out[i] = *v;
  }
  return h;
}

// `reps` executes after a device synchronize: errors, microseconds per
// execute, how much free device memory shrank meanwhile (device-wide: other
// processes on the GPU count too) and what the backend held before and after.
struct RepeatStats {
  int errors = 0;
  double us = 0;
  long long growth = 0;
  BackendHeld before, after;
};
static RepeatStats repeat_runs(rt::BackendInterface* be, Fixture& fx, Io& io, int reps) {
  RepeatStats r;
  cudaDeviceSynchronize();
  size_t free0, free1, total;
  cudaMemGetInfo(&free0, &total);
  r.before = backend_held();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) r.errors += run(be, fx, io) != rt::Error::Ok;
  cudaDeviceSynchronize();
  r.us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
         reps;
  cudaMemGetInfo(&free1, &total);
  r.after = backend_held();
  r.growth = (long long)free0 - (long long)free1;
  return r;
}

// Two windows of `reps` executes each: a growth in the first only is a
// one-time cost (reported), a growth in the second a leak (failed), as is
// any change in the backend's live handles or storages or a second-window
// growth of its pool. `what` names the run in the lines printed.
static constexpr long long kGrowthLimit = 2 << 20;
static void check_two_windows(rt::BackendInterface* be, Fixture& fx, Io& io, int reps,
                              const char* what) {
  const RepeatStats a = repeat_runs(be, fx, io, reps), b = repeat_runs(be, fx, io, reps);
  std::printf(
      "%s: 2 x %d executes %s: %d errors, %.1f us/execute, device memory growth "
      "%lld then %lld bytes; shim handles %d -> %d -> %d, storages %d -> %d -> %d, "
      "pool reserved %d -> %d -> %d KiB (used %d, stream-cached %d KiB)\n",
      what, reps, fx.dir.c_str(), a.errors + b.errors, (a.us + b.us) / 2, a.growth, b.growth,
      a.before.handles, a.after.handles, b.after.handles, a.before.storages, a.after.storages,
      b.after.storages, a.before.reserved_kib, a.after.reserved_kib, b.after.reserved_kib,
      b.after.used_kib, b.after.cached_kib);
  if (a.growth > kGrowthLimit && b.growth <= kGrowthLimit) {
    std::printf(
        "  NOTE %s %s: one-time growth of %lld bytes in the first window only "
        "(pool reserved +%d KiB of it; the rest is outside the shim's pool: "
        "cuBLAS/cuDNN workspaces, lazily loaded kernels, or another process)\n",
        what, fx.dir.c_str(), a.growth, a.after.reserved_kib - a.before.reserved_kib);
  }
  EXPECT(a.errors == 0 && b.errors == 0, "%s %s: %d + %d errors", what, fx.dir.c_str(), a.errors,
         b.errors);
  EXPECT(b.growth <= kGrowthLimit,
         "%s %s: device memory still grows in the second window: %lld bytes (first %lld)", what,
         fx.dir.c_str(), b.growth, a.growth);
  EXPECT(a.before.handles == b.after.handles && a.before.storages == b.after.storages,
         "%s %s: shim handles %d -> %d, storages %d -> %d over %d executes (a leak)", what,
         fx.dir.c_str(), a.before.handles, b.after.handles, a.before.storages, b.after.storages,
         2 * reps);
  EXPECT((long long)(b.after.reserved_kib - b.before.reserved_kib) * 1024 <= kGrowthLimit,
         "%s %s: the shim's pool grew by %d KiB in the second window", what, fx.dir.c_str(),
         b.after.reserved_kib - b.before.reserved_kib);
}

static bool check_outputs(Fixture& fx, Io& io, const char* what, cudaStream_t s = nullptr) {
  bool ok = true;
  for (size_t j = 0; j < fx.outs.size(); ++j) {
    double e = compare(fx, j, fetch(io, fx.ins.size() + j, fx.outs[j].nbytes(), s));
    std::printf("  %-12s %-28s output%zu max %s err %.3g (tol %.0e)\n",
                fx.dir.substr(fx.dir.rfind('/') + 1).c_str(), what, j,
                fx.outs[j].dtype == ScalarType::BFloat16 ? "scale-rel" : "rel", e, fx.tol);
    EXPECT(e <= fx.tol, "%s %s output%zu err %g", fx.dir.c_str(), what, j, e);
    ok = ok && e <= fx.tol;
  }
  return ok;
}

using Fixtures = std::vector<std::unique_ptr<Fixture>>;

// 1+2: every fixture, host I/O and device I/O, all loaded in one process.
static void check_every_fixture(rt::BackendInterface* be, Fixtures& fxs) {
  for (auto& fx : fxs) {
    for (bool dev : {false, true}) {
      Io io;
      make_io(*fx, io, dev);
      rt::Error e = run(be, *fx, io);
      EXPECT(e == rt::Error::Ok, "%s execute 0x%x", fx->dir.c_str(), unsigned(e));
      if (e == rt::Error::Ok) check_outputs(*fx, io, dev ? "device I/O" : "host I/O");
      free_io(*fx, io);
    }
  }
}

// 2b: with device outputs, a model allocates its outputs straight in the
// caller's buffers (output_placement.h) once a first run (check_every_
// fixture's) has shown which allocation each output is. Buffers filled
// with 0xff first, and a second set of buffers: the results must be the
// model's, in whichever buffers the execute is given.
static void check_outputs_in_place(rt::BackendInterface* be, Fixtures& fxs) {
  int total = 0;
  for (auto& fx : fxs) {
    Io a, b;
    make_io(*fx, a, true);
    make_io(*fx, b, true);
    for (size_t j = 0; j < fx->outs.size(); ++j) {
      cudaMemset(a.bufs[fx->ins.size() + j], 0xff, fx->outs[j].nbytes());
      cudaMemset(b.bufs[fx->ins.size() + j], 0xff, fx->outs[j].nbytes());
    }
    const int before = int_option("outputs_in_place");
    EXPECT(run(be, *fx, a) == rt::Error::Ok, "%s: execute, in place", fx->dir.c_str());
    check_outputs(*fx, a, "outputs in place");
    EXPECT(run(be, *fx, b) == rt::Error::Ok, "%s: execute, other buffers", fx->dir.c_str());
    check_outputs(*fx, b, "in place, other buffers");
    const int placed = int_option("outputs_in_place") - before;
    std::printf("outputs in place %s: %d of %zu over 2 executes\n", fx->dir.c_str(), placed,
                2 * fx->outs.size());
    total += placed;
    free_io(*fx, a);
    free_io(*fx, b);
  }
  EXPECT(total > 0, "no fixture's output was allocated in the caller's buffer");
}

// 3: the CallerStreamGuard stream is the one used. Block the caller stream
// with a host function until released; the result must not appear before.
static void check_caller_stream(rt::BackendInterface* be, Fixture& fx) {
  cudaStream_t s, probe;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&probe, cudaStreamNonBlocking);
  Io io;
  make_io(fx, io, true);
  std::atomic<bool> release{false};
  cudaLaunchHostFunc(
      s,
      [](void* p) {
        while (!static_cast<std::atomic<bool>*>(p)->load())
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
      },
      &release);
  rt::Error e;
  {
    executorch::extension::cuda::CallerStreamGuard g(s);
    e = run(be, fx, io);
  }
  EXPECT(e == rt::Error::Ok, "caller stream execute");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT(cudaStreamQuery(s) == cudaErrorNotReady, "caller stream should still be busy");
  auto early = fetch(io, fx.ins.size(), fx.outs[0].nbytes(), probe);
  bool zeros = true;
  for (uint8_t c : early) zeros = zeros && c == 0;
  EXPECT(zeros, "output written before the caller stream was released: another stream was used");
  release = true;
  cudaStreamSynchronize(s);
  bool ok = check_outputs(fx, io, "caller stream", probe);
  std::printf("caller stream: queued behind the blocker=%s, result after release ok=%s\n",
              zeros ? "yes" : "NO", ok ? "yes" : "NO");
  free_io(fx, io);
  cudaStreamDestroy(s);
  cudaStreamDestroy(probe);
}

// 3b: host inputs, device outputs: execute need not wait for the GPU (the
// driver has staged pageable inputs when it returns), and overwriting the
// host inputs right after it returns must not change the result. The
// caller stream is blocked meanwhile; a watchdog releases it after 2 s
// should execute wait anyway (then reported, not failed: the driver, not
// the backend, waited).
static void check_host_inputs_reusable(rt::BackendInterface* be, Fixture& fx) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  std::vector<std::vector<uint8_t>> in = fx.in_data; // ours to overwrite
  Io io;
  io.device = false;
  for (size_t i = 0; i < fx.ins.size(); ++i) io.add(fx.ins[i], in[i].data());
  io.device = true;
  for (auto& o : fx.outs) {
    void* p = nullptr;
    cudaMalloc(&p, o.nbytes());
    cudaMemset(p, 0, o.nbytes());
    io.add(o, p);
  }
  io.finish();
  cudaDeviceSynchronize();
  std::atomic<bool> release{false};
  cudaLaunchHostFunc(
      s,
      [](void* p) {
        while (!static_cast<std::atomic<bool>*>(p)->load())
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
      },
      &release);
  std::thread watchdog([&] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    release = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  rt::Error e;
  {
    executorch::extension::cuda::CallerStreamGuard g(s);
    e = run(be, fx, io);
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  for (auto& v : in) std::fill(v.begin(), v.end(), uint8_t{0xA5});
  release = true;
  watchdog.join();
  cudaStreamSynchronize(s);
  EXPECT(e == rt::Error::Ok, "host inputs, device outputs: execute 0x%x", unsigned(e));
  std::printf("host inputs, device outputs: execute returned in %.1f ms (%s the GPU)\n", ms,
              ms < 1000 ? "before" : "after waiting for");
  check_outputs(fx, io, "inputs overwritten at once");
  for (size_t j = 0; j < fx.outs.size(); ++j) cudaFree(io.bufs[fx.ins.size() + j]);
  cudaStreamDestroy(s);
}

// 4: four threads, each with its own stream, each fixture.
static void check_threads(rt::BackendInterface* be, Fixtures& fxs) {
  std::atomic<int> bad{0};
  std::vector<std::thread> th;
  for (int t = 0; t < 4; ++t) {
    th.emplace_back([&, t] {
      Fixture& f = *fxs[size_t(t) % fxs.size()];
      cudaStream_t s;
      cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      Io io;
      make_io(f, io, true);
      for (int it = 0; it < 50; ++it) {
        executorch::extension::cuda::CallerStreamGuard g(s);
        if (run(be, f, io) != rt::Error::Ok) {
          ++bad;
          break;
        }
      }
      cudaStreamSynchronize(s);
      for (size_t j = 0; j < f.outs.size(); ++j) {
        if (compare(f, j, fetch(io, f.ins.size() + j, f.outs[j].nbytes(), s)) > f.tol) ++bad;
      }
      free_io(f, io);
      cudaStreamDestroy(s);
    });
  }
  for (auto& t : th) t.join();
  std::printf("4 threads x 50 executes on own streams: %d failures\n", bad.load());
  EXPECT(bad == 0, "threads");
}

// 5: twice 1000 executes, no device memory growth in the second window and
// no leaked shim handle (fewer under a sanitizer:
// EXECUTORCH_GPU_TEST_REPEATS).
static void check_repeats(rt::BackendInterface* be, Fixtures& fxs, int reps) {
  for (auto* fp : {&fxs.front(), &fxs.back()}) {
    Fixture& f = **fp;
    for (bool dev : {true, false}) {
      Io io;
      make_io(f, io, dev);
      for (int i = 0; i < 20; ++i) (void)run(be, f, io);
      check_two_windows(be, f, io, reps, dev ? "device I/O" : "host I/O");
      check_outputs(f, io, "after the repeats");
      free_io(f, io);
    }
  }
}

// 5b: on a caller's stream the shim's temporaries are kept in that stream's
// cache (device_pool.h): the cache grows once, the second window of executes
// grows nothing, and the outputs still match.
static void check_caller_stream_cache(rt::BackendInterface* be, Fixture& f, int reps) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  Io io;
  make_io(f, io, true);
  cudaDeviceSynchronize();
  const BackendHeld before = backend_held();
  {
    executorch::extension::cuda::CallerStreamGuard g(s);
    for (int i = 0; i < 20; ++i) (void)run(be, f, io);
    check_two_windows(be, f, io, reps, "caller stream");
  }
  cudaStreamSynchronize(s);
  const BackendHeld after = backend_held();
  std::printf("caller stream %s: stream-cached %d -> %d KiB\n", f.dir.c_str(), before.cached_kib,
              after.cached_kib);
#if CUDART_VERSION >= 12000 // before 12 there are no stream ids to key the cache by
  EXPECT(after.cached_kib > before.cached_kib,
         "caller stream %s: no temporaries were cached (%d -> %d KiB)", f.dir.c_str(),
         before.cached_kib, after.cached_kib);
#endif
  check_outputs(f, io, "caller stream, cached temporaries");
  free_io(f, io);
  cudaStreamDestroy(s);
}

// 6: use_cuda_graph (runtime option): every fixture through a second
// delegate that captures its second execute and replays it after; the
// replays match the reference with moved buffers, host I/O, a caller
// stream, and after two windows of repeats with no growth in the second.
static void check_cuda_graph(rt::BackendInterface* be, Fixtures& fxs, int reps) {
  rt::BackendOption opt{};
  std::strcpy(opt.key, "use_cuda_graph");
  opt.value = true;
  const int launches0 = int_option("cuda_graph_launches");
  int expected = 0;
  for (auto& fp : fxs) {
    Fixture f = *fp; // same data, a second delegate
    auto h = init_fixture(be, f, rt::Span<const rt::BackendOption>(&opt, 1));
    EXPECT(h.ok(), "%s: init with use_cuda_graph", f.dir.c_str());
    if (!h.ok()) continue;
    f.handle = *h;
    Io a;
    make_io(f, a, true);
    for (int k = 0; k < 3; ++k) { // eager, capture + launch, replay
      EXPECT(run(be, f, a) == rt::Error::Ok, "%s: graph execute %d", f.dir.c_str(), k);
      check_outputs(f, a, k == 0 ? "graph: eager" : k == 1 ? "graph: captured" : "graph: replay");
    }
    Io b;
    make_io(f, b, true); // other buffers: the graph reads its staging copy
    EXPECT(run(be, f, b) == rt::Error::Ok, "%s: graph execute, moved buffers", f.dir.c_str());
    check_outputs(f, b, "graph: moved buffers");
    Io c;
    make_io(f, c, false);
    EXPECT(run(be, f, c) == rt::Error::Ok, "%s: graph execute, host I/O", f.dir.c_str());
    check_outputs(f, c, "graph: host I/O");
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    {
      executorch::extension::cuda::CallerStreamGuard g(s);
      EXPECT(run(be, f, b) == rt::Error::Ok, "%s: graph execute, caller stream", f.dir.c_str());
    }
    check_outputs(f, b, "graph: caller stream", s);
    expected += 5; // every execute but the first launches the graph
    check_two_windows(be, f, a, reps, "graph replays");
    expected += 2 * reps;
    check_outputs(f, a, "graph: after the repeats");
    cudaStreamDestroy(s);
    free_io(f, a);
    free_io(f, b);
    free_io(f, c);
    be->destroy(f.handle);
  }
  const int launched = int_option("cuda_graph_launches") - launches0;
  std::printf("graph: %d launches, %d expected (every execute after the first)\n", launched,
              expected);
  EXPECT(launched == expected, "graph launches %d, expected %d (a capture failed?)", launched,
         expected);
}

// 6b: use_cuda_graph with host I/O at the first execute: those tensors are
// staged in pinned memory and their copies are part of the graph. The
// replays match the reference with host I/O, moved host buffers, device I/O
// (copied through the pinned side) and a caller stream, every execute
// after the first launching the graph.
static void check_cuda_graph_host_first(rt::BackendInterface* be, Fixtures& fxs) {
  rt::BackendOption opt{};
  std::strcpy(opt.key, "use_cuda_graph");
  opt.value = true;
  const int launches0 = int_option("cuda_graph_launches");
  int expected = 0;
  for (auto& fp : fxs) {
    Fixture f = *fp;
    auto h = init_fixture(be, f, rt::Span<const rt::BackendOption>(&opt, 1));
    EXPECT(h.ok(), "%s: init with use_cuda_graph (host first)", f.dir.c_str());
    if (!h.ok()) continue;
    f.handle = *h;
    Io a;
    make_io(f, a, false);
    for (int k = 0; k < 3; ++k) { // eager, capture + launch, replay
      EXPECT(run(be, f, a) == rt::Error::Ok, "%s: pinned graph execute %d", f.dir.c_str(), k);
      check_outputs(f, a,
                    k == 0   ? "pinned graph: eager"
                    : k == 1 ? "pinned graph: captured"
                             : "pinned graph: replay");
    }
    Io b;
    make_io(f, b, false); // other host buffers
    EXPECT(run(be, f, b) == rt::Error::Ok, "%s: pinned graph, moved buffers", f.dir.c_str());
    check_outputs(f, b, "pinned graph: moved buffers");
    Io c;
    make_io(f, c, true);
    EXPECT(run(be, f, c) == rt::Error::Ok, "%s: pinned graph, device I/O", f.dir.c_str());
    check_outputs(f, c, "pinned graph: device I/O");
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    {
      executorch::extension::cuda::CallerStreamGuard g(s);
      EXPECT(run(be, f, a) == rt::Error::Ok, "%s: pinned graph, caller stream", f.dir.c_str());
    }
    check_outputs(f, a, "pinned graph: caller stream");
    cudaStreamDestroy(s);
    expected += 5;
    free_io(f, a);
    free_io(f, b);
    free_io(f, c);
    be->destroy(f.handle);
  }
  const int launched = int_option("cuda_graph_launches") - launches0;
  std::printf("pinned graph: %d launches, %d expected\n", launched, expected);
  EXPECT(launched == expected, "pinned graph launches %d, expected %d (a capture failed?)",
         launched, expected);
}

// 7: a .ptd from another fixture (issue 15): every fixture given every
// other fixture's weights blob fails init with an Error naming why, and
// never reads past the blob (the memcheck run on the GPU host sees that).
static void check_foreign_weights(rt::BackendInterface* be, Fixtures& fxs) {
  rt::LogSink previous = rt::set_log_sink(&capture_errors);
  int pairs = 0;
  auto weights_of = [](const Fixture& f) -> const std::vector<uint8_t>* {
    for (const auto& kv : f.ndm.blobs) {
      const std::string& k = kv.first;
      if (k.size() > 13 && k.compare(k.size() - 13, 13, "_weights_blob") == 0) return &kv.second;
    }
    return nullptr;
  };
  for (auto& a : fxs) {
    std::vector<const std::vector<uint8_t>*> tried{weights_of(*a)};
    for (auto& b : fxs) {
      const std::vector<uint8_t>* wb = weights_of(*b);
      bool seen = wb == nullptr;
      for (const auto* t : tried) seen = seen || (t != nullptr && *t == *wb);
      if (seen) continue; // the same module's weights, or a blob already tried
      tried.push_back(wb);
      init_with_foreign_weights(be, *a, *wb, b->dir.c_str());
      ++pairs;
    }
  }
  rt::set_log_sink(previous);
  std::printf("foreign weights: %d fixture pairs refused in both key layouts\n", pairs);
  EXPECT(pairs > 0 || fxs.size() < 2, "no fixture pair with different weights");
}

// 8: weight_sharing_across_methods (runtime option): a second delegate of
// the same model (as decode is to prefill) initialized with NO weights blob
// takes every constant from the first one and computes the reference; it
// keeps them after the first delegate is destroyed. Without the option, or
// once no delegate shares them any more, no weights is an error.
static rt::Result<rt::DelegateHandle*> init_sharing(rt::BackendInterface* be, Fixture& fx,
                                                    bool share) {
  rt::BackendOption opt{};
  std::strcpy(opt.key, "weight_sharing_across_methods");
  opt.value = share;
  return init_fixture(be, fx, rt::Span<const rt::BackendOption>(&opt, 1));
}

static void check_weight_sharing(rt::BackendInterface* be, Fixture& base) {
  Fixture first = base;
  Fixture second = base; // the same model without its weights blob
  for (auto it = second.ndm.blobs.begin(); it != second.ndm.blobs.end();) {
    const std::string& k = it->first;
    const bool weights = k.size() > 13 && k.compare(k.size() - 13, 13, "_weights_blob") == 0;
    it = weights ? second.ndm.blobs.erase(it) : std::next(it);
  }
  auto alone = init_sharing(be, second, false);
  EXPECT(!alone.ok(), "%s: init without weights and without sharing succeeded", base.dir.c_str());
  if (alone.ok()) be->destroy(*alone);
  auto a = init_sharing(be, first, true);
  EXPECT(a.ok(), "%s: init with weight sharing", base.dir.c_str());
  if (!a.ok()) return;
  first.handle = *a;
  auto b = init_sharing(be, second, true);
  EXPECT(b.ok(), "%s: a second delegate with no weights blob did not take the shared ones",
         base.dir.c_str());
  if (b.ok()) {
    second.handle = *b;
    Io io;
    make_io(second, io, true);
    EXPECT(run(be, second, io) == rt::Error::Ok, "%s: shared-weights execute", base.dir.c_str());
    check_outputs(second, io, "shared weights");
    be->destroy(first.handle); // the second keeps what it shares alive
    first.handle = nullptr;
    EXPECT(run(be, second, io) == rt::Error::Ok, "%s: execute after the lender went",
           base.dir.c_str());
    check_outputs(second, io, "lender destroyed");
    free_io(second, io);
    be->destroy(second.handle);
  }
  if (first.handle != nullptr) be->destroy(first.handle);
  auto late = init_sharing(be, second, true);
  EXPECT(!late.ok(), "%s: no weights and no live lender, yet init succeeded", base.dir.c_str());
  if (late.ok()) be->destroy(*late);
  std::printf("weight sharing %s: second delegate without weights %s\n", base.dir.c_str(),
              b.ok() ? "ran on the shared ones" : "FAILED");
}

// set_option of CudaBackend with one option; false when the backend refuses.
static bool set_backend_option(rt::BackendOption opt) {
  return rt::set_option("CudaBackend", rt::Span<rt::BackendOption>(&opt, 1)) == rt::Error::Ok;
}
static rt::BackendOption text_option(const char* key, const char* value) {
  rt::BackendOption opt{};
  std::strcpy(opt.key, key);
  std::array<char, rt::kMaxOptionValueLength> text{};
  std::snprintf(text.data(), text.size(), "%s", value);
  opt.value = text;
  return opt;
}
static rt::BackendOption bool_option(const char* key, bool value) {
  rt::BackendOption opt{};
  std::strcpy(opt.key, key);
  opt.value = value;
  return opt;
}

// The shared stream get_option reports, or nullptr for "none".
static cudaStream_t reported_shared_stream() {
  rt::BackendOption opt = text_option("shared_cuda_stream", "");
  if (rt::get_option("CudaBackend", rt::Span<rt::BackendOption>(&opt, 1)) != rt::Error::Ok)
    return nullptr;
  const auto* text = std::get_if<std::array<char, rt::kMaxOptionValueLength>>(&opt.value);
  if (text == nullptr || std::strcmp(text->data(), "none") == 0) return nullptr;
  return reinterpret_cast<cudaStream_t>(std::strtoull(text->data(), nullptr, 16));
}

// Blocks `s` with a host function until released (at the end of its scope
// or, should an execute wait for the stream, by a watchdog after 3 s).
struct StreamGate {
  cudaStream_t stream;
  std::atomic<bool> open{false};
  std::thread watchdog;
  explicit StreamGate(cudaStream_t s) : stream(s) {
    cudaLaunchHostFunc(
        s,
        [](void* p) {
          while (!static_cast<std::atomic<bool>*>(p)->load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        },
        &open);
    watchdog = std::thread([this] {
      for (int i = 0; i < 300 && !open; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      open = true;
    });
  }
  ~StreamGate() {
    open = true;
    watchdog.join();
    cudaStreamSynchronize(stream); // the host function reads `open` until then
  }
};

static bool all_zero(const std::vector<uint8_t>& v) {
  for (uint8_t c : v)
    if (c != 0) return false;
  return true;
}

// A fixture whose one output can be its one input (same dtype and shape).
static Fixture* chainable(Fixtures& fxs) {
  for (auto& f : fxs) {
    if (f->ins.size() == 1 && f->outs.size() == 1 && f->ins[0].dtype == f->outs[0].dtype &&
        f->ins[0].sizes == f->outs[0].sizes)
      return f.get();
  }
  return nullptr;
}

// 9: use_shared_cuda_stream (set_option before init): two delegates run on
// one stream, which get_option reports. Blocked, it holds both executes'
// work (their device outputs stay unwritten); released, the outputs match.
// Delegates initialized after the option is turned off get their own.
static void check_shared_stream(rt::BackendInterface* be, Fixture& base) {
  EXPECT(set_backend_option(bool_option("use_shared_cuda_stream", true)), "set_option shared");
  Fixture a = base, b = base;
  auto ha = init_fixture(be, a, {});
  auto hb = init_fixture(be, b, {});
  EXPECT(ha.ok() && hb.ok(), "%s: init with use_shared_cuda_stream", base.dir.c_str());
  EXPECT(set_backend_option(bool_option("use_shared_cuda_stream", false)), "set_option off");
  if (!ha.ok() || !hb.ok()) return;
  a.handle = *ha;
  b.handle = *hb;
  EXPECT(int_option("shared_stream_delegates") == 2, "shared stream delegates %d, expected 2",
         int_option("shared_stream_delegates"));
  cudaStream_t shared = reported_shared_stream();
  EXPECT(shared != nullptr, "get_option shared_cuda_stream: none while two delegates hold it");
  Io ia, ib;
  make_io(a, ia, true);
  make_io(b, ib, true);
  EXPECT(run(be, a, ia) == rt::Error::Ok && run(be, b, ib) == rt::Error::Ok, "warm-up");
  cudaDeviceSynchronize();
  for (size_t j = 0; j < a.outs.size(); ++j) {
    cudaMemset(ia.bufs[a.ins.size() + j], 0, a.outs[j].nbytes());
    cudaMemset(ib.bufs[b.ins.size() + j], 0, b.outs[j].nbytes());
  }
  cudaDeviceSynchronize();
  cudaStream_t probe;
  cudaStreamCreateWithFlags(&probe, cudaStreamNonBlocking);
  bool queued = false;
  if (shared != nullptr) {
    StreamGate gate(shared);
    EXPECT(run(be, a, ia) == rt::Error::Ok && run(be, b, ib) == rt::Error::Ok, "gated executes");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    queued = !gate.open && cudaStreamQuery(shared) == cudaErrorNotReady &&
             all_zero(fetch(ia, a.ins.size(), a.outs[0].nbytes(), probe)) &&
             all_zero(fetch(ib, b.ins.size(), b.outs[0].nbytes(), probe));
  }
  EXPECT(queued,
         "shared stream: work not held by it while blocked (another stream used, or an execute "
         "waited)");
  cudaStreamSynchronize(shared);
  check_outputs(a, ia, "shared stream, first", probe);
  check_outputs(b, ib, "shared stream, second", probe);
  std::printf("shared stream %p: both executes queued on it=%s\n", static_cast<void*>(shared),
              queued ? "yes" : "NO");
  Fixture c = base; // initialized with the option off: its own stream
  auto hc = init_fixture(be, c, {});
  EXPECT(hc.ok() && int_option("shared_stream_delegates") == 2,
         "a delegate initialized with the option off took the shared stream");
  if (hc.ok()) be->destroy(*hc);
  free_io(a, ia);
  free_io(b, ib);
  be->destroy(a.handle);
  be->destroy(b.handle);
  EXPECT(int_option("shared_stream_delegates") == 0 && reported_shared_stream() == nullptr,
         "the shared stream outlived its delegates");
  cudaStreamDestroy(probe);
}

// 9b: one method's device output is the next one's input, on the shared
// stream with it blocked until both are queued: the second must read the
// first's result (as a run of it afterwards on that result gives), not the
// zeros the buffer held before.
static void check_shared_stream_chain(rt::BackendInterface* be, Fixtures& fxs) {
  Fixture* base = chainable(fxs);
  if (base == nullptr) {
    std::printf("shared stream chain: no fixture whose output can be its input (skipped)\n");
    return;
  }
  EXPECT(set_backend_option(bool_option("use_shared_cuda_stream", true)), "set_option shared");
  Fixture a = *base, b = *base;
  auto ha = init_fixture(be, a, {});
  auto hb = init_fixture(be, b, {});
  EXPECT(set_backend_option(bool_option("use_shared_cuda_stream", false)), "set_option off");
  EXPECT(ha.ok() && hb.ok(), "%s: chain init", base->dir.c_str());
  if (!ha.ok() || !hb.ok()) return;
  a.handle = *ha;
  b.handle = *hb;
  const size_t n = a.outs[0].nbytes();
  Io first, second, again;
  make_io(a, first, true);
  make_io(b, second, true);
  make_io(b, again, true);
  EXPECT(run(be, a, first) == rt::Error::Ok && run(be, b, second) == rt::Error::Ok, "warm-up");
  cudaDeviceSynchronize();
  void* mid = first.bufs[1];
  cudaMemset(mid, 0, n);
  cudaDeviceSynchronize();
  Io chained; // b reads a's output buffer
  chained.device = true;
  chained.add(b.ins[0], mid);
  chained.add(b.outs[0], second.bufs[1]);
  chained.finish();
  cudaStream_t shared = reported_shared_stream();
  EXPECT(shared != nullptr, "no shared stream reported");
  if (shared != nullptr) {
    StreamGate gate(shared);
    EXPECT(run(be, a, first) == rt::Error::Ok && run(be, b, chained) == rt::Error::Ok,
           "chained executes");
  }
  cudaDeviceSynchronize();
  // The reference: b on a's final output, run alone.
  cudaMemcpy(again.bufs[0], mid, n, cudaMemcpyDeviceToDevice);
  EXPECT(run(be, b, again) == rt::Error::Ok, "reference execute");
  cudaDeviceSynchronize();
  const auto want = fetch(again, 1, n), got = fetch(second, 1, n);
  const bool bf16 = b.outs[0].dtype == ScalarType::BFloat16;
  std::vector<float> ref(b.outs[0].numel());
  for (size_t i = 0; i < ref.size(); ++i) ref[i] = gpu_test::element(want.data(), i, bf16);
  const double err = gpu_test::output_error(got.data(), got.size(), bf16, ref);
  std::printf("shared stream chain %s: second method vs. its run on the first's output: %.3g\n",
              base->dir.c_str(), err);
  EXPECT(err <= base->tol, "chained on the shared stream: err %g (read before it was written?)",
         err);
  free_io(a, first);
  free_io(b, second);
  free_io(b, again);
  be->destroy(a.handle);
  be->destroy(b.handle);
}

// 10: enable_cuda_graph_for_method (set_option before init): a listed
// method's delegate replays a graph from its second execute, an unlisted
// one never does, and use_cuda_graph=false at load wins over the list.
static void check_graph_for_method(rt::BackendInterface* be, Fixture& base) {
  struct Case {
    const char* list;
    bool use_cuda_graph_off;
    int launches; // over three executes
  };
  for (const Case& c : {Case{"prefill, forward", false, 2}, Case{"decode,prefill", false, 0},
                        Case{"forward", true, 0}}) {
    EXPECT(set_backend_option(text_option("enable_cuda_graph_for_method", c.list)), "set list");
    rt::BackendOption off = bool_option("use_cuda_graph", false);
    Fixture f = base;
    auto h = init_fixture(be, f, rt::Span<const rt::BackendOption>(&off, c.use_cuda_graph_off));
    EXPECT(h.ok(), "%s: init with the method list '%s'", f.dir.c_str(), c.list);
    if (!h.ok()) continue;
    f.handle = *h;
    const int launches0 = int_option("cuda_graph_launches");
    Io io;
    make_io(f, io, true);
    for (int k = 0; k < 3; ++k) {
      EXPECT(run(be, f, io) == rt::Error::Ok, "list '%s': execute %d", c.list, k);
      check_outputs(f, io, "graph for method");
    }
    const int launched = int_option("cuda_graph_launches") - launches0;
    std::printf("graph for method, list '%s'%s: %d launches, %d expected\n", c.list,
                c.use_cuda_graph_off ? " and use_cuda_graph=false" : "", launched, c.launches);
    EXPECT(launched == c.launches, "list '%s': %d graph launches, expected %d", c.list, launched,
           c.launches);
    free_io(f, io);
    be->destroy(f.handle);
  }
  EXPECT(set_backend_option(text_option("enable_cuda_graph_for_method", "")), "clear the list");
}

// 11: a tensor tagged CUDA over pageable host memory is refused with an
// Error naming it (input 0, output 0), not a device fault; page-locked
// memory mapped at its address is device memory to the kernels and runs.
static void check_device_tags(rt::BackendInterface* be, Fixture& fx) {
  rt::LogSink previous = rt::set_log_sink(&capture_errors);
  for (bool bad_input : {true, false}) {
    Io io;
    make_io(fx, io, true);
    const size_t k = bad_input ? 0 : fx.ins.size();
    std::vector<uint8_t> host(bad_input ? fx.ins[0].nbytes() : fx.outs[0].nbytes());
    Io tagged; // io's buffers, one swapped for host memory
    tagged.device = true;
    tagged.sizes.reserve(16);
    for (size_t i = 0; i < io.bufs.size(); ++i) {
      const IoSpec& s = i < fx.ins.size() ? fx.ins[i] : fx.outs[i - fx.ins.size()];
      tagged.add(s, i == k ? host.data() : io.bufs[i]);
    }
    tagged.finish();
    g_error_lines.clear();
    g_capturing = true;
    const rt::Error e = run(be, fx, tagged);
    g_capturing = false;
    const std::string name = bad_input ? "input 0 is tagged CUDA" : "output 0 is tagged CUDA";
    bool named = false;
    for (const std::string& l : g_error_lines) named = named || l.find(name) != std::string::npos;
    EXPECT(e == rt::Error::InvalidArgument && named, "host memory tagged CUDA (%s): 0x%x, %s",
           name.c_str(), unsigned(e), named ? "named" : "not named");
    free_io(fx, io);
  }
  rt::set_log_sink(previous);
  Io io;
  make_io(fx, io, true);
  void* pinned = nullptr;
  EXPECT(cudaHostAlloc(&pinned, fx.ins[0].nbytes(), cudaHostAllocDefault) == cudaSuccess,
         "cudaHostAlloc");
  if (pinned == nullptr) return;
  std::memcpy(pinned, fx.in_data[0].data(), fx.ins[0].nbytes());
  cudaFree(io.bufs[0]);
  io.bufs[0] = pinned;
  io.impls[0]->set_data(pinned);
  EXPECT(run(be, fx, io) == rt::Error::Ok, "page-locked input tagged CUDA refused");
  check_outputs(fx, io, "page-locked input");
  io.bufs[0] = nullptr;
  free_io(fx, io);
  cudaFreeHost(pinned);
}

// The fixtures named on the command line, each read and initialized.
static bool load_all(rt::BackendInterface* be, int argc, char** argv, Fixtures& fxs) {
  for (int i = 1; i < argc; ++i) {
    auto fx = std::make_unique<Fixture>();
    fx->dir = argv[i];
    if (!load_fixture(*fx)) {
      std::printf("FAIL: cannot read %s\n", argv[i]);
      return false;
    }
    auto t0 = std::chrono::steady_clock::now();
    auto h = init_fixture(be, *fx, {});
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("init %s: %s (%.1f ms)\n", argv[i], h.ok() ? "ok" : "FAILED", ms);
    EXPECT(h.ok(), "init %s error 0x%x", argv[i], h.ok() ? 0u : unsigned(h.error()));
    if (!h.ok()) continue;
    fx->handle = *h;
    fxs.push_back(std::move(fx));
  }
  return true;
}

int main(int argc, char** argv) {
  gpu_test::require_gpu();
  rt::runtime_init();
  rt::BackendInterface* be = rt::get_backend_class("CudaBackend");
  std::printf("backends registered %zu, CudaBackend %p, available %d\n",
              rt::get_num_registered_backends(), static_cast<void*>(be),
              be ? int(be->is_available()) : -1);
  if (be == nullptr) {
    std::printf("FAIL: CudaBackend not registered\n");
    return 1;
  }
  EXPECT(be->is_available(), "CudaBackend reports unavailable (continuing)");
  Fixtures fxs;
  if (!load_all(be, argc, argv, fxs)) return 1;
  check_every_fixture(be, fxs);
  if (fxs.empty()) {
    std::printf("no fixture loaded\n");
    return 1;
  }
  check_outputs_in_place(be, fxs);
  check_caller_stream(be, *fxs[0]);
  check_host_inputs_reusable(be, *fxs[0]);
  // Fewer under a sanitizer: EXECUTORCH_GPU_TEST_REPEATS.
  const char* reps_env = std::getenv("EXECUTORCH_GPU_TEST_REPEATS");
  const int reps = reps_env ? std::max(1, std::atoi(reps_env)) : 1000;
  // Before check_threads' four streams take the caller-stream cache slots.
  check_caller_stream_cache(be, *fxs[0], reps);
  check_threads(be, fxs);
  check_repeats(be, fxs, reps);
  check_cuda_graph(be, fxs, reps);
  check_cuda_graph_host_first(be, fxs);
  check_foreign_weights(be, fxs);
  check_weight_sharing(be, *fxs[0]);
  check_shared_stream(be, *fxs[0]);
  check_shared_stream_chain(be, fxs);
  check_graph_for_method(be, *fxs[0]);
  check_device_tags(be, *fxs[0]);
  for (auto& f : fxs) be->destroy(f->handle);
  return gpu_test::finish();
}
