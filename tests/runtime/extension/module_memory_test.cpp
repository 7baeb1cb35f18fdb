// Module's memory bound and lazily committed planned memory (issue 15 item
// 4): a program declaring huge planned buffers either fails before anything
// is allocated (over the limit), or costs only the pages it touches. The
// bounds are asserted from outside the runtime: resident memory, and
// RLIMIT_AS in a child process.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/memory_allocator/memory_budget.h>
#include <executorch/extension/memory_allocator/planned_memory.h>
#include <executorch/extension/module/module.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/runtime.h>

#include "pte_writer.h"

namespace {

using ::executorch::extension::BufferDataLoader;
using ::executorch::extension::HostBuffer;
using ::executorch::extension::MemoryBudget;
using ::executorch::extension::Module;
using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;
using ::executorch::runtime::Kernel;
using ::executorch::runtime::KernelRuntimeContext;
using ::executorch::runtime::Span;
using namespace ptewriter;

// out = x + x over [2] floats; the kernel is given to load_method.
void add_self(KernelRuntimeContext& ctx, Span<EValue*> args) {
  if (args.size() != 5 || !args[0]->isTensor() || !args[3]->isTensor()) {
    return ctx.fail(Error::InvalidArgument);
  }
  const float* x = args[0]->toTensor().const_data_ptr<float>();
  float* out = args[3]->toTensor().mutable_data_ptr<float>();
  for (int i = 0; i < 2; ++i) out[i] = x[i] + x[i];
}

TensorDesc planned_float2(uint32_t mem_id, uint64_t offset) {
  TensorDesc t;
  t.sizes = {2};
  t.mem_id = mem_id;
  t.mem_offset = offset;
  return t;
}

// out = x + x, both in planned buffer 1 of `buffer_bytes`; `extra` more
// buffers of `extra_bytes` that nothing uses.
std::vector<uint8_t> program(int64_t buffer_bytes, size_t extra = 0, int64_t extra_bytes = 0) {
  MethodDesc m;
  int32_t x = m.add_value(ValueDesc::Tensor(planned_float2(1, 0)));
  int32_t alpha = m.add_value(ValueDesc::Int(1));
  int32_t out = m.add_value(ValueDesc::Tensor(planned_float2(1, 64)));
  m.inputs = {x};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, buffer_bytes};
  m.non_const_buffer_sizes.insert(m.non_const_buffer_sizes.end(), extra, extra_bytes);
  m.add_operator("et_test::add_self", "out");
  m.chains[0] = {InstructionDesc::Kernel(0, {x, x, alpha, out, out})};
  ProgramDesc p;
  p.methods = {m};
  return serialize(p);
}

std::unique_ptr<Module> module_of(std::vector<uint8_t>& bytes) {
  return std::make_unique<Module>(std::make_unique<BufferDataLoader>(bytes.data(), bytes.size()));
}

Error load_forward(Module& m) {
  return m.load_method("forward", nullptr, nullptr, nullptr,
                       {Kernel("et_test::add_self.out", add_self)});
}

size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * size_t(::sysconf(_SC_PAGE_SIZE));
}

size_t address_space_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0;
  statm >> pages;
  return pages * size_t(::sysconf(_SC_PAGE_SIZE));
}

// Captures the runtime's error lines.
std::vector<std::string>& log_lines() {
  static std::vector<std::string> lines;
  return lines;
}
void capture(::executorch::runtime::LogLevel level, const char*, const char*, size_t,
             const char* message, size_t length) {
  if (level >= ::executorch::runtime::LogLevel::Error) {
    log_lines().emplace_back(message, length);
  }
}

class ModuleMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    ::executorch::runtime::runtime_init();
    log_lines().clear();
    ::executorch::runtime::set_log_sink(capture);
  }
  void TearDown() override {
    ::executorch::runtime::set_log_sink(nullptr);
    if (HasFailure()) {
      for (const auto& line : log_lines()) std::printf("log: %s\n", line.c_str());
    }
  }
};

TEST_F(ModuleMemory, UntouchedPlannedPagesStayFree) {
  // 1 GiB declared, 80 bytes used: the Module must not zero-fill it.
  auto bytes = program(int64_t(1) << 30);
  auto m = module_of(bytes);
  const size_t before = resident_bytes();
  ASSERT_EQ(load_forward(*m), Error::Ok);
  std::vector<float> x{1, 2};
  int32_t sizes[1] = {2};
  ::executorch::aten::TensorImpl impl(::executorch::aten::ScalarType::Float, 1, sizes, x.data());
  auto out = m->forward(EValue(::executorch::aten::Tensor(&impl)));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].toTensor().const_data_ptr<float>()[1], 4.0f);
  EXPECT_LT(resident_bytes() - before, size_t(64) << 20);
}

TEST_F(ModuleMemory, OverTheLimitFailsBeforeAllocatingAndNamesSizeAndLimit) {
  auto bytes = program(int64_t(3) << 20);
  auto m = module_of(bytes);
  m->set_memory_limit(size_t(1) << 20);
  EXPECT_EQ(m->memory_limit(), size_t(1) << 20);
  EXPECT_EQ(load_forward(*m), Error::MemoryAllocationFailed);
  bool named = false;
  for (const auto& line : log_lines()) {
    named = named || (line.find("planned buffer 0") != std::string::npos &&
                      line.find("3145728") != std::string::npos &&
                      line.find("1048576") != std::string::npos);
  }
  EXPECT_TRUE(named) << "no log line names the buffer, its size and the limit";
  // Raised: the same method loads.
  m->set_memory_limit(size_t(8) << 20);
  EXPECT_EQ(load_forward(*m), Error::Ok);
}

TEST_F(ModuleMemory, ManyHugeBuffersFailFastUnderTheDefaultLimit) {
  // 4096 buffers of 64 MiB: 256 GiB in a few kilobytes of file.
  auto bytes = program(128, 4095, int64_t(64) << 20);
  auto m = module_of(bytes);
  m->set_memory_limit(size_t(16) << 30);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(load_forward(*m), Error::MemoryAllocationFailed);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

// In a child limited to its current address space plus 512 MiB: a 4 GiB
// planned buffer is an Error (the mapping is refused), a 128 MiB one runs.
TEST_F(ModuleMemory, UnderRlimitAsHugeBuffersAreAnErrorNotACrash) {
  for (int64_t declared : {int64_t(4) << 30, int64_t(128) << 20}) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      struct rlimit lim;
      lim.rlim_cur = lim.rlim_max = address_space_bytes() + (size_t(512) << 20);
      if (::setrlimit(RLIMIT_AS, &lim) != 0) ::_exit(3);
      auto bytes = program(declared);
      auto m = module_of(bytes);
      const Error e = load_forward(*m);
      ::_exit(e == Error::Ok ? 0 : e == Error::MemoryAllocationFailed ? 1 : 2);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "child died by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), declared > (int64_t(1) << 30) ? 1 : 0) << declared;
  }
}

TEST(MemoryBudget, ParsesSizesAndChargesAgainstTheLimit) {
  EXPECT_EQ(MemoryBudget::parse_size("4096").get(), 4096u);
  EXPECT_EQ(MemoryBudget::parse_size("64K").get(), size_t(64) << 10);
  EXPECT_EQ(MemoryBudget::parse_size("512m").get(), size_t(512) << 20);
  EXPECT_EQ(MemoryBudget::parse_size("16G").get(), size_t(16) << 30);
  for (const char* bad : {"", "-1", "12Q", "1G5", "99999999999999999999", "20000000T"}) {
    EXPECT_EQ(MemoryBudget::parse_size(bad).error(), Error::InvalidArgument) << bad;
  }
  MemoryBudget budget(100);
  EXPECT_EQ(budget.charge(60, "a"), Error::Ok);
  EXPECT_EQ(budget.charge(41, "b"), Error::MemoryAllocationFailed);
  EXPECT_EQ(budget.used(), 60u);
  {
    auto buffer = HostBuffer::allocate(40, &budget, "c");
    ASSERT_TRUE(buffer.ok());
    EXPECT_EQ(budget.used(), 100u);
    EXPECT_EQ(buffer->data()[39], 0);
  }
  EXPECT_EQ(budget.used(), 60u); // refunded
  EXPECT_EQ(budget.charge(SIZE_MAX, "d"), Error::MemoryAllocationFailed);
}

TEST(MemoryBudget, EnvironmentVariableSetsTheDefault) {
  ::setenv(MemoryBudget::kLimitEnv, "3M", 1);
  EXPECT_EQ(MemoryBudget::default_limit(), size_t(3) << 20);
  ::setenv(MemoryBudget::kLimitEnv, "lots", 1);
  EXPECT_GT(MemoryBudget::default_limit(), size_t(3) << 20); // ignored: physical
  ::unsetenv(MemoryBudget::kLimitEnv);
}

} // namespace
