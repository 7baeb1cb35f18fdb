// Inference batch norm folded into the convolution in front of it, at load.
// The exporter writes conv -> t1 -> _native_batch_norm_legit_no_training
// -> t2; the batch norm is a per-channel y = x * s + (beta - mean * s) with
// s = gamma / sqrt(var + eps), which the convolution can do itself with
// weights w * s and bias (b - mean) * s + beta. The folded weight and bias
// get memory of their own from the method allocator (the program's
// constants, which other calls may share, are not touched); the
// convolution's slot is pointed at them and made to write t2, and the batch
// norm's slot becomes a no-op.
//
// The convolution now writes t2 while it reads its input, so the fold needs
// the method's instruction order (one straight-line chain) and t2's bytes
// free of every other planned tensor in use between the two calls, the
// convolution's input included. Planners often give t2 the input's bytes
// (free once the batch norm runs); then t2 moves onto t1's bytes instead,
// where the convolution writes anyway, if no other tensor uses those until
// t2's last use, but for the activation after the norm planned exactly
// there, which then runs in place. Anything else
// unexpected (a non-constant parameter, a dtype other than float, t1 read by
// another call, a batch norm output someone reads) leaves both calls as
// they were.
#include <cmath>
#include <cstdio>
#include <new>
#include <vector>

#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/kernel/builtin_kernels.h>
#include <executorch/runtime/platform/log.h>

#include "executor/method_state.h"
#include "executor/plan_query.h"
#include "executor/program_validation.h"
#include "executor/value_lifetimes.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;

namespace {

void folded_into_conv(KernelRuntimeContext&, Span<EValue*>) {}

bool is_float(const MethodState* ms, int32_t vi) {
  return ms->values[vi].isTensor() && ms->values[vi].toTensor().scalar_type() == ScalarType::Float;
}

// A constant float tensor of n elements, in the program's bytes.
bool is_constant_float(const MethodState* ms, int32_t vi, ssize_t n) {
  const fb::Tensor* t = fb_tensor(ms, vi);
  return t != nullptr && t->allocation_info() == nullptr && t->data_buffer_idx() > 0 &&
         !is_external(t) && is_float(ms, vi) && ms->values[vi].toTensor().numel() == n &&
         ms->values[vi].toTensor().const_data_ptr() != nullptr;
}

// None, or a constant float tensor of n elements.
bool is_none_or_constant(const MethodState* ms, int32_t vi, ssize_t n) {
  return ms->values[vi].isNone() || is_constant_float(ms, vi, n);
}

// A planned float tensor in host memory, of static shape, whose bytes only
// the method's calls write (no initial value from the program or named data).
bool is_scratch_float(const MethodState* ms, int32_t vi) {
  const fb::Tensor* t = fb_tensor(ms, vi);
  return t != nullptr && t->allocation_info() != nullptr && t->data_buffer_idx() == 0 &&
         !is_external(t) && t->shape_dynamism() == fb::TensorShapeDynamism::STATIC &&
         is_float(ms, vi) &&
         ms->values[vi].toTensor().unsafeGetTensorImpl()->device_type() == etensor::DeviceType::CPU;
}

bool same_layout(const Tensor& a, const Tensor& b) {
  if (a.dim() != b.dim()) return false;
  for (ssize_t d = 0; d < a.dim(); ++d) {
    if (a.size(d) != b.size(d) || a.dim_order()[d] != b.dim_order()[d]) return false;
  }
  return true;
}

// Whether a planned tensor with bytes is in use at some instruction of
// [lo, hi] (one with an initial value always is: it holds state).
bool planned_live(const MethodState* ms, const std::vector<ValueLifetime>& lt, int32_t vi,
                  int64_t lo, int64_t hi) {
  const fb::Tensor* t = fb_tensor(ms, vi);
  if (t == nullptr || t->allocation_info() == nullptr) return false;
  if (t->data_buffer_idx() > 0 || is_external(t)) return true;
  return lt[size_t(vi)].live_in(lo, hi);
}

bool overlaps(const Tensor& a, const Tensor& b) {
  const auto* pa = static_cast<const uint8_t*>(a.const_data_ptr());
  const auto* pb = static_cast<const uint8_t*>(b.const_data_ptr());
  if (pa == nullptr || pb == nullptr || a.nbytes() == 0 || b.nbytes() == 0) return false;
  return pa < pb + b.nbytes() && pb < pa + a.nbytes();
}

// No planned tensor but t1 and t2 that shares bytes with `bytes` is in use
// at an instruction of [lo, hi], except one that `allowed` accepts.
template <typename Allowed>
bool bytes_free_during(const MethodState* ms, const std::vector<ValueLifetime>& lt,
                       const Tensor& bytes, int32_t t1, int32_t t2, int64_t lo, int64_t hi,
                       const Allowed& allowed) {
  for (size_t v = 0; v < ms->n_values; ++v) {
    const int32_t vi = int32_t(v);
    if (vi == t1 || vi == t2 || !ms->values[v].isTensor()) continue;
    if (planned_live(ms, lt, vi, lo, hi) && overlaps(ms->values[v].toTensor(), bytes) &&
        !allowed(vi)) {
      return false;
    }
  }
  return true;
}

// Whether tensor vi is the output, first written there, of the built-in
// optimized relu or hardtanh at t2's last use, reading t2, over exactly the
// bytes t2 moves onto: that call then runs in place, which those kernels
// (one element at a time, no restrict) allow. The usual
// conv -> batch norm -> activation chain plans the activation there.
bool in_place_activation(const MethodState* ms, const std::vector<ValueLifetime>& lt, int32_t vi,
                         int32_t t2, const Tensor& bytes) {
  const int64_t k = lt[size_t(t2)].last;
  const ValueLifetime& l = lt[size_t(vi)];
  const Tensor& t = ms->values[vi].toTensor();
  if (!l.used || l.first != k || k < 0 || k >= int64_t(ms->n_instructions) ||
      t.const_data_ptr() != bytes.const_data_ptr() || t.nbytes() != bytes.nbytes() ||
      !same_layout(t, ms->values[t2].toTensor())) {
    return false;
  }
  const InstructionSlot& slot = ms->instructions[size_t(k)];
  const struct {
    const char* name;
    uint32_t out; // argument index of out
  } ops[] = {{"aten::relu", 1}, {"aten::hardtanh", 3}};
  for (const auto& op : ops) {
    const fb::KernelCall* call = call_of(ms, uint32_t(k), op.name, "out");
    char full[32];
    std::snprintf(full, sizeof(full), "%s.out", op.name);
    if (call != nullptr && call->args()->size() > op.out && call->args()->Get(0) == t2 &&
        call->args()->Get(op.out) == vi &&
        slot.op == get_builtin_kernel(full, BuiltinKernelSet::Optimized)) {
      return true;
    }
  }
  return false;
}

// A batch norm output other than out0 that the fold leaves unwritten: it
// has no elements, or nothing but the batch norm names it.
bool unwritten_ok(const MethodState* ms, const std::vector<ValueLifetime>& lt, int32_t vi,
                  int64_t b) {
  if (!ms->values[vi].isTensor()) return false;
  if (ms->values[vi].toTensor().numel() == 0) return true;
  const ValueLifetime& l = lt[size_t(vi)];
  return l.used && l.first == b && l.last == b;
}

// The convolution at instruction c and the batch norm after it, as value
// indices, once every condition of the fold holds.
struct ConvBn {
  int32_t w, bias, t1;                 // conv
  int32_t gamma, beta, mean, var, eps; // batch norm parameters
  int32_t t2;                          // batch norm out0
  ssize_t oc;
  bool t2_on_t1; // t2 moves onto t1's bytes (its own are not free at once)
};

bool match(const MethodState* ms, const std::vector<ValueLifetime>& lt, uint32_t c, ConvBn* m) {
  const fb::KernelCall* conv = call_of(ms, c, "aten::convolution", "out");
  const fb::KernelCall* bn =
      call_of(ms, c + 1, "aten::_native_batch_norm_legit_no_training", "out");
  if (conv == nullptr || bn == nullptr) return false;
  // convolution.out(input, weight, bias, stride, padding, dilation,
  // transposed, output_padding, groups, out) and its returned out.
  const auto* ca = conv->args();
  if (ca->size() != 11 || ca->Get(9) != ca->Get(10)) return false;
  const int32_t x = ca->Get(0), transposed = ca->Get(6);
  m->w = ca->Get(1);
  m->bias = ca->Get(2);
  m->t1 = ca->Get(9);
  for (uint32_t k = 0; k < 9; ++k) {
    if (ca->Get(k) == m->t1) return false;
  }
  if (!ms->values[transposed].isBool() || ms->values[transposed].toBool()) return false;
  if (!is_float(ms, x) || !is_scratch_float(ms, m->t1)) return false;
  const Tensor& t1 = ms->values[m->t1].toTensor();
  if (t1.dim() < 2) return false;
  m->oc = t1.size(1);
  // Each output channel's weights in one block of numel / oc.
  if (!ms->values[m->w].isTensor()) return false;
  const Tensor& w = ms->values[m->w].toTensor();
  if (w.dim() < 1 || w.size(0) != m->oc || w.dim_order()[0] != 0 || m->oc <= 0 ||
      !is_constant_float(ms, m->w, w.numel()) || !is_none_or_constant(ms, m->bias, m->oc)) {
    return false;
  }
  // t1: written by the convolution, read by the batch norm, nothing else.
  const ValueLifetime& l1 = lt[size_t(m->t1)];
  if (!l1.used || l1.first != int64_t(c) || l1.last != int64_t(c) + 1) return false;

  // _native_batch_norm_legit_no_training.out(input, weight, bias,
  // running_mean, running_var, momentum, eps, out0, out1, out2), then the
  // returned (out0, out1, out2) as one list when the writer keeps it.
  const auto* ba = bn->args();
  if ((ba->size() != 10 && ba->size() != 11) || ba->Get(0) != m->t1) return false;
  m->gamma = ba->Get(1);
  m->beta = ba->Get(2);
  m->mean = ba->Get(3);
  m->var = ba->Get(4);
  m->eps = ba->Get(6);
  m->t2 = ba->Get(7);
  if (!is_none_or_constant(ms, m->gamma, m->oc) || !is_none_or_constant(ms, m->beta, m->oc) ||
      !is_constant_float(ms, m->mean, m->oc) || !is_constant_float(ms, m->var, m->oc) ||
      !ms->values[m->eps].isDouble()) {
    return false;
  }
  for (uint32_t k = 1; k < 7; ++k) {
    if (ba->Get(k) == m->t1) return false;
  }
  if (ba->size() == 11 && !ms->values[ba->Get(10)].isTensorList()) return false;
  // t2: first written by the batch norm, not a method output.
  if (m->t2 == m->t1 || !is_scratch_float(ms, m->t2) ||
      !same_layout(t1, ms->values[m->t2].toTensor())) {
    return false;
  }
  const ValueLifetime& l2 = lt[size_t(m->t2)];
  if (!l2.used || l2.first != int64_t(c) + 1 || l2.last >= int64_t(ms->n_instructions)) {
    return false;
  }
  for (uint32_t k = 8; k < 10; ++k) {
    const int32_t o = ba->Get(k);
    if (o == m->t1 || o == m->t2 || !unwritten_ok(ms, lt, o, int64_t(c) + 1)) return false;
  }
  // The convolution writes t2's bytes if nothing else needs them while the
  // two calls run; else t2 takes t1's bytes for all its life, if nothing
  // else needs those until t2's last use.
  const Tensor& t2 = ms->values[m->t2].toTensor();
  auto none = [](int32_t) { return false; };
  m->t2_on_t1 = !bytes_free_during(ms, lt, t2, m->t1, m->t2, int64_t(c), int64_t(c) + 1, none);
  return !m->t2_on_t1 ||
         bytes_free_during(ms, lt, t1, m->t1, m->t2, int64_t(c), l2.last,
                           [&](int32_t vi) { return in_place_activation(ms, lt, vi, m->t2, t1); });
}

float at(const MethodState* ms, int32_t vi, ssize_t i, float dflt) {
  return ms->values[vi].isNone() ? dflt : ms->values[vi].toTensor().const_data_ptr<float>()[i];
}

// A float tensor over data with the given impl's shape arrays (they live as
// long as the method and never change: the tensor is static).
EValue* new_tensor(MemoryAllocator* alloc, const TensorImpl* like, float* data) {
  auto* impl = alloc->allocateInstance<TensorImpl>();
  auto* ev = alloc->allocateInstance<EValue>();
  if (impl == nullptr || ev == nullptr) return nullptr;
  new (impl) TensorImpl(ScalarType::Float, like->dim(),
                        const_cast<TensorImpl::SizesType*>(like->sizes().data()), data,
                        const_cast<TensorImpl::DimOrderType*>(like->dim_order().data()),
                        const_cast<TensorImpl::StridesType*>(like->strides().data()),
                        TensorShapeDynamism::STATIC, like->device_type(), like->device_index());
  new (ev) EValue(Tensor(impl));
  return ev;
}

// A 1-D float tensor of n elements over data.
EValue* new_vector(MemoryAllocator* alloc, ssize_t n, float* data) {
  auto* sizes = alloc->allocateList<TensorImpl::SizesType>(1);
  auto* dim_order = alloc->allocateList<TensorImpl::DimOrderType>(1);
  auto* strides = alloc->allocateList<TensorImpl::StridesType>(1);
  auto* impl = alloc->allocateInstance<TensorImpl>();
  auto* ev = alloc->allocateInstance<EValue>();
  if (sizes == nullptr || dim_order == nullptr || strides == nullptr || impl == nullptr ||
      ev == nullptr) {
    return nullptr;
  }
  sizes[0] = TensorImpl::SizesType(n);
  dim_order[0] = 0;
  strides[0] = 1;
  new (impl) TensorImpl(ScalarType::Float, 1, sizes, data, dim_order, strides);
  new (ev) EValue(Tensor(impl));
  return ev;
}

// Computes the folded weight and bias and rewires both slots; false (and
// nothing changed) when the method allocator is out of memory.
bool fold(MethodState* ms, uint32_t c, const ConvBn& m) {
  MemoryAllocator* alloc = ms->memory->method_allocator();
  const Tensor& w = ms->values[m.w].toTensor();
  const ssize_t per_oc = w.numel() / m.oc;
  float* wdata = alloc->allocateList<float>(size_t(w.numel()), 64);
  float* bdata = alloc->allocateList<float>(size_t(m.oc), 64);
  if (wdata == nullptr || bdata == nullptr) return false;
  const float* w0 = w.const_data_ptr<float>();
  const double eps = ms->values[m.eps].toDouble();
  for (ssize_t o = 0; o < m.oc; ++o) {
    const double s =
        double(at(ms, m.gamma, o, 1.0f)) / std::sqrt(double(at(ms, m.var, o, 0.0f)) + eps);
    for (ssize_t k = 0; k < per_oc; ++k) {
      wdata[o * per_oc + k] = float(double(w0[o * per_oc + k]) * s);
    }
    bdata[o] = float((double(at(ms, m.bias, o, 0.0f)) - double(at(ms, m.mean, o, 0.0f))) * s +
                     double(at(ms, m.beta, o, 0.0f)));
  }
  EValue* wev = new_tensor(alloc, w.unsafeGetTensorImpl(), wdata);
  EValue* bev = new_vector(alloc, m.oc, bdata);
  if (wev == nullptr || bev == nullptr) return false;
  InstructionSlot& cs = ms->instructions[ms->chain_start[0] + c];
  InstructionSlot& bs = ms->instructions[ms->chain_start[0] + c + 1];
  // The slot's argument array is its own (resolve_args); values[] is not.
  cs.args[1] = wev;
  cs.args[2] = bev;
  if (m.t2_on_t1) {
    // The convolution writes t1 as before, and that is where t2 now lives.
    ms->values[m.t2].toTensor().unsafeGetTensorImpl()->set_data(
        ms->values[m.t1].toTensor().mutable_data_ptr());
  } else {
    cs.args[9] = &ms->values[m.t2];
    cs.args[10] = &ms->values[m.t2];
  }
  bs.op = folded_into_conv;
  return true;
}

} // namespace

size_t fold_conv_batch_norms(MethodState* ms) {
  if (ms->n_chains != 1 || ms->n_instructions < 2 ||
      !plan_names_op(ms->plan, "aten::_native_batch_norm_legit_no_training", "out"))
    return 0;
  std::vector<ValueLifetime> lt;
  if (!compute_value_lifetimes(ms->plan, &lt) || lt.size() != ms->n_values) return 0;
  size_t folded = 0;
  for (uint32_t c = 0; c + 1 < ms->n_instructions; ++c) {
    const InstructionSlot& cs = ms->instructions[ms->chain_start[0] + c];
    const InstructionSlot& bs = ms->instructions[ms->chain_start[0] + c + 1];
    if (cs.op == nullptr || bs.op == nullptr || cs.args.size() != 11) continue;
    ConvBn m{};
    if (!match(ms, lt, c, &m)) continue;
    if (!fold(ms, c, m)) break; // out of method memory: leave the rest
    ++folded;
    ++c; // the batch norm is done
  }
  if (folded > 0) {
    ET_LOG(Debug, "Method '%s': %zu batch norm(s) folded into the convolution before them",
           ms->plan->name()->c_str(), folded);
  }
  return folded;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
