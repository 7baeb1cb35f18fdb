// Inference batch norm folded into the convolution before it at load
// (method_fold_bn.cpp): the batch norm kernel is not called any more and
// the output stays what conv then batch norm computes, and another call
// naming the same weight still sees the program's values; a batch norm
// output planned over the convolution's input moves onto the convolution's
// output bytes. No fold when neither place is free (the convolution's
// output bytes reused while the norm's output is in use), when the
// convolution's output has another reader, when a batch norm parameter is
// no constant, or when the method's order is not known (a MoveCall).
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include <executorch/runtime/kernel/builtin_kernels.h>

#include "executor_test_util.h"
#include "planned_tensor.h"
#include "pte_writer.h"

using namespace et_test;
using namespace ptewriter;
using ::executorch::extension::BufferDataLoader;

namespace {

int g_conv_calls = 0;
int g_bn_calls = 0;

const float* data_or_null(const EValue* v) {
  return v->isTensor() ? v->toTensor().const_data_ptr<float>() : nullptr;
}

// convolution.out(input, weight, bias, stride, padding, dilation,
// transposed, output_padding, groups, out, out) for 2-D NCHW, one group,
// stride 1, no padding or dilation. It writes each output element as soon
// as it is summed, so an output over its own input shows.
void counting_conv(KernelRuntimeContext& ctx, Span<EValue*> args) {
  ++g_conv_calls;
  if (args.size() != 11 || !args[0]->isTensor() || !args[1]->isTensor() || !args[9]->isTensor()) {
    return ctx.fail(Error::InvalidArgument);
  }
  const Tensor& in = args[0]->toTensor();
  const Tensor& w = args[1]->toTensor();
  Tensor& out = args[9]->toTensor();
  const float* bias = data_or_null(args[2]);
  const ssize_t ic = in.size(1), h = in.size(2), wd = in.size(3);
  const ssize_t oc = w.size(0), kh = w.size(2), kw = w.size(3);
  const ssize_t oh = h - kh + 1, ow = wd - kw + 1;
  if (w.size(1) != ic || out.size(1) != oc || out.size(2) != oh || out.size(3) != ow) {
    return ctx.fail(Error::InvalidArgument);
  }
  const float* x = in.const_data_ptr<float>();
  const float* wp = w.const_data_ptr<float>();
  float* y = out.mutable_data_ptr<float>();
  for (ssize_t o = 0; o < oc; ++o) {
    for (ssize_t r = 0; r < oh; ++r) {
      for (ssize_t c = 0; c < ow; ++c) {
        float acc = bias != nullptr ? bias[o] : 0.0f;
        for (ssize_t i = 0; i < ic; ++i) {
          for (ssize_t a = 0; a < kh; ++a) {
            for (ssize_t b = 0; b < kw; ++b) {
              acc += x[(i * h + r + a) * wd + c + b] * wp[((o * ic + i) * kh + a) * kw + b];
            }
          }
        }
        y[(o * oh + r) * ow + c] = acc;
      }
    }
  }
}

// _native_batch_norm_legit_no_training.out(input, weight, bias, mean, var,
// momentum, eps, out0, out1, out2, (out0, out1, out2)) for NCHW.
void counting_bn(KernelRuntimeContext& ctx, Span<EValue*> args) {
  ++g_bn_calls;
  if (args.size() != 11 || !args[0]->isTensor() || !args[7]->isTensor() || !args[6]->isDouble()) {
    return ctx.fail(Error::InvalidArgument);
  }
  const Tensor& in = args[0]->toTensor();
  const float* gamma = data_or_null(args[1]);
  const float* beta = data_or_null(args[2]);
  const float* mean = data_or_null(args[3]);
  const float* var = data_or_null(args[4]);
  const double eps = args[6]->toDouble();
  const ssize_t ch = in.size(1), inner = in.size(2) * in.size(3);
  const float* x = in.const_data_ptr<float>();
  float* y = args[7]->toTensor().mutable_data_ptr<float>();
  for (ssize_t c = 0; c < ch; ++c) {
    const double s = (gamma != nullptr ? gamma[c] : 1.0) / std::sqrt(var[c] + eps);
    const double t = (beta != nullptr ? beta[c] : 0.0) - mean[c] * s;
    for (ssize_t i = 0; i < inner; ++i) {
      y[c * inner + i] = float(x[c * inner + i] * s + t);
    }
  }
}

// relu.out(self, out, out), an application's own (not the built-in one).
void own_relu(KernelRuntimeContext& ctx, Span<EValue*> args) {
  if (args.size() != 3 || !args[0]->isTensor() || !args[1]->isTensor()) {
    return ctx.fail(Error::InvalidArgument);
  }
  const Tensor& in = args[0]->toTensor();
  float* y = args[1]->toTensor().mutable_data_ptr<float>();
  for (ssize_t i = 0; i < in.numel(); ++i) y[i] = std::max(in.const_data_ptr<float>()[i], 0.0f);
}

// The test's kernels; relu is the built-in one unless own_relu is asked for.
Span<const Kernel> kernels(bool with_own_relu = false) {
  static const Kernel k[] = {Kernel("aten::add.out", test_add_out),
                             Kernel("aten::convolution.out", counting_conv),
                             Kernel("aten::_native_batch_norm_legit_no_training.out", counting_bn),
                             Kernel("aten::relu.out", own_relu)};
  return Span<const Kernel>(k, with_own_relu ? 4 : 3);
}

TensorDesc constant(std::vector<int32_t> sizes, uint32_t buffer) {
  TensorDesc t;
  t.sizes = std::move(sizes);
  t.data_buffer_idx = buffer;
  return t;
}

// x [1, 2, 4, 4] -> conv 3x3 (3 out channels) -> t1 [1, 3, 2, 2] -> batch
// norm -> t2 -> out = t2 + t2 (or t2 + t1).
struct Variant {
  bool conv_bias = false;
  bool t2_over_x = false;     // t2 planned where x is (x is read by the conv)
  bool t1_read_later = false; // out = t2 + t1
  bool gamma_is_input = false;
  bool second_conv = false;  // u = conv(x, w) too; out = t2 + u
  bool with_move = false;    // a MoveCall at the end (order no longer known)
  bool out_over_t1 = false;  // out planned where t1 is (t1 is dead by then)
  bool relu_over_t1 = false; // r = relu(t2) planned where t1 is; out = r + r
};

// Planned buffer: x @0 (128 bytes), t1 @128 (48), t2 @192 (48), out @256
// (48), a gamma input @320 (12), u @336 (48).
ProgramDesc conv_bn(const Variant& v) {
  MethodDesc m;
  const int32_t x = m.add_value(ValueDesc::Tensor(planned({1, 2, 4, 4}, 0)));
  const int32_t w = m.add_value(ValueDesc::Tensor(constant({3, 2, 3, 3}, 1)));
  const int32_t bias =
      m.add_value(v.conv_bias ? ValueDesc::Tensor(constant({3}, 2)) : ValueDesc::Null());
  const int32_t one = m.add_value(ValueDesc::Int(1)), zero = m.add_value(ValueDesc::Int(0));
  const int32_t stride = m.add_value(ValueDesc::IntList({one, one}));
  const int32_t padding = m.add_value(ValueDesc::IntList({zero, zero}));
  const int32_t dilation = m.add_value(ValueDesc::IntList({one, one}));
  const int32_t transposed = m.add_value(ValueDesc::Bool(false));
  const int32_t out_pad = m.add_value(ValueDesc::IntList({zero, zero}));
  const int32_t groups = m.add_value(ValueDesc::Int(1));
  const int32_t t1 = m.add_value(ValueDesc::Tensor(planned({1, 3, 2, 2}, 128)));
  const int32_t gamma =
      m.add_value(ValueDesc::Tensor(v.gamma_is_input ? planned({3}, 320) : constant({3}, 3)));
  const int32_t beta = m.add_value(ValueDesc::Tensor(constant({3}, 4)));
  const int32_t mean = m.add_value(ValueDesc::Tensor(constant({3}, 5)));
  const int32_t var = m.add_value(ValueDesc::Tensor(constant({3}, 6)));
  const int32_t momentum = m.add_value(ValueDesc::Double(0.1));
  const int32_t eps = m.add_value(ValueDesc::Double(1e-5));
  const int32_t t2 = m.add_value(ValueDesc::Tensor(planned({1, 3, 2, 2}, v.t2_over_x ? 0 : 192)));
  const int32_t o1 = m.add_value(ValueDesc::Tensor(planned({0}, 0)));
  const int32_t o2 = m.add_value(ValueDesc::Tensor(planned({0}, 0)));
  const int32_t ret = m.add_value(ValueDesc::TensorList({t2, o1, o2}));
  const int32_t alpha = m.add_value(ValueDesc::Int(1));
  const int32_t out =
      m.add_value(ValueDesc::Tensor(planned({1, 3, 2, 2}, v.out_over_t1 ? 128 : 256)));
  const int32_t u = m.add_value(ValueDesc::Tensor(planned({1, 3, 2, 2}, 336)));
  m.inputs = v.gamma_is_input ? std::vector<int32_t>{x, gamma} : std::vector<int32_t>{x};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, 384};
  m.add_operator("aten::convolution", "out");
  m.add_operator("aten::_native_batch_norm_legit_no_training", "out");
  m.add_operator("aten::add", "out");
  m.add_operator("aten::relu", "out");
  m.chains[0].push_back(InstructionDesc::Kernel(
      0, {x, w, bias, stride, padding, dilation, transposed, out_pad, groups, t1, t1}));
  m.chains[0].push_back(
      InstructionDesc::Kernel(1, {t1, gamma, beta, mean, var, momentum, eps, t2, o1, o2, ret}));
  if (v.second_conv) {
    m.chains[0].push_back(InstructionDesc::Kernel(
        0, {x, w, bias, stride, padding, dilation, transposed, out_pad, groups, u, u}));
  }
  if (v.relu_over_t1) {
    const int32_t r = m.add_value(ValueDesc::Tensor(planned({1, 3, 2, 2}, 128)));
    m.chains[0].push_back(InstructionDesc::Kernel(3, {t2, r, r}));
    m.chains[0].push_back(InstructionDesc::Kernel(2, {r, r, alpha, out, out}));
  } else {
    const int32_t other = v.second_conv ? u : v.t1_read_later ? t1 : t2;
    m.chains[0].push_back(InstructionDesc::Kernel(2, {t2, other, alpha, out, out}));
  }
  if (v.with_move) {
    const int32_t spare = m.add_value(ValueDesc::Int(1));
    m.chains[0].push_back(InstructionDesc::Move(alpha, spare));
  }
  ProgramDesc p;
  p.methods = {m};
  std::vector<float> wv(54);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = float(int(i * 7 % 11) - 5) * 0.25f;
  p.add_constant_segment({bytes_of(wv), bytes_of(std::vector<float>{0.5f, -1.0f, 2.0f}),
                          bytes_of(std::vector<float>{1.5f, 0.75f, -2.0f}),
                          bytes_of(std::vector<float>{0.1f, -0.2f, 0.3f}),
                          bytes_of(std::vector<float>{1.0f, -3.0f, 0.25f}),
                          bytes_of(std::vector<float>{4.0f, 0.5f, 0.01f})});
  return p;
}

const std::vector<float> kGammaInput{1.5f, 0.75f, -2.0f};

std::vector<float> input_x() {
  std::vector<float> x(32);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i * 5 % 13) - 6) * 0.5f;
  return x;
}

// conv, batch norm and the add computed here in double.
std::vector<float> reference(const Variant& v) {
  const ProgramDesc p = conv_bn(v);
  auto f = [&](size_t k) {
    const auto& b = p.segments[0];
    const uint64_t off = p.constant_segment.offsets[k];
    return reinterpret_cast<const float*>(b.data() + off);
  };
  const float *w = f(1), *cb = f(2), *beta = f(4), *mean = f(5), *var = f(6);
  const float* gamma = v.gamma_is_input ? kGammaInput.data() : f(3);
  const std::vector<float> x = input_x();
  std::vector<float> out(12);
  for (int o = 0; o < 3; ++o) {
    for (int r = 0; r < 2; ++r) {
      for (int c = 0; c < 2; ++c) {
        double acc = v.conv_bias ? cb[o] : 0.0;
        for (int i = 0; i < 2; ++i) {
          for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
              acc +=
                  double(x[size_t((i * 4 + r + a) * 4 + c + b)]) * w[((o * 2 + i) * 3 + a) * 3 + b];
            }
          }
        }
        const double s = gamma[o] / std::sqrt(double(var[o]) + 1e-5);
        const double y = (acc - mean[o]) * s + beta[o];
        const double z = v.relu_over_t1 ? std::max(y, 0.0) : y;
        out[size_t(o * 4 + r * 2 + c)] = float(v.t1_read_later || v.second_conv ? y + acc : 2 * z);
      }
    }
  }
  return out;
}

struct Outcome {
  int conv_calls = 0, bn_calls_at_load = 0, bn_calls = 0;
  std::vector<float> out;
};

Outcome load_and_run(const Variant& v, int executes, bool with_own_relu = false) {
  Outcome r;
  std::vector<uint8_t> bytes = serialize(conv_bn(v));
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  EXPECT_EQ(program.error(), Error::Ok);
  if (!program.ok()) return r;
  MethodMemory mem(*program->method_meta("forward"));
  g_conv_calls = g_bn_calls = 0;
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     kernels(with_own_relu));
  EXPECT_EQ(method.error(), Error::Ok);
  if (!method.ok()) return r;
  r.bn_calls_at_load = g_bn_calls;
  std::vector<float> x = input_x(), gamma = kGammaInput;
  int32_t xs[4] = {1, 2, 4, 4}, gs[1] = {3};
  TensorImpl xi(ScalarType::Float, 4, xs, x.data()), gi(ScalarType::Float, 1, gs, gamma.data());
  for (int i = 0; i < executes; ++i) {
    // Every run again: with t2 over x, the run itself overwrites x.
    EXPECT_EQ(method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
    if (v.gamma_is_input) {
      EXPECT_EQ(method->set_input(EValue(Tensor(&gi)), 1), Error::Ok);
    }
    EXPECT_EQ(method->execute(), Error::Ok);
  }
  r.conv_calls = g_conv_calls;
  r.bn_calls = g_bn_calls;
  const Tensor& out = method->get_output(0).toTensor();
  r.out.assign(out.const_data_ptr<float>(), out.const_data_ptr<float>() + out.numel());
  return r;
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-4 * (1.0 + std::fabs(want[i]))) << "element " << i;
  }
}

TEST(MethodFoldBn, BatchNormAfterConvIsFolded) {
  const Variant v;
  const Outcome r = load_and_run(v, 3);
  EXPECT_EQ(r.bn_calls_at_load, 0);
  EXPECT_EQ(r.bn_calls, 0);
  EXPECT_EQ(r.conv_calls, 3);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, ConvWithBiasIsFolded) {
  Variant v;
  v.conv_bias = true;
  const Outcome r = load_and_run(v, 2);
  EXPECT_EQ(r.bn_calls, 0);
  EXPECT_EQ(r.conv_calls, 2);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, SharedWeightKeepsItsValuesForOtherCalls) {
  // The folded convolution gets scaled weights of its own; another call
  // naming the same constant still sees the program's.
  Variant v;
  v.second_conv = true;
  const Outcome r = load_and_run(v, 2);
  EXPECT_EQ(r.bn_calls, 0);
  EXPECT_EQ(r.conv_calls, 4);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, OutputOverTheConvInputMovesOntoTheConvOutput) {
  Variant v;
  v.t2_over_x = true;
  const Outcome r = load_and_run(v, 2);
  EXPECT_EQ(r.bn_calls, 0);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, NotFoldedWhenNeitherPlaceIsFree) {
  Variant v;
  v.t2_over_x = true;
  v.out_over_t1 = true; // the add writes t1's bytes while it reads t2
  const Outcome r = load_and_run(v, 2);
  EXPECT_EQ(r.bn_calls, 2);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, ActivationOverTheConvOutputRunsInPlace) {
  // t2 over x, relu(t2) over t1: t2 moves onto t1's bytes anyway, and the
  // built-in relu then runs in place.
  if (get_builtin_kernel("aten::relu.out", BuiltinKernelSet::Optimized) == nullptr) {
    GTEST_SKIP() << "no optimized kernels in this build";
  }
  Variant v;
  v.t2_over_x = true;
  v.relu_over_t1 = true;
  const Outcome r = load_and_run(v, 2);
  EXPECT_EQ(r.bn_calls, 0);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, NotFoldedOverAnApplicationsActivation) {
  // The same with the application's relu, which may not work in place.
  Variant v;
  v.t2_over_x = true;
  v.relu_over_t1 = true;
  const Outcome r = load_and_run(v, 2, true);
  EXPECT_EQ(r.bn_calls, 2);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, NotFoldedWhenConvOutputHasAnotherReader) {
  Variant v;
  v.t1_read_later = true;
  const Outcome r = load_and_run(v, 2);
  EXPECT_EQ(r.bn_calls, 2);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, NotFoldedWhenTheMethodMovesValues) {
  Variant v;
  v.with_move = true;
  const Outcome r = load_and_run(v, 2);
  EXPECT_EQ(r.bn_calls, 2);
  expect_near(r.out, reference(v));
}

TEST(MethodFoldBn, NotFoldedWhenGammaIsAnInput) {
  Variant v;
  v.gamma_is_input = true;
  const Outcome r = load_and_run(v, 2);
  EXPECT_EQ(r.bn_calls, 2);
  expect_near(r.out, reference(v));
}

} // namespace
