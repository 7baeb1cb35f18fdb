#include "executor/program_validation.h"

#include <cstdint>

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"
#include "executor/program_state.h"
#include "executor/pte_header.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;
using ::executorch::aten::ScalarType;

#define ET_VALIDATE(cond, ...)      \
  do {                              \
    if (!(cond)) {                  \
      ET_LOG(Error, __VA_ARGS__);   \
      return Error::InvalidProgram; \
    }                               \
  } while (0)

template <typename V>
static size_t vsize(const V* v) {
  return v == nullptr ? 0 : v->size();
}

// The Verifier checks a vector's length prefix, not that 8-byte elements are
// 8-aligned; FlatBuffers then reads them as T (UB; found by fuzz_program).
template <typename V>
static bool elems_aligned(const V* v) {
  return v == nullptr || reinterpret_cast<uintptr_t>(v->Data()) % sizeof(*v->data()) == 0;
}

Result<size_t> tensor_nbytes(const fb::Tensor* t) {
  const auto st = static_cast<ScalarType>(t->scalar_type());
  const size_t elem = isValid(st) ? elementSizeOrZero(st) : 0;
  if (elem == 0) {
    ET_LOG(Error, "Tensor has invalid scalar type %d", int(t->scalar_type()));
    return Error::InvalidProgram;
  }
  const auto* sizes = t->sizes();
  const size_t rank = vsize(sizes);
  if (rank > size_t(::executorch::aten::TensorImpl::kMaxDim)) {
    ET_LOG(Error, "Tensor rank %zu exceeds the maximum %d", rank,
           int(::executorch::aten::TensorImpl::kMaxDim));
    return Error::InvalidProgram;
  }
  for (size_t i = 0; i < rank; ++i) {
    const int32_t s = sizes->Get(static_cast<uint32_t>(i));
    if (s < 0) {
      ET_LOG(Error, "Tensor has negative size %d at dim %zu", s, i);
      return Error::InvalidProgram;
    }
  }
  int64_t numel = 0;
  int64_t nbytes = 0;
  if (!checked_numel(rank == 0 ? nullptr : sizes->data(), rank, &numel) ||
      !checked_mul<int64_t>(numel, int64_t(elem), &nbytes)) {
    ET_LOG(Error, "Tensor byte size overflows int64_t");
    return Error::InvalidProgram;
  }
  return host_tensor_bytes(nbytes);
}

// Keep bytes within 2^62 (offsets and ends computed from them stay in
// int64_t) and within what this host can address (a 32-bit size_t).
Result<size_t> host_tensor_bytes(int64_t nbytes) {
  size_t out = 0;
  if (!to_size_signed(nbytes, &out, kMaxHostTensorBytes)) {
    ET_LOG(Error, "Tensor of %lld bytes is over the limit of %llu bytes on this host",
           (long long)nbytes, (unsigned long long)kMaxHostTensorBytes);
    return Error::InvalidProgram;
  }
  return out;
}

Error check_tensor_strides(const fb::Tensor* t, uint32_t vi) {
  const size_t rank = vsize(t->sizes());
  uint8_t order[::executorch::aten::TensorImpl::kMaxDim];
  for (uint32_t i = 0; i < rank; ++i) {
    order[i] = t->dim_order() != nullptr ? t->dim_order()->Get(i) : uint8_t(i);
  }
  int32_t strides[::executorch::aten::TensorImpl::kMaxDim];
  StrideOverflow bad;
  ET_VALIDATE(rank == 0 || checked_dense_strides(t->sizes()->data(), order, rank, strides, &bad),
              "Tensor value %u: stride %lld of dim %zu does not fit the 32-bit stride "
              "type",
              vi, (long long)bad.value, bad.dim);
  return Error::Ok;
}

namespace {

bool is_kernel_type(fb::KernelTypes ty, fb::KernelTypes want) { return ty == want; }

struct PlanChecker {
  const ProgramState& st;
  const fb::Program* prog;
  const fb::ExecutionPlan* plan;
  size_t n_values;

  bool value_is(int32_t idx, fb::KernelTypes want) const {
    return idx >= 0 && size_t(idx) < n_values &&
           is_kernel_type(plan->values()->Get(uint32_t(idx))->val_type(), want);
  }

  Error check_index_list(const flatbuffers::Vector<int32_t>* v, const char* what) const {
    for (uint32_t i = 0; i < vsize(v); ++i) {
      const int32_t idx = v->Get(i);
      ET_VALIDATE(idx >= 0 && size_t(idx) < n_values,
                  "%s[%u] = %d is not a value index (%zu values)", what, i, idx, n_values);
    }
    return Error::Ok;
  }

  Error check_tensor(const fb::Tensor* t, uint32_t vi) const {
    auto nbytes_r = tensor_nbytes(t);
    if (!nbytes_r.ok()) {
      ET_LOG(Error, "... in value %u", vi);
      return nbytes_r.error();
    }
    ET_CHECK_OK_OR_RETURN_ERROR(check_tensor_layout(t, vi));
    return check_tensor_data(t, vi, *nbytes_r);
  }

  // Dim order, strides and the enum fields of a tensor value.
  Error check_tensor_layout(const fb::Tensor* t, uint32_t vi) const {
    const size_t rank = vsize(t->sizes());
    const auto* dim_order = t->dim_order();
    ET_VALIDATE(dim_order == nullptr || dim_order->size() == rank,
                "Tensor value %u: dim_order has %zu entries for rank %zu", vi, vsize(dim_order),
                rank);
    if (dim_order != nullptr) {
      uint32_t seen = 0;
      for (uint32_t i = 0; i < rank; ++i) {
        const uint8_t d = dim_order->Get(i);
        ET_VALIDATE(d < rank && !(seen & (1u << d)),
                    "Tensor value %u: dim_order is not a permutation", vi);
        seen |= 1u << d;
      }
    }
    ET_CHECK_OK_OR_RETURN_ERROR(check_tensor_strides(t, vi));
    const auto dyn = t->shape_dynamism();
    ET_VALIDATE(dyn >= fb::TensorShapeDynamism::MIN && dyn <= fb::TensorShapeDynamism::MAX,
                "Tensor value %u: unknown shape dynamism %d", vi, int(dyn));
    const auto* info = t->extra_tensor_info();
    if (info != nullptr) {
      ET_VALIDATE(info->location() >= fb::TensorDataLocation::MIN &&
                      info->location() <= fb::TensorDataLocation::MAX,
                  "Tensor value %u: unknown data location %d", vi, int(info->location()));
      ET_VALIDATE(
          info->device_type() >= fb::DeviceType::MIN && info->device_type() <= fb::DeviceType::MAX,
          "Tensor value %u: unknown device type %d", vi, int(info->device_type()));
    }
    return Error::Ok;
  }

  // Where a tensor value's `nbytes` live: a planned buffer (and its initial
  // value in the mutable data segment), a .ptd, or the constant data.
  Error check_tensor_data(const fb::Tensor* t, uint32_t vi, size_t nbytes) const {
    const auto* info = t->extra_tensor_info();
    const uint32_t dbi = t->data_buffer_idx();
    if (const auto* alloc = t->allocation_info()) {
      const auto* bufs = plan->non_const_buffer_sizes();
      const uint32_t mem_id = alloc->memory_id();
      ET_VALIDATE(mem_id >= 1 && mem_id < vsize(bufs),
                  "Tensor value %u: memory_id %u has no planned buffer (%zu sizes)", vi, mem_id,
                  vsize(bufs));
      const int64_t cap = bufs->Get(mem_id);
      ET_VALIDATE(range_fits(planned_offset(alloc), nbytes, uint64_t(cap)),
                  "Tensor value %u: planned range [%llu, +%zu) outside buffer %u "
                  "of %lld bytes",
                  vi, (unsigned long long)planned_offset(alloc), nbytes, mem_id, (long long)cap);
      if (dbi > 0 && !is_external(t)) {
        // Initial value from the mutable data segment.
        const auto* mds = prog->mutable_data_segments();
        ET_VALIDATE(vsize(mds) > 0 && vsize(mds->Get(0)->offsets()) > dbi,
                    "Tensor value %u: mutable data index %u out of range", vi, dbi);
        const auto* sub = mds->Get(0);
        const auto* seg = prog->segments()->Get(sub->segment_index());
        ET_VALIDATE(range_fits(sub->offsets()->Get(dbi), nbytes, seg->size()),
                    "Tensor value %u: mutable data [%llu, +%zu) outside segment %u", vi,
                    (unsigned long long)sub->offsets()->Get(dbi), nbytes, sub->segment_index());
      }
    } else if (is_external(t)) {
      ET_VALIDATE(info->fully_qualified_name() != nullptr,
                  "Tensor value %u is external but has no fully_qualified_name", vi);
    } else if (dbi > 0) {
      if (st.uses_constant_segment) {
        const auto* cs = prog->constant_segment();
        ET_VALIDATE(dbi < vsize(cs->offsets()),
                    "Tensor value %u: constant index %u out of range (%zu offsets)", vi, dbi,
                    vsize(cs->offsets()));
        const uint64_t seg_size = prog->segments()->Get(cs->segment_index())->size();
        ET_VALIDATE(range_fits(cs->offsets()->Get(dbi), nbytes, seg_size),
                    "Tensor value %u: constant [%llu, +%zu) outside the constant "
                    "segment of %llu bytes",
                    vi, (unsigned long long)cs->offsets()->Get(dbi), nbytes,
                    (unsigned long long)seg_size);
      } else {
        const auto* cb = prog->constant_buffer();
        ET_VALIDATE(dbi < vsize(cb),
                    "Tensor value %u: constant buffer %u out of "
                    "range (%zu buffers)",
                    vi, dbi, vsize(cb));
        ET_VALIDATE(vsize(cb->Get(dbi)->storage()) >= nbytes,
                    "Tensor value %u: constant buffer %u holds %zu bytes, needs %zu", vi, dbi,
                    vsize(cb->Get(dbi)->storage()), nbytes);
      }
    }
    return Error::Ok;
  }

  Error check_value(uint32_t vi) const {
    const fb::EValue* ev = plan->values()->Get(vi);
    const fb::KernelTypes ty = ev->val_type();
    ET_VALIDATE(ty >= fb::KernelTypes::MIN && ty <= fb::KernelTypes::MAX,
                "Value %u has unknown type %d", vi, int(ty));
    ET_VALIDATE(ty == fb::KernelTypes::NONE || ev->val() != nullptr,
                "Value %u of type %d has no payload", vi, int(ty));
    switch (ty) {
      case fb::KernelTypes::Tensor:
        return check_tensor(ev->val_as_Tensor(), vi);
      case fb::KernelTypes::String:
        ET_VALIDATE(ev->val_as_String()->string_val() != nullptr, "String value %u has no string",
                    vi);
        break;
      case fb::KernelTypes::IntList: {
        const auto* items = ev->val_as_IntList()->items();
        ET_VALIDATE(items != nullptr, "IntList value %u has no items", vi);
        ET_VALIDATE(elems_aligned(items), "IntList value %u items misaligned", vi);
        for (uint32_t i = 0; i < items->size(); ++i) {
          const int64_t idx = items->Get(i);
          // Items are indices of Int values.
          ET_VALIDATE(
              idx >= 0 && idx < int64_t(n_values) && value_is(int32_t(idx), fb::KernelTypes::Int),
              "IntList value %u item %u = %lld is not an Int value index", vi, i, (long long)idx);
        }
        break;
      }
      case fb::KernelTypes::DoubleList:
        ET_VALIDATE(ev->val_as_DoubleList()->items() != nullptr &&
                        elems_aligned(ev->val_as_DoubleList()->items()),
                    "DoubleList value %u has no (aligned) items", vi);
        break;
      case fb::KernelTypes::BoolList:
        ET_VALIDATE(ev->val_as_BoolList()->items() != nullptr, "BoolList value %u has no items",
                    vi);
        break;
      case fb::KernelTypes::TensorList: {
        const auto* items = ev->val_as_TensorList()->items();
        ET_VALIDATE(items != nullptr, "TensorList value %u has no items", vi);
        for (uint32_t i = 0; i < items->size(); ++i) {
          ET_VALIDATE(value_is(items->Get(i), fb::KernelTypes::Tensor),
                      "TensorList value %u item %u = %d is not a Tensor value", vi, i,
                      items->Get(i));
        }
        break;
      }
      case fb::KernelTypes::OptionalTensorList: {
        const auto* items = ev->val_as_OptionalTensorList()->items();
        ET_VALIDATE(items != nullptr, "OptionalTensorList value %u has no items", vi);
        for (uint32_t i = 0; i < items->size(); ++i) {
          const int32_t idx = items->Get(i);
          ET_VALIDATE(idx == -1 || value_is(idx, fb::KernelTypes::Tensor) ||
                          value_is(idx, fb::KernelTypes::Null),
                      "OptionalTensorList value %u item %u = %d is not a Tensor "
                      "value or -1",
                      vi, i, idx);
        }
        break;
      }
      default:
        break;
    }
    return Error::Ok;
  }

  Error check_instruction(const fb::Instruction* in, size_t n_instr, uint32_t ii) const {
    const auto ty = in->instr_args_type();
    ET_VALIDATE(ty > fb::InstructionArguments::NONE && ty <= fb::InstructionArguments::MAX &&
                    in->instr_args() != nullptr,
                "Instruction %u has unknown or missing arguments (type %d)", ii, int(ty));
    switch (ty) {
      case fb::InstructionArguments::KernelCall: {
        const auto* k = in->instr_args_as_KernelCall();
        ET_VALIDATE(k->op_index() >= 0 && size_t(k->op_index()) < vsize(plan->operators()),
                    "Instruction %u: op_index %d out of range (%zu operators)", ii, k->op_index(),
                    vsize(plan->operators()));
        return check_index_list(k->args(), "KernelCall args");
      }
      case fb::InstructionArguments::DelegateCall: {
        const auto* d = in->instr_args_as_DelegateCall();
        ET_VALIDATE(
            d->delegate_index() >= 0 && size_t(d->delegate_index()) < vsize(plan->delegates()),
            "Instruction %u: delegate_index %d out of range (%zu delegates)", ii,
            d->delegate_index(), vsize(plan->delegates()));
        return check_index_list(d->args(), "DelegateCall args");
      }
      case fb::InstructionArguments::MoveCall: {
        const auto* m = in->instr_args_as_MoveCall();
        ET_VALIDATE(m->move_from() >= 0 && size_t(m->move_from()) < n_values && m->move_to() >= 0 &&
                        size_t(m->move_to()) < n_values,
                    "Instruction %u: move %d -> %d out of range", ii, m->move_from(), m->move_to());
        // A move keeps the type: everything that reads the destination (a
        // method input, a list item, a kernel) relies on the type the file
        // gave it.
        const auto from = plan->values()->Get(uint32_t(m->move_from()))->val_type();
        const auto to = plan->values()->Get(uint32_t(m->move_to()))->val_type();
        ET_VALIDATE(from == to,
                    "Instruction %u: move from value %d (%s) to value %d (%s) changes "
                    "the destination's type",
                    ii, m->move_from(), fb::EnumNameKernelTypes(from), m->move_to(),
                    fb::EnumNameKernelTypes(to));
        break;
      }
      case fb::InstructionArguments::JumpFalseCall: {
        const auto* j = in->instr_args_as_JumpFalseCall();
        ET_VALIDATE(j->cond_value_index() >= 0 && size_t(j->cond_value_index()) < n_values,
                    "Instruction %u: condition value %d out of range", ii, j->cond_value_index());
        ET_VALIDATE(
            j->destination_instruction() >= 0 && size_t(j->destination_instruction()) < n_instr,
            "Instruction %u: jump destination %d out of range (%zu "
            "instructions)",
            ii, j->destination_instruction(), n_instr);
        break;
      }
      case fb::InstructionArguments::FreeCall: {
        const auto* f = in->instr_args_as_FreeCall();
        ET_VALIDATE(f->value_index() >= 0 && size_t(f->value_index()) < n_values,
                    "Instruction %u: free of value %d out of range", ii, f->value_index());
        break;
      }
      default:
        break;
    }
    return Error::Ok;
  }

  // Planned buffers: sizes, and the optional per-buffer device entries.
  Error check_buffer_plan() const {
    ET_VALIDATE(elems_aligned(plan->non_const_buffer_sizes()),
                "Method '%s': non_const_buffer_sizes misaligned", plan->name()->c_str());
    for (uint32_t i = 0; i < vsize(plan->non_const_buffer_sizes()); ++i) {
      ET_VALIDATE(plan->non_const_buffer_sizes()->Get(i) >= 0,
                  "Method '%s': planned buffer %u has negative size", plan->name()->c_str(), i);
    }
    const auto* devs = plan->non_const_buffer_device();
    ET_VALIDATE(vsize(devs) <= 1024 && vsize(devs) <= vsize(plan->non_const_buffer_sizes()),
                "Method '%s': %zu non_const_buffer_device entries", plan->name()->c_str(),
                size_t(vsize(devs)));
    for (uint32_t i = 0; i < vsize(devs); ++i) {
      const auto* d = devs->Get(i);
      ET_VALIDATE(d != nullptr && d->buffer_idx() >= 1 &&
                      uint32_t(d->buffer_idx()) < vsize(plan->non_const_buffer_sizes()),
                  "Method '%s': non_const_buffer_device %u names no planned buffer",
                  plan->name()->c_str(), i);
      ET_VALIDATE(d->device_type() >= fb::DeviceType::MIN &&
                      d->device_type() <= fb::DeviceType::MAX && d->device_index() >= 0,
                  "Method '%s': non_const_buffer_device %u has unknown device %d:%d",
                  plan->name()->c_str(), i, int(d->device_type()), int(d->device_index()));
      for (uint32_t j = 0; j < i; ++j) {
        ET_VALIDATE(devs->Get(j)->buffer_idx() != d->buffer_idx(),
                    "Method '%s': planned buffer %d has two device entries", plan->name()->c_str(),
                    int(d->buffer_idx()));
      }
    }
    return Error::Ok;
  }

  Error check_operators() const {
    for (uint32_t i = 0; i < vsize(plan->operators()); ++i) {
      const auto* op = plan->operators()->Get(i);
      ET_VALIDATE(op->name() != nullptr &&
                      op->name()->size() + vsize(op->overload()) + 2 <= kMaxOperatorNameLength,
                  "Operator %u has no name or a name longer than %zu", i, kMaxOperatorNameLength);
    }
    return Error::Ok;
  }

  // A delegate's processed data must name an existing inline blob or segment.
  Error check_delegate(uint32_t i) const {
    const auto* d = plan->delegates()->Get(i);
    ET_VALIDATE(d->id() != nullptr && d->processed() != nullptr,
                "Delegate %u has no id or no processed data", i);
    const auto loc = d->processed()->location();
    const uint32_t idx = d->processed()->index();
    if (loc == fb::DataLocation::INLINE) {
      ET_VALIDATE(idx < vsize(prog->backend_delegate_data()) &&
                      prog->backend_delegate_data()->Get(idx)->data() != nullptr,
                  "Delegate %u: inline data %u out of range", i, idx);
    } else if (loc == fb::DataLocation::SEGMENT) {
      ET_VALIDATE(idx < vsize(prog->segments()),
                  "Delegate %u: segment %u out of range (%zu segments)", i, idx,
                  vsize(prog->segments()));
    } else {
      ET_VALIDATE(false, "Delegate %u: unknown data location %d", i, int(loc));
    }
    for (uint32_t c = 0; c < vsize(d->compile_specs()); ++c) {
      ET_VALIDATE(d->compile_specs()->Get(c)->key() != nullptr,
                  "Delegate %u: compile spec %u has no key", i, c);
    }
    return Error::Ok;
  }

  // Chains: their value lists, the instruction budget, and each instruction.
  Error check_chains() const {
    size_t total_instr = 0;
    for (uint32_t c = 0; c < vsize(plan->chains()); ++c) {
      const auto* chain = plan->chains()->Get(c);
      ET_CHECK_OK_OR_RETURN_ERROR(check_index_list(chain->inputs(), "chain inputs"));
      ET_CHECK_OK_OR_RETURN_ERROR(check_index_list(chain->outputs(), "chain outputs"));
      const size_t n = vsize(chain->instructions());
      total_instr += n;
      ET_VALIDATE(total_instr <= kMaxInstructionsPerMethod, "Method '%s' has too many instructions",
                  plan->name()->c_str());
      for (uint32_t i = 0; i < n; ++i) {
        ET_CHECK_OK_OR_RETURN_ERROR(check_instruction(chain->instructions()->Get(i), n, i));
      }
    }
    return Error::Ok;
  }

  Error check() const {
    ET_VALIDATE(plan->name() != nullptr, "Execution plan without a name");
    ET_VALIDATE(n_values <= kMaxValuesPerMethod, "Method '%s' has %zu values (limit %zu)",
                plan->name()->c_str(), n_values, kMaxValuesPerMethod);
    ET_CHECK_OK_OR_RETURN_ERROR(check_buffer_plan());
    for (uint32_t i = 0; i < n_values; ++i) {
      ET_CHECK_OK_OR_RETURN_ERROR(check_value(i));
    }
    ET_CHECK_OK_OR_RETURN_ERROR(check_index_list(plan->inputs(), "inputs"));
    ET_CHECK_OK_OR_RETURN_ERROR(check_index_list(plan->outputs(), "outputs"));
    ET_CHECK_OK_OR_RETURN_ERROR(check_operators());
    for (uint32_t i = 0; i < vsize(plan->delegates()); ++i) {
      ET_CHECK_OK_OR_RETURN_ERROR(check_delegate(i));
    }
    return check_chains();
  }
};

Error check_subsegments(const fb::SubsegmentOffsets* sub, const fb::Program* prog,
                        const char* what) {
  ET_VALIDATE(sub->segment_index() < vsize(prog->segments()),
              "%s: segment %u out of range (%zu segments)", what, sub->segment_index(),
              vsize(prog->segments()));
  const uint64_t seg_size = prog->segments()->Get(sub->segment_index())->size();
  ET_VALIDATE(elems_aligned(sub->offsets()), "%s: offsets misaligned", what);
  for (uint32_t i = 0; i < vsize(sub->offsets()); ++i) {
    ET_VALIDATE(sub->offsets()->Get(i) <= seg_size,
                "%s: offset %u = %llu beyond segment of %llu bytes", what, i,
                (unsigned long long)sub->offsets()->Get(i), (unsigned long long)seg_size);
  }
  return Error::Ok;
}

} // namespace

Error validate_program(const ProgramState& st) {
  const fb::Program* prog = st.fb;
  const auto* plans = prog->execution_plan();
  ET_VALIDATE(plans != nullptr, "Program has no execution plans");
  ET_VALIDATE(plans->size() <= kMaxMethods, "Program has %u methods (limit %zu)", plans->size(),
              kMaxMethods);
  // Segments must lie inside the segment data of the file.
  const size_t n_segments = vsize(prog->segments());
  // Without an extended header segment data is empty (segment_data_size 0),
  // so only empty segments pass below; upstream writes such placeholders.
  for (uint32_t i = 0; i < n_segments; ++i) {
    const auto* seg = prog->segments()->Get(i);
    ET_VALIDATE(range_fits(seg->offset(), seg->size(), st.segment_data_size),
                "Segment %u [%llu, +%llu) outside segment data of %llu bytes", i,
                (unsigned long long)seg->offset(), (unsigned long long)seg->size(),
                (unsigned long long)st.segment_data_size);
  }
  if (prog->constant_segment() != nullptr && vsize(prog->constant_segment()->offsets()) > 0) {
    ET_CHECK_OK_OR_RETURN_ERROR(
        check_subsegments(prog->constant_segment(), prog, "constant_segment"));
  }
  for (uint32_t i = 0; i < vsize(prog->mutable_data_segments()); ++i) {
    ET_CHECK_OK_OR_RETURN_ERROR(
        check_subsegments(prog->mutable_data_segments()->Get(i), prog, "mutable_data_segments"));
  }
  for (uint32_t i = 0; i < vsize(prog->named_data()); ++i) {
    const auto* nd = prog->named_data()->Get(i);
    ET_VALIDATE(nd->key() != nullptr && nd->segment_index() < n_segments,
                "named_data %u has no key or segment %u out of range", i, nd->segment_index());
  }
  for (uint32_t i = 0; i < vsize(prog->backend_delegate_data()); ++i) {
    ET_VALIDATE(prog->backend_delegate_data()->Get(i)->data() != nullptr,
                "backend_delegate_data %u has no data", i);
  }
  for (uint32_t p = 0; p < plans->size(); ++p) {
    const auto* plan = plans->Get(p);
    PlanChecker c{st, prog, plan, vsize(plan->values())};
    ET_CHECK_OK_OR_RETURN_ERROR(c.check());
  }
  return Error::Ok;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
