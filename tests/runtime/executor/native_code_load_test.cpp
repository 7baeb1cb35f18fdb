// Program::load_method under the native-code policy (native_code_policy.h):
// a CudaBackend delegate (a fake registered under that id) loads normally,
// and is refused with NotSupported, before its backend sees it, when the API
// or EXECUTORCH_REFUSE_NATIVE_CODE says so; other backends still load.
#include <cstdlib>

#include <gtest/gtest.h>

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/native_code_policy.h>

#include "executor_test_util.h"
#include "pte_writer.h"

using namespace et_test;
using namespace ptewriter;
using ::executorch::extension::BufferDataLoader;

namespace {

struct CountingBackend final : BackendInterface {
  mutable int inits = 0;
  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext&, FreeableBuffer*,
                               ArrayRef<CompileSpec>) const override {
    inits++;
    return static_cast<DelegateHandle*>(const_cast<CountingBackend*>(this));
  }
  Error execute(BackendExecutionContext&, DelegateHandle*, Span<EValue*>) const override {
    return Error::Ok;
  }
};

// forward(x: float32[2]) runs one delegate of `backend`.
std::vector<uint8_t> delegate_program(const char* backend) {
  ProgramDesc p;
  MethodDesc m;
  TensorDesc t;
  t.sizes = {2};
  t.mem_id = 1;
  const int32_t in = m.add_value(ValueDesc::Tensor(t));
  t.mem_offset = 16;
  const int32_t out = m.add_value(ValueDesc::Tensor(t));
  m.inputs = {in};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, 32};
  DelegateDesc d;
  d.id = backend;
  d.index = 0;
  p.inline_delegate_data.push_back({'s', 'o'});
  m.delegates = {d};
  m.chains[0] = {InstructionDesc::Delegate(0, {in, out})};
  p.methods = {m};
  return serialize(p);
}

Error load_forward(const char* backend) {
  const std::vector<uint8_t> bytes = delegate_program(backend);
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  if (!program.ok()) {
    return program.error();
  }
  MethodMemory mem(*program->method_meta("forward"));
  return program->load_method("forward", mem.manager.get()).error();
}

class NativeCodeLoad : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(register_backend(Backend{"CudaBackend", &cuda_}), Error::Ok);
    ASSERT_EQ(register_backend(Backend{"NativeCodeTestCpu", &cpu_}), Error::Ok);
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(unregister_backend(Backend{"CudaBackend", &cuda_}), Error::Ok);
    EXPECT_EQ(unregister_backend(Backend{"NativeCodeTestCpu", &cpu_}), Error::Ok);
  }
  void SetUp() override { allow(); }
  void TearDown() override { allow(); }
  static void allow() {
    unsetenv("EXECUTORCH_REFUSE_NATIVE_CODE");
    set_refuse_native_code(false);
  }
  static CountingBackend cuda_, cpu_;
};
CountingBackend NativeCodeLoad::cuda_;
CountingBackend NativeCodeLoad::cpu_;

TEST_F(NativeCodeLoad, CudaDelegateLoadsByDefault) {
  const int inits = cuda_.inits;
  EXPECT_EQ(load_forward("CudaBackend"), Error::Ok);
  EXPECT_EQ(cuda_.inits, inits + 1);
}

TEST_F(NativeCodeLoad, ApiRefusesCudaDelegateBeforeInit) {
  set_refuse_native_code(true);
  const int inits = cuda_.inits;
  EXPECT_EQ(load_forward("CudaBackend"), Error::NotSupported);
  EXPECT_EQ(cuda_.inits, inits);
  // Lifted again: the same program loads.
  set_refuse_native_code(false);
  EXPECT_EQ(load_forward("CudaBackend"), Error::Ok);
}

TEST_F(NativeCodeLoad, EnvironmentRefusesCudaDelegate) {
  setenv("EXECUTORCH_REFUSE_NATIVE_CODE", "1", 1);
  const int inits = cuda_.inits;
  EXPECT_EQ(load_forward("CudaBackend"), Error::NotSupported);
  EXPECT_EQ(cuda_.inits, inits);
  setenv("EXECUTORCH_REFUSE_NATIVE_CODE", "0", 1);
  EXPECT_EQ(load_forward("CudaBackend"), Error::Ok);
}

TEST_F(NativeCodeLoad, OtherBackendsStillLoadWhenRefusing) {
  set_refuse_native_code(true);
  setenv("EXECUTORCH_REFUSE_NATIVE_CODE", "1", 1);
  const int inits = cpu_.inits;
  EXPECT_EQ(load_forward("NativeCodeTestCpu"), Error::Ok);
  EXPECT_EQ(cpu_.inits, inits + 1);
}

TEST_F(NativeCodeLoad, RefusedEvenWhenTheBackendIsMissing) {
  ASSERT_EQ(unregister_backend(Backend{"CudaBackend", &cuda_}), Error::Ok);
  EXPECT_EQ(load_forward("CudaBackend"), Error::NotFound);
  set_refuse_native_code(true);
  EXPECT_EQ(load_forward("CudaBackend"), Error::NotSupported);
  ASSERT_EQ(register_backend(Backend{"CudaBackend", &cuda_}), Error::Ok);
}

} // namespace
