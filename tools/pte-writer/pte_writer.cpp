// Serializes ProgramDesc with the generated FlatBuffers builders, then adds
// the extended header and the segments the way upstream lays them out.
#include "pte_writer.h"

#include <cstring>

#include "program_generated.h"

namespace ptewriter {

namespace fb = executorch_flatbuffer;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

ValueDesc ValueDesc::Null() { return ValueDesc{}; }
ValueDesc ValueDesc::Int(int64_t v) {
  ValueDesc d;
  d.type = 2;
  d.i = v;
  return d;
}
ValueDesc ValueDesc::Bool(bool v) {
  ValueDesc d;
  d.type = 3;
  d.b = v;
  return d;
}
ValueDesc ValueDesc::Double(double v) {
  ValueDesc d;
  d.type = 4;
  d.d = v;
  return d;
}
ValueDesc ValueDesc::String(std::string v) {
  ValueDesc d;
  d.type = 6;
  d.s = std::move(v);
  return d;
}
ValueDesc ValueDesc::IntList(std::vector<int64_t> v) {
  ValueDesc d;
  d.type = 7;
  d.ints = std::move(v);
  return d;
}
ValueDesc ValueDesc::DoubleList(std::vector<double> v) {
  ValueDesc d;
  d.type = 8;
  d.doubles = std::move(v);
  return d;
}
ValueDesc ValueDesc::BoolList(std::vector<bool> v) {
  ValueDesc d;
  d.type = 9;
  d.bools = std::move(v);
  return d;
}
ValueDesc ValueDesc::TensorList(std::vector<int32_t> v) {
  ValueDesc d;
  d.type = 10;
  d.indices = std::move(v);
  return d;
}
ValueDesc ValueDesc::OptionalTensorList(std::vector<int32_t> v) {
  ValueDesc d;
  d.type = 11;
  d.indices = std::move(v);
  return d;
}
ValueDesc ValueDesc::Tensor(TensorDesc t) {
  ValueDesc d;
  d.type = 5;
  d.tensor = std::move(t);
  return d;
}

InstructionDesc InstructionDesc::Kernel(int32_t op, std::vector<int32_t> args) {
  return InstructionDesc{1, op, 0, std::move(args)};
}
InstructionDesc InstructionDesc::Delegate(int32_t idx, std::vector<int32_t> args) {
  return InstructionDesc{2, idx, 0, std::move(args)};
}
InstructionDesc InstructionDesc::Move(int32_t from, int32_t to) {
  return InstructionDesc{3, from, to, {}};
}
InstructionDesc InstructionDesc::JumpFalse(int32_t cond, int32_t dest) {
  return InstructionDesc{4, cond, dest, {}};
}
InstructionDesc InstructionDesc::Free(int32_t v) { return InstructionDesc{5, v, 0, {}}; }

namespace {

size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

// Concatenates blobs, each padded to 16; offsets[0] is the empty placeholder.
std::vector<uint8_t> pack(const std::vector<std::vector<uint8_t>>& tensors,
                          std::vector<uint64_t>* offsets) {
  std::vector<uint8_t> out;
  offsets->assign(1, 0);
  for (const auto& t : tensors) {
    offsets->push_back(out.size());
    out.insert(out.end(), t.begin(), t.end());
    out.resize(align_up(out.size(), 16), 0);
  }
  return out;
}

Offset<fb::Tensor> write_tensor(FlatBufferBuilder& b, const TensorDesc& t) {
  std::vector<uint8_t> dim_order = t.dim_order;
  if (dim_order.empty()) {
    for (size_t i = 0; i < t.sizes.size(); ++i) dim_order.push_back(uint8_t(i));
  }
  auto sizes = b.CreateVector(t.sizes);
  auto order = t.write_dim_order ? b.CreateVector(dim_order) : 0;
  Offset<fb::AllocationDetails> alloc = 0;
  if (t.mem_id != 0) {
    alloc = fb::CreateAllocationDetails(b, t.mem_id, uint32_t(t.mem_offset),
                                        uint32_t(t.mem_offset >> 32));
  }
  Offset<fb::ExtraTensorInfo> extra = 0;
  if (t.has_extra_info) {
    auto fqn = t.fqn.empty() ? 0 : b.CreateString(t.fqn);
    extra = fb::CreateExtraTensorInfo(
        b, 0, fqn, t.external ? fb::TensorDataLocation::EXTERNAL : fb::TensorDataLocation::SEGMENT,
        fb::DeviceType(t.device_type), t.device_index);
  }
  return fb::CreateTensor(b, fb::ScalarType(t.scalar_type), 0, sizes, order, false,
                          t.data_buffer_idx, alloc, 0, fb::TensorShapeDynamism(t.shape_dynamism),
                          extra);
}

Offset<fb::EValue> write_value(FlatBufferBuilder& b, const ValueDesc& v) {
  Offset<void> val = 0;
  switch (v.type) {
    case 1:
      val = fb::CreateNull(b).Union();
      break;
    case 2:
      val = fb::CreateInt(b, v.i).Union();
      break;
    case 3:
      val = fb::CreateBool(b, v.b).Union();
      break;
    case 4:
      val = fb::CreateDouble(b, v.d).Union();
      break;
    case 5:
      val = write_tensor(b, v.tensor).Union();
      break;
    case 6:
      val = fb::CreateString(b, b.CreateString(v.s)).Union();
      break;
    case 7:
      val = fb::CreateIntList(b, b.CreateVector(v.ints)).Union();
      break;
    case 8:
      val = fb::CreateDoubleList(b, b.CreateVector(v.doubles)).Union();
      break;
    case 9: {
      std::vector<uint8_t> bytes(v.bools.begin(), v.bools.end());
      val = fb::CreateBoolList(b, b.CreateVector(bytes)).Union();
      break;
    }
    case 10:
      val = fb::CreateTensorList(b, b.CreateVector(v.indices)).Union();
      break;
    case 11:
      val = fb::CreateOptionalTensorList(b, b.CreateVector(v.indices)).Union();
      break;
    default:
      break;
  }
  return fb::CreateEValue(b, fb::KernelTypes(v.type), val);
}

Offset<fb::Instruction> write_instruction(FlatBufferBuilder& b, const InstructionDesc& in) {
  Offset<void> args = 0;
  switch (in.type) {
    case 1:
      args = fb::CreateKernelCall(b, in.a, b.CreateVector(in.args)).Union();
      break;
    case 2:
      args = fb::CreateDelegateCall(b, in.a, b.CreateVector(in.args)).Union();
      break;
    case 3:
      args = fb::CreateMoveCall(b, in.a, in.b).Union();
      break;
    case 4:
      args = fb::CreateJumpFalseCall(b, in.a, in.b).Union();
      break;
    case 5:
      args = fb::CreateFreeCall(b, in.a).Union();
      break;
    default:
      break;
  }
  return fb::CreateInstruction(b, fb::InstructionArguments(in.type), args);
}

Offset<fb::ExecutionPlan> write_method(FlatBufferBuilder& b, const MethodDesc& m) {
  std::vector<Offset<fb::EValue>> values;
  for (const auto& v : m.values) values.push_back(write_value(b, v));
  std::vector<Offset<fb::Chain>> chains;
  for (const auto& chain : m.chains) {
    std::vector<Offset<fb::Instruction>> instrs;
    for (const auto& in : chain) instrs.push_back(write_instruction(b, in));
    chains.push_back(fb::CreateChain(b, b.CreateVector(m.inputs), b.CreateVector(m.outputs),
                                     b.CreateVector(instrs)));
  }
  std::vector<Offset<fb::Operator>> ops;
  for (const auto& op : m.operators) {
    ops.push_back(fb::CreateOperator(b, b.CreateString(op.first), b.CreateString(op.second)));
  }
  std::vector<Offset<fb::BackendDelegate>> delegates;
  for (const auto& d : m.delegates) {
    std::vector<Offset<fb::CompileSpec>> specs;
    for (const auto& s : d.compile_specs) {
      specs.push_back(fb::CreateCompileSpec(b, b.CreateString(s.first), b.CreateVector(s.second)));
    }
    auto ref = fb::CreateBackendDelegateDataReference(b, fb::DataLocation(d.location), d.index);
    delegates.push_back(
        fb::CreateBackendDelegate(b, b.CreateString(d.id), ref, b.CreateVector(specs)));
  }
  Offset<flatbuffers::Vector<Offset<fb::NonConstBufferDevice>>> devices = 0;
  if (!m.non_const_buffer_device.empty()) {
    std::vector<Offset<fb::NonConstBufferDevice>> ds;
    for (const auto& d : m.non_const_buffer_device) {
      ds.push_back(fb::CreateNonConstBufferDevice(b, d.buffer_idx, fb::DeviceType(d.device_type),
                                                  d.device_index));
    }
    devices = b.CreateVector(ds);
  }
  return fb::CreateExecutionPlan(
      b, b.CreateString(m.name), 0, b.CreateVector(values), b.CreateVector(m.inputs),
      b.CreateVector(m.outputs), b.CreateVector(chains), b.CreateVector(ops),
      b.CreateVector(delegates), b.CreateVector(m.non_const_buffer_sizes), devices);
}

void put_le(std::vector<uint8_t>& out, size_t at, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) out[at + i] = uint8_t(v >> (8 * i));
}

// Segments are laid out back to back, each aligned to 128.
std::vector<std::pair<uint64_t, uint64_t>> segment_layout(const ProgramDesc& p, size_t* total) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  size_t at = 0;
  for (const auto& s : p.segments) {
    out.emplace_back(at, s.size());
    at = align_up(at + s.size(), 128);
  }
  *total = at;
  return out;
}

} // namespace

void ProgramDesc::add_constant_segment(const std::vector<std::vector<uint8_t>>& tensors) {
  has_constant_segment = true;
  constant_segment.segment_index = uint32_t(segments.size());
  segments.push_back(pack(tensors, &constant_segment.offsets));
}

void ProgramDesc::add_mutable_segment(const std::vector<std::vector<uint8_t>>& tensors) {
  SubsegmentDesc sub;
  sub.segment_index = uint32_t(segments.size());
  segments.push_back(pack(tensors, &sub.offsets));
  mutable_data_segments.push_back(std::move(sub));
}

std::vector<uint8_t> serialize(const ProgramDesc& p) {
  FlatBufferBuilder b(1024);
  std::vector<Offset<fb::ExecutionPlan>> plans;
  for (const auto& m : p.methods) plans.push_back(write_method(b, m));
  std::vector<Offset<fb::Buffer>> cbufs;
  for (const auto& c : p.constant_buffers) cbufs.push_back(fb::CreateBufferDirect(b, &c));
  std::vector<Offset<fb::BackendDelegateInlineData>> inl;
  for (const auto& d : p.inline_delegate_data) {
    inl.push_back(fb::CreateBackendDelegateInlineDataDirect(b, &d));
  }
  size_t seg_total = 0;
  auto layout = segment_layout(p, &seg_total);
  if (!p.segment_table_override.empty()) layout = p.segment_table_override;
  std::vector<Offset<fb::DataSegment>> segs;
  for (const auto& s : layout) segs.push_back(fb::CreateDataSegment(b, s.first, s.second));
  Offset<fb::SubsegmentOffsets> cseg = 0;
  if (p.has_constant_segment) {
    cseg = fb::CreateSubsegmentOffsets(b, p.constant_segment.segment_index,
                                       b.CreateVector(p.constant_segment.offsets));
  }
  std::vector<Offset<fb::SubsegmentOffsets>> mseg;
  for (const auto& m : p.mutable_data_segments) {
    mseg.push_back(fb::CreateSubsegmentOffsets(b, m.segment_index, b.CreateVector(m.offsets)));
  }
  std::vector<Offset<fb::NamedData>> named;
  for (const auto& n : p.named_data) {
    named.push_back(fb::CreateNamedData(b, b.CreateString(n.first), n.second));
  }
  auto root = fb::CreateProgram(
      b, 0, b.CreateVector(plans), cbufs.empty() ? 0 : b.CreateVector(cbufs),
      inl.empty() ? 0 : b.CreateVector(inl), segs.empty() ? 0 : b.CreateVector(segs), cseg,
      mseg.empty() ? 0 : b.CreateVector(mseg), named.empty() ? 0 : b.CreateVector(named));
  b.Finish(root, fb::ProgramIdentifier());
  std::vector<uint8_t> flat(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  if (p.header_length == 0) {
    return flat;
  }
  // Insert the header after root offset + identifier. Everything after it
  // moves by a multiple of 16, so only the root offset needs fixing.
  const size_t inserted = align_up(p.header_length, 16);
  std::vector<uint8_t> out(flat.begin(), flat.begin() + 8);
  out.resize(8 + inserted, 0);
  out.insert(out.end(), flat.begin() + 8, flat.end());
  uint32_t root_off = 0;
  std::memcpy(&root_off, flat.data(), 4);
  put_le(out, 0, root_off + inserted, 4);
  std::memcpy(out.data() + 8, "eh00", 4);
  put_le(out, 12, p.header_length, 4);
  const size_t program_size = out.size();
  const size_t base = align_up(program_size, 128);
  put_le(out, 16, program_size, 8);
  put_le(out, 24, base, 8);
  if (p.header_length >= 32) put_le(out, 32, seg_total, 8);
  out.resize(base, 0);
  size_t at = 0;
  for (const auto& s : p.segments) {
    out.resize(base + at, 0);
    out.insert(out.end(), s.begin(), s.end());
    at = align_up(at + s.size(), 128);
  }
  out.resize(base + seg_total, 0);
  return out;
}

} // namespace ptewriter
