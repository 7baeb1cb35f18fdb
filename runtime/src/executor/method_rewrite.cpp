// Calls whose outputs are not all read, given a variant kernel that skips
// the unread part (kernel/internal_ops.h). Exported programs keep
// max_pool2d_with_indices for max_pool2d, and nothing reads its indices:
// computing them costs more than the maximum itself. A call is rewritten
// only when it is served by the built-in optimized kernel (not a kernel the
// application registered, not the portable set it asked for), the variant
// is built in, and the method's order is known (one straight chain) with
// nothing but the call naming the unread output.
#include <executorch/runtime/kernel/builtin_kernels.h>
#include <executorch/runtime/platform/log.h>

#include "executor/method_state.h"
#include "executor/plan_query.h"
#include "executor/value_lifetimes.h"
#include "kernel/internal_ops.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;

namespace {

// max_pool2d_with_indices.out(self, kernel_size, stride, padding, dilation,
// ceil_mode, out, indices), then the returned (out, indices) as one list
// when the writer keeps it.
constexpr uint32_t kIndicesArg = 7;

bool only_this_call_names(const std::vector<ValueLifetime>& lt, int32_t vi, uint32_t i) {
  if (vi < 0 || size_t(vi) >= lt.size()) return false;
  const ValueLifetime& l = lt[size_t(vi)];
  return l.used && l.first == int64_t(i) && l.last == int64_t(i);
}

} // namespace

size_t use_variants_for_unread_outputs(MethodState* ms) {
  const char* pool = "aten::max_pool2d_with_indices";
  const OpFunction served =
      get_builtin_kernel("aten::max_pool2d_with_indices.out", BuiltinKernelSet::Optimized);
  const OpFunction variant = get_builtin_kernel(kMaxPool2dValuesOp, BuiltinKernelSet::Optimized);
  if (served == nullptr || variant == nullptr || ms->n_chains != 1 ||
      !plan_names_op(ms->plan, pool, "out")) {
    return 0;
  }
  std::vector<ValueLifetime> lt;
  if (!compute_value_lifetimes(ms->plan, &lt) || lt.size() != ms->n_values) return 0;
  size_t rewritten = 0;
  for (uint32_t i = 0; i < ms->n_instructions; ++i) {
    InstructionSlot& slot = ms->instructions[i];
    if (slot.op != served) continue;
    const fb::KernelCall* call = call_of(ms, i, pool, "out");
    if (call == nullptr || call->args()->size() <= kIndicesArg) continue;
    if (!only_this_call_names(lt, call->args()->Get(kIndicesArg), i)) continue;
    slot.op = variant;
    ++rewritten;
  }
  if (rewritten > 0) {
    ET_LOG(Debug, "Method '%s': %zu max pooling call(s) skip their unread indices",
           ms->plan->name()->c_str(), rewritten);
  }
  return rewritten;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
