// pte_writer: builds .pte and .ptd files in memory for tests and demos.
// Describe the program with the plain structs below, then serialize(). The
// writer writes exactly what it is given, so tests can also build programs
// that are wrong on purpose (indices out of range, huge sizes, ...).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ptewriter {

// ScalarType codes (as in the schema).
enum class Dtype : int8_t {
  Byte = 0,
  Char = 1,
  Int = 3,
  Long = 4,
  Float = 6,
  Double = 7,
  Bool = 11
};

struct TensorDesc {
  int8_t scalar_type = int8_t(Dtype::Float);
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order; // empty: contiguous
  bool write_dim_order = true;
  int8_t shape_dynamism = 0; // STATIC
  uint32_t data_buffer_idx = 0;
  // Memory planning: mem_id 0 means "not planned".
  uint32_t mem_id = 0;
  uint64_t mem_offset = 0;
  // Extra tensor info (written when has_extra_info).
  bool has_extra_info = false;
  std::string fqn;
  bool external = false;
  int8_t device_type = 0;
  int8_t device_index = 0;
};

struct ValueDesc {
  // KernelTypes code: 0 NONE, 1 Null, 2 Int, 3 Bool, 4 Double, 5 Tensor,
  // 6 String, 7 IntList, 8 DoubleList, 9 BoolList, 10 TensorList,
  // 11 OptionalTensorList. Other codes are written as-is (no payload).
  uint8_t type = 1;
  int64_t i = 0;
  bool b = false;
  double d = 0;
  std::string s;
  std::vector<int64_t> ints; // IntList items (value indices)
  std::vector<double> doubles;
  std::vector<bool> bools;
  std::vector<int32_t> indices; // TensorList / OptionalTensorList items
  TensorDesc tensor;

  static ValueDesc Null();
  static ValueDesc Int(int64_t v);
  static ValueDesc Bool(bool v);
  static ValueDesc Double(double v);
  static ValueDesc String(std::string v);
  static ValueDesc IntList(std::vector<int64_t> value_indices);
  static ValueDesc DoubleList(std::vector<double> v);
  static ValueDesc BoolList(std::vector<bool> v);
  static ValueDesc TensorList(std::vector<int32_t> value_indices);
  static ValueDesc OptionalTensorList(std::vector<int32_t> value_indices);
  static ValueDesc Tensor(TensorDesc t);
};

struct InstructionDesc {
  // InstructionArguments code: 1 KernelCall, 2 DelegateCall, 3 MoveCall,
  // 4 JumpFalseCall, 5 FreeCall.
  uint8_t type = 1;
  int32_t a = 0; // op_index / delegate_index / move_from / cond / value_index
  int32_t b = 0; // move_to / destination_instruction
  std::vector<int32_t> args;

  static InstructionDesc Kernel(int32_t op_index, std::vector<int32_t> args);
  static InstructionDesc Delegate(int32_t delegate_index, std::vector<int32_t> args);
  static InstructionDesc Move(int32_t from, int32_t to);
  static InstructionDesc JumpFalse(int32_t cond, int32_t destination);
  static InstructionDesc Free(int32_t value_index);
};

struct DelegateDesc {
  std::string id;
  uint8_t location = 0; // 0 INLINE (backend_delegate_data), 1 SEGMENT
  uint32_t index = 0;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> compile_specs;
};

struct MethodDesc {
  std::string name = "forward";
  std::vector<ValueDesc> values;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  // Each chain is a list of instructions; most programs have one.
  std::vector<std::vector<InstructionDesc>> chains{{}};
  std::vector<std::pair<std::string, std::string>> operators; // name, overload
  std::vector<DelegateDesc> delegates;
  std::vector<int64_t> non_const_buffer_sizes{0};
  // ExecutionPlan.non_const_buffer_device entries (written when not empty).
  struct BufferDevice {
    int32_t buffer_idx = 1; // like mem_id: 1-based
    int8_t device_type = 0; // 0 CPU, 1 CUDA
    int8_t device_index = 0;
  };
  std::vector<BufferDevice> non_const_buffer_device;

  int32_t add_value(ValueDesc v) {
    values.push_back(std::move(v));
    return int32_t(values.size() - 1);
  }
  int32_t add_operator(std::string name, std::string overload) {
    operators.emplace_back(std::move(name), std::move(overload));
    return int32_t(operators.size() - 1);
  }
};

struct SubsegmentDesc {
  uint32_t segment_index = 0;
  std::vector<uint64_t> offsets;
};

struct ProgramDesc {
  std::vector<MethodDesc> methods;
  std::vector<std::vector<uint8_t>> constant_buffers; // deprecated path
  std::vector<std::vector<uint8_t>> inline_delegate_data;
  std::vector<std::vector<uint8_t>> segments; // raw segment contents
  bool has_constant_segment = false;
  SubsegmentDesc constant_segment;
  std::vector<SubsegmentDesc> mutable_data_segments;
  std::vector<std::pair<std::string, uint32_t>> named_data; // key, segment
  // 0: no extended header (only valid without segments); 24 or 32.
  uint32_t header_length = 32;
  // When set, segment entries use these (offset, size) pairs instead of the
  // real layout (for corrupt-file tests).
  std::vector<std::pair<uint64_t, uint64_t>> segment_table_override;

  // Packs tensors into a new constant segment (offsets[0] is the empty
  // placeholder, each tensor padded to 16) and points constant_segment at
  // it. Tensor k gets data_buffer_idx k + 1.
  void add_constant_segment(const std::vector<std::vector<uint8_t>>& tensors);
  // Same for mutable initial values (mutable_data_segments[0]).
  void add_mutable_segment(const std::vector<std::vector<uint8_t>>& tensors);
};

// The serialized .pte bytes.
std::vector<uint8_t> serialize(const ProgramDesc& program);

// A .ptd file: named tensors with layouts.
struct NamedTensorDesc {
  std::string key;
  int8_t scalar_type = int8_t(Dtype::Float);
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order; // empty: contiguous
  std::vector<uint8_t> data;
  bool has_layout = true;
};
std::vector<uint8_t> serialize_flat_tensor(const std::vector<NamedTensorDesc>& tensors);

// Raw bytes of a value for tests.
template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

} // namespace ptewriter
