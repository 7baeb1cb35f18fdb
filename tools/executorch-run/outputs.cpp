#include "outputs.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <sstream>
#include <vector>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/extension/evalue_util/print_evalue.h>
#include <executorch/extension/memory_allocator/planned_memory.h>
#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>

#include "errors.h"
#include "format.h"

namespace et_run {

using ::executorch::aten::Tensor;
using ::executorch::extension::HostBuffer;
using ::executorch::extension::MemoryBudget;
using rt::Error;
using rt::EValue;
using rt::Tag;

namespace {

// A tensor whose data is readable on the host: the output itself, or a
// copy of an output left on a device.
class HostTensor {
 public:
  HostTensor(const Tensor& t, size_t index, MemoryBudget* budget) : tensor_(t) {
    if (t.numel() != 0 && t.const_data_ptr() == nullptr) {
      fail(Error::InvalidState, "output %zu has no data", index);
    }
    if (t.device().is_cpu() || t.numel() == 0) {
      return;
    }
    rt::DeviceAllocator* a = rt::get_device_allocator(t.device_type());
    if (a == nullptr) {
      fail(Error::NotFound, "output %zu is on %s and there is no allocator for it", index,
           rt::device_type_name(t.device_type()));
    }
    clear_runtime_errors();
    auto copy = HostBuffer::allocate(t.nbytes(), budget, "an output copied from a device");
    if (!copy.ok()) {
      fail_rt(copy.error(), "cannot print output %zu", index);
    }
    copy_ = std::move(copy.get());
    const Error e =
        a->copy_device_to_host(copy_.data(), t.const_data_ptr(), t.nbytes(), t.device_index());
    if (e != Error::Ok) {
      fail_rt(e, "cannot copy output %zu from %s", index, rt::device_type_name(t.device_type()));
    }
    sizes_.assign(t.sizes().begin(), t.sizes().end());
    order_.assign(t.dim_order().begin(), t.dim_order().end());
    impl_ = std::make_unique<rt::etensor::TensorImpl>(t.scalar_type(), t.dim(), sizes_.data(),
                                                      copy_.data(), order_.data());
    tensor_ = Tensor(impl_.get());
  }
  const Tensor& get() const { return tensor_; }

 private:
  Tensor tensor_;
  HostBuffer copy_;
  std::vector<int32_t> sizes_;
  std::vector<uint8_t> order_;
  std::unique_ptr<rt::etensor::TensorImpl> impl_;
};

void json_range(const Tensor& t, size_t index, size_t begin, size_t end,
                std::vector<std::string>* values) {
  for (size_t i = begin; i < end; ++i) {
    std::string s;
    if (!format_element(t.scalar_type(), t.const_data_ptr(), i, true, &s)) {
      fail(Error::NotSupported, "output %zu: cannot print dtype %s", index,
           dtype_name(t.scalar_type()));
    }
    values->push_back(std::move(s));
  }
}

std::string json_tensor(const Tensor& t, size_t index, bool all) {
  const size_t total = static_cast<size_t>(t.numel());
  std::vector<std::string> values;
  size_t elided = 0;
  if (all || total <= kJsonAll) {
    json_range(t, index, 0, total, &values);
  } else {
    json_range(t, index, 0, kEdge, &values);
    json_range(t, index, total - kEdge, total, &values);
    elided = total - 2 * kEdge;
  }
  std::string shape = shape_string(t.sizes().data(), t.sizes().size());
  shape.erase(std::remove(shape.begin(), shape.end(), ' '), shape.end());
  std::string out = "{\"dtype\":\"" + json_escape(dtype_name(t.scalar_type())) +
                    "\",\"shape\":" + shape + ",\"values\":[";
  for (size_t i = 0; i < values.size(); ++i) {
    out += (i ? "," : "") + values[i];
  }
  out += "]";
  if (elided != 0) {
    out += ",\"elided\":" + std::to_string(elided);
  }
  return out + "}";
}

std::string json_scalar(const EValue& v) {
  std::string dtype = tag_name(v.tag);
  std::string value;
  if (v.isInt()) {
    value = std::to_string(v.toInt());
  } else if (v.isDouble()) {
    value = fmt_double17(v.toDouble(), true);
  } else if (v.isBool()) {
    value = v.toBool() ? "true" : "false";
  }
  return "{\"dtype\":\"" + json_escape(dtype) + "\",\"shape\":[],\"values\":[" + value + "]}";
}

// The library wraps more than ten shown items over lines, as upstream does;
// executorch-run prints one line per output. Only a string has newlines of
// its own, so in anything else each is a wrap: dropped with its indent, the
// ", " before a closing "]" dropped too, and a space kept after "...,".
std::string one_line(const std::string& wrapped) {
  std::string r;
  for (size_t i = 0; i < wrapped.size(); ++i) {
    if (wrapped[i] != '\n') {
      r += wrapped[i];
      continue;
    }
    while (i + 1 < wrapped.size() && wrapped[i + 1] == ' ') ++i;
    const bool closing = i + 1 < wrapped.size() && wrapped[i + 1] == ']';
    if (closing) {
      while (!r.empty() && (r.back() == ' ' || r.back() == ',')) r.pop_back();
    } else if (!r.empty() && r.back() == ',') {
      r += ' ';
    }
  }
  return r;
}

} // namespace

std::string format_output(const EValue& v, size_t index, const PrintOptions& p,
                          MemoryBudget* budget) {
  if (p.json) {
    if (!v.isTensor()) {
      return json_scalar(v);
    }
    HostTensor host(v.toTensor(), index, budget);
    return json_tensor(host.get(), index, p.all_values);
  }
  // "output 0: Float tensor(sizes=[2], [1., 2.])", "output 1: Int 3".
  std::ostringstream os;
  os << ::executorch::extension::evalue_edge_items(p.all_values ? LONG_MAX / 2 : long(kEdge));
  if (v.isTensor()) {
    HostTensor host(v.toTensor(), index, budget);
    os << dtype_name(host.get().scalar_type()) << " " << EValue(host.get());
  } else if (v.isNone()) {
    os << "None";
  } else {
    os << tag_name(v.tag) << " " << v;
  }
  return "output " + std::to_string(index) + ": " + (v.isString() ? os.str() : one_line(os.str())) +
         "\n";
}

} // namespace et_run
