// MethodMeta and TensorInfo, read straight from a validated ExecutionPlan.
#include <executorch/runtime/executor/method_meta.h>

#include <cstring>

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_dimension_limit.h>
#include <executorch/runtime/platform/log.h>

#include "executor/program_validation.h"
#include "program_generated.h"

namespace executorch {
namespace runtime {

namespace fb = executorch_flatbuffer;
using ::executorch::aten::ScalarType;

namespace {

template <typename V>
size_t vsize(const V* v) {
  return v == nullptr ? 0 : v->size();
}

Tag tag_of(fb::KernelTypes t) {
  switch (t) {
    case fb::KernelTypes::Int:
      return Tag::Int;
    case fb::KernelTypes::Bool:
      return Tag::Bool;
    case fb::KernelTypes::Double:
      return Tag::Double;
    case fb::KernelTypes::Tensor:
      return Tag::Tensor;
    case fb::KernelTypes::String:
      return Tag::String;
    case fb::KernelTypes::IntList:
      return Tag::ListInt;
    case fb::KernelTypes::DoubleList:
      return Tag::ListDouble;
    case fb::KernelTypes::BoolList:
      return Tag::ListBool;
    case fb::KernelTypes::TensorList:
      return Tag::ListTensor;
    case fb::KernelTypes::OptionalTensorList:
      return Tag::ListOptionalTensor;
    default:
      return Tag::None;
  }
}

// Named, non-external tensors are the method's attributes.
bool is_attribute(const fb::EValue* ev) {
  if (ev->val_type() != fb::KernelTypes::Tensor) return false;
  const auto* info = ev->val_as_Tensor()->extra_tensor_info();
  return info != nullptr && info->fully_qualified_name() != nullptr &&
         info->location() != fb::TensorDataLocation::EXTERNAL;
}

} // namespace

Result<TensorInfo> TensorInfo::create(Span<const int32_t> sizes, Span<const uint8_t> dim_order,
                                      ScalarType scalar_type, const bool is_memory_planned,
                                      std::string_view name) {
  ET_CHECK_OR_RETURN_ERROR(isValid(scalar_type) && elementSizeOrZero(scalar_type) != 0,
                           InvalidArgument, "TensorInfo: bad dtype %d", int(scalar_type));
  ET_CHECK_OR_RETURN_ERROR(sizes.size() <= kTensorDimensionLimit, InvalidArgument,
                           "TensorInfo: rank %zu over %zu", sizes.size(), kTensorDimensionLimit);
  ET_CHECK_OR_RETURN_ERROR(dim_order.size() == 0 || dim_order.size() == sizes.size(),
                           InvalidArgument, "TensorInfo: %zu dim order entries for rank %zu",
                           dim_order.size(), sizes.size());
  size_t nbytes = elementSizeOrZero(scalar_type);
  for (const int32_t s : sizes) {
    ET_CHECK_OR_RETURN_ERROR(s >= 0 && !__builtin_mul_overflow(nbytes, size_t(s), &nbytes),
                             InvalidArgument, "TensorInfo: bad size %d", int(s));
  }
  return TensorInfo(sizes, dim_order, scalar_type, is_memory_planned, name, nbytes);
}

// A MethodMeta without a plan (a moved-from Method's) reads as an empty
// method: no name, no inputs, outputs, buffers, backends or operators.
const char* MethodMeta::name() const { return s_plan_ == nullptr ? "" : s_plan_->name()->c_str(); }

size_t MethodMeta::num_inputs() const { return s_plan_ == nullptr ? 0 : vsize(s_plan_->inputs()); }
size_t MethodMeta::num_outputs() const {
  return s_plan_ == nullptr ? 0 : vsize(s_plan_->outputs());
}

Result<Tag> MethodMeta::input_tag(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < num_inputs(), InvalidArgument,
                           "Input index %zu out of range (%zu)", index, num_inputs());
  return tag_of(
      s_plan_->values()->Get(uint32_t(s_plan_->inputs()->Get(uint32_t(index))))->val_type());
}

Result<Tag> MethodMeta::output_tag(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < num_outputs(), InvalidArgument,
                           "Output index %zu out of range (%zu)", index, num_outputs());
  return tag_of(
      s_plan_->values()->Get(uint32_t(s_plan_->outputs()->Get(uint32_t(index))))->val_type());
}

// TensorInfo's constructor is private to MethodMeta.
#define ET_TENSOR_INFO_FROM(ev_expr)                                                        \
  const fb::EValue* ev_ = (ev_expr);                                                        \
  ET_CHECK_OR_RETURN_ERROR(ev_->val_type() == fb::KernelTypes::Tensor, InvalidArgument,     \
                           "Value is not a tensor");                                        \
  const fb::Tensor* t_ = ev_->val_as_Tensor();                                              \
  auto nbytes_ = internal::tensor_nbytes(t_);                                               \
  ET_CHECK_OK_OR_RETURN_ERROR(nbytes_.error());                                             \
  const auto* info_ = t_->extra_tensor_info();                                              \
  std::string_view name_;                                                                   \
  if (info_ != nullptr && info_->fully_qualified_name() != nullptr) {                       \
    name_ = std::string_view(info_->fully_qualified_name()->c_str(),                        \
                             info_->fully_qualified_name()->size());                        \
  }                                                                                         \
  return TensorInfo(                                                                        \
      Span<const int32_t>(t_->sizes() ? t_->sizes()->data() : nullptr, vsize(t_->sizes())), \
      Span<const uint8_t>(t_->dim_order() ? t_->dim_order()->data() : nullptr,              \
                          vsize(t_->dim_order())),                                          \
      static_cast<ScalarType>(t_->scalar_type()), t_->allocation_info() != nullptr, name_,  \
      *nbytes_)

Result<TensorInfo> MethodMeta::input_tensor_meta(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < num_inputs(), InvalidArgument,
                           "Input index %zu out of range (%zu)", index, num_inputs());
  ET_TENSOR_INFO_FROM(s_plan_->values()->Get(uint32_t(s_plan_->inputs()->Get(uint32_t(index)))));
}

Result<TensorInfo> MethodMeta::output_tensor_meta(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < num_outputs(), InvalidArgument,
                           "Output index %zu out of range (%zu)", index, num_outputs());
  ET_TENSOR_INFO_FROM(s_plan_->values()->Get(uint32_t(s_plan_->outputs()->Get(uint32_t(index)))));
}

size_t MethodMeta::num_attributes() const {
  size_t n = 0;
  if (s_plan_ == nullptr) {
    return 0;
  }
  for (uint32_t i = 0; i < vsize(s_plan_->values()); ++i) {
    n += is_attribute(s_plan_->values()->Get(i)) ? 1 : 0;
  }
  return n;
}

Result<TensorInfo> MethodMeta::attribute_tensor_meta(size_t index) const {
  size_t seen = 0;
  ET_CHECK_OR_RETURN_ERROR(s_plan_ != nullptr, InvalidState, "MethodMeta has no method");
  for (uint32_t i = 0; i < vsize(s_plan_->values()); ++i) {
    if (is_attribute(s_plan_->values()->Get(i)) && seen++ == index) {
      ET_TENSOR_INFO_FROM(s_plan_->values()->Get(i));
    }
  }
  ET_LOG(Error, "Attribute index %zu out of range", index);
  return Error::InvalidArgument;
}

#undef ET_TENSOR_INFO_FROM

size_t MethodMeta::num_memory_planned_buffers() const {
  const size_t n = s_plan_ == nullptr ? 0 : vsize(s_plan_->non_const_buffer_sizes());
  // Entry 0 is reserved.
  return n == 0 ? 0 : n - 1;
}

Result<int64_t> MethodMeta::memory_planned_buffer_size(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < num_memory_planned_buffers(), InvalidArgument,
                           "Planned buffer %zu out of range (%zu)", index,
                           num_memory_planned_buffers());
  return s_plan_->non_const_buffer_sizes()->Get(uint32_t(index + 1));
}

Result<::executorch::aten::Device> MethodMeta::memory_planned_buffer_device(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < num_memory_planned_buffers(), InvalidArgument,
                           "Planned buffer %zu out of range (%zu)", index,
                           num_memory_planned_buffers());
  const auto* devs = s_plan_->non_const_buffer_device();
  for (uint32_t i = 0; i < vsize(devs); ++i) {
    // buffer_idx counts like memory_id (entry 0 reserved).
    if (devs->Get(i)->buffer_idx() == int32_t(index + 1)) {
      return ::executorch::aten::Device(
          static_cast<::executorch::aten::DeviceType>(devs->Get(i)->device_type()),
          devs->Get(i)->device_index());
    }
  }
  return ::executorch::aten::Device(::executorch::aten::DeviceType::CPU);
}

Result<int64_t> MethodMeta::non_const_buffer_size(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(s_plan_ != nullptr, InvalidState, "MethodMeta has no method");
  // As upstream: the deprecated name of memory_planned_buffer_size().
  return memory_planned_buffer_size(index);
}

bool MethodMeta::uses_backend(const char* backend_name) const {
  if (s_plan_ == nullptr || backend_name == nullptr) {
    return false;
  }
  for (uint32_t i = 0; i < vsize(s_plan_->delegates()); ++i) {
    if (std::strcmp(s_plan_->delegates()->Get(i)->id()->c_str(), backend_name) == 0) {
      return true;
    }
  }
  return false;
}

namespace {
// Index of the n-th distinct backend id, or -1.
int64_t nth_distinct_backend(const fb::ExecutionPlan* plan, size_t n) {
  size_t distinct = 0;
  if (plan == nullptr) {
    return -1;
  }
  for (uint32_t i = 0; i < vsize(plan->delegates()); ++i) {
    const char* id = plan->delegates()->Get(i)->id()->c_str();
    bool seen = false;
    for (uint32_t j = 0; j < i && !seen; ++j) {
      seen = std::strcmp(plan->delegates()->Get(j)->id()->c_str(), id) == 0;
    }
    if (!seen && distinct++ == n) return i;
  }
  return -1;
}
} // namespace

size_t MethodMeta::num_backends() const {
  size_t n = 0;
  while (nth_distinct_backend(s_plan_, n) >= 0) ++n;
  return n;
}

Result<const char*> MethodMeta::get_backend_name(size_t index) const {
  const int64_t i = nth_distinct_backend(s_plan_, index);
  ET_CHECK_OR_RETURN_ERROR(i >= 0, InvalidArgument, "Backend index %zu out of range", index);
  return s_plan_->delegates()->Get(uint32_t(i))->id()->c_str();
}

size_t MethodMeta::num_instructions() const {
  size_t n = 0;
  if (s_plan_ == nullptr) {
    return 0;
  }
  for (uint32_t c = 0; c < vsize(s_plan_->chains()); ++c) {
    n += vsize(s_plan_->chains()->Get(c)->instructions());
  }
  return n;
}

size_t MethodMeta::num_operators() const {
  return s_plan_ == nullptr ? 0 : vsize(s_plan_->operators());
}

Result<const char*> MethodMeta::get_operator_name(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < num_operators(), InvalidArgument,
                           "Operator index %zu out of range", index);
  return s_plan_->operators()->Get(uint32_t(index))->name()->c_str();
}

Result<const char*> MethodMeta::get_operator_overload(size_t index) const {
  ET_CHECK_OR_RETURN_ERROR(index < num_operators(), InvalidArgument,
                           "Operator index %zu out of range", index);
  const auto* ov = s_plan_->operators()->Get(uint32_t(index))->overload();
  return ov == nullptr ? "" : ov->c_str();
}

} // namespace runtime
} // namespace executorch
