#include "inputs.h"

#include <cstdio>
#include <map>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>

#include "errors.h"
#include "format.h"
#include "input_spec.h"

namespace et_run {

using ::executorch::extension::HostBuffer;
using ::executorch::extension::MemoryBudget;
using rt::Error;
using rt::EValue;

namespace {

// The tensor for input i, filled from spec.
void make_input(const std::string& spec, const std::string& method_name, size_t i,
                const rt::TensorInfo& info, MemoryBudget* budget, InputTensor* t) {
  const ScalarType dtype = info.scalar_type();
  if (!dtype_fillable(dtype)) {
    fail(Error::NotSupported,
         "method '%s': input %zu has dtype %s, which this tool "
         "cannot fill",
         method_name.c_str(), i, dtype_name(dtype));
  }
  const auto sizes = info.sizes();
  const auto dim_order = info.dim_order();
  t->sizes.assign(sizes.begin(), sizes.end());
  t->dim_order.assign(dim_order.begin(), dim_order.end());
  size_t numel = 1;
  size_t nbytes = rt::elementSize(dtype);
  for (int32_t s : t->sizes) {
    if (s < 0 || __builtin_mul_overflow(numel, static_cast<size_t>(s), &numel) ||
        __builtin_mul_overflow(nbytes, static_cast<size_t>(s), &nbytes)) {
      fail(Error::InvalidProgram, "method '%s': input %zu has a bad shape %s", method_name.c_str(),
           i, shape_string(t->sizes.data(), t->sizes.size()).c_str());
    }
  }
  char what[64];
  std::snprintf(what, sizeof(what), "input %zu", i);
  clear_runtime_errors();
  auto data = HostBuffer::allocate(nbytes, budget, what);
  if (!data.ok()) {
    fail_rt(data.error(), "method '%s': cannot allocate input %zu", method_name.c_str(), i);
  }
  t->data = std::move(data.get());
  fill_input(spec, i, dtype, numel, nbytes, t->data.data());
  t->impl = std::make_unique<rt::etensor::TensorImpl>(
      dtype, static_cast<ssize_t>(t->sizes.size()), t->sizes.data(), t->data.data(),
      t->dim_order.empty() ? nullptr : t->dim_order.data());
}

} // namespace

void build_inputs(const std::vector<std::string>& specs, const std::string& method_name,
                  rt::Method& method, MemoryBudget* budget, Inputs* out) {
  const rt::MethodMeta meta = method.method_meta();
  const size_t n = meta.num_inputs();
  if (specs.size() > 1 && specs.size() != n) {
    fail(Error::InvalidArgument,
         "%zu --input given, method '%s' takes %zu input(s) (give "
         "one per input, or one for all)",
         specs.size(), method_name.c_str(), n);
  }
  out->tensors.resize(n);
  out->values.resize(n);
  std::map<const EValue*, size_t> first_of_slot;
  for (size_t i = 0; i < n; ++i) {
    auto tag = meta.input_tag(i);
    if (!tag.ok()) {
      fail(tag.error(), "method '%s': cannot read input %zu", method_name.c_str(), i);
    }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    const EValue& slot = method.get_input(i);
#pragma GCC diagnostic pop
    if (tag.get() != rt::Tag::Tensor) {
      out->values[i] = slot; // Int/Double/Bool inputs are fixed at export
      continue;
    }
    auto seen = first_of_slot.find(&slot);
    if (seen != first_of_slot.end() && specs.size() <= 1) {
      out->values[i] = out->values[seen->second];
      continue;
    }
    first_of_slot.emplace(&slot, i);
    auto info = meta.input_tensor_meta(i);
    if (!info.ok()) {
      fail(info.error(), "method '%s': cannot read input %zu", method_name.c_str(), i);
    }
    const std::string spec = specs.empty() ? "ones" : specs.size() == 1 ? specs[0] : specs[i];
    make_input(spec, method_name, i, info.get(), budget, &out->tensors[i]);
    out->values[i] = EValue(::executorch::aten::Tensor(out->tensors[i].impl.get()));
  }
}

void provide_output_buffers(const std::string& method_name, rt::Method& method,
                            MemoryBudget* budget, std::vector<HostBuffer>* out) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& slot = method.get_output(i);
    if (!slot.isTensor() || slot.toTensor().nbytes() == 0 ||
        slot.toTensor().const_data_ptr() != nullptr) {
      continue;
    }
    bool is_input = false;
    for (size_t j = 0; j < method.inputs_size() && !is_input; ++j) {
      is_input = &method.get_input(j) == &slot;
    }
    if (is_input) {
      continue; // it gets the input's data
    }
    const size_t nbytes = slot.toTensor().nbytes();
    char what[64];
    std::snprintf(what, sizeof(what), "output %zu", i);
    clear_runtime_errors();
    auto data = HostBuffer::allocate(nbytes, budget, what);
    if (!data.ok()) {
      fail_rt(data.error(), "method '%s': cannot allocate output %zu", method_name.c_str(), i);
    }
    clear_runtime_errors();
    const Error e = method.set_output_data_ptr(data->data(), nbytes, i);
    if (e != Error::Ok) {
      fail_rt(e, "method '%s': cannot give output %zu its memory", method_name.c_str(), i);
    }
    out->push_back(std::move(data.get()));
  }
#pragma GCC diagnostic pop
}

} // namespace et_run
