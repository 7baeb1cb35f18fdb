// Portable kernels run from real programs: each test builds a .pte with
// pte-writer whose instructions call upstream operator names with the
// out-variant argument layout (schema args including out, then the return
// value: several returned tensors as one TensorList; int lists are IntLists
// of Int value indices), loads it with
// Program::load + load_method (planned memory from MethodMeta), executes it
// through the registered portable kernels and compares the outputs with
// values derived here independently (exact, or double-precision formulas,
// 1e-5 relative for float32). Each family also has a program with a wrong
// dtype whose execute() must return an Error.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/executor/program.h>

#include "../executor/executor_test_util.h"
#include "pte_writer.h"

namespace {

using namespace ::executorch::runtime;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;
using ::executorch::extension::BufferDataLoader;
using ptewriter::Dtype;
using ptewriter::InstructionDesc;
using ptewriter::MethodDesc;
using ptewriter::ProgramDesc;
using ptewriter::TensorDesc;
using ptewriter::ValueDesc;

size_t elem_size(Dtype d) {
  switch (d) {
    case Dtype::Byte:
    case Dtype::Char:
    case Dtype::Bool:
      return 1;
    case Dtype::Int:
    case Dtype::Float:
      return 4;
    case Dtype::Long:
    case Dtype::Double:
      return 8;
  }
  return 8;
}

// A method under construction: every tensor is planned in buffer 1.
struct Prog {
  MethodDesc m;
  uint64_t off = 0;

  int32_t tensor(Dtype dt, std::vector<int32_t> sizes) {
    TensorDesc d;
    d.scalar_type = int8_t(dt);
    size_t n = elem_size(dt);
    for (int32_t s : sizes) n *= size_t(s);
    d.sizes = std::move(sizes);
    d.mem_id = 1;
    d.mem_offset = off;
    off += (n + 15) / 16 * 16 + 16;
    return m.add_value(ValueDesc::Tensor(d));
  }
  int32_t input(Dtype dt, std::vector<int32_t> sizes) {
    const int32_t v = tensor(dt, std::move(sizes));
    m.inputs.push_back(v);
    return v;
  }
  int32_t output(Dtype dt, std::vector<int32_t> sizes) {
    const int32_t v = tensor(dt, std::move(sizes));
    m.outputs.push_back(v);
    return v;
  }
  int32_t i(int64_t v) { return m.add_value(ValueDesc::Int(v)); }
  int32_t b(bool v) { return m.add_value(ValueDesc::Bool(v)); }
  int32_t d(double v) { return m.add_value(ValueDesc::Double(v)); }
  int32_t none() { return m.add_value(ValueDesc::Null()); }
  int32_t str(const char* s) { return m.add_value(ValueDesc::String(s)); }
  // Upstream wire format: the list holds value indices of Int EValues.
  int32_t ints(std::vector<int64_t> v) {
    std::vector<int64_t> idx;
    for (int64_t x : v) idx.push_back(i(x));
    return m.add_value(ValueDesc::IntList(idx));
  }
  int32_t tensors(std::vector<int32_t> idx) { return m.add_value(ValueDesc::TensorList(idx)); }
  void call(const std::string& op, const std::string& overload, std::vector<int32_t> args) {
    int32_t k = -1;
    for (size_t j = 0; j < m.operators.size(); ++j) {
      if (m.operators[j].first == op && m.operators[j].second == overload) k = int32_t(j);
    }
    if (k < 0) k = m.add_operator(op, overload);
    m.chains[0].push_back(InstructionDesc::Kernel(k, std::move(args)));
  }
};

struct In {
  ScalarType t;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> bytes;
};
In f32(std::vector<int32_t> s, const std::vector<float>& v) {
  return {ScalarType::Float, std::move(s), ptewriter::bytes_of(v)};
}
In i64(std::vector<int32_t> s, const std::vector<int64_t>& v) {
  return {ScalarType::Long, std::move(s), ptewriter::bytes_of(v)};
}
In i32(std::vector<int32_t> s, const std::vector<int32_t>& v) {
  return {ScalarType::Int, std::move(s), ptewriter::bytes_of(v)};
}
In boolean(std::vector<int32_t> s, const std::vector<uint8_t>& v) {
  return {ScalarType::Bool, std::move(s), v};
}

struct Out {
  bool is_tensor = false;
  ScalarType t = ScalarType::Undefined;
  std::vector<int32_t> shape;
  std::vector<double> v;
  int64_t i = 0;
};
struct Ran {
  bool loaded = false;
  Error exec = Error::Internal;
  std::vector<Out> outs;
};

double load_elem(const Tensor& t, size_t k) {
  const void* p = t.const_data_ptr();
  switch (t.scalar_type()) {
    case ScalarType::Float:
      return static_cast<const float*>(p)[k];
    case ScalarType::Double:
      return static_cast<const double*>(p)[k];
    case ScalarType::Int:
      return static_cast<const int32_t*>(p)[k];
    case ScalarType::Long:
      return double(static_cast<const int64_t*>(p)[k]);
    case ScalarType::Bool:
      return static_cast<const bool*>(p)[k] ? 1 : 0;
    default:
      return NAN;
  }
}

// Serializes, loads, sets the inputs, executes and copies the outputs out.
Ran run(Prog& p, const std::vector<In>& ins) {
  Ran r;
  p.m.non_const_buffer_sizes = {0, int64_t(p.off)};
  ProgramDesc desc;
  desc.methods = {p.m};
  const std::vector<uint8_t> bytes = ptewriter::serialize(desc);
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  if (!program.ok()) {
    ADD_FAILURE() << "Program::load: " << int(program.error());
    return r;
  }
  auto meta = program->method_meta("forward");
  if (!meta.ok()) {
    ADD_FAILURE() << "method_meta: " << int(meta.error());
    return r;
  }
  EXPECT_EQ(meta->num_memory_planned_buffers(), 1u);
  // Kernels such as convolution take scratch from the temp allocator.
  et_test::MethodMemory mem(*meta, 256 * 1024, 64 * 1024);
  auto method = program->load_method("forward", mem.manager.get());
  if (!method.ok()) {
    ADD_FAILURE() << "load_method: " << int(method.error());
    return r;
  }
  if (method->inputs_size() != ins.size()) {
    ADD_FAILURE() << "inputs_size " << method->inputs_size();
    return r;
  }
  for (size_t k = 0; k < ins.size(); ++k) {
    std::vector<int32_t> sizes = ins[k].sizes;
    std::vector<uint8_t> data = ins[k].bytes;
    TensorImpl impl(ins[k].t, ssize_t(sizes.size()), sizes.data(), data.data());
    const Error e = method->set_input(EValue(Tensor(&impl)), k);
    if (e != Error::Ok) {
      ADD_FAILURE() << "set_input " << k << ": " << int(e);
      return r;
    }
  }
  r.loaded = true;
  r.exec = method->execute();
  if (r.exec != Error::Ok) return r;
  for (size_t k = 0; k < method->outputs_size(); ++k) {
    const EValue& v = method->get_output(k);
    Out o;
    if (v.isTensor()) {
      const Tensor& t = v.toTensor();
      o.is_tensor = true;
      o.t = t.scalar_type();
      o.shape.assign(t.sizes().begin(), t.sizes().end());
      for (ssize_t j = 0; j < t.numel(); ++j) o.v.push_back(load_elem(t, size_t(j)));
    } else if (v.isInt()) {
      o.i = v.toInt();
    }
    r.outs.push_back(std::move(o));
  }
  return r;
}

// Expects a failed execute() (the program loads; the kernel rejects it).
void expect_exec_error(Prog& p, const std::vector<In>& ins) {
  const Ran r = run(p, ins);
  ASSERT_TRUE(r.loaded);
  EXPECT_NE(r.exec, Error::Ok);
  EXPECT_EQ(r.exec, Error::InvalidArgument);
}

void expect_close(const Out& o, const std::vector<int32_t>& shape, const std::vector<double>& want,
                  const char* what) {
  ASSERT_TRUE(o.is_tensor) << what;
  EXPECT_EQ(o.t, ScalarType::Float) << what;
  EXPECT_EQ(o.shape, shape) << what;
  ASSERT_EQ(o.v.size(), want.size()) << what;
  for (size_t k = 0; k < want.size(); ++k) {
    const double tol = std::max(1e-5 * std::fabs(want[k]), 1e-6);
    EXPECT_NEAR(o.v[k], want[k], tol) << what << " at " << k;
  }
}

void expect_exact(const Out& o, ScalarType t, const std::vector<int32_t>& shape,
                  const std::vector<double>& want, const char* what) {
  ASSERT_TRUE(o.is_tensor) << what;
  EXPECT_EQ(o.t, t) << what;
  EXPECT_EQ(o.shape, shape) << what;
  EXPECT_EQ(o.v, want) << what;
}

std::vector<float> seq(size_t n, double scale = 1, double shift = 0) {
  std::vector<float> v;
  for (size_t k = 0; k < n; ++k) v.push_back(float(double(k) * scale + shift));
  return v;
}

// ---- binary elementwise ---------------------------------------------------

TEST(KernelPrograms, BinaryBroadcastAndAlpha) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 3});
  const int32_t y = p.input(Dtype::Float, {3});
  const int32_t c = p.input(Dtype::Float, {2, 1});
  const int32_t add = p.output(Dtype::Float, {2, 3});
  const int32_t sub = p.output(Dtype::Float, {2, 3});
  const int32_t mul = p.output(Dtype::Float, {2, 3});
  const int32_t div = p.output(Dtype::Float, {2, 3});
  p.call("aten::add", "out", {x, y, p.i(2), add, add});
  p.call("aten::sub", "out", {x, c, p.d(0.5), sub, sub});
  p.call("aten::mul", "out", {x, y, mul, mul});
  p.call("aten::div", "out", {y, c, div, div});
  const std::vector<float> xv{1, 2, 3, 4, 5, 6}, yv{10, 20, 30}, cv{2, 4};
  const Ran r = run(p, {f32({2, 3}, xv), f32({3}, yv), f32({2, 1}, cv)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 4u);
  std::vector<double> wa, ws, wm, wd;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double xx = xv[i * 3 + j], yy = yv[j], cc = cv[i];
      wa.push_back(xx + 2 * yy);
      ws.push_back(xx - 0.5 * cc);
      wm.push_back(xx * yy);
      wd.push_back(yy / cc);
    }
  }
  expect_close(r.outs[0], {2, 3}, wa, "add");
  expect_close(r.outs[1], {2, 3}, ws, "sub");
  expect_close(r.outs[2], {2, 3}, wm, "mul");
  expect_close(r.outs[3], {2, 3}, wd, "div");
}

TEST(KernelPrograms, BinaryWrongOutDtypeFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {3});
  const int32_t y = p.input(Dtype::Float, {3});
  const int32_t out = p.output(Dtype::Int, {3}); // float result into int32
  p.call("aten::add", "out", {x, y, p.i(1), out, out});
  expect_exec_error(p, {f32({3}, {1, 2, 3}), f32({3}, {4, 5, 6})});
}

// ---- matmul family ----------------------------------------------------------

TEST(KernelPrograms, MmAddmmLinearBmm) {
  Prog p;
  const int32_t a = p.input(Dtype::Float, {2, 3});
  const int32_t b = p.input(Dtype::Float, {3, 4});
  const int32_t bias = p.input(Dtype::Float, {4});
  const int32_t w = p.input(Dtype::Float, {4, 3});
  const int32_t pa = p.input(Dtype::Float, {2, 2, 3});
  const int32_t qb = p.input(Dtype::Float, {2, 3, 2});
  const int32_t mm = p.output(Dtype::Float, {2, 4});
  const int32_t addmm = p.output(Dtype::Float, {2, 4});
  const int32_t lin = p.output(Dtype::Float, {2, 4});
  const int32_t bmm = p.output(Dtype::Float, {2, 2, 2});
  p.call("aten::mm", "out", {a, b, mm, mm});
  p.call("aten::addmm", "out", {bias, a, b, p.d(0.5), p.i(2), addmm, addmm});
  p.call("aten::linear", "out", {a, w, bias, lin, lin});
  p.call("aten::bmm", "out", {pa, qb, bmm, bmm});
  const auto av = seq(6, 1, 1), bv = seq(12, 0.5, -1), wv = seq(12, 0.25, -1), pv = seq(12, 1, -5),
             qv = seq(12, 0.5);
  const std::vector<float> biasv{1, -1, 2, -2};
  const Ran r = run(p, {f32({2, 3}, av), f32({3, 4}, bv), f32({4}, biasv), f32({4, 3}, wv),
                        f32({2, 2, 3}, pv), f32({2, 3, 2}, qv)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 4u);
  std::vector<double> wmm, waddmm, wlin, wbmm;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      double s = 0, l = 0;
      for (int k = 0; k < 3; ++k) {
        s += double(av[i * 3 + k]) * bv[k * 4 + j];
        l += double(av[i * 3 + k]) * wv[j * 3 + k];
      }
      wmm.push_back(s);
      waddmm.push_back(0.5 * biasv[j] + 2 * s);
      wlin.push_back(l + biasv[j]);
    }
  }
  for (int n = 0; n < 2; ++n) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        double s = 0;
        for (int k = 0; k < 3; ++k) s += double(pv[n * 6 + i * 3 + k]) * qv[n * 6 + k * 2 + j];
        wbmm.push_back(s);
      }
    }
  }
  expect_close(r.outs[0], {2, 4}, wmm, "mm");
  expect_close(r.outs[1], {2, 4}, waddmm, "addmm");
  expect_close(r.outs[2], {2, 4}, wlin, "linear");
  expect_close(r.outs[3], {2, 2, 2}, wbmm, "bmm");
}

TEST(KernelPrograms, MmMixedDtypeFails) {
  Prog p;
  const int32_t a = p.input(Dtype::Float, {2, 2});
  const int32_t b = p.input(Dtype::Int, {2, 2});
  const int32_t out = p.output(Dtype::Float, {2, 2});
  p.call("aten::mm", "out", {a, b, out, out});
  expect_exec_error(p, {f32({2, 2}, {1, 2, 3, 4}), i32({2, 2}, {1, 0, 0, 1})});
}

// ---- activations ---------------------------------------------------------------

TEST(KernelPrograms, Activations) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {8});
  std::vector<int32_t> outs;
  for (int k = 0; k < 6; ++k) outs.push_back(p.output(Dtype::Float, {8}));
  p.call("aten::relu", "out", {x, outs[0], outs[0]});
  p.call("aten::gelu", "out", {x, p.str("none"), outs[1], outs[1]});
  p.call("aten::gelu", "out", {x, p.str("tanh"), outs[2], outs[2]});
  p.call("aten::sigmoid", "out", {x, outs[3], outs[3]});
  p.call("aten::tanh", "out", {x, outs[4], outs[4]});
  p.call("aten::silu", "out", {x, outs[5], outs[5]});
  const std::vector<float> xv{-3, -1.5f, -0.5f, 0, 0.25f, 1, 2, 4};
  const Ran r = run(p, {f32({8}, xv)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 6u);
  std::vector<double> w[6];
  const double k = std::sqrt(2.0 / M_PI);
  for (float f : xv) {
    const double v = f;
    w[0].push_back(v > 0 ? v : 0);
    w[1].push_back(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
    w[2].push_back(0.5 * v * (1 + std::tanh(k * (v + 0.044715 * v * v * v))));
    w[3].push_back(1 / (1 + std::exp(-v)));
    w[4].push_back(std::tanh(v));
    w[5].push_back(v / (1 + std::exp(-v)));
  }
  const char* names[6] = {"relu", "gelu", "gelu_tanh", "sigmoid", "tanh", "silu"};
  for (int j = 0; j < 6; ++j) expect_close(r.outs[size_t(j)], {8}, w[j], names[j]);
}

TEST(KernelPrograms, GeluIntegerInputFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Int, {3});
  const int32_t out = p.output(Dtype::Int, {3});
  p.call("aten::gelu", "out", {x, p.str("none"), out, out});
  expect_exec_error(p, {i32({3}, {-1, 0, 1})});
}

// ---- softmax ---------------------------------------------------------------------

TEST(KernelPrograms, SoftmaxAndLogSoftmax) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 3});
  const int32_t sm = p.output(Dtype::Float, {2, 3});
  const int32_t lsm = p.output(Dtype::Float, {2, 3});
  p.call("aten::_softmax", "out", {x, p.i(1), p.b(false), sm, sm});
  p.call("aten::_log_softmax", "out", {x, p.i(0), p.b(false), lsm, lsm});
  const std::vector<float> xv{1, 2, 3, -1, 0, 5};
  const Ran r = run(p, {f32({2, 3}, xv)});
  ASSERT_EQ(r.exec, Error::Ok);
  std::vector<double> wsm(6), wlsm(6);
  for (int i = 0; i < 2; ++i) { // softmax over dim 1
    double s = 0;
    for (int j = 0; j < 3; ++j) s += std::exp(double(xv[i * 3 + j]));
    for (int j = 0; j < 3; ++j) wsm[i * 3 + j] = std::exp(double(xv[i * 3 + j])) / s;
  }
  for (int j = 0; j < 3; ++j) { // log_softmax over dim 0
    const double lse = std::log(std::exp(double(xv[j])) + std::exp(double(xv[3 + j])));
    for (int i = 0; i < 2; ++i) wlsm[i * 3 + j] = xv[i * 3 + j] - lse;
  }
  expect_close(r.outs[0], {2, 3}, wsm, "softmax");
  expect_close(r.outs[1], {2, 3}, wlsm, "log_softmax");
}

TEST(KernelPrograms, SoftmaxIntegerInputFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Long, {3});
  const int32_t out = p.output(Dtype::Long, {3});
  p.call("aten::_softmax", "out", {x, p.i(0), p.b(false), out, out});
  expect_exec_error(p, {i64({3}, {1, 2, 3})});
}

// ---- layer norm --------------------------------------------------------------------

TEST(KernelPrograms, NativeLayerNormThreeOutputs) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 4});
  const int32_t w = p.input(Dtype::Float, {4});
  const int32_t b = p.input(Dtype::Float, {4});
  const int32_t o0 = p.output(Dtype::Float, {2, 4});
  const int32_t o1 = p.output(Dtype::Float, {2, 1});
  const int32_t o2 = p.output(Dtype::Float, {2, 1});
  p.call("aten::native_layer_norm", "out",
         {x, p.ints({4}), w, b, p.d(1e-5), o0, o1, o2, p.tensors({o0, o1, o2})});
  const std::vector<float> xv{1, 2, 3, 4, -2, 0, 1, 9}, wv{1, 0.5f, 2, -1}, bv{0, 1, -1, 0.5f};
  const Ran r = run(p, {f32({2, 4}, xv), f32({4}, wv), f32({4}, bv)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 3u);
  std::vector<double> wy, wmean, wrstd;
  for (int i = 0; i < 2; ++i) {
    double mean = 0, var = 0;
    for (int j = 0; j < 4; ++j) mean += xv[i * 4 + j] / 4.0;
    for (int j = 0; j < 4; ++j) var += (xv[i * 4 + j] - mean) * (xv[i * 4 + j] - mean) / 4.0;
    const double rstd = 1 / std::sqrt(var + 1e-5);
    for (int j = 0; j < 4; ++j) wy.push_back((xv[i * 4 + j] - mean) * rstd * wv[j] + bv[j]);
    wmean.push_back(mean);
    wrstd.push_back(rstd);
  }
  // Row 0: mean 2.5, var 1.25 (hand check).
  EXPECT_DOUBLE_EQ(wmean[0], 2.5);
  expect_close(r.outs[0], {2, 4}, wy, "layer_norm out");
  expect_close(r.outs[1], {2, 1}, wmean, "layer_norm mean");
  expect_close(r.outs[2], {2, 1}, wrstd, "layer_norm rstd");
}

TEST(KernelPrograms, LayerNormIntegerWeightFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {1, 2});
  const int32_t w = p.input(Dtype::Int, {2});
  const int32_t o0 = p.output(Dtype::Float, {1, 2});
  const int32_t o1 = p.output(Dtype::Float, {1, 1});
  const int32_t o2 = p.output(Dtype::Float, {1, 1});
  p.call("aten::native_layer_norm", "out",
         {x, p.ints({2}), w, p.none(), p.d(1e-5), o0, o1, o2, p.tensors({o0, o1, o2})});
  expect_exec_error(p, {f32({1, 2}, {1, 2}), i32({2}, {1, 1})});
}

// ---- reductions ----------------------------------------------------------------------

TEST(KernelPrograms, Reductions) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 3, 4});
  const int32_t mean = p.output(Dtype::Float, {2, 4});
  const int32_t sum = p.output(Dtype::Float, {1, 3, 1});
  const int32_t amax = p.output(Dtype::Float, {2, 3});
  const int32_t argmax = p.output(Dtype::Long, {2, 4});
  p.call("aten::mean", "out", {x, p.ints({1}), p.b(false), p.none(), mean, mean});
  p.call("aten::sum", "IntList_out", {x, p.ints({0, 2}), p.b(true), p.none(), sum, sum});
  p.call("aten::amax", "out", {x, p.ints({-1}), p.b(false), amax, amax});
  p.call("aten::argmax", "out", {x, p.i(1), p.b(false), argmax, argmax});
  std::vector<float> xv;
  for (int k = 0; k < 24; ++k) xv.push_back(float((k * 7) % 11 - 5 + 0.01 * k));
  const Ran r = run(p, {f32({2, 3, 4}, xv)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 4u);
  auto X = [&](int a, int b, int c) { return double(xv[a * 12 + b * 4 + c]); };
  std::vector<double> wmean, wsum(3, 0.0), wamax, wargmax;
  for (int a = 0; a < 2; ++a) {
    for (int c = 0; c < 4; ++c) {
      double s = 0;
      int best = 0;
      for (int b = 0; b < 3; ++b) {
        s += X(a, b, c);
        if (X(a, b, c) > X(a, best, c)) best = b;
      }
      wmean.push_back(s / 3);
      wargmax.push_back(best);
    }
  }
  for (int b = 0; b < 3; ++b) {
    for (int a = 0; a < 2; ++a) {
      for (int c = 0; c < 4; ++c) wsum[b] += X(a, b, c);
    }
  }
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 3; ++b) {
      double m = X(a, b, 0);
      for (int c = 1; c < 4; ++c) m = std::max(m, X(a, b, c));
      wamax.push_back(m);
    }
  }
  expect_close(r.outs[0], {2, 4}, wmean, "mean");
  expect_close(r.outs[1], {1, 3, 1}, wsum, "sum");
  expect_close(r.outs[2], {2, 3}, wamax, "amax");
  expect_exact(r.outs[3], ScalarType::Long, {2, 4}, wargmax, "argmax");
}

TEST(KernelPrograms, ArgmaxFloatOutputFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {4});
  const int32_t out = p.output(Dtype::Float, {});
  p.call("aten::argmax", "out", {x, p.none(), p.b(false), out, out});
  expect_exec_error(p, {f32({4}, {1, 5, 2, 3})});
}

// ---- shape ops --------------------------------------------------------------------------

TEST(KernelPrograms, ShapeOps) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 3, 4});
  const int32_t x2 = p.input(Dtype::Float, {2, 1, 4});
  const int32_t e = p.input(Dtype::Float, {3, 1});
  const int32_t view = p.output(Dtype::Float, {4, 6});
  const int32_t perm = p.output(Dtype::Float, {4, 2, 3});
  const int32_t tr = p.output(Dtype::Float, {4, 3, 2});
  const int32_t cat = p.output(Dtype::Float, {2, 4, 4});
  const int32_t slice = p.output(Dtype::Float, {2, 3, 2});
  const int32_t sel = p.output(Dtype::Float, {2, 4});
  const int32_t unsq = p.output(Dtype::Float, {2, 1, 3, 4});
  const int32_t expand = p.output(Dtype::Float, {2, 3, 4});
  p.call("aten::view_copy", "out", {x, p.ints({4, -1}), view, view});
  p.call("aten::permute_copy", "out", {x, p.ints({2, 0, 1}), perm, perm});
  p.call("aten::transpose_copy", "int_out", {x, p.i(0), p.i(2), tr, tr});
  p.call("aten::cat", "out", {p.tensors({x, x2}), p.i(1), cat, cat});
  p.call("aten::slice_copy", "Tensor_out", {x, p.i(2), p.i(1), p.none(), p.i(2), slice, slice});
  p.call("aten::select_copy", "int_out", {x, p.i(1), p.i(-1), sel, sel});
  p.call("aten::unsqueeze_copy", "out", {x, p.i(1), unsq, unsq});
  p.call("aten::expand_copy", "out", {e, p.ints({2, 3, 4}), p.b(false), expand, expand});
  const auto xv = seq(24), x2v = seq(8, 1, 100);
  const std::vector<float> ev{1, 2, 3};
  const Ran r = run(p, {f32({2, 3, 4}, xv), f32({2, 1, 4}, x2v), f32({3, 1}, ev)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 8u);
  auto X = [&](int a, int b, int c) { return double(xv[a * 12 + b * 4 + c]); };
  std::vector<double> wview(xv.begin(), xv.end()), wperm, wtr, wcat, wslice, wsel, wexp;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 3; ++c) wperm.push_back(X(b, c, a));
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 2; ++c) wtr.push_back(X(c, b, a));
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c) wcat.push_back(b < 3 ? X(a, b, c) : double(x2v[a * 4 + c]));
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 2; ++c) wslice.push_back(X(a, b, 1 + 2 * c));
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 4; ++c) wsel.push_back(X(a, 2, c));
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c) wexp.push_back(ev[b]);
  expect_exact(r.outs[0], ScalarType::Float, {4, 6}, wview, "view_copy");
  expect_exact(r.outs[1], ScalarType::Float, {4, 2, 3}, wperm, "permute_copy");
  expect_exact(r.outs[2], ScalarType::Float, {4, 3, 2}, wtr, "transpose_copy");
  expect_exact(r.outs[3], ScalarType::Float, {2, 4, 4}, wcat, "cat");
  expect_exact(r.outs[4], ScalarType::Float, {2, 3, 2}, wslice, "slice_copy");
  expect_exact(r.outs[5], ScalarType::Float, {2, 4}, wsel, "select_copy");
  expect_exact(r.outs[6], ScalarType::Float, {2, 1, 3, 4}, wview, "unsqueeze_copy");
  expect_exact(r.outs[7], ScalarType::Float, {2, 3, 4}, wexp, "expand_copy");
}

TEST(KernelPrograms, PermuteWrongOutDtypeFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 3});
  const int32_t out = p.output(Dtype::Int, {3, 2});
  p.call("aten::permute_copy", "out", {x, p.ints({1, 0}), out, out});
  expect_exec_error(p, {f32({2, 3}, seq(6))});
}

// ---- embedding ------------------------------------------------------------------------------

TEST(KernelPrograms, Embedding) {
  Prog p;
  const int32_t w = p.input(Dtype::Float, {4, 3});
  const int32_t idx = p.input(Dtype::Long, {2, 2});
  const int32_t out = p.output(Dtype::Float, {2, 2, 3});
  p.call("aten::embedding", "out", {w, idx, p.i(-1), p.b(false), p.b(false), out, out});
  const auto wv = seq(12, 1.5);
  const std::vector<int64_t> iv{3, 0, 1, 3};
  const Ran r = run(p, {f32({4, 3}, wv), i64({2, 2}, iv)});
  ASSERT_EQ(r.exec, Error::Ok);
  std::vector<double> want;
  for (int64_t row : iv)
    for (int c = 0; c < 3; ++c) want.push_back(wv[size_t(row * 3 + c)]);
  expect_exact(r.outs[0], ScalarType::Float, {2, 2, 3}, want, "embedding");
}

TEST(KernelPrograms, EmbeddingFloatIndicesFail) {
  Prog p;
  const int32_t w = p.input(Dtype::Float, {4, 3});
  const int32_t idx = p.input(Dtype::Float, {2});
  const int32_t out = p.output(Dtype::Float, {2, 3});
  p.call("aten::embedding", "out", {w, idx, p.i(-1), p.b(false), p.b(false), out, out});
  expect_exec_error(p, {f32({4, 3}, seq(12)), f32({2}, {1, 2})});
}

// ---- where --------------------------------------------------------------------------------------

TEST(KernelPrograms, WhereSelfBroadcasts) {
  Prog p;
  const int32_t c = p.input(Dtype::Bool, {2, 1});
  const int32_t a = p.input(Dtype::Float, {2, 3});
  const int32_t b = p.input(Dtype::Float, {3});
  const int32_t out = p.output(Dtype::Float, {2, 3});
  p.call("aten::where", "self_out", {c, a, b, out, out});
  const Ran r =
      run(p, {boolean({2, 1}, {1, 0}), f32({2, 3}, seq(6, 1, 1)), f32({3}, {-1, -2, -3})});
  ASSERT_EQ(r.exec, Error::Ok);
  expect_exact(r.outs[0], ScalarType::Float, {2, 3}, {1, 2, 3, -1, -2, -3}, "where");
}

TEST(KernelPrograms, WhereFloatConditionFails) {
  Prog p;
  const int32_t c = p.input(Dtype::Float, {2});
  const int32_t a = p.input(Dtype::Float, {2});
  const int32_t out = p.output(Dtype::Float, {2});
  p.call("aten::where", "self_out", {c, a, a, out, out});
  expect_exec_error(p, {f32({2}, {1, 0}), f32({2}, {3, 4})});
}

// ---- constant_pad_nd ----------------------------------------------------------------------------

TEST(KernelPrograms, ConstantPadNd) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 3});
  const int32_t out = p.output(Dtype::Float, {3, 6});
  // Last dim: 1 before, 2 after; dim 0: 1 before, 0 after.
  p.call("aten::constant_pad_nd", "out", {x, p.ints({1, 2, 1, 0}), p.d(0.5), out, out});
  const auto xv = seq(6, 1, 1);
  const Ran r = run(p, {f32({2, 3}, xv)});
  ASSERT_EQ(r.exec, Error::Ok);
  std::vector<double> want;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 6; ++j)
      want.push_back(i >= 1 && j >= 1 && j < 4 ? double(xv[(i - 1) * 3 + j - 1]) : 0.5);
  expect_exact(r.outs[0], ScalarType::Float, {3, 6}, want, "constant_pad_nd");
}

TEST(KernelPrograms, ConstantPadWrongOutDtypeFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2});
  const int32_t out = p.output(Dtype::Int, {4});
  p.call("aten::constant_pad_nd", "out", {x, p.ints({1, 1}), p.d(0), out, out});
  expect_exec_error(p, {f32({2}, {1, 2})});
}

// ---- convolution ------------------------------------------------------------------------------

TEST(KernelPrograms, Convolution2dStridePaddingGroups) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {1, 4, 5, 5});
  const int32_t w = p.input(Dtype::Float, {4, 2, 3, 3});
  const int32_t bias = p.input(Dtype::Float, {4});
  const int32_t out = p.output(Dtype::Float, {1, 4, 3, 3});
  p.call("aten::convolution", "out",
         {x, w, bias, p.ints({2, 2}), p.ints({1, 1}), p.ints({1, 1}), p.b(false), p.ints({0, 0}),
          p.i(2), out, out});
  std::vector<float> xv, wv;
  for (int k = 0; k < 100; ++k) xv.push_back(float(((k * 5) % 13) - 6) * 0.25f);
  for (int k = 0; k < 72; ++k) wv.push_back(float(((k * 3) % 7) - 3) * 0.5f);
  const std::vector<float> bv{0.5f, -1, 0, 2};
  const Ran r = run(p, {f32({1, 4, 5, 5}, xv), f32({4, 2, 3, 3}, wv), f32({4}, bv)});
  ASSERT_EQ(r.exec, Error::Ok);
  std::vector<double> want;
  for (int oc = 0; oc < 4; ++oc) {
    const int g = oc / 2; // 2 output channels per group
    for (int oh = 0; oh < 3; ++oh) {
      for (int ow = 0; ow < 3; ++ow) {
        double s = bv[oc];
        for (int ic = 0; ic < 2; ++ic) {
          const int c = g * 2 + ic;
          for (int kh = 0; kh < 3; ++kh) {
            for (int kw = 0; kw < 3; ++kw) {
              const int ih = oh * 2 - 1 + kh, iw = ow * 2 - 1 + kw;
              if (ih < 0 || ih >= 5 || iw < 0 || iw >= 5) continue;
              s += double(xv[c * 25 + ih * 5 + iw]) * wv[((oc * 2 + ic) * 3 + kh) * 3 + kw];
            }
          }
        }
        want.push_back(s);
      }
    }
  }
  expect_close(r.outs[0], {1, 4, 3, 3}, want, "convolution");
}

TEST(KernelPrograms, ConvolutionIntegerInputFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Int, {1, 1, 3, 3});
  const int32_t w = p.input(Dtype::Int, {1, 1, 2, 2});
  const int32_t out = p.output(Dtype::Int, {1, 1, 2, 2});
  p.call("aten::convolution", "out",
         {x, w, p.none(), p.ints({1, 1}), p.ints({0, 0}), p.ints({1, 1}), p.b(false),
          p.ints({0, 0}), p.i(1), out, out});
  expect_exec_error(p, {i32({1, 1, 3, 3}, std::vector<int32_t>(9, 1)),
                        i32({1, 1, 2, 2}, std::vector<int32_t>(4, 1))});
}

// ---- pooling ------------------------------------------------------------------------------------

TEST(KernelPrograms, MaxPool2dWithIndices) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {1, 2, 4, 4});
  const int32_t out = p.output(Dtype::Float, {1, 2, 2, 2});
  const int32_t ind = p.output(Dtype::Long, {1, 2, 2, 2});
  p.call("aten::max_pool2d_with_indices", "out",
         {x, p.ints({2, 2}), p.ints({2, 2}), p.ints({0, 0}), p.ints({1, 1}), p.b(false), out, ind,
          p.tensors({out, ind})});
  std::vector<float> xv;
  for (int k = 0; k < 32; ++k) xv.push_back(float((k * 11) % 17 - 8));
  const Ran r = run(p, {f32({1, 2, 4, 4}, xv)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 2u);
  std::vector<double> wv, wi;
  for (int c = 0; c < 2; ++c) {
    for (int oh = 0; oh < 2; ++oh) {
      for (int ow = 0; ow < 2; ++ow) {
        int best = -1;
        for (int kh = 0; kh < 2; ++kh) {
          for (int kw = 0; kw < 2; ++kw) {
            const int li = (oh * 2 + kh) * 4 + ow * 2 + kw;
            if (best < 0 || xv[c * 16 + li] > xv[c * 16 + best]) best = li;
          }
        }
        wv.push_back(xv[c * 16 + best]);
        wi.push_back(best);
      }
    }
  }
  expect_exact(r.outs[0], ScalarType::Float, {1, 2, 2, 2}, wv, "max_pool2d values");
  expect_exact(r.outs[1], ScalarType::Long, {1, 2, 2, 2}, wi, "max_pool2d indices");
}

TEST(KernelPrograms, MaxPoolInt32IndicesFail) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {1, 1, 2, 2});
  const int32_t out = p.output(Dtype::Float, {1, 1, 1, 1});
  const int32_t ind = p.output(Dtype::Int, {1, 1, 1, 1});
  p.call("aten::max_pool2d_with_indices", "out",
         {x, p.ints({2, 2}), p.ints({2, 2}), p.ints({0, 0}), p.ints({1, 1}), p.b(false), out, ind,
          p.tensors({out, ind})});
  expect_exec_error(p, {f32({1, 1, 2, 2}, {1, 2, 3, 4})});
}

TEST(KernelPrograms, AvgPool2d) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {1, 1, 4, 4});
  const int32_t incl = p.output(Dtype::Float, {1, 1, 4, 4});
  const int32_t excl = p.output(Dtype::Float, {1, 1, 4, 4});
  const int32_t divo = p.output(Dtype::Float, {1, 1, 2, 2});
  p.call("aten::avg_pool2d", "out",
         {x, p.ints({3, 3}), p.ints({1, 1}), p.ints({1, 1}), p.b(false), p.b(true), p.none(), incl,
          incl});
  p.call("aten::avg_pool2d", "out",
         {x, p.ints({3, 3}), p.ints({1, 1}), p.ints({1, 1}), p.b(false), p.b(false), p.none(), excl,
          excl});
  p.call("aten::avg_pool2d", "out",
         {x, p.ints({2, 2}), p.ints({2, 2}), p.ints({0, 0}), p.b(false), p.b(true), p.i(2), divo,
          divo});
  const auto xv = seq(16, 0.5);
  const Ran r = run(p, {f32({1, 1, 4, 4}, xv)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 3u);
  std::vector<double> wi, we, wd;
  for (int oh = 0; oh < 4; ++oh) {
    for (int ow = 0; ow < 4; ++ow) {
      double s = 0;
      int n = 0;
      for (int ih = oh - 1; ih <= oh + 1; ++ih) {
        for (int iw = ow - 1; iw <= ow + 1; ++iw) {
          if (ih < 0 || ih >= 4 || iw < 0 || iw >= 4) continue;
          s += xv[ih * 4 + iw];
          ++n;
        }
      }
      wi.push_back(s / 9);
      we.push_back(s / n);
    }
  }
  for (int oh = 0; oh < 2; ++oh) {
    for (int ow = 0; ow < 2; ++ow) {
      double s = 0;
      for (int kh = 0; kh < 2; ++kh)
        for (int kw = 0; kw < 2; ++kw) s += xv[(oh * 2 + kh) * 4 + ow * 2 + kw];
      wd.push_back(s / 2);
    }
  }
  // Corner (0,0), padding excluded: (0 + 0.5 + 2 + 2.5) / 4.
  EXPECT_DOUBLE_EQ(we[0], 1.25);
  expect_close(r.outs[0], {1, 1, 4, 4}, wi, "avg_pool2d count_include_pad");
  expect_close(r.outs[1], {1, 1, 4, 4}, we, "avg_pool2d exclude pad");
  expect_close(r.outs[2], {1, 1, 2, 2}, wd, "avg_pool2d divisor_override");
}

TEST(KernelPrograms, AvgPoolIntegerInputFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Long, {1, 1, 2, 2});
  const int32_t out = p.output(Dtype::Long, {1, 1, 1, 1});
  p.call("aten::avg_pool2d", "out",
         {x, p.ints({2, 2}), p.ints({2, 2}), p.ints({0, 0}), p.b(false), p.b(true), p.none(), out,
          out});
  expect_exec_error(p, {i64({1, 1, 2, 2}, {1, 2, 3, 4})});
}

// ---- batch norm (inference)
// -----------------------------------------------------------------------

TEST(KernelPrograms, NativeBatchNormLegitNoTraining) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 3, 2, 2});
  const int32_t w = p.input(Dtype::Float, {3});
  const int32_t b = p.input(Dtype::Float, {3});
  const int32_t rm = p.input(Dtype::Float, {3});
  const int32_t rv = p.input(Dtype::Float, {3});
  const int32_t out = p.output(Dtype::Float, {2, 3, 2, 2});
  const int32_t o1 = p.tensor(Dtype::Float, {0});
  const int32_t o2 = p.tensor(Dtype::Float, {0});
  p.call("aten::_native_batch_norm_legit_no_training", "out",
         {x, w, b, rm, rv, p.d(0.1), p.d(1e-5), out, o1, o2, p.tensors({out, o1, o2})});
  const auto xv = seq(24, 0.5, -5);
  const std::vector<float> wv{1, 2, 0.5f}, bv{0, -1, 1}, rmv{0.5f, -1, 2}, rvv{1, 4, 0.25f};
  const Ran r =
      run(p, {f32({2, 3, 2, 2}, xv), f32({3}, wv), f32({3}, bv), f32({3}, rmv), f32({3}, rvv)});
  ASSERT_EQ(r.exec, Error::Ok);
  std::vector<double> want;
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 4; ++k)
        want.push_back(
            (xv[(n * 3 + c) * 4 + k] - double(rmv[c])) / std::sqrt(rvv[c] + 1e-5) * wv[c] + bv[c]);
  expect_close(r.outs[0], {2, 3, 2, 2}, want, "batch_norm");
}

TEST(KernelPrograms, BatchNormIntegerInputFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Int, {1, 2, 1, 1});
  const int32_t rm = p.input(Dtype::Float, {2});
  const int32_t rv = p.input(Dtype::Float, {2});
  const int32_t out = p.output(Dtype::Int, {1, 2, 1, 1});
  const int32_t o1 = p.tensor(Dtype::Int, {0});
  const int32_t o2 = p.tensor(Dtype::Int, {0});
  p.call(
      "aten::_native_batch_norm_legit_no_training", "out",
      {x, p.none(), p.none(), rm, rv, p.d(0.1), p.d(1e-5), out, o1, o2, p.tensors({out, o1, o2})});
  expect_exec_error(p, {i32({1, 2, 1, 1}, {1, 2}), f32({2}, {0, 0}), f32({2}, {1, 1})});
}

// Upstream's emitter passes the returned tuple as one list after the outs;
// the layouts without it, or with each returned tensor listed on its own,
// are rejected at execute() with an Error.
TEST(KernelPrograms, MultiOutputOpsNeedTheReturnedTupleAsOneList) {
  {
    Prog p;
    const int32_t x = p.input(Dtype::Float, {1, 2});
    const int32_t o0 = p.output(Dtype::Float, {1, 2});
    const int32_t o1 = p.tensor(Dtype::Float, {1, 1});
    const int32_t o2 = p.tensor(Dtype::Float, {1, 1});
    p.call("aten::native_layer_norm", "out",
           {x, p.ints({2}), p.none(), p.none(), p.d(1e-5), o0, o1, o2, o0, o1, o2});
    expect_exec_error(p, {f32({1, 2}, {1, 2})});
  }
  {
    Prog p;
    const int32_t x = p.input(Dtype::Float, {1, 1, 2, 2});
    const int32_t out = p.output(Dtype::Float, {1, 1, 1, 1});
    const int32_t ind = p.tensor(Dtype::Long, {1, 1, 1, 1});
    p.call(
        "aten::max_pool2d_with_indices", "out",
        {x, p.ints({2, 2}), p.ints({2, 2}), p.ints({0, 0}), p.ints({1, 1}), p.b(false), out, ind});
    expect_exec_error(p, {f32({1, 1, 2, 2}, {1, 2, 3, 4})});
  }
  {
    // The list has the wrong number of entries.
    Prog p;
    const int32_t x = p.input(Dtype::Float, {1, 2, 1, 1});
    const int32_t rm = p.input(Dtype::Float, {2});
    const int32_t rv = p.input(Dtype::Float, {2});
    const int32_t out = p.output(Dtype::Float, {1, 2, 1, 1});
    const int32_t o1 = p.tensor(Dtype::Float, {0});
    const int32_t o2 = p.tensor(Dtype::Float, {0});
    p.call("aten::_native_batch_norm_legit_no_training", "out",
           {x, p.none(), p.none(), rm, rv, p.d(0.1), p.d(1e-5), out, o1, o2, p.tensors({out, o1})});
    expect_exec_error(p, {f32({1, 2, 1, 1}, {1, 2}), f32({2}, {0, 0}), f32({2}, {1, 1})});
  }
}

// ---- prim ops
// -------------------------------------------------------------------------------------

TEST(KernelPrograms, SymSizeAndPrimAddChain) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {3, 5});
  // Int values the prim ops write (traced values, as the emitter records).
  const int32_t s0 = p.i(3), s1 = p.i(5), sum = p.i(8), numel = p.i(15);
  const int32_t out = p.output(Dtype::Float, {15});
  p.m.outputs.push_back(sum);
  p.call("aten::sym_size", "int", {x, p.i(0), s0});
  p.call("aten::sym_size", "int", {x, p.i(-1), s1});
  p.call("executorch_prim::add", "Scalar", {s0, s1, sum});
  p.call("executorch_prim::mul", "Scalar", {s0, s1, numel});
  const int32_t size_list = p.m.add_value(ValueDesc::IntList({numel}));
  p.call("aten::view_copy", "out", {x, size_list, out, out});
  const auto xv = seq(15, 0.5, -2);
  const Ran r = run(p, {f32({3, 5}, xv)});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 2u);
  expect_exact(r.outs[0], ScalarType::Float, {15}, std::vector<double>(xv.begin(), xv.end()),
               "view_copy(sym numel)");
  EXPECT_FALSE(r.outs[1].is_tensor);
  EXPECT_EQ(r.outs[1].i, 3 + 5);
}

TEST(KernelPrograms, SymSizeAndPrimAddValuesComeFromKernels) {
  // The Int values start at 0: only the kernels can make them 4 and 4 + 10.
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2, 4});
  const int32_t s = p.i(0), r0 = p.i(0);
  p.m.outputs = {s, r0};
  p.call("aten::sym_size", "int", {x, p.i(1), s});
  p.call("executorch_prim::add", "Scalar", {s, p.i(10), r0});
  const Ran r = run(p, {f32({2, 4}, seq(8))});
  ASSERT_EQ(r.exec, Error::Ok);
  ASSERT_EQ(r.outs.size(), 2u);
  EXPECT_EQ(r.outs[0].i, 4);
  EXPECT_EQ(r.outs[1].i, 14);
}

TEST(KernelPrograms, PrimAddTensorOperandFails) {
  Prog p;
  const int32_t x = p.input(Dtype::Float, {2});
  const int32_t r0 = p.i(0);
  p.m.outputs = {r0};
  p.call("executorch_prim::add", "Scalar", {x, p.i(1), r0});
  expect_exec_error(p, {f32({2}, {1, 2})});
}

} // namespace
