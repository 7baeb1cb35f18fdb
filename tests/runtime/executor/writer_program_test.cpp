// Programs built with pte-writer: every instruction kind, delegates through
// a fake backend, constants in both forms, external and mutable data.
#include <cstring>

#include <gtest/gtest.h>

#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/runtime/backend/interface.h>

#include "executor_test_util.h"
#include "pte_writer.h"

using namespace et_test;
using namespace ptewriter;
using ::executorch::extension::BufferDataLoader;
using ::executorch::extension::FlatTensorDataMap;

namespace {

TensorDesc planned_float(std::vector<int32_t> sizes, uint64_t offset) {
  TensorDesc t;
  t.sizes = std::move(sizes);
  t.mem_id = 1;
  t.mem_offset = offset;
  return t;
}

// x + y -> out, all [2] floats planned in one 48-byte buffer.
MethodDesc add_method(const char* name = "forward") {
  MethodDesc m;
  m.name = name;
  int32_t x = m.add_value(ValueDesc::Tensor(planned_float({2}, 0)));
  int32_t y = m.add_value(ValueDesc::Tensor(planned_float({2}, 16)));
  int32_t alpha = m.add_value(ValueDesc::Int(1));
  int32_t out = m.add_value(ValueDesc::Tensor(planned_float({2}, 32)));
  m.inputs = {x, y};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, 48};
  m.add_operator("aten::add", "out");
  m.chains[0].push_back(InstructionDesc::Kernel(0, {x, y, alpha, out, out}));
  return m;
}

struct Harness {
  explicit Harness(const ProgramDesc& desc)
      : bytes(serialize(desc)), loader(bytes.data(), bytes.size()) {}
  std::vector<uint8_t> bytes;
  BufferDataLoader loader;
};

void set_float_input(Method& m, size_t idx, std::vector<float>& data) {
  int32_t sizes[1] = {int32_t(data.size())};
  TensorImpl impl(ScalarType::Float, 1, sizes, data.data());
  ASSERT_EQ(m.set_input(EValue(Tensor(&impl)), idx), Error::Ok);
}

TEST(WriterProgram, KernelCallWithMultipleMethodsAnd24ByteHeader) {
  for (uint32_t header : {0u, 24u, 32u}) {
    ProgramDesc p;
    p.header_length = header;
    p.methods = {add_method("forward"), add_method("other")};
    Harness h(p);
    auto program = Program::load(&h.loader);
    ASSERT_EQ(program.error(), Error::Ok) << header;
    ASSERT_EQ(program->num_methods(), 2u);
    EXPECT_STREQ(program->get_method_name(1).get(), "other");
    EXPECT_EQ(program->get_method_name(2).error(), Error::InvalidArgument);
    auto meta = program->method_meta("other");
    ASSERT_TRUE(meta.ok());
    MethodMemory mem(*meta);
    auto method = program->load_method("other", mem.manager.get(), nullptr, nullptr, nullptr,
                                       test_kernel_span());
    ASSERT_EQ(method.error(), Error::Ok);
    std::vector<float> x{1, 2}, y{10, 20};
    set_float_input(*method, 0, x);
    set_float_input(*method, 1, y);
    ASSERT_EQ(method->execute(), Error::Ok);
    const float* out = method->get_output(0).toTensor().const_data_ptr<float>();
    EXPECT_EQ(out[0], 11);
    EXPECT_EQ(out[1], 22);
    EValue outs[1];
    EXPECT_EQ(method->get_outputs(outs, 1), Error::Ok);
    EXPECT_EQ(method->get_outputs(outs, 0), Error::InvalidArgument);
    EXPECT_TRUE(outs[0].isTensor());
  }
}

TEST(WriterProgram, SetInputChecksTagDtypeAndShape) {
  ProgramDesc p;
  p.methods = {add_method()};
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     test_kernel_span());
  ASSERT_EQ(method.error(), Error::Ok);
  EXPECT_EQ(method->inputs_size(), 2u);
  EXPECT_EQ(method->set_input(EValue(int64_t(3)), 0), Error::InvalidArgument);
  EXPECT_EQ(method->set_input(EValue(int64_t(3)), 7), Error::InvalidArgument);
  int32_t sizes3[1] = {3};
  float d3[3] = {};
  TensorImpl wrong_shape(ScalarType::Float, 1, sizes3, d3);
  EXPECT_NE(method->set_input(EValue(Tensor(&wrong_shape)), 0), Error::Ok);
  int32_t sizes2[1] = {2};
  int32_t i2[2] = {};
  TensorImpl wrong_dtype(ScalarType::Int, 1, sizes2, i2);
  EXPECT_EQ(method->set_input(EValue(Tensor(&wrong_dtype)), 0), Error::InvalidArgument);
  // Planned output: the caller cannot redirect it.
  float buf[2];
  EXPECT_EQ(method->set_output_data_ptr(buf, sizeof(buf), 0), Error::InvalidState);
}

TEST(WriterProgram, ScalarInputsMustEqualTracedValue) {
  ProgramDesc p;
  MethodDesc m = add_method();
  int32_t n = m.add_value(ValueDesc::Int(5));
  m.inputs.push_back(n);
  p.methods = {m};
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     test_kernel_span());
  ASSERT_EQ(method.error(), Error::Ok);
  EXPECT_EQ(method->set_input(EValue(int64_t(5)), 2), Error::Ok);
  EXPECT_EQ(method->set_input(EValue(int64_t(6)), 2), Error::InvalidArgument);
}

TEST(WriterProgram, MissingOperatorFailsLoad) {
  ProgramDesc p;
  MethodDesc m = add_method();
  m.operators[0] = {"aten::definitely_not_here", "out"};
  p.methods = {m};
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get());
  EXPECT_EQ(method.error(), Error::OperatorMissing);
}

TEST(WriterProgram, MoveJumpFalseAndFree) {
  // values: 0 cond Bool(false), 1 x, 2 y, 3 alpha, 4 out, 5 scratch tensor
  ProgramDesc p;
  MethodDesc m = add_method();
  int32_t cond = m.add_value(ValueDesc::Bool(false));
  TensorDesc unplanned;
  unplanned.sizes = {2};
  int32_t moved = m.add_value(ValueDesc::Tensor(unplanned));
  int32_t scratch = m.add_value(ValueDesc::Tensor(planned_float({2}, 0)));
  auto& c = m.chains[0];
  // 0: kernel (out = x + y); 1: jump_false cond -> 3; 2: kernel again
  // (skipped); 3: move out -> moved; 4: free scratch.
  c.push_back(InstructionDesc::JumpFalse(cond, 3));
  c.push_back(InstructionDesc::Kernel(0, {0, 3, 2, 3, 3}));
  c.push_back(InstructionDesc::Move(3, moved));
  c.push_back(InstructionDesc::Free(scratch));
  m.outputs = {3, moved, scratch};
  p.methods = {m};
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  EXPECT_EQ(program->method_meta("forward")->num_instructions(), 5u);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     test_kernel_span());
  ASSERT_EQ(method.error(), Error::Ok);
  std::vector<float> x{1, 2}, y{3, 4};
  set_float_input(*method, 0, x);
  set_float_input(*method, 1, y);
  ASSERT_EQ(method->execute(), Error::Ok);
  // The skipped kernel would have added x again.
  EXPECT_EQ(method->get_output(0).toTensor().const_data_ptr<float>()[0], 4);
  // Moved: the unplanned tensor value now holds the output tensor.
  ASSERT_TRUE(method->get_output(1).isTensor());
  EXPECT_EQ(method->get_output(1).toTensor().const_data_ptr(),
            method->get_output(0).toTensor().const_data_ptr());
  // Freed: the data pointer is gone.
  EXPECT_EQ(method->get_output(2).toTensor().const_data_ptr(), nullptr);
}

TEST(WriterProgram, JumpLoopHitsInstructionCap) {
  ProgramDesc p;
  MethodDesc m;
  int32_t cond = m.add_value(ValueDesc::Bool(false));
  m.chains[0] = {InstructionDesc::JumpFalse(cond, 0)};
  p.methods = {m};
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get());
  ASSERT_EQ(method.error(), Error::Ok);
  EXPECT_EQ(method->execute(), Error::InvalidState);
}

TEST(WriterProgram, ListsStringsAndDoubles) {
  ProgramDesc p;
  MethodDesc m;
  int32_t a = m.add_value(ValueDesc::Int(7));
  int32_t b = m.add_value(ValueDesc::Int(9));
  int32_t il = m.add_value(ValueDesc::IntList({a, b}));
  int32_t dl = m.add_value(ValueDesc::DoubleList({1.5, 2.5}));
  int32_t bl = m.add_value(ValueDesc::BoolList({true, false}));
  int32_t s = m.add_value(ValueDesc::String("hello"));
  int32_t t = m.add_value(ValueDesc::Tensor(planned_float({2}, 0)));
  int32_t tl = m.add_value(ValueDesc::TensorList({t, t}));
  int32_t otl = m.add_value(ValueDesc::OptionalTensorList({t, -1}));
  int32_t d = m.add_value(ValueDesc::Double(0.25));
  m.non_const_buffer_sizes = {0, 16};
  m.outputs = {il, dl, bl, s, tl, otl, d};
  p.methods = {m};
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get());
  ASSERT_EQ(method.error(), Error::Ok);
  auto ints = method->get_output(0).toIntList();
  ASSERT_EQ(ints.size(), 2u);
  EXPECT_EQ(ints[0], 7);
  EXPECT_EQ(ints[1], 9);
  EXPECT_EQ(method->get_output(1).toDoubleList()[1], 2.5);
  EXPECT_TRUE(method->get_output(2).toBoolList()[0]);
  EXPECT_FALSE(method->get_output(2).toBoolList()[1]);
  EXPECT_EQ(method->get_output(3).toString(), "hello");
  EXPECT_EQ(method->get_output(4).toTensorList().size(), 2u);
  auto opt = method->get_output(5).toListOptionalTensor();
  EXPECT_TRUE(opt[0].has_value());
  EXPECT_FALSE(opt[1].has_value());
  EXPECT_EQ(method->get_output(6).toDouble(), 0.25);
  auto meta = program->method_meta("forward");
  EXPECT_EQ(meta->output_tag(0).get(), Tag::ListInt);
  EXPECT_EQ(meta->output_tag(3).get(), Tag::String);
  EXPECT_EQ(meta->output_tensor_meta(0).error(), Error::InvalidArgument);
}

TEST(WriterProgram, ConstantSegmentAndConstantBufferAgree) {
  std::vector<float> c{1, 2, 3, 4};
  for (bool segment : {true, false}) {
    ProgramDesc p;
    MethodDesc m;
    TensorDesc t;
    t.sizes = {4};
    t.data_buffer_idx = 1;
    m.outputs = {m.add_value(ValueDesc::Tensor(t))};
    p.methods = {m};
    if (segment) {
      p.add_constant_segment({bytes_of(c)});
    } else {
      p.header_length = 0;
      p.constant_buffers = {{}, bytes_of(c)};
    }
    Harness h(p);
    auto program = Program::load(&h.loader);
    ASSERT_EQ(program.error(), Error::Ok) << segment;
    auto data = program->get_constant_buffer_data(1, 16);
    ASSERT_TRUE(data.ok());
    EXPECT_EQ(std::memcmp(*data, c.data(), 16), 0);
    EXPECT_EQ(program->get_constant_buffer_data(1, 17).error(), Error::InvalidArgument);
    EXPECT_EQ(program->get_constant_buffer_data(5, 4).error(), Error::InvalidArgument);
    MethodMemory mem(*program->method_meta("forward"));
    auto method = program->load_method("forward", mem.manager.get());
    ASSERT_EQ(method.error(), Error::Ok);
    // Zero-copy: the tensor points into the loader's bytes.
    const void* ptr = method->get_output(0).toTensor().const_data_ptr();
    EXPECT_GE(ptr, static_cast<const void*>(h.bytes.data()));
    EXPECT_LT(ptr, static_cast<const void*>(h.bytes.data() + h.bytes.size()));
    EXPECT_EQ(std::memcmp(ptr, c.data(), 16), 0);
  }
}

TEST(WriterProgram, MutableSegmentIsCopiedIntoPlannedMemory) {
  std::vector<float> init{5, 6};
  ProgramDesc p;
  MethodDesc m;
  TensorDesc t = planned_float({2}, 0);
  t.data_buffer_idx = 1;
  m.outputs = {m.add_value(ValueDesc::Tensor(t))};
  m.non_const_buffer_sizes = {0, 8};
  p.methods = {m};
  p.add_mutable_segment({bytes_of(init)});
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get());
  ASSERT_EQ(method.error(), Error::Ok);
  EXPECT_EQ(std::memcmp(mem.buffers[0].data(), init.data(), 8), 0);
}

TEST(WriterProgram, ExternalTensorsFromPtdAndProgramNamedData) {
  std::vector<float> w{0.5f, 1.5f};
  std::vector<float> v{7, 8};
  auto ptd = serialize_flat_tensor({{"model.weight", int8_t(Dtype::Float), {2}, {}, bytes_of(w)}});
  BufferDataLoader ptd_loader(ptd.data(), ptd.size());
  auto map = FlatTensorDataMap::load(&ptd_loader);
  ASSERT_EQ(map.error(), Error::Ok);
  EXPECT_EQ(map->get_num_keys().get(), 1u);
  EXPECT_STREQ(map->get_key(0).get(), "model.weight");
  EXPECT_EQ(map->get_tensor_layout("model.weight")->nbytes(), 8u);
  EXPECT_EQ(map->get_tensor_layout("nope").error(), Error::NotFound);

  ProgramDesc p;
  MethodDesc m;
  TensorDesc ext;
  ext.sizes = {2};
  ext.has_extra_info = true;
  ext.external = true;
  ext.fqn = "model.weight";
  TensorDesc ext2 = ext;
  ext2.fqn = "inline.blob";
  m.outputs = {m.add_value(ValueDesc::Tensor(ext)), m.add_value(ValueDesc::Tensor(ext2))};
  p.methods = {m};
  p.segments.push_back(bytes_of(v));
  p.named_data = {{"inline.blob", 0}};
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  auto pnd = program->get_named_data_map();
  ASSERT_TRUE(pnd.ok());
  EXPECT_EQ((*pnd)->get_num_keys().get(), 1u);
  {
    // Without the .ptd the first external tensor is missing.
    MethodMemory mem(*program->method_meta("forward"));
    EXPECT_NE(program->load_method("forward", mem.manager.get()).error(), Error::Ok);
  }
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, &map.get());
  ASSERT_EQ(method.error(), Error::Ok);
  EXPECT_EQ(method->get_output(0).toTensor().const_data_ptr<float>()[1], 1.5f);
  EXPECT_EQ(method->get_output(1).toTensor().const_data_ptr<float>()[0], 7.0f);
  // Zero-copy through the buffer loader.
  const void* wp = method->get_output(0).toTensor().const_data_ptr();
  EXPECT_GE(wp, static_cast<const void*>(ptd.data()));
  EXPECT_LT(wp, static_cast<const void*>(ptd.data() + ptd.size()));
}

// --- delegates ---------------------------------------------------------------

struct FakeBackend final : BackendInterface {
  bool available = true;
  int inits = 0, executes = 0, destroys = 0;
  std::string last_blob, last_spec_key, last_method;
  bool is_available() const override { return available; }
  Result<DelegateHandle*> init(BackendInitContext& ctx, FreeableBuffer* processed,
                               ArrayRef<CompileSpec> specs) const override {
    auto* self = const_cast<FakeBackend*>(this);
    self->inits++;
    self->last_blob.assign(static_cast<const char*>(processed->data()), processed->size());
    self->last_spec_key = specs.size() > 0 ? specs[0].key : "";
    self->last_method = ctx.get_method_name() ? ctx.get_method_name() : "";
    return static_cast<DelegateHandle*>(self);
  }
  Error execute(BackendExecutionContext&, DelegateHandle* handle,
                Span<EValue*> args) const override {
    auto* self = static_cast<FakeBackend*>(handle);
    self->executes++;
    // out = in * 2
    const Tensor& in = args[0]->toTensor();
    Tensor& out = args[1]->toTensor();
    for (ssize_t i = 0; i < in.numel(); ++i) {
      out.mutable_data_ptr<float>()[i] = 2 * in.const_data_ptr<float>()[i];
    }
    return Error::Ok;
  }
  void destroy(DelegateHandle* handle) const override {
    static_cast<FakeBackend*>(handle)->destroys++;
  }
};

ProgramDesc delegate_program(const char* backend, bool segment) {
  ProgramDesc p;
  MethodDesc m;
  int32_t in = m.add_value(ValueDesc::Tensor(planned_float({2}, 0)));
  int32_t out = m.add_value(ValueDesc::Tensor(planned_float({2}, 16)));
  m.inputs = {in};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, 32};
  DelegateDesc d;
  d.id = backend;
  d.compile_specs = {{"mode", {1, 2}}};
  std::vector<uint8_t> blob{'b', 'l', 'o', 'b'};
  if (segment) {
    d.location = 1;
    d.index = uint32_t(p.segments.size());
    p.segments.push_back(blob);
  } else {
    d.index = 0;
    p.inline_delegate_data.push_back(blob);
  }
  m.delegates = {d};
  m.chains[0] = {InstructionDesc::Delegate(0, {in, out})};
  p.methods = {m};
  return p;
}

TEST(WriterProgram, DelegateInlineAndSegment) {
  static FakeBackend backend;
  ASSERT_EQ(register_backend(Backend{"ExecutorTestFake", &backend}), Error::Ok);
  for (bool segment : {false, true}) {
    Harness h(delegate_program("ExecutorTestFake", segment));
    auto program = Program::load(&h.loader);
    ASSERT_EQ(program.error(), Error::Ok);
    auto meta = program->method_meta("forward");
    EXPECT_TRUE(meta->uses_backend("ExecutorTestFake"));
    EXPECT_FALSE(meta->uses_backend("Other"));
    EXPECT_EQ(meta->num_backends(), 1u);
    EXPECT_STREQ(meta->get_backend_name(0).get(), "ExecutorTestFake");
    const int destroys = backend.destroys;
    {
      MethodMemory mem(*meta);
      auto method = program->load_method("forward", mem.manager.get());
      ASSERT_EQ(method.error(), Error::Ok);
      EXPECT_EQ(backend.last_blob, "blob");
      EXPECT_EQ(backend.last_spec_key, "mode");
      EXPECT_EQ(backend.last_method, "forward");
      std::vector<float> x{1.5f, -2};
      set_float_input(*method, 0, x);
      ASSERT_EQ(method->execute(), Error::Ok);
      EXPECT_EQ(method->get_output(0).toTensor().const_data_ptr<float>()[1], -4);
    }
    EXPECT_EQ(backend.destroys, destroys + 1);
  }
  backend.available = false;
  Harness h(delegate_program("ExecutorTestFake", false));
  auto program = Program::load(&h.loader);
  MethodMemory mem(*program->method_meta("forward"));
  EXPECT_EQ(program->load_method("forward", mem.manager.get()).error(),
            Error::DelegateInvalidCompatibility);
  EXPECT_EQ(unregister_backend(Backend{"ExecutorTestFake", &backend}), Error::Ok);
}

TEST(WriterProgram, UnregisteredBackendIsNotFound) {
  Harness h(delegate_program("NoSuchBackend", false));
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  EXPECT_EQ(program->load_method("forward", mem.manager.get()).error(), Error::NotFound);
}

TEST(WriterProgram, TooLittleMethodMemoryFailsCleanly) {
  ProgramDesc p;
  p.methods = {add_method()};
  Harness h(p);
  auto program = Program::load(&h.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  for (size_t bytes : {size_t(0), size_t(16), size_t(200), size_t(600)}) {
    MethodMemory mem(*program->method_meta("forward"), bytes);
    EXPECT_EQ(program
                  ->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                test_kernel_span())
                  .error(),
              Error::MemoryAllocationFailed)
        << bytes;
  }
}

} // namespace
