// Concurrency: several threads load and execute separate Methods of ONE
// shared Program (each with its own MemoryManager) and check the results;
// kernel registration races lookups; backend registration races lookups.
// Run under ThreadSanitizer by .ci/sanitizers.sh.
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/runtime.h>

#include "untrusted_input/seed_programs.h"

namespace {

namespace rt = ::executorch::runtime;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;

// out = a + alpha * b over float tensors of equal numel (the test's own
// kernel, so the test does not depend on the portable kernels).
void test_add(rt::KernelRuntimeContext& ctx, rt::Span<rt::EValue*> args) {
  if (args.size() != 5 || !args[0]->isTensor() || !args[1]->isTensor() || !args[2]->isInt() ||
      !args[3]->isTensor()) {
    ctx.fail(rt::Error::InvalidArgument);
    return;
  }
  const Tensor& a = args[0]->toTensor();
  const Tensor& b = args[1]->toTensor();
  Tensor& out = args[3]->toTensor();
  if (a.numel() != b.numel() || a.numel() != out.numel() || a.scalar_type() != ScalarType::Float ||
      out.scalar_type() != ScalarType::Float) {
    ctx.fail(rt::Error::InvalidArgument);
    return;
  }
  const float alpha = static_cast<float>(args[2]->toInt());
  const float* pa = a.const_data_ptr<float>();
  const float* pb = b.const_data_ptr<float>();
  float* po = out.mutable_data_ptr<float>();
  for (ssize_t i = 0; i < a.numel(); ++i) po[i] = pa[i] + alpha * pb[i];
}

void register_test_kernel() {
  static const bool done = [] {
    static const std::string name =
        std::string(et_fuzz::kTestAddOp) + "." + et_fuzz::kTestAddOverload;
    rt::Kernel k(name.c_str(), &test_add);
    EXPECT_EQ(rt::register_kernel(k), rt::Error::Ok);
    return true;
  }();
  (void)done;
}

struct Arena {
  explicit Arena(size_t n) : mem(new uint64_t[(n + 7) / 8]) {}
  uint8_t* data() { return reinterpret_cast<uint8_t*>(mem.get()); }
  std::unique_ptr<uint64_t[]> mem;
};

// Loads `name` with its own memory, feeds `seed`-dependent inputs, runs it
// `iterations` times and checks every output element.
void run_one(const rt::Program& program, const char* name, float seed, int iterations,
             std::atomic<int>* failures) {
  auto meta = program.method_meta(name);
  if (!meta.ok()) {
    ++*failures;
    return;
  }
  std::vector<Arena> buffers;
  std::vector<rt::Span<uint8_t>> spans;
  buffers.reserve(meta->num_memory_planned_buffers());
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    const size_t sz = static_cast<size_t>(meta->memory_planned_buffer_size(i).get());
    buffers.emplace_back(sz);
    spans.emplace_back(buffers.back().data(), sz);
  }
  rt::HierarchicalAllocator planned(rt::Span<rt::Span<uint8_t>>(spans.data(), spans.size()));
  Arena method_mem(1 << 16), temp_mem(1 << 12);
  rt::MemoryAllocator method_alloc(1 << 16, method_mem.data());
  rt::MemoryAllocator temp_alloc(1 << 12, temp_mem.data());
  rt::MemoryManager mm(&method_alloc, &planned, &temp_alloc);
  auto method = program.load_method(name, &mm);
  if (!method.ok()) {
    ++*failures;
    return;
  }

  const bool twice = std::strcmp(name, "twice") == 0;
  const int n = twice ? 8 : 4;
  std::vector<float> a(n), b(n);
  int32_t sizes[1] = {n};
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < n; ++i) {
      a[i] = seed + static_cast<float>(i) + static_cast<float>(it);
      b[i] = 2.0f * seed - static_cast<float>(i);
    }
    TensorImpl ia(ScalarType::Float, 1, sizes, a.data());
    TensorImpl ib(ScalarType::Float, 1, sizes, b.data());
    if (method->set_input(rt::EValue(Tensor(&ia)), 0) != rt::Error::Ok) {
      ++*failures;
      return;
    }
    if (!twice && method->set_input(rt::EValue(Tensor(&ib)), 1) != rt::Error::Ok) {
      ++*failures;
      return;
    }
    if (method->execute() != rt::Error::Ok) {
      ++*failures;
      return;
    }
    const rt::EValue& out = method->get_output(0);
    if (!out.isTensor() || out.toTensor().numel() != n) {
      ++*failures;
      return;
    }
    const float* po = out.toTensor().const_data_ptr<float>();
    for (int i = 0; i < n; ++i) {
      const float want = twice ? 2.0f * a[i] : a[i] + b[i];
      if (po[i] != want) {
        ++*failures;
        return;
      }
    }
  }
}

TEST(Concurrency, SharedProgramSeparateMethods) {
  rt::runtime_init();
  register_test_kernel();
  const auto bytes = et_fuzz::two_method_program(et_fuzz::kTestAddOp, et_fuzz::kTestAddOverload);
  std::vector<std::max_align_t> buf(bytes.size() / sizeof(std::max_align_t) + 1);
  std::memcpy(buf.data(), bytes.data(), bytes.size());
  ::executorch::extension::BufferDataLoader loader(buf.data(), bytes.size());
  auto program = rt::Program::load(&loader, rt::Program::Verification::InternalConsistency);
  ASSERT_TRUE(program.ok()) << static_cast<int>(program.error());
  ASSERT_EQ(program->num_methods(), 2u);

  constexpr int kThreads = 8;
  std::atomic<int> failures{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      for (int round = 0; round < 10; ++round) {
        const char* name = ((t + round) % 2 == 0) ? "forward" : "twice";
        run_one(*program, name, static_cast<float>(t * 100 + round), 20, &failures);
        // method_meta and names from every thread while others execute.
        auto meta = program->method_meta("forward");
        if (!meta.ok() || meta->num_inputs() != 2) ++failures;
        auto n = program->get_method_name(static_cast<size_t>(t % 2));
        if (!n.ok()) ++failures;
      }
    });
  }
  go = true;
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

void noop_kernel(rt::KernelRuntimeContext&, rt::Span<rt::EValue*>) {}

TEST(Concurrency, KernelRegistrationRacesLookups) {
  rt::runtime_init();
  register_test_kernel();
  constexpr int kThreads = 6;
  constexpr int kPerThread = 16;
  // Names must outlive their registration: keep them for the whole process.
  static std::vector<std::string> names;
  names.clear();
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kPerThread; ++i) {
      names.push_back("et_concurrency::op_" + std::to_string(t) + "_" + std::to_string(i) + ".out");
    }
  }
  static const std::string dup = "et_concurrency::duplicate.out";
  std::atomic<int> failures{0};
  std::atomic<int> dup_ok{0};
  std::atomic<bool> go{false};
  const std::string test_op = std::string(et_fuzz::kTestAddOp) + "." + et_fuzz::kTestAddOverload;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      rt::Kernel d(dup.c_str(), &noop_kernel);
      if (rt::register_kernel(d) == rt::Error::Ok) ++dup_ok;
      for (int i = 0; i < kPerThread; ++i) {
        rt::Kernel k(names[t * kPerThread + i].c_str(), &noop_kernel);
        if (rt::register_kernel(k) != rt::Error::Ok) ++failures;
        // Lookups of an existing, a just-registered and a missing kernel.
        if (!rt::get_op_function_from_registry(test_op.c_str()).ok()) ++failures;
        if (!rt::registry_has_op_function(names[t * kPerThread + i].c_str())) ++failures;
        if (rt::get_op_function_from_registry("et_concurrency::missing.out").ok()) ++failures;
        auto all = rt::get_registered_kernels();
        if (all.size() == 0) ++failures;
      }
    });
  }
  go = true;
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(dup_ok.load(), 1);
  for (const auto& n : names) EXPECT_TRUE(rt::registry_has_op_function(n.c_str())) << n;
}

class NullBackend final : public rt::BackendInterface {
 public:
  bool is_available() const override { return false; }
  rt::Result<rt::DelegateHandle*> init(rt::BackendInitContext&, rt::FreeableBuffer*,
                                       rt::ArrayRef<rt::CompileSpec>) const override {
    return rt::Error::NotSupported;
  }
  rt::Error execute(rt::BackendExecutionContext&, rt::DelegateHandle*,
                    rt::Span<rt::EValue*>) const override {
    return rt::Error::NotSupported;
  }
};

TEST(Concurrency, BackendRegistrationRacesLookups) {
  rt::runtime_init();
  static NullBackend backends[4];
  static const char* const kNames[4] = {"EtConcA", "EtConcB", "EtConcC", "EtConcD"};
  static NullBackend dup_backend;
  std::atomic<int> failures{0};
  std::atomic<int> dup_ok{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      if (t < 4) {
        if (rt::register_backend({kNames[t], &backends[t]}) != rt::Error::Ok) ++failures;
      }
      if (rt::register_backend({"EtConcDup", &dup_backend}) == rt::Error::Ok) ++dup_ok;
      for (int i = 0; i < 200; ++i) {
        const size_t n = rt::get_num_registered_backends();
        for (size_t k = 0; k < n; ++k) {
          auto name = rt::get_backend_name(k);
          if (name.ok() && *name == nullptr) ++failures;
        }
        rt::BackendInterface* b = rt::get_backend_class(kNames[i % 4]);
        if (b != nullptr && b != &backends[i % 4]) ++failures;
        if (rt::get_backend_class("EtConcMissing") != nullptr) ++failures;
      }
    });
  }
  go = true;
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(dup_ok.load(), 1);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(rt::get_backend_class(kNames[t]), &backends[t]);
}

} // namespace
