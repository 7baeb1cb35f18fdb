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
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <cuda_runtime_api.h>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/extension/module/module.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/platform/runtime.h>

#include "gpu_test_util.h"

namespace rt = executorch::runtime;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::extension::Module;

using gpu_test::read_file;

// CudaBackend delegates alive in this process (its "live_delegates" option).
static int live_delegates() {
  rt::BackendOptions<1> opts;
  if (opts.set_option("live_delegates", 0) != rt::Error::Ok) return -1;
  auto view = opts.view();
  if (rt::get_option("CudaBackend", view) != rt::Error::Ok) return -1;
  const int* v = std::get_if<int>(&view.begin()->value);
  return v == nullptr ? -1 : *v;
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
  int delegates = 0; // delegate instances its forward made
};

// Max error of an output (the metric: gpu_test::output_error); *tol the
// tolerance for its dtype.
static double compare(const Tensor& t, const std::vector<float>& ref, double* tol) {
  const bool bf16 = t.scalar_type() == ScalarType::BFloat16;
  *tol = bf16 ? 2e-2 : 1e-4;
  std::vector<uint8_t> host(t.nbytes());
  if (t.device().is_cuda()) {
    cudaMemcpy(host.data(), t.const_data_ptr(), t.nbytes(), cudaMemcpyDeviceToHost);
  } else {
    cudaDeviceSynchronize();
    std::memcpy(host.data(), t.const_data_ptr(), t.nbytes());
  }
  return gpu_test::output_error(host.data(), host.size(), bf16, ref);
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
    std::printf("  %-22s %-16s output%zu on %s err %.3g (tol %.0e)\n", fx.name.c_str(), what, j,
                rt::device_type_name(t.device_type()), e, tol);
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
    fx.ref.push_back(gpu_test::read_reference(fx.dir + "/output" + std::to_string(j) + ".bin"));
  }
  const int before = live_delegates();
  const rt::Error e = fx.module->load_method("forward");
  fx.delegates = live_delegates() - before;
  std::printf("load %s (%s layout, %d delegate instance(s) of %zu backend(s)): %s\n",
              fx.dir.c_str(), fx.device_layout ? "device" : "host", fx.delegates,
              meta->num_backends(), e == rt::Error::Ok ? "ok" : rt::to_string(e));
  EXPECT(e == rt::Error::Ok, "%s: load_method error 0x%x", fx.dir.c_str(), unsigned(e));
  return e == rt::Error::Ok;
}

// Each fixture's forward made its delegates: two for the two-partition
// mlp2, one for every other fixture.
static void check_delegate_instances(const std::vector<std::unique_ptr<Fx>>& fxs) {
  for (const auto& fx : fxs) {
    const int want = fx->name.rfind("mlp2", 0) == 0 ? 2 : 1;
    EXPECT(fx->delegates == want, "%s: %d delegate instances, want %d", fx->name.c_str(),
           fx->delegates, want);
  }
}

// Unload and reload: device buffers go back and come again.
static void check_reloads(std::vector<std::unique_ptr<Fx>>& fxs) {
  size_t free0 = 0, free1 = 0, total = 0;
  cudaDeviceSynchronize();
  cudaMemGetInfo(&free0, &total);
  for (int i = 0; i < 20; ++i) {
    for (auto& fx : fxs) {
      fx->module->unload_method("forward");
      EXPECT(fx->module->load_method("forward") == rt::Error::Ok, "%s: reload", fx->name.c_str());
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

int main(int argc, char** argv) {
  gpu_test::require_gpu();
  rt::runtime_init();
  EXPECT(rt::get_device_allocator(rt::etensor::DeviceType::CUDA) != nullptr,
         "no CUDA device allocator registered");
  std::vector<std::unique_ptr<Fx>> fxs;
  int device_layouts = 0;
  for (int i = 1; i < argc; ++i) {
    auto fx = std::make_unique<Fx>();
    fx->dir = argv[i];
    // A fixture named on the command line must exist: a missing one is a
    // packaging or checkout error, not something to skip.
    EXPECT(!read_file(fx->dir + "/model.pte").empty(), "%s: no model.pte", argv[i]);
    if (!load(*fx)) continue;
    device_layouts += fx->device_layout;
    fxs.push_back(std::move(fx));
  }
  if (fxs.empty()) {
    std::printf("FAIL: no fixture loaded\n");
    return 1;
  }
  check_delegate_instances(fxs);
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
  check_reloads(fxs);
  std::printf("fixtures %zu (device layout %d)\n", fxs.size(), device_layouts);
  fxs.clear();
  return gpu_test::finish();
}
