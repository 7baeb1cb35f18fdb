// The programs of tests/data/upstream-programs/ (upstream's C++ test modules
// of test/models/export_program.py, written by upstream's exporter; see the
// README there) through the public API: Program::load + Method with our own
// planned memory, and the extension Module, with and without .ptd files.
// Expected values come from each module's definition, not from the exporter.
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

#include <gtest/gtest.h>

#include "test_files.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::extension::FileDataLoader;
using executorch::extension::FlatTensorDataMap;
using executorch::extension::make_tensor_ptr;
using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::HierarchicalAllocator;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::MemoryManager;
using executorch::runtime::Method;
using executorch::runtime::MethodMeta;
using executorch::runtime::NamedDataMap;
using executorch::runtime::Program;
using executorch::runtime::Result;
using executorch::runtime::Span;
using executorch::runtime::Tag;

namespace {

std::string data(const std::string& name) {
  return et_test::data_path("ET_UPSTREAM_PROGRAMS_DIR", ET_UPSTREAM_PROGRAMS_DIR_DEFAULT, name);
}

std::string hex(Error e) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", static_cast<unsigned>(e));
  return buf;
}

// ModuleLinear's parameters (torch.manual_seed(0), nn.Linear(3, 3)), from
// expected.txt; the output is computed here as W x + b.
constexpr float kLinearWeight[9] = {
    -0.004322517663240433f, 0.3097158372402191f,  -0.4751853346824646f,
    -0.4248946011066437f,   -0.2223689705133438f, 0.15482072532176971f,
    -0.011439144611358643f, 0.45777493715286255f, -0.05123639851808548f};
constexpr float kLinearBias[3] = {0.1527741253376007f, -0.1744827926158905f, -0.11348707973957062f};

std::vector<float> linear_ref(const std::vector<float>& x) {
  std::vector<float> y(3);
  for (int i = 0; i < 3; ++i) {
    y[i] = kLinearBias[i];
    for (int j = 0; j < 3; ++j) y[i] += kLinearWeight[i * 3 + j] * x[j];
  }
  return y;
}

// A program file opened with FileDataLoader, one method loaded into planned
// buffers this test allocates from MethodMeta (zero-filled).
class Loaded {
 public:
  explicit Loaded(const std::string& path) {
    auto l = FileDataLoader::from(path.c_str());
    if (!l.ok()) {
      error = l.error();
      return;
    }
    loader = std::make_unique<FileDataLoader>(std::move(l.get()));
    auto p = Program::load(loader.get());
    if (!p.ok()) {
      error = p.error();
      return;
    }
    program.emplace(std::move(p.get()));
  }

  // Loads the method; returns its error (Error::Ok when loaded).
  Error load(const char* name, const NamedDataMap* data_map = nullptr) {
    if (!program) return error;
    // The old Method lives in the memory about to be reused: destroy it first.
    method.reset();
    auto meta = program->method_meta(name);
    if (!meta.ok()) return meta.error();
    spans.clear();
    buffers.clear();
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      const size_t n = static_cast<size_t>(meta->memory_planned_buffer_size(i).get());
      buffers.push_back(std::make_unique<uint8_t[]>(n)); // value-initialized
      spans.emplace_back(buffers.back().get(), n);
    }
    planned =
        std::make_unique<HierarchicalAllocator>(Span<Span<uint8_t>>(spans.data(), spans.size()));
    pool.assign(256 * 1024, 0);
    allocator = std::make_unique<MemoryAllocator>(pool.size(), pool.data());
    manager = std::make_unique<MemoryManager>(allocator.get(), planned.get());
    auto m = program->load_method(name, manager.get(), nullptr, data_map);
    if (!m.ok()) return m.error();
    method.emplace(std::move(m.get()));
    return Error::Ok;
  }

  Error error = Error::Ok;
  std::unique_ptr<FileDataLoader> loader;
  std::optional<Program> program;
  std::vector<std::unique_ptr<uint8_t[]>> buffers;
  std::vector<Span<uint8_t>> spans;
  std::unique_ptr<HierarchicalAllocator> planned;
  std::vector<uint8_t> pool;
  std::unique_ptr<MemoryAllocator> allocator;
  std::unique_ptr<MemoryManager> manager;
  std::optional<Method> method;
};

// A .ptd file opened as a FlatTensorDataMap.
struct DataFile {
  explicit DataFile(const std::string& path) {
    auto l = FileDataLoader::from(path.c_str());
    if (!l.ok()) return;
    loader = std::make_unique<FileDataLoader>(std::move(l.get()));
    auto m = FlatTensorDataMap::load(loader.get());
    if (m.ok()) map.emplace(std::move(m.get()));
  }
  std::unique_ptr<FileDataLoader> loader;
  std::optional<FlatTensorDataMap> map;
};

std::vector<float> values(const EValue& v) {
  if (!v.isTensor()) return {};
  const Tensor t = v.toTensor();
  if (t.scalar_type() != ScalarType::Float) return {};
  const float* p = t.const_data_ptr<float>();
  return std::vector<float>(p, p + t.numel());
}

std::vector<int> sizes(const EValue& v) {
  if (!v.isTensor()) return {};
  const Tensor t = v.toTensor();
  return std::vector<int>(t.sizes().begin(), t.sizes().end());
}

// Runs `method` of `m` on one float tensor and returns output 0's values.
std::vector<float> run1(Module& m, const std::string& method, std::vector<int> shape,
                        std::vector<float> in) {
  std::vector<executorch::aten::SizesType> s(shape.begin(), shape.end());
  auto t = make_tensor_ptr(s, std::move(in));
  auto out = m.execute(method, {EValue(t)});
  EXPECT_TRUE(out.ok()) << method << ": error " << hex(out.error());
  if (!out.ok() || out->empty()) return {};
  return values((*out)[0]);
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-6f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

class UpstreamPrograms : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { executorch::runtime::runtime_init(); }
};

TEST_F(UpstreamPrograms, EveryProgramPassesFullVerification) {
  // name, number of methods
  const std::pair<const char*, size_t> programs[] = {
      {"ModuleAdd.pte", 1},
      {"ModuleAddHalf.pte", 1},
      {"ModuleAddMul.pte", 1},
      {"ModuleAddMulProgram.pte", 1},
      {"ModuleBasic.pte", 1},
      {"ModuleDynamicCatUnallocatedIO.pte", 1},
      {"ModuleIndex.pte", 1},
      {"ModuleIntBool.pte", 1},
      {"ModuleLinear.pte", 1},
      {"ModuleLinearProgram.pte", 1},
      {"ModuleMultipleEntry.pte", 2},
      {"ModuleNoOp.pte", 1},
      {"ModuleSharedState.pte", 3},
      {"ModuleSimpleTrain.pte", 4}, // forward and three constant methods
      {"ModuleStateful.pte", 1},
  };
  for (const auto& [name, methods] : programs) {
    auto loader = FileDataLoader::from(data(name).c_str());
    ASSERT_TRUE(loader.ok()) << name;
    auto program = Program::load(&loader.get(), Program::Verification::InternalConsistency);
    ASSERT_TRUE(program.ok()) << name << ": " << hex(program.error());
    EXPECT_EQ(program->num_methods(), methods) << name;
    for (size_t i = 0; i < program->num_methods(); ++i) {
      auto method = program->get_method_name(i);
      ASSERT_TRUE(method.ok());
      EXPECT_TRUE(program->method_meta(method.get()).ok()) << name << " " << method.get();
    }
  }
}

// ---------------------------------------------------------------- ModuleAdd

TEST_F(UpstreamPrograms, AddMethodMetaHasTheScalarAlphaInput) {
  Loaded l(data("ModuleAdd.pte"));
  ASSERT_TRUE(l.program.has_value()) << hex(l.error);
  EXPECT_EQ(l.program->num_methods(), 1u);
  auto meta = l.program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  ASSERT_EQ(meta->num_inputs(), 3u);
  EXPECT_EQ(meta->input_tag(0).get(), Tag::Tensor);
  EXPECT_EQ(meta->input_tag(1).get(), Tag::Tensor);
  EXPECT_EQ(meta->input_tag(2).get(), Tag::Double);
  auto x = meta->input_tensor_meta(0);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(x->scalar_type(), ScalarType::Float);
  EXPECT_EQ(x->sizes().size(), 2u);
  EXPECT_EQ(x->nbytes(), 16u);
  EXPECT_EQ(meta->num_outputs(), 1u);
}

TEST_F(UpstreamPrograms, AddRunsThroughMethod) {
  Loaded l(data("ModuleAdd.pte"));
  ASSERT_EQ(l.load("forward"), Error::Ok);
  float a[4] = {1.f, 2.f, -3.f, 0.5f};
  float b[4] = {10.f, -20.f, 0.25f, 4.f};
  Tensor::SizesType s[2] = {2, 2};
  TensorImpl ai(ScalarType::Float, 2, s, a), bi(ScalarType::Float, 2, s, b);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&ai)), 0), Error::Ok);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&bi)), 1), Error::Ok);
  ASSERT_EQ(l.method->set_input(EValue(1.0), 2), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok);
  const EValue& out = l.method->get_output(0);
  EXPECT_EQ(sizes(out), (std::vector<int>{2, 2}));
  // alpha was 1.0 at export: a + 1.0 * b.
  expect_near(values(out), {11.f, -18.f, -2.75f, 4.5f});
}

TEST_F(UpstreamPrograms, AddAlphaIsFixedAtExport) {
  // torch.export specializes a Python float argument: alpha = 1.0 is baked
  // into the graph, and the program records the value it was traced with.
  // Another alpha is refused rather than silently ignored (as upstream's
  // Method::set_input does).
  Loaded l(data("ModuleAdd.pte"));
  ASSERT_EQ(l.load("forward"), Error::Ok);
  EXPECT_EQ(l.method->set_input(EValue(2.0), 2), Error::InvalidArgument);
  EXPECT_EQ(l.method->set_input(EValue(int64_t{1}), 2), Error::InvalidArgument);
}

TEST_F(UpstreamPrograms, AddRunsThroughModule) {
  Module m(data("ModuleAdd.pte"));
  auto x = make_tensor_ptr({2, 2}, {1.f, 2.f, 3.f, 4.f});
  auto y = make_tensor_ptr({2, 2}, {0.5f, 0.5f, -1.f, -8.f});
  auto out = m.forward({EValue(x), EValue(y), EValue(1.0)});
  ASSERT_TRUE(out.ok()) << hex(out.error());
  ASSERT_EQ(out->size(), 1u);
  expect_near(values((*out)[0]), {1.5f, 2.5f, 2.f, -4.f});
  // A shape the program was not planned for: [2, 2] is static.
  auto big = make_tensor_ptr({3, 3}, std::vector<float>(9, 1.f));
  EXPECT_FALSE(m.forward({EValue(big), EValue(big), EValue(1.0)}).ok());
}

TEST_F(UpstreamPrograms, AddHalfAddsInFloat16) {
  using executorch::aten::Half;
  Module m(data("ModuleAddHalf.pte"));
  auto meta = m.method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->input_tensor_meta(0)->scalar_type(), ScalarType::Half);
  auto x =
      make_tensor_ptr({2, 2}, std::vector<Half>{Half(1.f), Half(0.5f), Half(-2.f), Half(1024.f)});
  auto y =
      make_tensor_ptr({2, 2}, std::vector<Half>{Half(2.f), Half(0.25f), Half(0.5f), Half(1.f)});
  auto out = m.forward({EValue(x), EValue(y), EValue(1.0)});
  ASSERT_TRUE(out.ok()) << hex(out.error());
  const Tensor t = (*out)[0].toTensor();
  ASSERT_EQ(t.scalar_type(), ScalarType::Half);
  ASSERT_EQ(t.numel(), 4);
  // Exact in float16: 3, 0.75, -1.5, 1025.
  const float want[4] = {3.f, 0.75f, -1.5f, 1025.f};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(float(t.const_data_ptr<Half>()[i]), want[i]) << i;
}

TEST_F(UpstreamPrograms, IntBoolScalarsAreSpecializedAtExport) {
  // forward(x, y: int, z: bool) = x + y + int(z), traced with y = 1 and
  // z = True: the program takes Int and Bool inputs and computes x + 2.
  Module m(data("ModuleIntBool.pte"));
  auto meta = m.method_meta("forward");
  ASSERT_TRUE(meta.ok());
  ASSERT_EQ(meta->num_inputs(), 3u);
  EXPECT_EQ(meta->input_tag(1).get(), Tag::Int);
  EXPECT_EQ(meta->input_tag(2).get(), Tag::Bool);
  auto x = make_tensor_ptr({1}, std::vector<float>{3.5f});
  auto out = m.forward({EValue(x), EValue(int64_t{1}), EValue(true)});
  ASSERT_TRUE(out.ok()) << hex(out.error());
  expect_near(values((*out)[0]), {5.5f});
  // Other values than the traced ones are refused.
  EXPECT_EQ(m.set_input(EValue(int64_t{2}), 1), Error::InvalidArgument);
  EXPECT_EQ(m.set_input(EValue(false), 2), Error::InvalidArgument);
}

TEST_F(UpstreamPrograms, NoOpReturnsItsInputs) {
  // forward(x, y) = (x, y): no instructions, the outputs are the inputs.
  Loaded l(data("ModuleNoOp.pte"));
  ASSERT_EQ(l.load("forward"), Error::Ok);
  EXPECT_EQ(l.method->outputs_size(), 2u);
  float a[4] = {1, 2, 3, 4}, b[4] = {-1, -2, -3, -4};
  Tensor::SizesType s[2] = {2, 2};
  TensorImpl ai(ScalarType::Float, 2, s, a), bi(ScalarType::Float, 2, s, b);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&ai)), 0), Error::Ok);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&bi)), 1), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok);
  expect_near(values(l.method->get_output(0)), {1, 2, 3, 4});
  expect_near(values(l.method->get_output(1)), {-1, -2, -3, -4});

  Module m(data("ModuleNoOp.pte"));
  auto out = m.forward({EValue(make_tensor_ptr({2, 2}, std::vector<float>{5, 6, 7, 8})),
                        EValue(make_tensor_ptr({2, 2}, std::vector<float>{0, 0, 0, 1}))});
  ASSERT_TRUE(out.ok()) << hex(out.error());
  ASSERT_EQ(out->size(), 2u);
  expect_near(values((*out)[0]), {5, 6, 7, 8});
  expect_near(values((*out)[1]), {0, 0, 0, 1});
}

TEST_F(UpstreamPrograms, BasicSinMax) {
  // sin(x).max() over [100]: aten::sin.out then aten::max.unary_out, a
  // 0-dim result.
  std::vector<float> x(100);
  float want = -2.f;
  for (int i = 0; i < 100; ++i) {
    x[i] = 0.037f * float(i) - 1.9f;
    want = std::max(want, std::sin(x[i]));
  }
  Module m(data("ModuleBasic.pte"));
  auto out = m.forward({EValue(make_tensor_ptr({100}, x))});
  ASSERT_TRUE(out.ok()) << hex(out.error());
  EXPECT_EQ(sizes((*out)[0]), (std::vector<int>{}));
  expect_near(values((*out)[0]), {want}, 1e-6f);
}

// ------------------------------------------------------------- ModuleAddMul

TEST_F(UpstreamPrograms, AddMulWithConstantsInThePte) {
  Loaded l(data("ModuleAddMul.pte"));
  ASSERT_EQ(l.load("forward"), Error::Ok);
  float x[4] = {1.f, 0.f, -1.f, 2.5f};
  Tensor::SizesType s[2] = {2, 2};
  TensorImpl xi(ScalarType::Float, 2, s, x);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok);
  // a = 3, b = 2: 3 * x + 2.
  expect_near(values(l.method->get_output(0)), {5.f, 2.f, -1.f, 9.5f});

  Module m(data("ModuleAddMul.pte"));
  expect_near(run1(m, "forward", {2, 2}, {1.f, 1.f, 1.f, 1.f}), {5.f, 5.f, 5.f, 5.f});
}

TEST_F(UpstreamPrograms, AddMulPtdHoldsTheConstants) {
  DataFile d(data("ModuleAddMulProgram.ptd"));
  ASSERT_TRUE(d.map.has_value());
  auto n = d.map->get_num_keys();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n.get(), 2u); // a and b
  for (uint32_t i = 0; i < n.get(); ++i) {
    auto key = d.map->get_key(i);
    ASSERT_TRUE(key.ok());
    auto layout = d.map->get_tensor_layout(key.get());
    ASSERT_TRUE(layout.ok()) << key.get();
    EXPECT_EQ(layout->scalar_type(), ScalarType::Float);
    EXPECT_EQ(layout->nbytes(), 16u);
    auto buf = d.map->get_data(key.get());
    ASSERT_TRUE(buf.ok());
    const float* f = static_cast<const float*>(buf->data());
    // Each is a constant 2x2 tensor, 3.0 (a) or 2.0 (b).
    EXPECT_TRUE(f[0] == 3.f || f[0] == 2.f) << key.get() << " " << f[0];
    for (int j = 1; j < 4; ++j) EXPECT_EQ(f[j], f[0]);
  }
}

TEST_F(UpstreamPrograms, AddMulProgramRunsWithItsPtdThroughMethod) {
  DataFile d(data("ModuleAddMulProgram.ptd"));
  ASSERT_TRUE(d.map.has_value());
  Loaded l(data("ModuleAddMulProgram.pte"));
  ASSERT_EQ(l.load("forward", &*d.map), Error::Ok);
  float x[4] = {2.f, -2.f, 0.5f, 10.f};
  Tensor::SizesType s[2] = {2, 2};
  TensorImpl xi(ScalarType::Float, 2, s, x);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok);
  expect_near(values(l.method->get_output(0)), {8.f, -4.f, 3.5f, 32.f});
}

TEST_F(UpstreamPrograms, AddMulProgramWithoutItsPtdFailsToLoad) {
  // The constants are only named in the .pte: with no data map, or with a
  // data map that lacks the names, the method must not load.
  Loaded l(data("ModuleAddMulProgram.pte"));
  ASSERT_TRUE(l.program.has_value());
  const Error none = l.load("forward");
  EXPECT_EQ(none, Error::NotFound) << hex(none);
  EXPECT_FALSE(l.method.has_value());

  DataFile other(data("ModuleLinearProgram.ptd"));
  ASSERT_TRUE(other.map.has_value());
  const Error wrong = l.load("forward", &*other.map);
  EXPECT_NE(wrong, Error::Ok);
  EXPECT_EQ(wrong, Error::NotFound) << hex(wrong);
}

TEST_F(UpstreamPrograms, AddMulProgramThroughModuleWithDataPath) {
  Module m(data("ModuleAddMulProgram.pte"), data("ModuleAddMulProgram.ptd"));
  expect_near(run1(m, "forward", {2, 2}, {1.f, 2.f, 3.f, 4.f}), {5.f, 8.f, 11.f, 14.f});

  // The same through the list-of-files constructor and mmap.
  Module files(data("ModuleAddMulProgram.pte"),
               std::vector<std::string>{data("ModuleAddMulProgram.ptd")}, Module::LoadMode::Mmap);
  expect_near(run1(files, "forward", {2, 2}, {0.f, 0.f, 0.f, -1.f}), {2.f, 2.f, 2.f, -1.f});
}

TEST_F(UpstreamPrograms, AddMulProgramThroughModuleWithoutPtdFails) {
  Module m(data("ModuleAddMulProgram.pte"));
  ASSERT_EQ(m.load(), Error::Ok); // the program itself is fine
  const Error e = m.load_method("forward");
  EXPECT_EQ(e, Error::NotFound) << hex(e);
  EXPECT_FALSE(m.is_method_loaded("forward"));
  auto out = m.forward({EValue(make_tensor_ptr({2, 2}, {1.f, 1.f, 1.f, 1.f}))});
  EXPECT_FALSE(out.ok());

  Module missing(data("ModuleAddMulProgram.pte"), data("ModuleAddMulProgram.ptd.missing"));
  EXPECT_EQ(missing.load(), Error::AccessFailed);
}

// ------------------------------------------------------------- ModuleLinear

TEST_F(UpstreamPrograms, LinearWithWeightsInThePte) {
  Module m(data("ModuleLinear.pte"));
  const std::vector<float> x = {1.f, -2.f, 0.5f};
  const auto got = run1(m, "forward", {3}, x);
  expect_near(got, linear_ref(x), 1e-5f);
  // The eager output recorded by the generator (expected.txt).
  expect_near(got, {-0.7085727453231812f, -0.0772290900349617f, -1.0660942792892456f}, 1e-5f);
  const std::vector<float> e0 = {1.f, 0.f, 0.f};
  expect_near(run1(m, "forward", {3}, e0), linear_ref(e0), 1e-6f);
}

TEST_F(UpstreamPrograms, LinearProgramTakesWeightsFromThePtd) {
  DataFile d(data("ModuleLinearProgram.ptd"));
  ASSERT_TRUE(d.map.has_value());
  auto n = d.map->get_num_keys();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n.get(), 2u); // linear.weight and linear.bias

  Module m(data("ModuleLinearProgram.pte"), data("ModuleLinearProgram.ptd"));
  const std::vector<float> x = {0.25f, 4.f, -1.f};
  expect_near(run1(m, "forward", {3}, x), linear_ref(x), 1e-5f);

  Module without(data("ModuleLinearProgram.pte"));
  EXPECT_EQ(without.load_method("forward"), Error::NotFound);
}

// ------------------------------------------------------ ModuleMultipleEntry

TEST_F(UpstreamPrograms, MultipleEntryHasTwoMethods) {
  Module m(data("ModuleMultipleEntry.pte"));
  auto names = m.method_names();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 2u);
  EXPECT_EQ(names->count("forward"), 1u);
  EXPECT_EQ(names->count("forward2"), 1u);
  const std::vector<float> x = {0.f, 1.f, -3.f, 0.5f};
  // forward = x + a, forward2 = x + a + b; a = 3, b = 2.
  expect_near(run1(m, "forward", {2, 2}, x), {3.f, 4.f, 0.f, 3.5f});
  expect_near(run1(m, "forward2", {2, 2}, x), {5.f, 6.f, 2.f, 5.5f});
  // Again, in the other order, with both methods loaded.
  expect_near(run1(m, "forward2", {2, 2}, {1.f, 1.f, 1.f, 1.f}), {6.f, 6.f, 6.f, 6.f});
  expect_near(run1(m, "forward", {2, 2}, {1.f, 1.f, 1.f, 1.f}), {4.f, 4.f, 4.f, 4.f});
  EXPECT_TRUE(m.is_method_loaded("forward"));
  EXPECT_TRUE(m.is_method_loaded("forward2"));
}

TEST_F(UpstreamPrograms, MultipleEntryMethodsLoadSeparately) {
  Loaded l(data("ModuleMultipleEntry.pte"));
  ASSERT_TRUE(l.program.has_value());
  ASSERT_EQ(l.program->num_methods(), 2u);
  ASSERT_EQ(l.load("forward2"), Error::Ok);
  float x[4] = {-5.f, -5.f, 0.f, 1.f};
  Tensor::SizesType s[2] = {2, 2};
  TensorImpl xi(ScalarType::Float, 2, s, x);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok);
  expect_near(values(l.method->get_output(0)), {0.f, 0.f, 5.f, 6.f});
}

// ----------------------------------------------------------- ModuleStateful

TEST_F(UpstreamPrograms, StatefulBufferCountsCallsThroughModule) {
  // The exporter serializes no initial value for a mutated buffer; the
  // zeros come from Module's planned memory, which starts zeroed.
  Module m(data("ModuleStateful.pte"));
  // state starts at 0 and is incremented before it is added: 1, 2, 3...
  for (int call = 1; call <= 4; ++call) {
    expect_near(run1(m, "forward", {1}, {10.f}), {10.f + call});
  }
  // A second Module has its own, fresh state.
  Module other(data("ModuleStateful.pte"));
  expect_near(run1(other, "forward", {1}, {0.5f}), {1.5f});
  expect_near(run1(m, "forward", {1}, {0.f}), {5.f});
}

TEST_F(UpstreamPrograms, StatefulBufferIsPlannedAndNamed) {
  Loaded l(data("ModuleStateful.pte"));
  ASSERT_EQ(l.load("forward"), Error::Ok);
  auto meta = l.program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->num_inputs(), 1u);  // the buffer is not an input
  EXPECT_EQ(meta->num_outputs(), 1u); // nor an output
  float x[1] = {1.f};
  Tensor::SizesType s[1] = {1};
  TensorImpl xi(ScalarType::Float, 1, s, x);
  for (int call = 1; call <= 3; ++call) {
    ASSERT_EQ(l.method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
    ASSERT_EQ(l.method->execute(), Error::Ok);
    expect_near(values(l.method->get_output(0)), {1.f + call});
  }
  // emit_mutable_buffer_names: the buffer is found by its name, "state",
  // an int32 [1] holding the number of calls so far.
  auto state = l.method->get_attribute("state");
  ASSERT_TRUE(state.ok()) << hex(state.error());
  EXPECT_EQ(state->scalar_type(), ScalarType::Int);
  EXPECT_EQ(state->numel(), 1);
  EXPECT_EQ(state->const_data_ptr<int32_t>()[0], 3);
  EXPECT_EQ(l.method->get_attribute("nope").error(), Error::NotFound);
  // Reloading the method starts again from 0.
  ASSERT_EQ(l.load("forward"), Error::Ok);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok);
  expect_near(values(l.method->get_output(0)), {2.f});
}

// -------------------------------------------------------- ModuleSimpleTrain

// loss = cross_entropy(softmax(W x + b), y) with probabilities y, and its
// gradients, by hand: z = W x + b, p = softmax(z), q = softmax(p),
// loss = -sum(y log q); dL/dp = q - y (sum(y) = 1);
// dL/dz = p * (g - p.g); dL/dW = dz x^T, dL/db = dz.
struct TrainRef {
  float loss;
  float grad_w[9];
  float grad_b[3];
};

TrainRef train_ref(const float x[3], const float y[3]) {
  auto softmax = [](const double in[3], double out[3]) {
    const double m = std::max(in[0], std::max(in[1], in[2]));
    double sum = 0;
    for (int i = 0; i < 3; ++i) sum += out[i] = std::exp(in[i] - m);
    for (int i = 0; i < 3; ++i) out[i] /= sum;
  };
  double z[3], p[3], q[3], g[3], dz[3];
  for (int i = 0; i < 3; ++i) {
    z[i] = kLinearBias[i];
    for (int j = 0; j < 3; ++j) z[i] += double(kLinearWeight[i * 3 + j]) * x[j];
  }
  softmax(z, p);
  softmax(p, q);
  TrainRef r{};
  double loss = 0, pg = 0;
  for (int i = 0; i < 3; ++i) {
    loss -= y[i] * std::log(q[i]);
    g[i] = q[i] - y[i];
    pg += p[i] * g[i];
  }
  r.loss = float(loss);
  for (int i = 0; i < 3; ++i) {
    dz[i] = p[i] * (g[i] - pg);
    r.grad_b[i] = float(dz[i]);
    for (int j = 0; j < 3; ++j) r.grad_w[i * 3 + j] = float(dz[i] * x[j]);
  }
  return r;
}

TEST_F(UpstreamPrograms, SimpleTrainJointGraphGivesLossGradientsAndParameters) {
  Module m(data("ModuleSimpleTrain.pte"));
  // The joint graph's layout is told by constant methods: outputs are the
  // loss, then the gradients from index 1, then the parameters from index 3,
  // in the order of the names.
  auto grads_at = m.execute("__et_training_gradients_index_forward");
  ASSERT_TRUE(grads_at.ok()) << hex(grads_at.error());
  ASSERT_EQ(grads_at->size(), 1u);
  EXPECT_EQ((*grads_at)[0].toInt(), 1);
  auto params_at = m.execute("__et_training_parameters_index_forward");
  ASSERT_TRUE(params_at.ok()) << hex(params_at.error());
  EXPECT_EQ((*params_at)[0].toInt(), 3);
  auto fqn = m.execute("__et_training_fqn_forward");
  ASSERT_TRUE(fqn.ok()) << hex(fqn.error());
  ASSERT_EQ(fqn->size(), 2u);
  ASSERT_TRUE((*fqn)[0].isString());
  EXPECT_EQ(std::string((*fqn)[0].toString()), "linear.weight");
  EXPECT_EQ(std::string((*fqn)[1].toString()), "linear.bias");

  const float x[3] = {1.f, -2.f, 0.5f};
  const float y[3] = {1.f, 0.f, 0.f};
  auto out = m.forward({EValue(make_tensor_ptr({3}, std::vector<float>(x, x + 3))),
                        EValue(make_tensor_ptr({3}, std::vector<float>(y, y + 3)))});
  ASSERT_TRUE(out.ok()) << hex(out.error());
  ASSERT_EQ(out->size(), 5u);
  const TrainRef ref = train_ref(x, y);
  EXPECT_EQ(sizes((*out)[0]), (std::vector<int>{}));
  expect_near(values((*out)[0]), {ref.loss}, 1e-5f);
  expect_near(values((*out)[1]), std::vector<float>(ref.grad_w, ref.grad_w + 9), 1e-5f);
  expect_near(values((*out)[2]), std::vector<float>(ref.grad_b, ref.grad_b + 3), 1e-5f);
  expect_near(values((*out)[3]), std::vector<float>(kLinearWeight, kLinearWeight + 9));
  expect_near(values((*out)[4]), std::vector<float>(kLinearBias, kLinearBias + 3));
  // Eager PyTorch's numbers for the same input (expected.txt).
  expect_near(values((*out)[0]), {1.1625878810882568f}, 1e-5f);
  expect_near(values((*out)[2]),
              {-0.21273458003997803f, 0.17105340957641602f, 0.04168117791414261f}, 1e-5f);
}

// -------------------------------------------------------- ModuleSharedState

float scalar(const Result<std::vector<EValue>>& out) {
  EXPECT_TRUE(out.ok()) << hex(out.error());
  if (!out.ok() || out->empty()) return -1e30f;
  const auto v = values((*out)[0]);
  return v.size() == 1 ? v[0] : -1e30f;
}

TEST_F(UpstreamPrograms, SharedStateMethodsShareTheBufferWithSharedArenas) {
  // forward, get_state and set_state all place "state" at the same offset
  // of mem_id 2 (share_mutable_buffers): with shared arenas the methods see
  // one buffer.
  Module m(data("ModuleSharedState.pte"), Module::LoadMode::File, nullptr, nullptr, nullptr,
           /*share_memory_arenas=*/true);
  auto names = m.method_names();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 3u);
  // A TensorPtr (not an EValue, which would outlive it) for each call.
  auto one = [](float v) { return make_tensor_ptr({1}, std::vector<float>{v}); };
  auto set = m.execute("set_state", {EValue(one(5.f))});
  ASSERT_TRUE(set.ok()) << hex(set.error());
  EXPECT_EQ(scalar(m.execute("get_state")), 5.f);
  EXPECT_EQ(scalar(m.forward({EValue(one(1.f))})), 7.f); // state 6, + 1
  EXPECT_EQ(scalar(m.execute("get_state")), 6.f);
  EXPECT_EQ(scalar(m.forward({EValue(one(0.5f))})), 7.5f); // state 7
  ASSERT_TRUE(m.execute("set_state", {EValue(one(-2.f))}).ok());
  EXPECT_EQ(scalar(m.forward({EValue(one(0.f))})), -1.f);
  EXPECT_EQ(scalar(m.execute("get_state")), -1.f);
}

TEST_F(UpstreamPrograms, SharedStateMethodsKeepTheirOwnBufferWithoutSharing) {
  // The exporter keeps no initial value for a mutated buffer (torch.ones is
  // lost); Module's planned memory starts zeroed. Without shared arenas
  // every method has its own state.
  Module m(data("ModuleSharedState.pte"));
  // A TensorPtr (not an EValue, which would outlive it) for each call.
  auto one = [](float v) { return make_tensor_ptr({1}, std::vector<float>{v}); };
  ASSERT_TRUE(m.execute("set_state", {EValue(one(5.f))}).ok());
  EXPECT_EQ(scalar(m.forward({EValue(one(1.f))})), 2.f); // forward's own state: 0 -> 1
  EXPECT_EQ(scalar(m.forward({EValue(one(1.f))})), 3.f);
  EXPECT_EQ(scalar(m.execute("get_state")), 0.f);
}

// -------------------------------------------------------------- ModuleIndex

TEST_F(UpstreamPrograms, IndexWithANoneIndex) {
  // x[1::2, tensor([1, 2])] on [10, 10, 10]: slice_copy gives x[1::2]
  // ([5, 10, 10]), then index.Tensor_out takes the optional-tensor list
  // [None, tensor([1, 2])] (the None is what upstream's module is for). The
  // result is [5, 2, 10] with out[i][j][k] = x[1 + 2i][1 + j][k].
  std::vector<float> x(1000);
  for (int i = 0; i < 1000; ++i) x[i] = static_cast<float>(i);
  Module m(data("ModuleIndex.pte"));
  auto out = m.forward({EValue(make_tensor_ptr({10, 10, 10}, x))});
  ASSERT_TRUE(out.ok()) << hex(out.error());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ(sizes((*out)[0]), (std::vector<int>{5, 2, 10}));
  std::vector<float> want;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 10; ++k)
        want.push_back(static_cast<float>((1 + 2 * i) * 100 + (1 + j) * 10 + k));
  expect_near(values((*out)[0]), want);
}

// ------------------------------------------- ModuleDynamicCatUnallocatedIO

TEST_F(UpstreamPrograms, DynamicCatInputsAndOutputsAreNotPlanned) {
  Loaded l(data("ModuleDynamicCatUnallocatedIO.pte"));
  ASSERT_EQ(l.load("forward"), Error::Ok);
  auto meta = l.program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  auto in = meta->input_tensor_meta(0);
  ASSERT_TRUE(in.ok());
  EXPECT_FALSE(in->is_memory_planned());
  auto out = meta->output_tensor_meta(0);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out->is_memory_planned());

  // k: [2, 4] (dim 0 dynamic, at most 3); cat(k, ones(1, 4)) is [3, 4].
  float k[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Tensor::SizesType ks[2] = {2, 4};
  TensorImpl ki(ScalarType::Float, 2, ks, k);
  float result[16] = {};
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&ki)), 0), Error::Ok);
  ASSERT_EQ(l.method->set_output_data_ptr(result, sizeof result, 0), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok);
  const EValue& o = l.method->get_output(0);
  EXPECT_EQ(sizes(o), (std::vector<int>{3, 4}));
  EXPECT_EQ(o.toTensor().const_data_ptr<float>(), result);
  expect_near(values(o), {1, 2, 3, 4, 5, 6, 7, 8, 1, 1, 1, 1});

  // The upper bound, [3, 4] -> [4, 4], in the same output memory.
  float k3[12] = {0, 0, 0, 0, -1, -1, -1, -1, 9, 9, 9, 9};
  Tensor::SizesType ks3[2] = {3, 4};
  TensorImpl k3i(ScalarType::Float, 2, ks3, k3);
  ASSERT_EQ(l.method->set_input(EValue(Tensor(&k3i)), 0), Error::Ok);
  ASSERT_EQ(l.method->set_output_data_ptr(result, sizeof result, 0), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok);
  EXPECT_EQ(sizes(l.method->get_output(0)), (std::vector<int>{4, 4}));
  expect_near(values(l.method->get_output(0)),
              {0, 0, 0, 0, -1, -1, -1, -1, 9, 9, 9, 9, 1, 1, 1, 1});
}

TEST_F(UpstreamPrograms, DynamicCatRefusesAnInputPastItsBound) {
  Loaded l(data("ModuleDynamicCatUnallocatedIO.pte"));
  ASSERT_EQ(l.load("forward"), Error::Ok);
  std::vector<float> k(16, 1.f);
  Tensor::SizesType ks[2] = {4, 4};
  TensorImpl ki(ScalarType::Float, 2, ks, k.data());
  // Upstream's bounded resize answers NotSupported.
  EXPECT_EQ(l.method->set_input(EValue(Tensor(&ki)), 0), Error::NotSupported);
}

TEST_F(UpstreamPrograms, DynamicCatThroughModule) {
  Module m(data("ModuleDynamicCatUnallocatedIO.pte"));
  float result[16] = {};
  auto out_t = make_tensor_ptr({4, 4}, result, ScalarType::Float);
  // The output has no planned memory: the caller supplies it.
  ASSERT_EQ(m.set_output("forward", EValue(out_t), 0), Error::Ok);
  auto out = m.forward({EValue(make_tensor_ptr({1, 4}, {7.f, 7.f, 7.f, 7.f}))});
  ASSERT_TRUE(out.ok()) << hex(out.error());
  EXPECT_EQ(sizes((*out)[0]), (std::vector<int>{2, 4}));
  expect_near(values((*out)[0]), {7, 7, 7, 7, 1, 1, 1, 1});
  EXPECT_EQ(result[0], 7.f);
}

} // namespace
