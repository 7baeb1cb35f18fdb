// Small .pte and .ptd files built straight from the generated FlatBuffers
// builders. They are the writer-built seeds of the fuzz corpora and the
// inputs of the corruption and concurrency tests: each one exercises a
// different part of the reader (planned memory, the extended header and
// constant segments, control flow, every value kind, delegates, named data).
// Test-only code: it never ships.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include "flat_tensor_generated.h"
#include "program_generated.h"

namespace et_fuzz {

namespace fb = ::executorch_flatbuffer;
using Bytes = std::vector<uint8_t>;

// Name of the kernel the concurrency test registers itself; the other seeds
// use the portable kernels' names so that fuzzing reaches them.
constexpr const char* kTestAddOp = "et_fuzz_test::add";
constexpr const char* kTestAddOverload = "out";

inline void put_u32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void put_u64(Bytes& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
inline uint64_t get_u64(const Bytes& b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[at + i];
  return v;
}
inline size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

// Inserts the 32-byte extended header after the root offset and identifier
// (bumping the root offset), then appends the segments, 128-aligned.
inline Bytes with_extended_header(const uint8_t* fbuf, size_t fsize,
                                  const std::vector<Bytes>& segments) {
  constexpr size_t kHeader = 32;
  Bytes out(fbuf, fbuf + 8);
  out.resize(8 + kHeader);
  std::memcpy(&out[8], "eh00", 4);
  put_u32(out, 12, kHeader);
  out.insert(out.end(), fbuf + 8, fbuf + fsize);
  uint32_t root = 0;
  for (int i = 3; i >= 0; --i) root = (root << 8) | fbuf[i];
  put_u32(out, 0, root + static_cast<uint32_t>(kHeader));
  const size_t program_size = out.size();
  const size_t base = align_up(program_size, 128);
  size_t data_size = 0;
  for (const Bytes& s : segments) data_size = align_up(data_size, 128) + s.size();
  out.resize(base, 0);
  for (const Bytes& s : segments) {
    out.resize(align_up(out.size(), 128), 0);
    out.insert(out.end(), s.begin(), s.end());
  }
  put_u64(out, 16, program_size);
  put_u64(out, 24, base);
  put_u64(out, 32, data_size);
  return out;
}

// Offsets of the segments as with_extended_header lays them out.
inline std::vector<std::pair<uint64_t, uint64_t>> segment_table(
    const std::vector<Bytes>& segments) {
  std::vector<std::pair<uint64_t, uint64_t>> t;
  size_t at = 0;
  for (const Bytes& s : segments) {
    at = align_up(at, 128);
    t.emplace_back(at, s.size());
    at += s.size();
  }
  return t;
}

class PlanBuilder {
 public:
  explicit PlanBuilder(flatbuffers::FlatBufferBuilder& fbb) : fbb_(fbb) {}

  // A float tensor in planned buffer mem_id at offset (or unplanned when
  // mem_id is 0); data_buffer_idx > 0 without a plan makes it a constant.
  int tensor(std::vector<int32_t> sizes, uint32_t mem_id, uint32_t offset,
             uint32_t data_buffer_idx = 0, fb::ScalarType dtype = fb::ScalarType::FLOAT,
             const char* external_fqn = nullptr) {
    std::vector<uint8_t> order;
    for (size_t i = 0; i < sizes.size(); ++i) order.push_back(static_cast<uint8_t>(i));
    flatbuffers::Offset<fb::AllocationDetails> alloc = 0;
    if (mem_id != 0) alloc = fb::CreateAllocationDetails(fbb_, mem_id, offset, 0);
    flatbuffers::Offset<fb::ExtraTensorInfo> extra = 0;
    if (external_fqn != nullptr) {
      extra =
          fb::CreateExtraTensorInfoDirect(fbb_, 0, external_fqn, fb::TensorDataLocation::EXTERNAL);
    }
    auto t = fb::CreateTensorDirect(fbb_, dtype, 0, &sizes, &order, false, data_buffer_idx, alloc,
                                    0, fb::TensorShapeDynamism::STATIC, extra);
    return push(fb::KernelTypes::Tensor, t.Union());
  }
  int int_value(int64_t v) { return push(fb::KernelTypes::Int, fb::CreateInt(fbb_, v).Union()); }
  int bool_value(bool v) { return push(fb::KernelTypes::Bool, fb::CreateBool(fbb_, v).Union()); }
  int double_value(double v) {
    return push(fb::KernelTypes::Double, fb::CreateDouble(fbb_, v).Union());
  }
  int null_value() { return push(fb::KernelTypes::Null, fb::CreateNull(fbb_).Union()); }
  int string_value(const char* s) {
    return push(fb::KernelTypes::String, fb::CreateStringDirect(fbb_, s).Union());
  }
  int int_list(std::vector<int64_t> items) {
    return push(fb::KernelTypes::IntList, fb::CreateIntListDirect(fbb_, &items).Union());
  }
  int double_list(std::vector<double> items) {
    return push(fb::KernelTypes::DoubleList, fb::CreateDoubleListDirect(fbb_, &items).Union());
  }
  int bool_list(std::vector<uint8_t> items) {
    return push(fb::KernelTypes::BoolList, fb::CreateBoolListDirect(fbb_, &items).Union());
  }
  int tensor_list(std::vector<int32_t> items) {
    return push(fb::KernelTypes::TensorList, fb::CreateTensorListDirect(fbb_, &items).Union());
  }
  int optional_tensor_list(std::vector<int32_t> items) {
    return push(fb::KernelTypes::OptionalTensorList,
                fb::CreateOptionalTensorListDirect(fbb_, &items).Union());
  }

  int op(const char* name, const char* overload) {
    ops_.push_back(fb::CreateOperatorDirect(fbb_, name, overload));
    return static_cast<int>(ops_.size() - 1);
  }
  void kernel_call(int op_index, std::vector<int32_t> args) {
    instr(fb::InstructionArguments::KernelCall,
          fb::CreateKernelCallDirect(fbb_, op_index, &args).Union());
  }
  void delegate_call(int delegate_index, std::vector<int32_t> args) {
    instr(fb::InstructionArguments::DelegateCall,
          fb::CreateDelegateCallDirect(fbb_, delegate_index, &args).Union());
  }
  void move_call(int from, int to) {
    instr(fb::InstructionArguments::MoveCall, fb::CreateMoveCall(fbb_, from, to).Union());
  }
  void jump_false(int cond, int dest) {
    instr(fb::InstructionArguments::JumpFalseCall,
          fb::CreateJumpFalseCall(fbb_, cond, dest).Union());
  }
  void free_call(int value) {
    instr(fb::InstructionArguments::FreeCall, fb::CreateFreeCall(fbb_, value).Union());
  }
  void delegate(const char* id, fb::DataLocation loc, uint32_t index,
                std::vector<std::pair<std::string, std::string>> specs) {
    std::vector<flatbuffers::Offset<fb::CompileSpec>> cs;
    for (auto& kv : specs) {
      std::vector<uint8_t> v(kv.second.begin(), kv.second.end());
      cs.push_back(fb::CreateCompileSpecDirect(fbb_, kv.first.c_str(), &v));
    }
    auto ref = fb::CreateBackendDelegateDataReference(fbb_, loc, index);
    delegates_.push_back(fb::CreateBackendDelegateDirect(fbb_, id, ref, &cs));
  }

  flatbuffers::Offset<fb::ExecutionPlan> finish(const char* name, std::vector<int32_t> inputs,
                                                std::vector<int32_t> outputs,
                                                std::vector<int64_t> buffer_sizes) {
    std::vector<flatbuffers::Offset<fb::Chain>> chains;
    chains.push_back(fb::CreateChainDirect(fbb_, &inputs, &outputs, &instrs_));
    return fb::CreateExecutionPlanDirect(fbb_, name, 0, &values_, &inputs, &outputs, &chains, &ops_,
                                         &delegates_, &buffer_sizes);
  }

 private:
  int push(fb::KernelTypes type, flatbuffers::Offset<void> v) {
    values_.push_back(fb::CreateEValue(fbb_, type, v));
    return static_cast<int>(values_.size() - 1);
  }
  void instr(fb::InstructionArguments type, flatbuffers::Offset<void> v) {
    instrs_.push_back(fb::CreateInstruction(fbb_, type, v));
  }

  flatbuffers::FlatBufferBuilder& fbb_;
  std::vector<flatbuffers::Offset<fb::EValue>> values_;
  std::vector<flatbuffers::Offset<fb::Instruction>> instrs_;
  std::vector<flatbuffers::Offset<fb::Operator>> ops_;
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates_;
};

inline Bytes finish_program(
    flatbuffers::FlatBufferBuilder& fbb, std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans,
    const std::vector<Bytes>& segments = {},
    std::vector<flatbuffers::Offset<fb::Buffer>> constant_buffer = {},
    std::vector<flatbuffers::Offset<fb::BackendDelegateInlineData>> inline_data = {},
    flatbuffers::Offset<fb::SubsegmentOffsets> constant_segment = 0,
    std::vector<flatbuffers::Offset<fb::NamedData>> named = {}) {
  std::vector<flatbuffers::Offset<fb::DataSegment>> segs;
  for (auto& e : segment_table(segments)) {
    segs.push_back(fb::CreateDataSegment(fbb, e.first, e.second));
  }
  auto prog = fb::CreateProgramDirect(
      fbb, 0, &plans, constant_buffer.empty() ? nullptr : &constant_buffer,
      inline_data.empty() ? nullptr : &inline_data, segs.empty() ? nullptr : &segs,
      constant_segment, nullptr, named.empty() ? nullptr : &named);
  fb::FinishProgramBuffer(fbb, prog);
  if (segments.empty()) {
    return Bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  }
  return with_extended_header(fbb.GetBufferPointer(), fbb.GetSize(), segments);
}

inline Bytes floats(std::initializer_list<float> v) {
  Bytes b(v.size() * sizeof(float));
  std::memcpy(b.data(), v.begin(), b.size());
  return b;
}

// forward(a, b: f32[2,2]) = a + b with planned memory, under op_name.
inline Bytes add_program(const char* op_name = "aten::add", const char* overload = "out") {
  flatbuffers::FlatBufferBuilder fbb;
  PlanBuilder p(fbb);
  int a = p.tensor({2, 2}, 1, 0);
  int b = p.tensor({2, 2}, 1, 16);
  int alpha = p.int_value(1);
  int out = p.tensor({2, 2}, 1, 32);
  int op = p.op(op_name, overload);
  p.kernel_call(op, {a, b, alpha, out, out});
  return finish_program(fbb, {p.finish("forward", {a, b}, {out}, {0, 48})});
}

// Two methods over one program: "forward" = a + b, "twice" = x + x.
// Used by the concurrency test with its own registered kernel.
inline Bytes two_method_program(const char* op_name, const char* overload) {
  flatbuffers::FlatBufferBuilder fbb;
  PlanBuilder p1(fbb);
  int a = p1.tensor({4}, 1, 0);
  int b = p1.tensor({4}, 1, 16);
  int alpha = p1.int_value(1);
  int out = p1.tensor({4}, 1, 32);
  p1.kernel_call(p1.op(op_name, overload), {a, b, alpha, out, out});
  auto m1 = p1.finish("forward", {a, b}, {out}, {0, 48});
  PlanBuilder p2(fbb);
  int x = p2.tensor({8}, 1, 0);
  int alpha2 = p2.int_value(1);
  int y = p2.tensor({8}, 2, 0);
  p2.kernel_call(p2.op(op_name, overload), {x, x, alpha2, y, y});
  auto m2 = p2.finish("twice", {x}, {y}, {0, 32, 32});
  return finish_program(fbb, {m1, m2});
}

// forward(x: f32[4]) = x * c + d with constants in a 128-aligned constant
// segment behind the extended header (offsets[0] is the placeholder).
inline Bytes constant_segment_program() {
  flatbuffers::FlatBufferBuilder fbb;
  PlanBuilder p(fbb);
  int x = p.tensor({4}, 1, 0);
  int c = p.tensor({4}, 0, 0, 1);
  int d = p.tensor({4}, 0, 0, 2);
  int tmp = p.tensor({4}, 1, 16);
  int alpha = p.int_value(1);
  int out = p.tensor({4}, 1, 32);
  p.kernel_call(p.op("aten::mul", "out"), {x, c, tmp, tmp});
  p.kernel_call(p.op("aten::add", "out"), {tmp, d, alpha, out, out});
  auto plan = p.finish("forward", {x}, {out}, {0, 48});
  Bytes seg = floats({3, 3, 3, 3});
  seg.resize(32, 0);
  Bytes dv = floats({2, 2, 2, 2});
  seg.insert(seg.end(), dv.begin(), dv.end());
  std::vector<uint64_t> offs = {0, 0, 32};
  auto cseg = fb::CreateSubsegmentOffsetsDirect(fbb, 0, &offs);
  return finish_program(fbb, {plan}, {seg}, {}, {}, cseg);
}

// Constants in the deprecated Program.constant_buffer.
inline Bytes constant_buffer_program() {
  flatbuffers::FlatBufferBuilder fbb;
  PlanBuilder p(fbb);
  int x = p.tensor({2}, 1, 0);
  int c = p.tensor({2}, 0, 0, 1);
  int alpha = p.int_value(2);
  int out = p.tensor({2}, 1, 16);
  p.kernel_call(p.op("aten::add", "out"), {x, c, alpha, out, out});
  auto plan = p.finish("forward", {x}, {out}, {0, 32});
  std::vector<uint8_t> empty;
  Bytes cv = floats({1.5f, -2.0f});
  std::vector<flatbuffers::Offset<fb::Buffer>> cb = {fb::CreateBufferDirect(fbb, &empty),
                                                     fb::CreateBufferDirect(fbb, &cv)};
  return finish_program(fbb, {plan}, {}, cb);
}

// Every value kind, plus MoveCall, JumpFalseCall and FreeCall.
inline Bytes control_flow_program() {
  flatbuffers::FlatBufferBuilder fbb;
  PlanBuilder p(fbb);
  int x = p.tensor({3}, 1, 0);
  int y = p.tensor({3}, 1, 16);
  int cond = p.bool_value(false);
  int alpha = p.int_value(1);
  p.null_value();
  p.double_value(0.5);
  p.string_value("fuzz");
  int i0 = p.int_value(3);
  p.int_list({i0, i0});
  p.double_list({1.0, 2.0});
  p.bool_list({1, 0, 1});
  p.tensor_list({x, y});
  p.optional_tensor_list({x, -1});
  int op = p.op("aten::add", "out");
  p.jump_false(cond, 2);                  // 0: skips 1
  p.kernel_call(op, {x, x, alpha, y, y}); // 1
  p.move_call(x, y);                      // 2
  p.kernel_call(op, {x, y, alpha, y, y}); // 3
  p.free_call(x);                         // 4
  return finish_program(fbb, {p.finish("forward", {x}, {y}, {0, 32})});
}

// A CudaBackend delegate: processed bytes inline (index 0) and in a segment
// (second method), plus named data for the .so key.
inline Bytes delegate_program() {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans;
  for (int m = 0; m < 2; ++m) {
    PlanBuilder p(fbb);
    int x = p.tensor({2}, 1, 0);
    int y = p.tensor({2}, 1, 16);
    const char* name = m == 0 ? "forward" : "other";
    p.delegate("CudaBackend", m == 0 ? fb::DataLocation::INLINE : fb::DataLocation::SEGMENT, 0,
               {{"method_name", name}, {"target_device", "cuda:0"}});
    p.delegate_call(0, {x, y});
    plans.push_back(p.finish(name, {x}, {y}, {0, 32}));
  }
  std::string keys = "abc_so_blob\nabc_weights_blob";
  std::vector<uint8_t> kv(keys.begin(), keys.end());
  std::vector<flatbuffers::Offset<fb::BackendDelegateInlineData>> inl = {
      fb::CreateBackendDelegateInlineDataDirect(fbb, &kv)};
  std::vector<flatbuffers::Offset<fb::NamedData>> named = {
      fb::CreateNamedDataDirect(fbb, "abc_so_blob", 1)};
  Bytes seg0(kv.begin(), kv.end());
  Bytes seg1 = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  return finish_program(fbb, plans, {seg0, seg1}, {}, inl, 0, named);
}

// A tensor whose data comes by name from a named data map (.ptd).
inline Bytes external_data_program() {
  flatbuffers::FlatBufferBuilder fbb;
  PlanBuilder p(fbb);
  int x = p.tensor({2}, 1, 0);
  int w = p.tensor({2}, 0, 0, 0, fb::ScalarType::FLOAT, "linear.weight");
  int alpha = p.int_value(1);
  int out = p.tensor({2}, 1, 16);
  p.kernel_call(p.op("aten::add", "out"), {x, w, alpha, out, out});
  return finish_program(fbb, {p.finish("forward", {x}, {out}, {0, 32})});
}

// A .ptd (FlatTensor) file with one float tensor per key.
inline Bytes flat_tensor_file(const std::vector<std::pair<std::string, Bytes>>& tensors) {
  namespace ft = ::flat_tensor_flatbuffer;
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<Bytes> segments;
  std::vector<flatbuffers::Offset<ft::NamedData>> named;
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::vector<int32_t> sizes = {static_cast<int32_t>(tensors[i].second.size() / 4)};
    std::vector<uint8_t> order = {0};
    auto layout = ft::CreateTensorLayoutDirect(fbb, fb::ScalarType::FLOAT, &sizes, &order);
    named.push_back(
        ft::CreateNamedDataDirect(fbb, tensors[i].first.c_str(), static_cast<uint32_t>(i), layout));
    segments.push_back(tensors[i].second);
  }
  std::vector<flatbuffers::Offset<ft::DataSegment>> segs;
  for (auto& e : segment_table(segments)) {
    segs.push_back(ft::CreateDataSegment(fbb, e.first, e.second));
  }
  auto root = ft::CreateFlatTensorDirect(fbb, 0, &segs, &named);
  ft::FinishFlatTensorBuffer(fbb, root);
  // Header: root offset and FT01 come from the flatbuffer itself; the
  // flatbuffer (with its own root offset) starts at the padded header (48).
  const uint8_t* f = fbb.GetBufferPointer();
  const size_t fsize = fbb.GetSize();
  Bytes out(48, 0);
  std::memcpy(&out[0], f, 8);
  put_u32(out, 0,
          48 + (static_cast<uint32_t>(f[0]) | f[1] << 8 | f[2] << 16 |
                static_cast<uint32_t>(f[3]) << 24));
  std::memcpy(&out[8], "FH01", 4);
  put_u32(out, 12, 40);
  put_u64(out, 16, 48);
  put_u64(out, 24, fsize);
  out.insert(out.end(), f, f + fsize);
  const size_t base = align_up(out.size(), 128);
  out.resize(base, 0);
  size_t data_size = 0;
  for (const Bytes& s : segments) {
    out.resize(align_up(out.size(), 128), 0);
    out.insert(out.end(), s.begin(), s.end());
    data_size = out.size() - base;
  }
  put_u64(out, 32, base);
  put_u64(out, 40, data_size);
  return out;
}

inline Bytes sample_ptd() {
  return flat_tensor_file(
      {{"linear.weight", floats({0.5f, -1.0f})}, {"abc_weights_blob", floats({1, 2, 3, 4})}});
}

// Every writer-built program, named for the corpus files.
inline std::vector<std::pair<std::string, Bytes>> seed_programs() {
  return {
      {"add", add_program()},
      {"two_methods", two_method_program("aten::add", "out")},
      {"constant_segment", constant_segment_program()},
      {"constant_buffer", constant_buffer_program()},
      {"control_flow", control_flow_program()},
      {"delegate", delegate_program()},
      {"external_data", external_data_program()},
  };
}

} // namespace et_fuzz
