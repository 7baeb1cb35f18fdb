// Feeds untrusted bytes through the whole runtime the way a host would:
// BufferDataLoader -> Program::load -> for every method: method_meta,
// load_method with planned memory from PlannedMemory (lazily mapped, under
// a MemoryBudget), ones as inputs, execute. Shared by the fuzz harness, the
// regression test and the corruption test. Returns the first Error met (Ok
// when every method ran).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/memory_allocator/planned_memory.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

namespace et_fuzz {

using ::executorch::runtime::Error;

// Per-stage outcome counts.
struct Outcomes {
  size_t load_failed = 0;
  size_t meta_failed = 0;
  size_t method_load_failed = 0;
  size_t input_failed = 0;
  size_t execute_failed = 0;
  size_t executed = 0;
};

// The memory limit for one method (planned buffers and inputs), as a host
// would set it: programs asking more fail with MemoryAllocationFailed, as
// they would in Module. Planned pages are mapped lazily, so a program may
// declare up to this much and touch little of it; it stays under the
// fuzzer's -rss_limit_mb.
constexpr size_t kMethodMemoryLimit = size_t(1) << 30;
// Method allocator arena.
constexpr size_t kMethodArena = size_t(4) << 20;
constexpr size_t kTempArena = size_t(1) << 20;

inline void fill_ones(void* data, ::executorch::aten::ScalarType t, size_t n) {
  using ::executorch::aten::ScalarType;
  switch (t) {
    case ScalarType::Float: {
      auto* p = static_cast<float*>(data);
      for (size_t i = 0; i < n; ++i) p[i] = 1.0f;
      break;
    }
    case ScalarType::Double: {
      auto* p = static_cast<double*>(data);
      for (size_t i = 0; i < n; ++i) p[i] = 1.0;
      break;
    }
    case ScalarType::Int: {
      auto* p = static_cast<int32_t*>(data);
      for (size_t i = 0; i < n; ++i) p[i] = 1;
      break;
    }
    case ScalarType::Long: {
      auto* p = static_cast<int64_t*>(data);
      for (size_t i = 0; i < n; ++i) p[i] = 1;
      break;
    }
    default:
      break; // zero bytes are a fine input for the other types
  }
}

// Storage for one tensor input that the runtime does not own.
struct InputTensor {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  ::executorch::extension::HostBuffer data;
  std::unique_ptr<::executorch::aten::TensorImpl> impl;
};

inline Error run_method(const ::executorch::runtime::Program& program, const char* name,
                        Outcomes* out) {
  namespace rt = ::executorch::runtime;
  auto meta = program.method_meta(name);
  if (!meta.ok()) {
    ++out->meta_failed;
    return meta.error();
  }
  ::executorch::extension::MemoryBudget budget(kMethodMemoryLimit);
  auto planned = ::executorch::extension::PlannedMemory::for_method(*meta, &budget);
  if (!planned.ok()) {
    ++out->method_load_failed;
    return planned.error();
  }
  // Left uninitialized: zeroing 5 MiB per run would dominate the fuzzer.
  std::unique_ptr<uint64_t[]> method_mem(new uint64_t[kMethodArena / 8]);
  std::unique_ptr<uint64_t[]> temp_mem(new uint64_t[kTempArena / 8]);
  rt::MemoryAllocator method_alloc(static_cast<uint32_t>(kMethodArena),
                                   reinterpret_cast<uint8_t*>(method_mem.get()));
  rt::MemoryAllocator temp_alloc(static_cast<uint32_t>(kTempArena),
                                 reinterpret_cast<uint8_t*>(temp_mem.get()));
  rt::MemoryManager mm(&method_alloc, (*planned)->allocator(), &temp_alloc);

  auto method = program.load_method(name, &mm);
  if (!method.ok()) {
    ++out->method_load_failed;
    return method.error();
  }
  // Ones for every tensor input; other inputs keep their traced values.
  std::vector<InputTensor> inputs(meta->num_inputs());
  for (size_t i = 0; i < meta->num_inputs(); ++i) {
    auto tag = meta->input_tag(i);
    if (!tag.ok() || *tag != rt::Tag::Tensor) continue;
    auto info = meta->input_tensor_meta(i);
    if (!info.ok()) {
      ++out->input_failed;
      return info.error();
    }
    InputTensor& in = inputs[i];
    auto s = info->sizes();
    auto d = info->dim_order();
    if (s.size() > 16 || d.size() != s.size()) {
      ++out->input_failed;
      return Error::InvalidArgument;
    }
    in.sizes.assign(s.begin(), s.end());
    in.dim_order.assign(d.begin(), d.end());
    const size_t nbytes = info->nbytes();
    auto data = ::executorch::extension::HostBuffer::allocate(nbytes, &budget, "an input");
    if (!data.ok()) {
      ++out->input_failed;
      return data.error();
    }
    in.data = std::move(*data);
    const size_t esize = ::executorch::runtime::elementSizeOrZero(info->scalar_type());
    if (esize != 0) fill_ones(in.data.data(), info->scalar_type(), nbytes / esize);
    in.impl.reset(new ::executorch::aten::TensorImpl(
        info->scalar_type(), static_cast<ssize_t>(in.sizes.size()), in.sizes.data(), in.data.data(),
        in.dim_order.data()));
    rt::EValue ev{::executorch::aten::Tensor(in.impl.get())};
    Error e = method->set_input(ev, i);
    if (e != Error::Ok) {
      ++out->input_failed;
      return e;
    }
  }
  Error e = method->execute();
  if (e != Error::Ok) {
    ++out->execute_failed;
    return e;
  }
  // Touch the outputs the way a host would.
  for (size_t i = 0; i < method->outputs_size(); ++i) {
    const rt::EValue& v = method->get_output(i);
    if (v.isTensor()) {
      const auto& t = v.toTensor();
      volatile uint8_t sink = 0;
      const auto* p = static_cast<const uint8_t*>(t.const_data_ptr());
      if (p != nullptr && t.nbytes() > 0) sink = p[t.nbytes() - 1];
      (void)sink;
    }
  }
  ++out->executed;
  return Error::Ok;
}

inline Error load_and_run(const uint8_t* data, size_t size, Outcomes* out) {
  namespace rt = ::executorch::runtime;
  rt::runtime_init();
  // Copy into max_align_t-aligned storage, as a host reading a file would.
  std::vector<std::max_align_t> buf(size / sizeof(std::max_align_t) + 1);
  if (size != 0) std::memcpy(buf.data(), data, size);
  ::executorch::extension::BufferDataLoader loader(buf.data(), size);
  auto program = rt::Program::load(&loader, rt::Program::Verification::InternalConsistency);
  if (!program.ok()) {
    ++out->load_failed;
    return program.error();
  }
  Error first = Error::Ok;
  const size_t n = program->num_methods();
  for (size_t i = 0; i < n && i < 16; ++i) {
    auto name = program->get_method_name(i);
    if (!name.ok()) {
      ++out->meta_failed;
      if (first == Error::Ok) first = name.error();
      continue;
    }
    Error e = run_method(*program, *name, out);
    if (first == Error::Ok) first = e;
  }
  return first;
}

} // namespace et_fuzz
