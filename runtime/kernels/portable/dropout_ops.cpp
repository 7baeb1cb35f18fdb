// native_dropout.out: in training, each element is kept with probability
// 1 - p and scaled by 1 / (1 - p) (as ATen; upstream's portable kernel does
// not scale), the mask says which were kept; otherwise out = input and the
// mask is all true. Floating dtypes, any dim order.
#include <random>

#include "elementwise_util.h"
#include "op_tables.h"
#include "random_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// native_dropout.out(input, float p, bool? train, *, out0, out1)
//   -> (out0, out1): 3 inputs, 2 outs and the returned tuple.
void native_dropout_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::native_dropout.out";
  if (!check_nargs_multi_out(ctx, args, 3, 2, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  double p = 0;
  bool train = true;
  if (in == nullptr || !get_double(ctx, args, 1, name, &p)) return;
  if (!args[2]->isNone() && !get_bool(ctx, args, 2, name, &train)) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  Tensor* mask = out != nullptr ? get_tensor(ctx, args, 4, name) : nullptr;
  if (mask == nullptr || !require_floating(ctx, *in, name) ||
      !require_same_dtype(ctx, *in, *out, name)) {
    return;
  }
  if (mask->scalar_type() != ScalarType::Bool) {
    PK_FAIL(ctx, name, "the mask must be bool, got %s", toString(mask->scalar_type()));
    return;
  }
  if (!(p >= 0 && p <= 1)) {
    PK_FAIL(ctx, name, "p must be in [0, 1], got %g", p);
    return;
  }
  ElemPlan<3> plan;
  const Tensor* ins[1] = {in};
  if (!resize_out(ctx, *mask, in->sizes(), name) ||
      !plan_elementwise(ctx, name, ins, 1, *out, &plan.shape, plan.strides)) {
    return;
  }
  tensor_strides(*mask, plan.strides[2]);
  const bool drop = train && p > 0;
  const double scale = p < 1 ? 1.0 / (1.0 - p) : 0.0;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::mt19937_64& gen = thread_rng();
  const ScalarType t = in->scalar_type();
  const void* ip = in->const_data_ptr();
  void* op = out->mutable_data_ptr();
  void* mp = mask->mutable_data_ptr();
  for_each_broadcast<3>(plan.shape, plan.strides, [&](size_t, const int64_t* o) {
    const bool keep = !drop || uniform(gen) >= p;
    const double v = load_d(t, ip, static_cast<size_t>(o[0]));
    store_d(t, op, static_cast<size_t>(o[1]), !drop ? v : keep ? v * scale : 0.0);
    store_i(ScalarType::Bool, mp, static_cast<size_t>(o[2]), keep ? 1 : 0);
  });
}

const Kernel kDropoutKernels[] = {
    Kernel("aten::native_dropout.out", native_dropout_out),
};

} // namespace

Span<const Kernel> dropout_kernels() {
  return Span<const Kernel>(kDropoutKernels, sizeof(kDropoutKernels) / sizeof(kDropoutKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
