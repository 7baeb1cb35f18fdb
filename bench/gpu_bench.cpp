// GPU benchmark: AOTInductor fixtures (tests/models/cuda/<name>/: model.pte,
// aoti_cuda_blob.ptd, input<i>.bin) through executorch::extension::Module and
// CudaBackend, with host I/O as the programs plan it.
//
// Per fixture it reports
//   cold:     Module::load (Program::load) and load_method (delegate init:
//             the AOTI .so out of named data, dlopen, weights to the device);
//   latency:  wall clock of set_input + execute + cudaStreamSynchronize on
//             the caller stream, median and p99 over --runs after --warmup;
//   gpu:      cudaEvent time between events recorded on the caller stream
//             before and after execute (the copies and kernels it enqueued);
//   overhead: latency - gpu (host-side time per execute).
//   call:     how long the execute call itself took to return (the host
//             time of an execute whose outputs need no synchronize).
// The first row, "floor", times the same sequence with nothing between the
// two events (record, record, synchronize): the overhead this method of
// measuring reports when no runtime runs at all.
// Once per process: CUDA context creation and the dlopen of
// libexecutorch_cuda_backend.so.1 (the backend is not linked, so the first
// dlopen is a cold load).
//
// Usage: gpu_bench [--runs N] [--warmup N] [--backend PATH] [--csv FILE]
//                  [--method NAME] [--cuda-graph] [--device-io] DIR...
// --method picks the method every fixture runs (default forward; a
// fixture's input<i>.bin and output<i>.bin are then that method's).
// --cuda-graph adds a row per fixture with the CudaBackend runtime option
// use_cuda_graph (capture once, replay after). --device-io adds rows
// ("NAME@device") for the delegate alone: CudaBackend's init and execute
// called directly on the fixture's processed bytes, with inputs and outputs
// in device memory, as torch's shim runs the same .so (load_method then
// stands for the delegate's init).
// With bench/cuda_api_profile.cpp's library in LD_PRELOAD, each timed execute
// is also split into CUDA runtime/driver calls and the rest (printed at exit).
// Exit 77 when no CUDA device is usable, 1 on a failure.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <dlfcn.h>

#include <cuda_runtime_api.h>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/extension/module/module.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/platform/build_info.h>
#include <executorch/runtime/platform/runtime.h>

#include "fixture_loader.h"

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using Clock = std::chrono::steady_clock;

namespace {

// bench/cuda_api_profile.cpp's hook when that library is preloaded: opens
// (label) and closes (nullptr) the scope of one timed execute. Else null.
using ProfileScope = void (*)(const char*);
ProfileScope profile_scope() {
  static const auto hook =
      reinterpret_cast<ProfileScope>(dlsym(RTLD_DEFAULT, "et_cuda_api_profile_scope"));
  return hook;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = size_t(p * double(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

std::vector<uint8_t> read_file(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), {});
}

bool exists(const std::string& p) {
  std::ifstream f(p);
  return f.good();
}

struct Row {
  std::string name;
  double load_ms = 0, load_method_ms = 0;
  double med_us = 0, p99_us = 0, gpu_med_us = 0, overhead_med_us = 0, call_med_us = 0;
  int runs = 0;
  bool ok = false;
  std::string error;
};

#define CU(call)                                                      \
  do {                                                                \
    cudaError_t e_ = (call);                                          \
    if (e_ != cudaSuccess) {                                          \
      row.error = std::string(#call) + ": " + cudaGetErrorString(e_); \
      return row;                                                     \
    }                                                                 \
  } while (0)

// Per-run timings after the warm-up: wall clock, CUDA-event time, their
// difference and how long the timed call took to return.
struct Samples {
  std::vector<double> wall, gpu, over, call;
  void add(double wall_us, float gpu_ms, double call_us) {
    wall.push_back(wall_us);
    gpu.push_back(double(gpu_ms) * 1e3);
    over.push_back(wall_us - double(gpu_ms) * 1e3);
    call.push_back(call_us);
  }
};

void summarize(Row& row, const Samples& s) {
  row.runs = int(s.wall.size());
  row.med_us = pct(s.wall, 0.5);
  row.p99_us = pct(s.wall, 0.99);
  row.gpu_med_us = pct(s.gpu, 0.5);
  row.overhead_med_us = pct(s.over, 0.5);
  row.call_med_us = pct(s.call, 0.5);
  row.ok = true;
}

Row bench_floor(int warmup, int runs, cudaStream_t stream) {
  Row row;
  row.name = "floor";
  cudaEvent_t ev0, ev1;
  CU(cudaEventCreate(&ev0));
  CU(cudaEventCreate(&ev1));
  Samples samples;
  for (int it = 0; it < warmup + runs; ++it) {
    const auto w0 = Clock::now();
    CU(cudaEventRecord(ev0, stream));
    CU(cudaEventRecord(ev1, stream));
    CU(cudaStreamSynchronize(stream));
    const double w_us = ms_since(w0) * 1e3;
    float g_ms = 0;
    CU(cudaEventElapsedTime(&g_ms, ev0, ev1));
    if (it >= warmup) {
      samples.add(w_us, g_ms, 0);
    }
  }
  cudaEventDestroy(ev0);
  cudaEventDestroy(ev1);
  summarize(row, samples);
  return row;
}

Row bench_fixture(const std::string& dir, const std::string& method, int warmup, int runs,
                  cudaStream_t stream, bool cuda_graph) {
  Row row;
  row.name = dir;
  while (!row.name.empty() && row.name.back() == '/') row.name.pop_back();
  row.name = row.name.substr(row.name.rfind('/') + 1) + (cuda_graph ? "+graph" : "");
  const std::string pte = dir + "/model.pte", ptd = dir + "/aoti_cuda_blob.ptd";
  if (!exists(pte)) {
    row.error = "no " + pte;
    return row;
  }
  auto t0 = Clock::now();
  std::unique_ptr<Module> module = exists(ptd)
                                       ? std::make_unique<Module>(pte, ptd, Module::LoadMode::Mmap)
                                       : std::make_unique<Module>(pte, Module::LoadMode::Mmap);
  Error e = module->load();
  row.load_ms = ms_since(t0);
  if (e != Error::Ok) {
    row.error = "Module::load error " + std::to_string(unsigned(e));
    return row;
  }
  t0 = Clock::now();
  executorch::runtime::BackendOption graph_opt{};
  std::strcpy(graph_opt.key, "use_cuda_graph");
  graph_opt.value = true;
  executorch::runtime::LoadBackendOptionsMap options;
  if (cuda_graph) {
    (void)options.set_options("CudaBackend", {&graph_opt, 1});
  }
  e = module->load_method(method, nullptr, nullptr, cuda_graph ? &options : nullptr);
  CU(cudaDeviceSynchronize());
  row.load_method_ms = ms_since(t0);
  if (e != Error::Ok) {
    row.error = "load_method error " + std::to_string(unsigned(e));
    return row;
  }
  auto meta = module->method_meta(method);
  if (!meta.ok()) {
    row.error = "method_meta";
    return row;
  }
  // Host inputs from input<i>.bin.
  std::vector<std::vector<uint8_t>> data;
  std::vector<std::vector<int32_t>> sizes;
  std::vector<std::unique_ptr<TensorImpl>> impls;
  std::vector<EValue> inputs;
  const size_t n_in = meta->num_inputs();
  sizes.reserve(n_in);
  for (size_t i = 0; i < n_in; ++i) {
    auto info = meta->input_tensor_meta(i);
    if (!info.ok()) {
      row.error = "input " + std::to_string(i) + " is not a tensor";
      return row;
    }
    data.push_back(read_file(dir + "/input" + std::to_string(i) + ".bin"));
    if (data.back().size() != info->nbytes()) {
      row.error = "input" + std::to_string(i) + ".bin: " + std::to_string(data.back().size()) +
                  " bytes, the program wants " + std::to_string(info->nbytes());
      return row;
    }
    sizes.emplace_back(info->sizes().begin(), info->sizes().end());
    impls.emplace_back(new TensorImpl(info->scalar_type(), ssize_t(sizes.back().size()),
                                      sizes.back().data(), data.back().data()));
    inputs.emplace_back(Tensor(impls.back().get()));
  }
  cudaEvent_t ev0, ev1;
  CU(cudaEventCreate(&ev0));
  CU(cudaEventCreate(&ev1));
  Samples samples;
  for (int it = 0; it < warmup + runs; ++it) {
    auto w0 = Clock::now();
    double call_us = 0;
    for (size_t i = 0; i < n_in; ++i) {
      e = module->set_input(method, inputs[i], i);
      if (e != Error::Ok) break;
    }
    if (e == Error::Ok) {
      executorch::extension::cuda::CallerStreamGuard guard(stream);
      CU(cudaEventRecord(ev0, stream));
      const ProfileScope scope = it >= warmup ? profile_scope() : nullptr;
      if (scope != nullptr) scope(row.name.c_str());
      const auto c0 = Clock::now();
      auto out = module->execute(method);
      call_us = ms_since(c0) * 1e3;
      if (scope != nullptr) scope(nullptr);
      e = out.ok() ? Error::Ok : out.error();
      CU(cudaEventRecord(ev1, stream));
    }
    CU(cudaStreamSynchronize(stream));
    double w_us = ms_since(w0) * 1e3;
    if (e != Error::Ok) {
      row.error = "execute error " + std::to_string(unsigned(e)) + " at run " + std::to_string(it);
      break;
    }
    float g_ms = 0;
    CU(cudaEventElapsedTime(&g_ms, ev0, ev1));
    if (it >= warmup) {
      samples.add(w_us, g_ms, call_us);
    }
  }
  cudaEventDestroy(ev0);
  cudaEventDestroy(ev1);
  if (!row.error.empty()) return row;
  summarize(row, samples);
  return row;
}

// Device buffers of a fixture's inputs (its input<i>.bin) and outputs, as
// the tensors CudaBackend::execute takes.
struct DeviceIo {
  std::vector<std::vector<int32_t>> sizes;
  std::vector<std::unique_ptr<TensorImpl>> impls;
  std::vector<EValue> vals;
  std::vector<EValue*> ptrs;
  std::vector<void*> bufs;
  ~DeviceIo() {
    for (void* p : bufs) cudaFree(p);
  }
  cudaError_t add(const gpu_test::IoSpec& spec, const std::vector<uint8_t>* init) {
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, spec.nbytes() > 0 ? spec.nbytes() : 1);
    if (e != cudaSuccess) return e;
    bufs.push_back(p);
    e = init != nullptr ? cudaMemcpy(p, init->data(), init->size(), cudaMemcpyHostToDevice)
                        : cudaMemset(p, 0, spec.nbytes());
    sizes.push_back(spec.sizes);
    impls.emplace_back(new TensorImpl(spec.dtype, ssize_t(spec.sizes.size()), sizes.back().data(),
                                      p, nullptr, nullptr,
                                      executorch::aten::TensorShapeDynamism::STATIC,
                                      executorch::runtime::etensor::DeviceType::CUDA, 0));
    return e;
  }
  void finish() {
    for (auto& i : impls) vals.emplace_back(Tensor(i.get()));
    for (auto& v : vals) ptrs.push_back(&v);
  }
};

// The delegate alone, device I/O: init on the fixture's processed bytes,
// then execute on the caller stream, timed as bench_fixture does.
Row bench_delegate(const std::string& dir, const std::string& method, int warmup, int runs,
                   cudaStream_t stream, executorch::runtime::BackendInterface* be,
                   bool cuda_graph) {
  namespace rt = executorch::runtime;
  Row row;
  row.name = dir;
  while (!row.name.empty() && row.name.back() == '/') row.name.pop_back();
  row.name = row.name.substr(row.name.rfind('/') + 1) + "@device" + (cuda_graph ? "+graph" : "");
  gpu_test::Fixture fx;
  fx.dir = dir;
  fx.method = method;
  if (!gpu_test::load_fixture(fx) || fx.in_data.size() != fx.ins.size()) {
    row.error = "cannot read the fixture " + dir;
    return row;
  }
  rt::BackendOption graph_opt{};
  std::strcpy(graph_opt.key, "use_cuda_graph");
  graph_opt.value = true;
  std::vector<rt::CompileSpec> specs;
  for (auto& sp : fx.specs) {
    specs.push_back(rt::CompileSpec{sp.first.c_str(), {sp.second.data(), sp.second.size()}});
  }
  rt::FreeableBuffer processed(fx.processed.data(), fx.processed.size(), nullptr);
  rt::BackendInitContext ictx(nullptr, nullptr, method.c_str(), &fx.ndm,
                              rt::Span<const rt::BackendOption>(&graph_opt, cuda_graph ? 1 : 0));
  auto t0 = Clock::now();
  auto handle =
      be->init(ictx, &processed, rt::ArrayRef<rt::CompileSpec>(specs.data(), specs.size()));
  CU(cudaDeviceSynchronize());
  row.load_method_ms = ms_since(t0);
  if (!handle.ok()) {
    row.error = "init error " + std::to_string(unsigned(handle.error()));
    return row;
  }
  DeviceIo io;
  for (size_t i = 0; i < fx.ins.size(); ++i) CU(io.add(fx.ins[i], &fx.in_data[i]));
  for (auto& o : fx.outs) CU(io.add(o, nullptr));
  io.finish();
  cudaEvent_t ev0, ev1;
  CU(cudaEventCreate(&ev0));
  CU(cudaEventCreate(&ev1));
  Samples samples;
  for (int it = 0; it < warmup + runs && row.error.empty(); ++it) {
    rt::BackendExecutionContext ctx;
    const auto w0 = Clock::now();
    Error e;
    double call_us;
    {
      executorch::extension::cuda::CallerStreamGuard guard(stream);
      CU(cudaEventRecord(ev0, stream));
      const ProfileScope scope = it >= warmup ? profile_scope() : nullptr;
      if (scope != nullptr) scope(row.name.c_str());
      const auto c0 = Clock::now();
      e = be->execute(ctx, *handle, rt::Span<EValue*>(io.ptrs.data(), io.ptrs.size()));
      call_us = ms_since(c0) * 1e3;
      if (scope != nullptr) scope(nullptr);
      CU(cudaEventRecord(ev1, stream));
    }
    CU(cudaStreamSynchronize(stream));
    const double w_us = ms_since(w0) * 1e3;
    float g_ms = 0;
    CU(cudaEventElapsedTime(&g_ms, ev0, ev1));
    if (e != Error::Ok) {
      row.error = "execute error " + std::to_string(unsigned(e)) + " at run " + std::to_string(it);
    } else if (it >= warmup) {
      samples.add(w_us, g_ms, call_us);
    }
  }
  cudaEventDestroy(ev0);
  cudaEventDestroy(ev1);
  be->destroy(*handle);
  if (row.error.empty()) summarize(row, samples);
  return row;
}

} // namespace

int main(int argc, char** argv) {
  int runs = 500, warmup = 50;
  std::string backend = "libexecutorch_cuda_backend.so.1", csv, method = "forward";
  bool with_graph = false, device_io = false;
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--warmup" && i + 1 < argc) {
      warmup = std::max(0, std::atoi(argv[++i]));
    } else if (a == "--backend" && i + 1 < argc) {
      backend = argv[++i];
    } else if (a == "--csv" && i + 1 < argc) {
      csv = argv[++i];
    } else if (a == "--method" && i + 1 < argc) {
      method = argv[++i];
    } else if (a == "--cuda-graph") {
      with_graph = true;
    } else if (a == "--device-io") {
      device_io = true;
    } else if (a == "-h" || a == "--help") {
      std::printf(
          "usage: %s [--runs N] [--warmup N] [--backend PATH] [--csv FILE] "
          "[--method NAME] [--cuda-graph] [--device-io] DIR...\n",
          argv[0]);
      return 0;
    } else {
      dirs.push_back(a);
    }
  }
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP: no CUDA device\n");
    return 77;
  }
  if (dirs.empty()) {
    std::fprintf(stderr, "gpu_bench: no fixture directories given\n");
    return 1;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int drv = 0, rtv = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rtv);
  executorch::runtime::runtime_init();
  auto t0 = Clock::now();
  cudaError_t ce = cudaFree(nullptr); // creates the primary context
  double ctx_ms = ms_since(t0);
  if (ce != cudaSuccess) {
    std::printf("SKIP: CUDA context: %s\n", cudaGetErrorString(ce));
    return 77;
  }
  t0 = Clock::now();
  void* dl = dlopen(backend.c_str(), RTLD_NOW | RTLD_LOCAL);
  double dlopen_ms = ms_since(t0);
  if (dl == nullptr) {
    std::printf("FAIL: dlopen %s: %s\n", backend.c_str(), dlerror());
    return 1;
  }
  auto* be = executorch::runtime::get_backend_class("CudaBackend");
  if (be == nullptr || !be->is_available()) {
    std::printf("FAIL: CudaBackend %s after dlopen\n", be ? "unavailable" : "not registered");
    return 1;
  }
  cudaStream_t stream;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    std::printf("FAIL: cudaStreamCreate\n");
    return 1;
  }
  std::printf(
      "gpu_bench: libexecutorch %s; %s (sm_%d%d), driver %d, runtime %d; %d warm-up + %d runs\n",
      executorch::runtime::build_version(), prop.name, prop.major, prop.minor, drv, rtv, warmup,
      runs);
  std::printf("cold: CUDA context %.1f ms, dlopen(%s) %.2f ms\n", ctx_ms, backend.c_str(),
              dlopen_ms);
  std::vector<Row> rows;
  rows.push_back(bench_floor(warmup, runs, stream));
  for (auto& d : dirs) {
    rows.push_back(bench_fixture(d, method, warmup, runs, stream, false));
    if (with_graph) rows.push_back(bench_fixture(d, method, warmup, runs, stream, true));
    if (device_io) {
      rows.push_back(bench_delegate(d, method, warmup, runs, stream, be, false));
      if (with_graph) rows.push_back(bench_delegate(d, method, warmup, runs, stream, be, true));
    }
  }
  std::printf("%-22s %10s %12s %10s %10s %10s %12s %10s\n", "model", "load ms", "load_meth ms",
              "med us", "p99 us", "gpu us", "overhead us", "call us");
  int failures = 0;
  for (auto& r : rows) {
    if (!r.ok) {
      std::printf("%-22s FAILED: %s\n", r.name.c_str(), r.error.c_str());
      ++failures;
      continue;
    }
    std::printf("%-22s %10.2f %12.1f %10.1f %10.1f %10.1f %12.1f %10.1f\n", r.name.c_str(),
                r.load_ms, r.load_method_ms, r.med_us, r.p99_us, r.gpu_med_us, r.overhead_med_us,
                r.call_med_us);
  }
  if (!csv.empty()) {
    std::FILE* f = std::fopen(csv.c_str(), "w");
    if (f != nullptr) {
      std::fprintf(f,
                   "model,ok,load_ms,load_method_ms,med_us,p99_us,gpu_med_us,overhead_med_us,"
                   "runs,dlopen_ms,context_ms,call_med_us\n");
      for (auto& r : rows) {
        std::fprintf(f, "%s,%d,%.3f,%.3f,%.2f,%.2f,%.2f,%.2f,%d,%.3f,%.3f,%.2f\n", r.name.c_str(),
                     int(r.ok), r.load_ms, r.load_method_ms, r.med_us, r.p99_us, r.gpu_med_us,
                     r.overhead_med_us, r.runs, dlopen_ms, ctx_ms, r.call_med_us);
      }
      std::fclose(f);
    }
  }
  cudaStreamDestroy(stream);
  return failures ? 1 : 0;
}
