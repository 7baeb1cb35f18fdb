// A third-party kernel written the way upstream's kernel authors write
// them: argument checks from tensor_util.h through ET_KERNEL_CHECK, dtype
// dispatch with ET_SWITCH_REALHBF16_TYPES, output resizing with
// resize_tensor. It is registered in the kernel registry, looked up by name
// and called on float, Half and BFloat16 tensors and on bad arguments.
// Exits 0 when everything behaved as documented.
#include <cstdio>

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/runtime.h>

using executorch::aten::BFloat16;
using executorch::aten::Half;
using executorch::aten::ScalarType;
using executorch::aten::SizesType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Kernel;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::Span;
using executorch::runtime::TensorShapeDynamism;

namespace {

// my_ops::scaled_add.out(Tensor a, Tensor b, float alpha, *, Tensor(a!) out)
Tensor& scaled_add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, double alpha,
                       Tensor& out) {
  ET_KERNEL_CHECK(ctx, executorch::runtime::tensors_have_same_shape_and_dtype(a, b),
                  InvalidArgument, out);
  ET_KERNEL_CHECK(ctx, executorch::runtime::tensors_have_same_dtype(a, out), InvalidArgument, out);
  ET_KERNEL_CHECK(ctx, executorch::runtime::tensors_have_same_dim_order(a, b, out), InvalidArgument,
                  out);
  ET_KERNEL_CHECK_MSG(ctx, executorch::runtime::resize_tensor(out, a.sizes()) == Error::Ok,
                      InvalidArgument, out, "cannot resize the output to %zd elements", a.numel());
  ET_SWITCH_REALHBF16_TYPES(a.scalar_type(), ctx, "scaled_add.out", CTYPE, [&]() {
    const CTYPE* pa = a.const_data_ptr<CTYPE>();
    const CTYPE* pb = b.const_data_ptr<CTYPE>();
    CTYPE* po = out.mutable_data_ptr<CTYPE>();
    for (ssize_t i = 0; i < out.numel(); ++i) {
      po[i] = static_cast<CTYPE>(static_cast<double>(pa[i]) + alpha * static_cast<double>(pb[i]));
    }
  });
  return out;
}

// The boxed form the registry calls: a, b, alpha, out, and the return slot.
void scaled_add_boxed(KernelRuntimeContext& ctx, Span<EValue*> stack) {
  Tensor& out = stack[3]->toTensor();
  scaled_add_out(ctx, stack[0]->toTensor(), stack[1]->toTensor(), stack[2]->toDouble(), out);
}

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n", what);
    ++failures;
  }
}

// Runs the registered kernel on 2x2 tensors of CTYPE; returns its error.
template <typename CTYPE>
Error run(ScalarType dtype, SizesType out_rows, CTYPE* out_data, ScalarType out_dtype,
          TensorShapeDynamism dynamism = TensorShapeDynamism::DYNAMIC_BOUND) {
  SizesType sizes[] = {2, 2};
  SizesType out_sizes[] = {out_rows, 2};
  CTYPE a_data[] = {CTYPE(1), CTYPE(2), CTYPE(3), CTYPE(4)};
  CTYPE b_data[] = {CTYPE(10), CTYPE(20), CTYPE(30), CTYPE(40)};
  TensorImpl a_impl(dtype, 2, sizes, a_data);
  TensorImpl b_impl(dtype, 2, sizes, b_data);
  TensorImpl out_impl(out_dtype, 2, out_sizes, out_data, nullptr, nullptr, dynamism);
  EValue values[] = {EValue(Tensor(&a_impl)), EValue(Tensor(&b_impl)), EValue(0.5),
                     EValue(Tensor(&out_impl)), EValue(Tensor(&out_impl))};
  EValue* stack[] = {&values[0], &values[1], &values[2], &values[3], &values[4]};
  auto op = executorch::runtime::get_op_function_from_registry("my_ops::scaled_add.out");
  if (!op.ok()) {
    return op.error();
  }
  KernelRuntimeContext ctx;
  (*op)(ctx, Span<EValue*>(stack, 5));
  return ctx.failure_state();
}

} // namespace

int main() {
  executorch::runtime::runtime_init();
  expect(executorch::runtime::register_kernel(Kernel("my_ops::scaled_add.out", scaled_add_boxed)) ==
             Error::Ok,
         "registering the kernel");

  float f_out[4] = {};
  expect(run<float>(ScalarType::Float, 2, f_out, ScalarType::Float) == Error::Ok, "float run");
  expect(f_out[0] == 6.f && f_out[3] == 24.f, "float results");

  Half h_out[4] = {};
  expect(run<Half>(ScalarType::Half, 2, h_out, ScalarType::Half) == Error::Ok, "Half run");
  expect(static_cast<float>(h_out[1]) == 12.f, "Half results");

  BFloat16 bf_out[4] = {};
  expect(run<BFloat16>(ScalarType::BFloat16, 2, bf_out, ScalarType::BFloat16) == Error::Ok,
         "BFloat16 run");
  expect(static_cast<float>(bf_out[2]) == 18.f, "BFloat16 results");

  // A bounded output planned for more elements is resized to the inputs'.
  float resized[6] = {};
  expect(run<float>(ScalarType::Float, 3, resized, ScalarType::Float) == Error::Ok,
         "resizing a bounded output");
  expect(resized[3] == 24.f && resized[4] == 0.f, "results after the resize");

  // Wrong arguments fail the context; nothing aborts.
  float unused[4] = {};
  expect(run<float>(ScalarType::Float, 2, unused, ScalarType::Double) == Error::InvalidArgument,
         "an output of another dtype is refused");
  float static_out[6] = {};
  expect(run<float>(ScalarType::Float, 3, static_out, ScalarType::Float,
                    TensorShapeDynamism::STATIC) == Error::InvalidArgument,
         "a static output of another shape is refused");
  bool b_out[4] = {};
  expect(run<bool>(ScalarType::Bool, 2, b_out, ScalarType::Bool) == Error::InvalidArgument,
         "Bool is not a REALHBF16 type");

  if (failures != 0) {
    return 1;
  }
  std::puts("custom_kernel: all checks passed");
  return 0;
}
