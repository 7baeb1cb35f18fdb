// MethodMeta and TensorInfo: what a method needs and returns, read from the
// program without loading the method.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/core/tag.h>
#include <executorch/runtime/platform/export.h>

// Generated FlatBuffers type; users never touch it.
namespace executorch_flatbuffer {
struct ExecutionPlan;
struct Tensor;
} // namespace executorch_flatbuffer

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

namespace testing {
// Upstream's tests build TensorInfos through this friend (TensorInfo::create).
class TensorInfoTestFriend;
} // namespace testing

class EXECUTORCH_API TensorInfo final {
 public:
  TensorInfo() = delete;
  Span<const int32_t> sizes() const { return sizes_; }
  Span<const uint8_t> dim_order() const { return dim_order_; }
  ::executorch::aten::ScalarType scalar_type() const { return scalar_type_; }
  bool is_memory_planned() const { return is_memory_planned_; }
  size_t nbytes() const { return nbytes_; }
  std::string_view name() const { return name_; }

 private:
  friend class MethodMeta;
  friend class testing::TensorInfoTestFriend;

  // A TensorInfo over the caller's sizes and dim order (which must outlive
  // it), its nbytes computed from them. InvalidArgument for a negative size,
  // an unknown dtype, more than 16 dimensions, a dim order of another length
  // or a byte count that overflows.
  static Result<TensorInfo> create(Span<const int32_t> sizes, Span<const uint8_t> dim_order,
                                   ::executorch::aten::ScalarType scalar_type,
                                   const bool is_memory_planned, std::string_view name);

  TensorInfo(Span<const int32_t> sizes, Span<const uint8_t> dim_order,
             ::executorch::aten::ScalarType scalar_type, bool is_memory_planned,
             std::string_view name, size_t nbytes)
      : sizes_(sizes),
        dim_order_(dim_order),
        name_(name),
        scalar_type_(scalar_type),
        is_memory_planned_(is_memory_planned),
        nbytes_(nbytes) {}

  Span<const int32_t> sizes_;
  Span<const uint8_t> dim_order_;
  std::string_view name_;
  ::executorch::aten::ScalarType scalar_type_;
  bool is_memory_planned_;
  size_t nbytes_;
};

class EXECUTORCH_API MethodMeta final {
 public:
  MethodMeta() = delete;

  const char* name() const;
  size_t num_inputs() const;
  Result<Tag> input_tag(size_t index) const;
  Result<TensorInfo> input_tensor_meta(size_t index) const;
  size_t num_outputs() const;
  Result<Tag> output_tag(size_t index) const;
  Result<TensorInfo> output_tensor_meta(size_t index) const;
  size_t num_attributes() const;
  Result<TensorInfo> attribute_tensor_meta(size_t index) const;
  // Planned buffers the caller must supply, indexed from 0 (mem_id - 1).
  size_t num_memory_planned_buffers() const;
  Result<int64_t> memory_planned_buffer_size(size_t index) const;
  Result<::executorch::aten::Device> memory_planned_buffer_device(size_t index) const;
  bool uses_backend(const char* backend_name) const;
  size_t num_backends() const;
  Result<const char*> get_backend_name(size_t index) const;
  size_t num_instructions() const;

  // Operators the method calls, as "name.overload" would be printed.
  size_t num_operators() const;
  Result<const char*> get_operator_name(size_t index) const;
  Result<const char*> get_operator_overload(size_t index) const;

  // The deprecated names of num_memory_planned_buffers() and
  // memory_planned_buffer_size(), as upstream's (same indexes, same sizes).
  ET_DEPRECATED size_t num_non_const_buffers() const { return num_memory_planned_buffers(); }
  Result<int64_t> non_const_buffer_size(size_t index) const;

 private:
  friend class Program;
  friend class Method;
  explicit MethodMeta(const executorch_flatbuffer::ExecutionPlan* plan) : s_plan_(plan) {}
  const executorch_flatbuffer::ExecutionPlan* s_plan_;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::ET_RUNTIME_NAMESPACE::MethodMeta;
using ::executorch::ET_RUNTIME_NAMESPACE::TensorInfo;
} // namespace executor
} // namespace torch
