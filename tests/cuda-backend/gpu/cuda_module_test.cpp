// GPU suite, end to end through the public API: each fixture directory
// (model.pte, aoti_cuda_blob.ptd, input<i>.bin, output<i>.bin, meta.json) is
// run through executorch::extension::Module, host-layout and device-layout
// programs alike (the latter need the CUDA device allocator for their planned
// buffers and the et_copy kernels), all fixtures loaded in one process, then
// forward again under a CallerStreamGuard. Tolerance: fp32 relative 1e-4 per
// element (scale floor 1e-2); bf16 max|err|/max|ref| <= 2e-2.
// Usage: cuda_module_test DIR... Exits 77 without a CUDA device.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/extension/module/module.h>
#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/platform/runtime.h>

namespace rt = executorch::runtime;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::extension::Module;

static int g_failures = 0;
#define EXPECT(cond, ...)                              \
  do {                                                 \
    if (!(cond)) {                                     \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      std::printf(__VA_ARGS__);                        \
      std::printf("\n");                               \
      ++g_failures;                                    \
    }                                                  \
  } while (0)

static std::vector<uint8_t> read_file(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), {});
}

static float to_f(const uint8_t* p, ScalarType t) {
  if (t == ScalarType::Float) { float f; std::memcpy(&f, p, 4); return f; }
  uint16_t h; std::memcpy(&h, p, 2);
  uint32_t u = uint32_t(h) << 16;
  float f; std::memcpy(&f, &u, 4); return f;
}

struct Fx {
  std::string dir, name;
  std::unique_ptr<Module> module;
  std::vector<std::vector<int32_t>> in_sizes;
  std::vector<ScalarType> in_types;
  std::vector<std::vector<uint8_t>> in_data;
  std::vector<std::unique_ptr<TensorImpl>> in_impls;
  std::vector<rt::EValue> inputs;
  std::vector<std::vector<float>> ref;
  bool device_layout = false;
};

// Max error of output j (see the header for the metric).
static double compare(const Tensor& t, const std::vector<float>& ref, double* tol) {
  const bool bf16 = t.scalar_type() == ScalarType::BFloat16;
  *tol = bf16 ? 2e-2 : 1e-4;
  if (size_t(t.numel()) != ref.size()) return 1e30;
  std::vector<uint8_t> host(t.nbytes());
  if (t.device().is_cuda()) {
    cudaMemcpy(host.data(), t.const_data_ptr(), t.nbytes(), cudaMemcpyDeviceToHost);
  } else {
    cudaDeviceSynchronize();
    std::memcpy(host.data(), t.const_data_ptr(), t.nbytes());
  }
  const size_t es = t.element_size();
  double scale = 0, worst = 0;
  for (float v : ref) scale = std::max(scale, double(std::fabs(v)));
  for (size_t i = 0; i < ref.size(); ++i) {
    const double a = to_f(host.data() + i * es, t.scalar_type()), r = ref[i];
    const double e = std::fabs(a - r) /
                     (bf16 ? scale + 1e-12 : std::max(std::fabs(r), 1e-2 * scale + 1e-12));
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

static bool check(Fx& fx, const char* what) {
  auto out = fx.module->forward(fx.inputs);
  EXPECT(out.ok(), "%s %s: forward error 0x%x", fx.name.c_str(), what,
         out.ok() ? 0u : unsigned(out.error()));
  if (!out.ok()) return false;
  bool ok = out->size() == fx.ref.size();
  EXPECT(ok, "%s: %zu outputs, reference has %zu", fx.name.c_str(), out->size(), fx.ref.size());
  for (size_t j = 0; ok && j < out->size(); ++j) {
    double tol = 0;
    const Tensor& t = (*out)[j].toTensor();
    const double e = compare(t, fx.ref[j], &tol);
    std::printf("  %-22s %-16s output%zu on %s err %.3g (tol %.0e)\n", fx.name.c_str(), what,
                j, rt::device_type_name(t.device_type()), e, tol);
    EXPECT(e <= tol, "%s %s output%zu err %g > %g", fx.name.c_str(), what, j, e, tol);
    ok = ok && e <= tol;
  }
  return ok;
}

static bool load(Fx& fx) {
  fx.name = fx.dir.substr(fx.dir.find_last_of('/', fx.dir.size() - 2) + 1);
  fx.module = std::make_unique<Module>(fx.dir + "/model.pte", fx.dir + "/aoti_cuda_blob.ptd");
  auto meta = fx.module->method_meta("forward");
  EXPECT(meta.ok(), "%s: method_meta error", fx.dir.c_str());
  if (!meta.ok()) return false;
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    fx.device_layout = fx.device_layout || meta->memory_planned_buffer_device(i)->is_cuda();
  }
  for (size_t i = 0; i < meta->num_inputs(); ++i) {
    auto info = meta->input_tensor_meta(i);
    if (!info.ok()) return false;
    fx.in_sizes.emplace_back(info->sizes().begin(), info->sizes().end());
    fx.in_types.push_back(info->scalar_type());
    fx.in_data.push_back(read_file(fx.dir + "/input" + std::to_string(i) + ".bin"));
    EXPECT(fx.in_data.back().size() == info->nbytes(), "%s input%zu: %zu bytes, want %zu",
           fx.dir.c_str(), i, fx.in_data.back().size(), info->nbytes());
  }
  for (size_t i = 0; i < fx.in_data.size(); ++i) {
    fx.in_impls.emplace_back(new TensorImpl(fx.in_types[i], ssize_t(fx.in_sizes[i].size()),
                                            fx.in_sizes[i].data(), fx.in_data[i].data()));
    fx.inputs.emplace_back(Tensor(fx.in_impls.back().get()));
  }
  for (size_t j = 0; j < meta->num_outputs(); ++j) {
    auto raw = read_file(fx.dir + "/output" + std::to_string(j) + ".bin");
    std::vector<float> r(raw.size() / 4);
    std::memcpy(r.data(), raw.data(), r.size() * 4);
    fx.ref.push_back(std::move(r));
  }
  const rt::Error e = fx.module->load_method("forward");
  std::printf("load %s (%s layout, %zu delegate(s)): %s\n", fx.dir.c_str(),
              fx.device_layout ? "device" : "host", meta->num_backends(),
              e == rt::Error::Ok ? "ok" : rt::to_string(e));
  EXPECT(e == rt::Error::Ok, "%s: load_method error 0x%x", fx.dir.c_str(), unsigned(e));
  return e == rt::Error::Ok;
}

int main(int argc, char** argv) {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP: no CUDA device\n");
    return 77;
  }
  rt::runtime_init();
  EXPECT(rt::get_device_allocator(rt::etensor::DeviceType::CUDA) != nullptr,
         "no CUDA device allocator registered");
  std::vector<std::unique_ptr<Fx>> fxs;
  int device_layouts = 0, multi = 0;
  for (int i = 1; i < argc; ++i) {
    auto fx = std::make_unique<Fx>();
    fx->dir = argv[i];
    // A fixture named on the command line must exist: a missing one is a
    // packaging or checkout error, not something to skip.
    EXPECT(!read_file(fx->dir + "/model.pte").empty(), "%s: no model.pte", argv[i]);
    if (!load(*fx)) continue;
    device_layouts += fx->device_layout;
    auto meta = fx->module->method_meta("forward");
    multi += meta.ok() && meta->num_backends() >= 1 &&
             fx->dir.find("mlp2") != std::string::npos;
    fxs.push_back(std::move(fx));
  }
  if (fxs.empty()) {
    std::printf("FAIL: no fixture loaded\n");
    return 1;
  }
  // Every fixture, all loaded in one process, twice (the second run reuses
  // the planned device buffers).
  for (int round = 0; round < 2; ++round) {
    for (auto& fx : fxs) check(*fx, round == 0 ? "forward" : "forward again");
  }
  // CallerStreamGuard: the delegate and the et_copy kernels run on the
  // caller's stream; results are right once the call returns (the d2h copy
  // synchronizes that stream).
  {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (auto& fx : fxs) {
      executorch::extension::cuda::CallerStreamGuard g(s);
      check(*fx, "caller stream");
    }
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
  // Unload and reload: device buffers go back and come again.
  {
    size_t free0 = 0, free1 = 0, total = 0;
    cudaDeviceSynchronize();
    cudaMemGetInfo(&free0, &total);
    for (int i = 0; i < 20; ++i) {
      for (auto& fx : fxs) {
        fx->module->unload_method("forward");
        if (fx->module->load_method("forward") != rt::Error::Ok) ++g_failures;
      }
    }
    cudaDeviceSynchronize();
    cudaMemGetInfo(&free1, &total);
    const long long growth = (long long)free0 - (long long)free1;
    std::printf("20 unload/load cycles of %zu fixtures: device memory growth %lld bytes\n",
                fxs.size(), growth);
    EXPECT(growth <= (64ll << 20), "device memory grows over unload/load: %lld", growth);
    for (auto& fx : fxs) check(*fx, "after reloads");
  }
  std::printf("fixtures %zu (device layout %d, two-partition %d)\n", fxs.size(),
              device_layouts, multi);
  fxs.clear();
  std::printf("%s (%d failures)\n", g_failures ? "FAILED" : "PASSED", g_failures);
  return g_failures ? 1 : 0;
}
