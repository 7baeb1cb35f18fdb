// Shared helpers for executor tests: load bytes, give a method the memory
// its MethodMeta asks for, and tiny float kernels for add/mul.
#pragma once

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/executor/program.h>

namespace et_test {

using namespace ::executorch::runtime;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;

inline std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

inline std::string conformance_path(const char* name) {
  const char* dir = std::getenv("ET_CONFORMANCE_DIR");
  return std::string(dir == nullptr ? "tests/data" : dir) + "/" + name;
}

// Owns the memory a method is loaded with: planned buffers sized from the
// meta (or the caller's planned memory), method and temp arenas.
struct MethodMemory {
  explicit MethodMemory(const MethodMeta& meta, size_t method_bytes = 64 * 1024,
                        size_t temp_bytes = 4096, HierarchicalAllocator* caller_planned = nullptr)
      : method_pool(method_bytes),
        temp_pool(temp_bytes),
        method_alloc(uint32_t(method_pool.size()), method_pool.data()),
        temp_alloc(uint32_t(temp_pool.size()), temp_pool.data()) {
    if (caller_planned == nullptr) {
      for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
        buffers.emplace_back(size_t(meta.memory_planned_buffer_size(i).get()));
      }
      for (auto& b : buffers) spans.emplace_back(b.data(), b.size());
      planned =
          std::make_unique<HierarchicalAllocator>(Span<Span<uint8_t>>(spans.data(), spans.size()));
      caller_planned = planned.get();
    }
    manager = std::make_unique<MemoryManager>(&method_alloc, caller_planned, &temp_alloc);
  }
  std::vector<uint8_t> method_pool, temp_pool;
  MemoryAllocator method_alloc, temp_alloc;
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<Span<uint8_t>> spans;
  std::unique_ptr<HierarchicalAllocator> planned;
  std::unique_ptr<MemoryManager> manager;
};

// Kernels see untrusted programs in the malformed tests: check everything.
inline bool float_like(const EValue* v, ssize_t numel) {
  return v->isTensor() && v->toTensor().scalar_type() == ScalarType::Float &&
         v->toTensor().numel() == numel &&
         (numel == 0 || v->toTensor().const_data_ptr() != nullptr);
}

// Float kernels with upstream's argument layout: add.out(a, b, alpha, out, out)
// and mul.out(a, b, out, out).
inline void test_add_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  if (args.size() != 5 || !args[3]->isTensor() || !args[2]->isInt()) {
    return ctx.fail(Error::InvalidArgument);
  }
  const ssize_t n = args[3]->toTensor().numel();
  if (!float_like(args[0], n) || !float_like(args[1], n) || !float_like(args[3], n)) {
    return ctx.fail(Error::InvalidArgument);
  }
  const Tensor& a = args[0]->toTensor();
  const Tensor& b = args[1]->toTensor();
  const double alpha = double(args[2]->toInt());
  Tensor& out = args[3]->toTensor();
  for (ssize_t i = 0; i < out.numel(); ++i) {
    out.mutable_data_ptr<float>()[i] =
        float(a.const_data_ptr<float>()[i] + alpha * b.const_data_ptr<float>()[i]);
  }
}

inline void test_mul_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  if (args.size() != 4 || !args[2]->isTensor()) return ctx.fail(Error::InvalidArgument);
  const ssize_t n = args[2]->toTensor().numel();
  if (!float_like(args[0], n) || !float_like(args[1], n) || !float_like(args[2], n)) {
    return ctx.fail(Error::InvalidArgument);
  }
  const Tensor& a = args[0]->toTensor();
  const Tensor& b = args[1]->toTensor();
  Tensor& out = args[2]->toTensor();
  for (ssize_t i = 0; i < out.numel(); ++i) {
    out.mutable_data_ptr<float>()[i] = a.const_data_ptr<float>()[i] * b.const_data_ptr<float>()[i];
  }
}

inline const Kernel* test_kernels() {
  static const Kernel k[] = {Kernel("aten::add.out", test_add_out),
                             Kernel("aten::mul.out", test_mul_out)};
  return k;
}
inline Span<const Kernel> test_kernel_span() { return Span<const Kernel>(test_kernels(), 2); }

} // namespace et_test
