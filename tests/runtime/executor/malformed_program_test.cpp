// Malformed programs must fail with an Error, never crash: truncations,
// bit flips, out-of-range indices, bad segments, huge and negative sizes.
#include <cstring>
#include <functional>

#include <gtest/gtest.h>

#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/extension/memory_allocator/planned_memory.h>

#include "executor_test_util.h"
#include "pte_writer.h"

using namespace et_test;
using namespace ptewriter;
using ::executorch::extension::BufferDataLoader;
using ::executorch::extension::FlatTensorDataMap;
using ::executorch::extension::MemoryBudget;
using ::executorch::extension::PlannedMemory;

namespace {

MethodDesc base_method() {
  MethodDesc m;
  TensorDesc x;
  x.sizes = {2};
  x.mem_id = 1;
  TensorDesc out = x;
  out.mem_offset = 16;
  int32_t xi = m.add_value(ValueDesc::Tensor(x));
  int32_t alpha = m.add_value(ValueDesc::Int(1));
  int32_t oi = m.add_value(ValueDesc::Tensor(out));
  m.inputs = {xi};
  m.outputs = {oi};
  m.non_const_buffer_sizes = {0, 32};
  m.add_operator("aten::add", "out");
  m.chains[0] = {InstructionDesc::Kernel(0, {xi, xi, alpha, oi, oi})};
  return m;
}

ProgramDesc base_program() {
  ProgramDesc p;
  p.methods = {base_method()};
  std::vector<float> c{1, 2};
  p.add_constant_segment({bytes_of(c)});
  p.inline_delegate_data.push_back({1, 2, 3});
  return p;
}

// Loads the program and, if that works, loads and runs every method.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
Error load_and_run(const std::vector<uint8_t>& bytes) {
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  if (!program.ok()) return program.error();
  for (size_t i = 0; i < program->num_methods(); ++i) {
    const char* name = program->get_method_name(i).get();
    auto meta = program->method_meta(name);
    if (!meta.ok()) return meta.error();
    // Bounded as a host bounds it: a corrupt size fails with
    // MemoryAllocationFailed before anything is allocated.
    MemoryBudget budget(size_t(64) << 20);
    auto planned = PlannedMemory::for_method(*meta, &budget);
    if (!planned.ok()) return planned.error();
    MethodMemory mem(*meta, 64 * 1024, 4096, (*planned)->allocator());
    auto method = program->load_method(name, mem.manager.get(), nullptr, nullptr, nullptr,
                                       test_kernel_span());
    if (!method.ok()) return method.error();
    // The inputs keep what their planned buffers hold: handed out as they are
    // (get_inputs), as a caller filling them in place does; execute() refuses
    // inputs neither set nor handed out.
    std::vector<EValue> inputs(method->inputs_size());
    if (!inputs.empty()) {
      const Error g = method->get_inputs(inputs.data(), inputs.size());
      if (g != Error::Ok) return g;
    }
    Error e = method->execute();
    if (e != Error::Ok) return e;
  }
  return Error::Ok;
}
#pragma GCC diagnostic pop

Error with_method(std::function<void(MethodDesc&)> edit) {
  ProgramDesc p = base_program();
  edit(p.methods[0]);
  return load_and_run(serialize(p));
}

Error with_program(std::function<void(ProgramDesc&)> edit) {
  ProgramDesc p = base_program();
  edit(p);
  return load_and_run(serialize(p));
}

TEST(Malformed, BaseProgramIsValid) {
  EXPECT_EQ(load_and_run(serialize(base_program())), Error::Ok);
}

TEST(Malformed, TruncatedAtEveryLength) {
  const auto full = serialize(base_program());
  for (size_t n = 0; n < full.size(); ++n) {
    std::vector<uint8_t> cut(full.begin(), full.begin() + n);
    EXPECT_NE(load_and_run(cut), Error::Ok) << "length " << n;
  }
}

TEST(Malformed, TruncatedConformanceFile) {
  const auto full = read_file(conformance_path("add.pte"));
  ASSERT_FALSE(full.empty());
  for (size_t n = 0; n < full.size(); n += 3) {
    std::vector<uint8_t> cut(full.begin(), full.begin() + n);
    EXPECT_NE(load_and_run(cut), Error::Ok) << "length " << n;
  }
}

// Every flip of bits 0, 3 and 7 of every byte: each must return (ASan and
// UBSan report any bad access), never with Error::Internal, and the
// validation must catch a good share of them.
TEST(Malformed, BitFlipsNeverCrash) {
  const std::vector<std::vector<uint8_t>> inputs = {
      serialize(base_program()), read_file(conformance_path("linear_constant_buffer.pte"))};
  for (const auto& full : inputs) {
    ASSERT_FALSE(full.empty()) << "missing " << conformance_path("linear_constant_buffer.pte");
    ASSERT_EQ(load_and_run(full), Error::Ok) << "the unflipped program must run";
    size_t flips = 0, rejected = 0;
    for (size_t i = 0; i < full.size(); ++i) {
      for (int bit : {0, 3, 7}) {
        std::vector<uint8_t> bad = full;
        bad[i] ^= uint8_t(1u << bit);
        const Error e = load_and_run(bad);
        ++flips;
        rejected += e != Error::Ok ? 1 : 0;
        EXPECT_NE(e, Error::Internal) << "byte " << i << " bit " << bit;
      }
    }
    // Flips in offsets, indices, sizes and identifiers are caught; flips in
    // padding and tensor data are not, so about half run.
    EXPECT_GT(rejected, flips / 10) << rejected << " of " << flips << " flips rejected";
  }
}

TEST(Malformed, IndicesOutOfRange) {
  EXPECT_EQ(with_method([](MethodDesc& m) { m.inputs = {99}; }), Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.outputs = {-1}; }), Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.chains[0][0].a = 5; }), Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.chains[0][0].args[1] = 1000; }),
            Error::InvalidProgram);
  EXPECT_EQ(
      with_method([](MethodDesc& m) { m.chains[0].push_back(InstructionDesc::Delegate(0, {0})); }),
      Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.chains[0].push_back(InstructionDesc::Move(0, 50)); }),
            Error::InvalidProgram);
  EXPECT_EQ(
      with_method([](MethodDesc& m) { m.chains[0].push_back(InstructionDesc::JumpFalse(1, 7)); }),
      Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.chains[0].push_back(InstructionDesc::Free(-3)); }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.values[0].tensor.mem_id = 4; }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.values[2].tensor.mem_offset = 30; }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) {
              m.values[0].tensor.mem_id = 0;
              m.values[0].tensor.data_buffer_idx = 9;
            }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) {
              m.add_value(ValueDesc::IntList({0})); // item is a Tensor, not an Int
            }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.add_value(ValueDesc::TensorList({1})); }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) {
              DelegateDesc d;
              d.id = "X";
              d.index = 4;
              m.delegates.push_back(d);
            }),
            Error::InvalidProgram);
  EXPECT_EQ(with_program([](ProgramDesc& p) { p.constant_segment.segment_index = 3; }),
            Error::InvalidProgram);
  EXPECT_EQ(with_program([](ProgramDesc& p) { p.named_data = {{"k", 7}}; }), Error::InvalidProgram);
}

TEST(Malformed, BadSegmentsAndHeader) {
  EXPECT_EQ(with_program([](ProgramDesc& p) {
              p.segment_table_override = {{0, 1u << 30}};
            }),
            Error::InvalidProgram);
  EXPECT_EQ(with_program([](ProgramDesc& p) {
              p.segment_table_override = {{~uint64_t(0) - 4, 16}};
            }),
            Error::InvalidProgram);
  EXPECT_EQ(with_program([](ProgramDesc& p) { p.constant_segment.offsets[1] = 1000; }),
            Error::InvalidProgram);
  // Non-empty segments without an extended header.
  EXPECT_EQ(with_program([](ProgramDesc& p) { p.header_length = 0; }), Error::InvalidProgram);
  auto bytes = serialize(base_program());
  for (size_t field : {16u, 24u, 32u}) {
    auto bad = bytes;
    std::memset(bad.data() + field, 0xff, 8);
    EXPECT_EQ(load_and_run(bad), Error::InvalidProgram) << field;
  }
  auto bad_len = bytes;
  bad_len[12] = 8;
  EXPECT_EQ(load_and_run(bad_len), Error::InvalidProgram);
  auto bad_id = bytes;
  bad_id[5] = 'X';
  EXPECT_EQ(load_and_run(bad_id), Error::InvalidProgram);
}

TEST(Malformed, HugeNegativeAndHighRankSizes) {
  EXPECT_EQ(with_method([](MethodDesc& m) { m.values[0].tensor.sizes = {-1}; }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) {
              m.values[0].tensor.sizes = {1 << 30, 1 << 30, 1 << 30};
            }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.values[0].tensor.sizes.assign(1000, 1); }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.values[0].tensor.dim_order = {3}; }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.values[0].tensor.scalar_type = 99; }),
            Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) {
              m.non_const_buffer_sizes = {0, -32};
            }),
            Error::InvalidProgram);
}

TEST(Malformed, BadUnionTypes) {
  EXPECT_EQ(with_method([](MethodDesc& m) { m.values[1].type = 42; }), Error::InvalidProgram);
  EXPECT_EQ(with_method([](MethodDesc& m) { m.chains[0][0].type = 9; }), Error::InvalidProgram);
  // A Tensor tag with no payload.
  EXPECT_EQ(with_method([](MethodDesc& m) {
              m.values[1].type = 0;
              m.values[1].type = 5;
              m.values[1].tensor.scalar_type = -1;
            }),
            Error::InvalidProgram);
}

TEST(Malformed, FreeOfNonTensorFailsAtRun) {
  EXPECT_EQ(with_method([](MethodDesc& m) { m.chains[0].push_back(InstructionDesc::Free(1)); }),
            Error::InvalidProgram);
}

TEST(Malformed, JumpFalseOnNonBoolFailsAtRun) {
  EXPECT_EQ(
      with_method([](MethodDesc& m) { m.chains[0].push_back(InstructionDesc::JumpFalse(1, 0)); }),
      Error::InvalidProgram);
}

TEST(Malformed, PtdFiles) {
  std::vector<float> w{1, 2};
  auto good = serialize_flat_tensor({{"w", int8_t(Dtype::Float), {2}, {}, bytes_of(w)}});
  {
    BufferDataLoader l(good.data(), good.size());
    ASSERT_EQ(FlatTensorDataMap::load(&l).error(), Error::Ok);
  }
  for (size_t n = 0; n < good.size(); n += 5) {
    BufferDataLoader l(good.data(), n);
    auto map = FlatTensorDataMap::load(&l);
    if (map.ok()) {
      // A cut inside the segments is only caught on access.
      EXPECT_NE(map->get_data("w").error(), Error::Ok) << n;
    }
  }
  for (size_t field : {16u, 24u, 32u, 40u}) {
    auto bad = good;
    std::memset(bad.data() + field, 0xff, 8);
    BufferDataLoader l(bad.data(), bad.size());
    EXPECT_NE(FlatTensorDataMap::load(&l).error(), Error::Ok) << field;
  }
  auto bad_rank = serialize_flat_tensor(
      {{"w", int8_t(Dtype::Float), std::vector<int32_t>(100, 1), {}, bytes_of(w)}});
  BufferDataLoader l(bad_rank.data(), bad_rank.size());
  EXPECT_EQ(FlatTensorDataMap::load(&l).error(), Error::InvalidExternalData);
}

} // namespace
