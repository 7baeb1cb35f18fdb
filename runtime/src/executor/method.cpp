// The Method API: inputs, outputs, execute, attributes.
#include <executorch/runtime/executor/method.h>

#include <cstring>

#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/log.h>

#include "executor/method_state.h"
#include "executor/program_validation.h"

namespace executorch {
namespace runtime {

namespace fb = executorch_flatbuffer;
using ::executorch::aten::Tensor;
using internal::MethodState;

namespace {

const fb::Tensor* fb_tensor(const MethodState* ms, int32_t value_index) {
  const auto* ev = ms->plan->values()->Get(uint32_t(value_index));
  return ev->val_type() == fb::KernelTypes::Tensor ? ev->val_as_Tensor() : nullptr;
}

Error set_tensor_input(MethodState* ms, int32_t vi, const Tensor& src, size_t idx) {
  const fb::Tensor* ft = fb_tensor(ms, vi);
  ET_CHECK_OR_RETURN_ERROR(ft != nullptr && ms->values[vi].isTensor(), InvalidState,
                           "Input %zu is not a tensor value", idx);
  Tensor& dst = ms->values[vi].toTensor();
  ET_CHECK_OR_RETURN_ERROR(src.scalar_type() == dst.scalar_type(), InvalidArgument,
                           "Input %zu: dtype %d, expected %d", idx, int(src.scalar_type()),
                           int(dst.scalar_type()));
  ET_CHECK_OR_RETURN_ERROR(src.dim() == dst.dim(), InvalidArgument,
                           "Input %zu: rank %zd, expected %zd", idx, ssize_t(src.dim()),
                           ssize_t(dst.dim()));
  const Error resized = dst.unsafeGetTensorImpl()->internal_resize_contiguous(src.sizes());
  ET_CHECK_OK_OR_RETURN_ERROR(resized, "Input %zu: sizes do not match the method", idx);
  if (ft->allocation_info() != nullptr) {
    // Planned input: copy into the planned buffer.
    ET_CHECK_OR_RETURN_ERROR(src.nbytes() == dst.nbytes(), InvalidArgument,
                             "Input %zu: %zu bytes, expected %zu", idx, src.nbytes(), dst.nbytes());
    // As upstream: a tensor without data leaves the planned buffer as it is.
    if (src.const_data_ptr() != dst.const_data_ptr() && src.nbytes() > 0 &&
        src.const_data_ptr() != nullptr) {
      const auto ddev = dst.device();
      const auto sdev = src.device();
      if (ddev.is_cpu() && sdev.is_cpu()) {
        std::memcpy(dst.mutable_data_ptr(), src.const_data_ptr(), src.nbytes());
      } else {
        // A planned buffer on a device (or a device input): copy through the
        // device's registered allocator.
        const auto type = ddev.is_cpu() ? sdev.type() : ddev.type();
        DeviceAllocator* da = get_device_allocator(type);
        ET_CHECK_OR_RETURN_ERROR(da != nullptr, NotFound,
                                 "Input %zu: no allocator for device %s: is the %s backend "
                                 "installed?",
                                 idx, device_type_name(type), device_type_name(type));
        ET_CHECK_OR_RETURN_ERROR(ddev.is_cpu() || sdev.is_cpu() || ddev == sdev, NotSupported,
                                 "Input %zu: copy from %s:%d to %s:%d", idx,
                                 device_type_name(sdev.type()), int(sdev.index()),
                                 device_type_name(ddev.type()), int(ddev.index()));
        Error e = Error::Ok;
        if (sdev.is_cpu()) {
          e = da->copy_host_to_device(dst.mutable_data_ptr(), src.const_data_ptr(), src.nbytes(),
                                      ddev.index());
        } else if (ddev.is_cpu()) {
          e = da->copy_device_to_host(dst.mutable_data_ptr(), src.const_data_ptr(), src.nbytes(),
                                      sdev.index());
        } else {
          e = da->copy_device_to_device(dst.mutable_data_ptr(), src.const_data_ptr(), src.nbytes(),
                                        ddev.index());
        }
        ET_CHECK_OK_OR_RETURN_ERROR(e, "Input %zu: copy %s -> %s failed", idx,
                                    device_type_name(sdev.type()), device_type_name(ddev.type()));
      }
    }
  } else {
    ET_CHECK_OR_RETURN_ERROR(ft->data_buffer_idx() == 0 && !internal::is_external(ft), InvalidState,
                             "Input %zu is a constant", idx);
    // Unplanned input: alias the caller's data.
    dst.unsafeGetTensorImpl()->set_data(src.mutable_data_ptr());
  }
  return Error::Ok;
}

Error set_input_value(MethodState* ms, int32_t vi, const EValue& input, const EValue& target,
                      size_t input_idx);

// What the reference-returning accessors hand out when the Method was moved
// from: a None value, never a dereference of the missing state.
EValue& moved_from_value() {
  ET_LOG(Error, "Method used after being moved from");
  static thread_local EValue none;
  none = EValue();
  return none;
}

} // namespace

Method::Method(Method&& rhs) noexcept : state_(rhs.state_) { rhs.state_ = nullptr; }

Method::~Method() {
  if (state_ != nullptr) {
    // The memory belongs to the caller's allocator; only release resources.
    state_->~MethodState();
  }
}

Error Method::set_input(const EValue& input, size_t input_idx) {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(input_idx < inputs_size(), InvalidArgument,
                           "Input index %zu out of range (%zu inputs)", input_idx, inputs_size());
  const int32_t vi = state_->plan->inputs()->Get(uint32_t(input_idx));
  EValue& target = state_->values[vi];
  // Undo a MoveCall of the last run into this slot (method_state.h).
  target = state_->loaded_inputs[input_idx];
  ET_CHECK_OR_RETURN_ERROR(input.tag == target.tag, InvalidArgument,
                           "Input %zu: tag %u, expected %u", input_idx, unsigned(input.tag),
                           unsigned(target.tag));
  const Error err = set_input_value(state_, vi, input, target, input_idx);
  if (err == Error::Ok) {
    state_->input_set[input_idx] = true;
  }
  return err;
}

namespace {
Error set_input_value(MethodState* ms, int32_t vi, const EValue& input, const EValue& target,
                      size_t input_idx) {
  switch (target.tag) {
    case Tag::Tensor:
      return set_tensor_input(ms, vi, input.toTensor(), input_idx);
    // Scalars are baked into the program: they must equal the traced value.
    case Tag::Int:
      ET_CHECK_OR_RETURN_ERROR(input.toInt() == target.toInt(), InvalidArgument,
                               "Input %zu: Int %lld differs from traced %lld", input_idx,
                               (long long)input.toInt(), (long long)target.toInt());
      return Error::Ok;
    case Tag::Double:
      ET_CHECK_OR_RETURN_ERROR(input.toDouble() == target.toDouble(), InvalidArgument,
                               "Input %zu: Double differs from the traced value", input_idx);
      return Error::Ok;
    case Tag::Bool:
      ET_CHECK_OR_RETURN_ERROR(input.toBool() == target.toBool(), InvalidArgument,
                               "Input %zu: Bool differs from the traced value", input_idx);
      return Error::Ok;
    case Tag::None:
      return Error::Ok;
    default:
      ET_LOG(Error, "Input %zu: setting inputs of tag %u is not supported", input_idx,
             unsigned(target.tag));
      return Error::NotSupported;
  }
}
} // namespace

Error Method::set_inputs(const ::executorch::aten::ArrayRef<EValue>& inputs) {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(inputs.size() == inputs_size(), InvalidArgument,
                           "%zu inputs given, method takes %zu", inputs.size(), inputs_size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    ET_CHECK_OK_OR_RETURN_ERROR(set_input(inputs[i], i));
  }
  return Error::Ok;
}

Error Method::set_output_data_ptr(void* buffer, size_t size, size_t output_idx) {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(output_idx < outputs_size(), InvalidArgument,
                           "Output index %zu out of range (%zu outputs)", output_idx,
                           outputs_size());
  const int32_t vi = state_->plan->outputs()->Get(uint32_t(output_idx));
  const fb::Tensor* ft = fb_tensor(state_, vi);
  ET_CHECK_OR_RETURN_ERROR(ft != nullptr && state_->values[vi].isTensor(), InvalidArgument,
                           "Output %zu is not a tensor", output_idx);
  ET_CHECK_OR_RETURN_ERROR(
      ft->allocation_info() == nullptr && ft->data_buffer_idx() == 0 && !internal::is_external(ft),
      InvalidState, "Output %zu is memory-planned or constant", output_idx);
  Tensor& t = state_->values[vi].toTensor();
  ET_CHECK_OR_RETURN_ERROR(buffer != nullptr && size >= t.nbytes(), InvalidArgument,
                           "Output %zu needs %zu bytes, got %zu", output_idx, t.nbytes(), size);
  t.unsafeGetTensorImpl()->set_data(buffer);
  return Error::Ok;
}

Error Method::execute() {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(!in_progress(), InvalidState,
                           "Method execution is in progress (step()); finish it first");
  for (size_t i = 0; i < state_->n_inputs; ++i) {
    ET_CHECK_OR_RETURN_ERROR(state_->input_set[i], InvalidArgument, "Input %zu has not been set",
                             i);
  }
  return internal::execute_method(state_);
}

Error Method::step() {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  return internal::step_method(state_);
}

Error Method::experimental_step() { return step(); }

bool Method::in_progress() const {
  if (state_ == nullptr) {
    return false;
  }
  const internal::StepState& st = state_->step;
  return (st.chain != 0 || st.pc != 0) && st.chain < state_->n_chains;
}

Error Method::reset_execution() {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  internal::StepState& st = state_->step;
  ET_CHECK_OR_RETURN_ERROR(st.chain >= state_->n_chains, InvalidState,
                           "Cannot reset until EndOfMethod has been reached");
  st = internal::StepState();
  return Error::Ok;
}

Error Method::experimental_reset_execution() { return reset_execution(); }

Error Method::get_outputs(EValue* output_evalues, size_t length) {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(output_evalues != nullptr && length >= outputs_size(), InvalidArgument,
                           "Room for %zu outputs, need %zu", length, outputs_size());
  for (size_t i = 0; i < outputs_size(); ++i) {
    output_evalues[i] = get_output(i);
  }
  return Error::Ok;
}

Error Method::get_inputs(EValue* input_evalues, size_t length) {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(input_evalues != nullptr && length >= inputs_size(), InvalidArgument,
                           "Room for %zu inputs, need %zu", length, inputs_size());
  for (size_t i = 0; i < inputs_size(); ++i) {
    input_evalues[i] = state_->values[state_->plan->inputs()->Get(uint32_t(i))];
    // As upstream: the caller is taken to fill what it was handed.
    state_->input_set[i] = true;
  }
  return Error::Ok;
}

const EValue& Method::get_output(size_t i) const {
  if (state_ == nullptr) {
    return moved_from_value();
  }
  ET_CHECK_MSG(i < outputs_size(), "Output index out of range: %zu >= %zu", i, outputs_size());
  return state_->values[state_->plan->outputs()->Get(uint32_t(i))];
}

const EValue& Method::get_input(size_t i) const {
  if (state_ == nullptr) {
    return moved_from_value();
  }
  ET_CHECK_MSG(i < inputs_size(), "Input index out of range: %zu >= %zu", i, inputs_size());
  // As upstream: the caller is taken to fill what it was handed.
  state_->input_set[i] = true;
  return state_->values[state_->plan->inputs()->Get(uint32_t(i))];
}

EValue& Method::mutable_input(size_t i) {
  if (state_ == nullptr) {
    return moved_from_value();
  }
  ET_CHECK_MSG(i < inputs_size(), "Input index out of range: %zu >= %zu", i, inputs_size());
  // As upstream: the caller is taken to fill what it was handed.
  state_->input_set[i] = true;
  return state_->values[state_->plan->inputs()->Get(uint32_t(i))];
}

EValue& Method::mutable_output(size_t i) {
  if (state_ == nullptr) {
    return moved_from_value();
  }
  ET_CHECK_MSG(i < outputs_size(), "Output index out of range: %zu >= %zu", i, outputs_size());
  return state_->values[state_->plan->outputs()->Get(uint32_t(i))];
}

size_t Method::inputs_size() const {
  if (state_ == nullptr) {
    return 0;
  }
  const auto* v = state_->plan->inputs();
  return v == nullptr ? 0 : v->size();
}

size_t Method::outputs_size() const {
  if (state_ == nullptr) {
    return 0;
  }
  const auto* v = state_->plan->outputs();
  return v == nullptr ? 0 : v->size();
}

// A moved-from Method has no plan: its MethodMeta answers as an empty method.
MethodMeta Method::method_meta() const {
  return MethodMeta(state_ == nullptr ? nullptr : state_->plan);
}

Result<Tensor> Method::get_attribute(std::string_view name) {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Method used after being moved from");
  for (size_t i = 0; i < state_->n_values; ++i) {
    const fb::Tensor* ft = fb_tensor(state_, int32_t(i));
    if (ft == nullptr || ft->extra_tensor_info() == nullptr ||
        ft->extra_tensor_info()->fully_qualified_name() == nullptr) {
      continue;
    }
    const auto* fqn = ft->extra_tensor_info()->fully_qualified_name();
    if (name == std::string_view(fqn->c_str(), fqn->size()) && state_->values[i].isTensor()) {
      return state_->values[i].toTensor();
    }
  }
  ET_LOG(Error, "No attribute named '%.*s'", int(name.size()), name.data());
  return Error::NotFound;
}

EventTracer* Method::get_event_tracer() { return state_ == nullptr ? nullptr : state_->tracer; }

} // namespace runtime
} // namespace executorch
