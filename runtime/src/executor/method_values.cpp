// Turns the plan's EValues into runtime EValues, all in the method
// allocator: tensors with copied sizes and dim orders, lists boxed over the
// values they name.
#include <cstring>
#include <new>

#include <vector>

#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"
#include "executor/method_state.h"
#include "executor/method_unplanned.h"
#include "executor/program_state.h"
#include "executor/program_validation.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;

namespace {

#define ET_ALLOC_OR_FAIL(ptr, what)                                    \
  do {                                                                 \
    if ((ptr) == nullptr) {                                            \
      ET_LOG(Error, "Method allocator is out of memory for %s", what); \
      return Error::MemoryAllocationFailed;                            \
    }                                                                  \
  } while (0)

// The device the program puts planned buffer memory_id (1-based) on: its
// non_const_buffer_device entry, CPU when there is none.
etensor::Device program_buffer_device(const fb::ExecutionPlan* plan, uint32_t memory_id) {
  const auto* devs = plan->non_const_buffer_device();
  for (uint32_t i = 0; devs != nullptr && i < devs->size(); ++i) {
    if (devs->Get(i)->buffer_idx() == int32_t(memory_id)) {
      return etensor::Device(static_cast<etensor::DeviceType>(devs->Get(i)->device_type()),
                             devs->Get(i)->device_index());
    }
  }
  return etensor::Device(etensor::DeviceType::CPU);
}

// Copies nbytes of host data into a planned buffer on `device`.
Error copy_into_planned(etensor::Device device, void* dst, const void* src, size_t nbytes,
                        uint32_t vi) {
  if (nbytes == 0) {
    return Error::Ok;
  }
  if (device.is_cpu()) {
    std::memcpy(dst, src, nbytes);
    return Error::Ok;
  }
  DeviceAllocator* da = get_device_allocator(device.type());
  ET_CHECK_OR_RETURN_ERROR(da != nullptr, NotFound,
                           "Value %u: no allocator for device %s to copy its initial "
                           "value",
                           vi, device_type_name(device.type()));
  return da->copy_host_to_device(dst, src, nbytes, device.index());
}

// The device of a tensor. Planned: its buffer's (the program's
// non_const_buffer_device and the caller's HierarchicalAllocator must agree),
// which an explicit ExtraTensorInfo device must match. Constants and external
// data live in host memory; only an unplanned input may name a device.
Error tensor_device(MethodState* ms, const fb::Tensor* t, uint32_t vi, etensor::Device* out) {
  const auto* info = t->extra_tensor_info();
  // Generated tables derive privately from flatbuffers::Table; its vtable
  // tells whether the writer set the device (FlatBuffers omits defaults).
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(info);
  const bool info_device =
      info != nullptr && (table->CheckField(fb::ExtraTensorInfo::VT_DEVICE_TYPE) ||
                          table->CheckField(fb::ExtraTensorInfo::VT_DEVICE_INDEX));
  const etensor::Device tdev =
      info == nullptr ? etensor::Device(etensor::DeviceType::CPU)
                      : etensor::Device(static_cast<etensor::DeviceType>(info->device_type()),
                                        info->device_index());
  const auto* a = t->allocation_info();
  if (a == nullptr) {
    ET_CHECK_OR_RETURN_ERROR(tdev.is_cpu() || (t->data_buffer_idx() == 0 && !is_external(t)),
                             InvalidProgram,
                             "Value %u: a constant or external tensor cannot be on %s", vi,
                             device_type_name(tdev.type()));
    *out = tdev;
    return Error::Ok;
  }
  const etensor::Device want = program_buffer_device(ms->plan, a->memory_id());
  HierarchicalAllocator* planned = ms->memory->planned_memory();
  if (planned != nullptr) {
    const etensor::Device have = planned->buffer_device(a->memory_id() - 1);
    ET_CHECK_OR_RETURN_ERROR(
        want == have, InvalidArgument,
        "Value %u: planned buffer %u is on %s:%d in the program but the planned memory "
        "given is on %s:%d",
        vi, a->memory_id(), device_type_name(want.type()), int(want.index()),
        device_type_name(have.type()), int(have.index()));
  }
  ET_CHECK_OR_RETURN_ERROR(!info_device || tdev == want, InvalidProgram,
                           "Value %u: tensor is on %s:%d but its planned buffer %u is on %s:%d", vi,
                           device_type_name(tdev.type()), int(tdev.index()), a->memory_id(),
                           device_type_name(want.type()), int(want.index()));
  *out = want;
  return Error::Ok;
}

// Loads a planned external tensor's bytes from the named data into its
// planned memory at addr (through a host copy for a device buffer).
Error load_external_into_planned(MethodState* ms, const fb::Tensor* t, etensor::Device device,
                                 void* addr, size_t nbytes, uint32_t vi) {
  const char* fqn = t->extra_tensor_info()->fully_qualified_name()->c_str();
  ET_CHECK_OR_RETURN_ERROR(ms->named_data != nullptr, NotFound,
                           "External tensor '%s' but no named data map", fqn);
  if (device.is_cpu()) {
    const Error e = ms->named_data->load_data_into(fqn, addr, nbytes);
    ET_CHECK_OK_OR_RETURN_ERROR(e, "Cannot load external tensor '%s'", fqn);
    return Error::Ok;
  }
  std::vector<uint8_t> staging(nbytes);
  const Error e = ms->named_data->load_data_into(fqn, staging.data(), nbytes);
  ET_CHECK_OK_OR_RETURN_ERROR(e, "Cannot load external tensor '%s'", fqn);
  ET_CHECK_OK_OR_RETURN_ERROR(copy_into_planned(device, addr, staging.data(), nbytes, vi),
                              "Cannot copy external tensor '%s' to %s", fqn,
                              device_type_name(device.type()));
  return Error::Ok;
}

// Copies a mutable buffer's initial value from the program into addr.
Error load_mutable_into_planned(MethodState* ms, const fb::Tensor* t, etensor::Device device,
                                void* addr, size_t nbytes, uint32_t vi) {
  const ProgramState* ps = ms->program;
  const auto* sub = ps->fb->mutable_data_segments()->Get(0);
  const auto* seg = ps->fb->segments()->Get(sub->segment_index());
  const uint64_t off = sub->offsets()->Get(t->data_buffer_idx());
  // Fits size_t: validation put the range inside the file, whose size is one.
  auto data = ps->loader->load(
      ps->segment_base_offset + seg->offset() + off, nbytes,
      DataLoader::SegmentInfo(DataLoader::SegmentInfo::Type::Mutable, sub->segment_index()));
  ET_CHECK_OK_OR_RETURN_ERROR(data.error(), "Cannot load mutable data of value %u", vi);
  ET_CHECK_OR_RETURN_ERROR(data->size() >= nbytes, InvalidProgram,
                           "Short read of mutable data for value %u", vi);
  ET_CHECK_OK_OR_RETURN_ERROR(copy_into_planned(device, addr, data->data(), nbytes, vi),
                              "Cannot copy the mutable data of value %u", vi);
  return Error::Ok;
}

// A planned tensor: its address in the planned buffer, filled with its
// external or mutable initial value when it has one.
Error resolve_planned(MethodState* ms, const fb::Tensor* t, TensorImpl* impl, size_t nbytes,
                      uint32_t vi) {
  const auto* a = t->allocation_info();
  HierarchicalAllocator* planned = ms->memory->planned_memory();
  ET_CHECK_OR_RETURN_ERROR(planned != nullptr, InvalidArgument,
                           "Value %u is memory-planned but no planned memory was given", vi);
  // Validation bounds the offset by the planned size, which is 64-bit: on a
  // 32-bit host it could still wrap to a wrong address in the caller's buffer.
  size_t offset = 0;
  ET_CHECK_OR_RETURN_ERROR(to_size(planned_offset(a), &offset), MemoryAllocationFailed,
                           "Value %u: planned offset %llu does not fit this host's size_t", vi,
                           (unsigned long long)planned_offset(a));
  // memory_id is 1-based in the file; the caller's buffer 0 is mem_id 1.
  auto addr = planned->get_offset_address(a->memory_id() - 1, offset, nbytes);
  ET_CHECK_OK_OR_RETURN_ERROR(addr.error(), "Value %u: planned buffer %u too small or missing", vi,
                              a->memory_id());
  impl->set_data(*addr);
  if (is_external(t)) {
    return load_external_into_planned(ms, t, impl->device(), *addr, nbytes, vi);
  }
  if (t->data_buffer_idx() > 0) {
    return load_mutable_into_planned(ms, t, impl->device(), *addr, nbytes, vi);
  }
  return Error::Ok;
}

// An unplanned external tensor: the named data's bytes, kept alive by the
// method, after checking their layout against the program's.
Error resolve_external(MethodState* ms, const fb::Tensor* t, TensorImpl* impl, size_t nbytes) {
  const char* fqn = t->extra_tensor_info()->fully_qualified_name()->c_str();
  ET_CHECK_OR_RETURN_ERROR(ms->named_data != nullptr, NotFound,
                           "External tensor '%s' but no named data map", fqn);
  auto layout = ms->named_data->get_tensor_layout(fqn);
  if (layout.ok()) {
    ET_CHECK_OR_RETURN_ERROR(
        layout->scalar_type() == impl->scalar_type() && layout->nbytes() == nbytes,
        InvalidExternalData,
        "External tensor '%s': layout (dtype %d, %zu bytes) does not match the "
        "program (dtype %d, %zu bytes)",
        fqn, int(layout->scalar_type()), layout->nbytes(), int(impl->scalar_type()), nbytes);
  } else if (layout.error() != Error::NotSupported) {
    ET_LOG(Error, "External tensor '%s' not found in the named data", fqn);
    return layout.error();
  }
  auto data = ms->named_data->get_data(fqn);
  ET_CHECK_OK_OR_RETURN_ERROR(data.error(), "Cannot load external tensor '%s'", fqn);
  ET_CHECK_OR_RETURN_ERROR(data->size() >= nbytes, InvalidExternalData,
                           "External tensor '%s' holds %zu bytes, needs %zu", fqn, data->size(),
                           nbytes);
  impl->set_data(const_cast<void*>(data->data()));
  FreeableBuffer* slot = &ms->external_data[ms->n_external_data++];
  new (slot) FreeableBuffer(std::move(*data));
  return Error::Ok;
}

// A constant: points straight into the program's bytes, no copy.
Error resolve_constant(MethodState* ms, const fb::Tensor* t, TensorImpl* impl, uint32_t vi) {
  const ProgramState* ps = ms->program;
  const void* data = nullptr;
  if (ps->uses_constant_segment) {
    // Validated inside the constant segment, which Program::load loaded whole.
    const uint64_t off = ps->fb->constant_segment()->offsets()->Get(t->data_buffer_idx());
    data = static_cast<const uint8_t*>(ps->constant_segment_data.data()) + off;
  } else {
    // A 0-byte constant passes validation without storage (fuzz_program).
    const auto* storage = ps->fb->constant_buffer()->Get(t->data_buffer_idx())->storage();
    ET_CHECK_OR_RETURN_ERROR(storage != nullptr, InvalidProgram,
                             "Value %u: constant buffer %u has no storage", vi,
                             t->data_buffer_idx());
    data = storage->data();
  }
  impl->set_data(const_cast<void*>(data));
  return Error::Ok;
}

// Where a tensor's bytes live; sets impl's data pointer (impl's device is
// settled by tensor_device()). Unplanned inputs and outputs get none yet.
Error resolve_tensor_data(MethodState* ms, const fb::Tensor* t, TensorImpl* impl, size_t nbytes,
                          uint32_t vi) {
  if (t->allocation_info() != nullptr) {
    return resolve_planned(ms, t, impl, nbytes, vi);
  }
  if (is_external(t)) {
    return resolve_external(ms, t, impl, nbytes);
  }
  if (t->data_buffer_idx() > 0) {
    return resolve_constant(ms, t, impl, vi);
  }
  return Error::Ok;
}

Error parse_tensor(MethodState* ms, const fb::Tensor* t, uint32_t vi, EValue* out) {
  MemoryAllocator* alloc = ms->memory->method_allocator();
  auto nbytes = tensor_nbytes(t);
  ET_CHECK_OK_OR_RETURN_ERROR(nbytes.error());
  const size_t rank = t->sizes() == nullptr ? 0 : t->sizes()->size();
  // Copies, because dynamic tensors are resized in place.
  auto* sizes = alloc->allocateList<TensorImpl::SizesType>(rank == 0 ? 1 : rank);
  auto* dim_order = alloc->allocateList<TensorImpl::DimOrderType>(rank == 0 ? 1 : rank);
  auto* strides = alloc->allocateList<TensorImpl::StridesType>(rank == 0 ? 1 : rank);
  auto* impl = alloc->allocateInstance<TensorImpl>();
  ET_ALLOC_OR_FAIL(sizes, "tensor sizes");
  ET_ALLOC_OR_FAIL(dim_order, "tensor dim order");
  ET_ALLOC_OR_FAIL(strides, "tensor strides");
  ET_ALLOC_OR_FAIL(impl, "a TensorImpl");
  for (uint32_t i = 0; i < rank; ++i) {
    sizes[i] = t->sizes()->Get(i);
    dim_order[i] = t->dim_order() != nullptr ? t->dim_order()->Get(i) : uint8_t(i);
  }
  // The program gives sizes and dim order; the strides kernels and
  // delegates read follow from them (validation checked they fit).
  ET_CHECK_OR_RETURN_ERROR(checked_dense_strides(sizes, dim_order, rank, strides), InvalidProgram,
                           "Value %u: strides do not fit 32 bits", vi);
  etensor::Device device(etensor::DeviceType::CPU);
  ET_CHECK_OK_OR_RETURN_ERROR(tensor_device(ms, t, vi, &device));
  new (impl) TensorImpl(static_cast<ScalarType>(t->scalar_type()), ssize_t(rank), sizes, nullptr,
                        dim_order, strides, static_cast<TensorShapeDynamism>(t->shape_dynamism()),
                        device.type(), device.index());
  ET_CHECK_OK_OR_RETURN_ERROR(resolve_tensor_data(ms, t, impl, *nbytes, vi));
  // A planned offset or constant offset from the file must leave the data
  // aligned for its dtype: kernels access it as T* (found by fuzz_program).
  const size_t esize = elementSizeOrZero(impl->scalar_type());
  ET_CHECK_OR_RETURN_ERROR(
      esize == 0 || reinterpret_cast<uintptr_t>(impl->data()) % esize == 0, InvalidProgram,
      "Value %u: data at %p is not aligned for its %zu-byte dtype", vi, impl->data(), esize);
  new (out) EValue(Tensor(impl));
  return Error::Ok;
}

template <typename T>
Error box_list(MethodState* ms, const flatbuffers::Vector<T>* items, EValue*** wrapped) {
  MemoryAllocator* alloc = ms->memory->method_allocator();
  const size_t n = items->size();
  *wrapped = alloc->allocateList<EValue*>(n == 0 ? 1 : n);
  ET_ALLOC_OR_FAIL(*wrapped, "a boxed list");
  for (uint32_t i = 0; i < n; ++i) {
    const int64_t idx = static_cast<int64_t>(items->Get(i));
    (*wrapped)[i] = idx < 0 ? nullptr : &ms->values[idx];
  }
  return Error::Ok;
}

Error parse_value(MethodState* ms, uint32_t vi) {
  MemoryAllocator* alloc = ms->memory->method_allocator();
  const fb::EValue* ev = ms->plan->values()->Get(vi);
  EValue* out = &ms->values[vi];
  switch (ev->val_type()) {
    case fb::KernelTypes::NONE:
    case fb::KernelTypes::Null:
      break;
    case fb::KernelTypes::Int:
      *out = EValue(static_cast<int64_t>(ev->val_as_Int()->int_val()));
      break;
    case fb::KernelTypes::Bool:
      *out = EValue(static_cast<bool>(ev->val_as_Bool()->bool_val()));
      break;
    case fb::KernelTypes::Double:
      *out = EValue(static_cast<double>(ev->val_as_Double()->double_val()));
      break;
    case fb::KernelTypes::String: {
      const auto* s = ev->val_as_String()->string_val();
      *out = EValue(s->c_str(), s->size());
      break;
    }
    case fb::KernelTypes::Tensor:
      return parse_tensor(ms, ev->val_as_Tensor(), vi, out);
    case fb::KernelTypes::IntList: {
      const auto* items = ev->val_as_IntList()->items();
      EValue** wrapped = nullptr;
      ET_CHECK_OK_OR_RETURN_ERROR(box_list(ms, items, &wrapped));
      auto* unwrapped = alloc->allocateList<int64_t>(items->size() == 0 ? 1 : items->size());
      ET_ALLOC_OR_FAIL(unwrapped, "an IntList");
      *out = EValue(BoxedEvalueList<int64_t>(wrapped, unwrapped, int(items->size())));
      break;
    }
    case fb::KernelTypes::DoubleList: {
      const auto* items = ev->val_as_DoubleList()->items();
      *out = EValue(ArrayRef<double>(items->data(), items->size()));
      break;
    }
    case fb::KernelTypes::BoolList: {
      // Copied: FlatBuffers bools are bytes that may hold values other than 0/1.
      const auto* items = ev->val_as_BoolList()->items();
      bool* copy = alloc->allocateList<bool>(items->size() == 0 ? 1 : items->size());
      ET_ALLOC_OR_FAIL(copy, "a BoolList");
      for (uint32_t i = 0; i < items->size(); ++i) {
        copy[i] = items->Get(i) != 0;
      }
      *out = EValue(ArrayRef<bool>(copy, items->size()));
      break;
    }
    case fb::KernelTypes::TensorList: {
      const auto* items = ev->val_as_TensorList()->items();
      EValue** wrapped = nullptr;
      ET_CHECK_OK_OR_RETURN_ERROR(box_list(ms, items, &wrapped));
      auto* unwrapped = alloc->allocateList<Tensor>(items->size() == 0 ? 1 : items->size());
      ET_ALLOC_OR_FAIL(unwrapped, "a TensorList");
      for (uint32_t i = 0; i < items->size(); ++i) {
        new (&unwrapped[i]) Tensor(nullptr);
      }
      *out = EValue(BoxedEvalueList<Tensor>(wrapped, unwrapped, int(items->size())));
      break;
    }
    case fb::KernelTypes::OptionalTensorList: {
      const auto* items = ev->val_as_OptionalTensorList()->items();
      EValue** wrapped = nullptr;
      ET_CHECK_OK_OR_RETURN_ERROR(box_list(ms, items, &wrapped));
      using Opt = std::optional<Tensor>;
      auto* unwrapped = alloc->allocateList<Opt>(items->size() == 0 ? 1 : items->size());
      ET_ALLOC_OR_FAIL(unwrapped, "an OptionalTensorList");
      for (uint32_t i = 0; i < items->size(); ++i) {
        new (&unwrapped[i]) Opt();
      }
      *out = EValue(BoxedEvalueList<Opt>(wrapped, unwrapped, int(items->size())));
      break;
    }
    default:
      ET_LOG(Error, "Value %u has unknown type %d", vi, int(ev->val_type()));
      return Error::InvalidProgram;
  }
  return Error::Ok;
}

size_t count_external_tensors(const fb::ExecutionPlan* plan) {
  size_t n = 0;
  for (uint32_t i = 0; i < plan->values()->size(); ++i) {
    const auto* ev = plan->values()->Get(i);
    if (ev->val_type() == fb::KernelTypes::Tensor && is_external(ev->val_as_Tensor()) &&
        ev->val_as_Tensor()->allocation_info() == nullptr) {
      ++n;
    }
  }
  return n;
}

} // namespace

Error parse_values(MethodState* ms) {
  // Before anything is allocated: a method that cannot run is refused.
  ET_CHECK_OK_OR_RETURN_ERROR(check_unplanned_tensors(ms->plan));
  MemoryAllocator* alloc = ms->memory->method_allocator();
  const size_t n = ms->plan->values() == nullptr ? 0 : ms->plan->values()->size();
  ms->values = alloc->allocateList<EValue>(n == 0 ? 1 : n);
  ET_ALLOC_OR_FAIL(ms->values, "the method's values");
  for (size_t i = 0; i < n; ++i) {
    new (&ms->values[i]) EValue();
  }
  ms->n_values = n;
  const size_t n_ext = n == 0 ? 0 : count_external_tensors(ms->plan);
  if (n_ext > 0) {
    ms->external_data = alloc->allocateList<FreeableBuffer>(n_ext);
    ET_ALLOC_OR_FAIL(ms->external_data, "external tensor handles");
  }
  for (uint32_t i = 0; i < n; ++i) {
    ET_CHECK_OK_OR_RETURN_ERROR(parse_value(ms, i));
  }
  const auto* inputs = ms->plan->inputs();
  const size_t n_inputs = inputs == nullptr ? 0 : inputs->size();
  ms->loaded_inputs = alloc->allocateList<EValue>(n_inputs == 0 ? 1 : n_inputs);
  ET_ALLOC_OR_FAIL(ms->loaded_inputs, "the method's inputs");
  for (uint32_t i = 0; i < n_inputs; ++i) {
    new (&ms->loaded_inputs[i]) EValue(ms->values[inputs->Get(i)]);
  }
  ms->input_set = alloc->allocateList<bool>(n_inputs == 0 ? 1 : n_inputs);
  ET_ALLOC_OR_FAIL(ms->input_set, "the method's input flags");
  for (size_t i = 0; i < n_inputs; ++i) {
    // A None input has nothing to give (set_input takes only None there).
    ms->input_set[i] = ms->loaded_inputs[i].isNone();
  }
  ms->n_inputs = n_inputs;
  return Error::Ok;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
