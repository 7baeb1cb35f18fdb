#include "xnnpack_backend.h"

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

#include <executorch/extension/threadpool/threadpool.h>
#include <executorch/runtime/backend/backend_execution_context.h>
#include <executorch/runtime/backend/backend_init_context.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/platform/log.h>

#include "payload.h"
#include "subgraph.h"

namespace xnnpack_backend {

using executorch::aten::ScalarType;
using executorch::aten::SizesType;
using executorch::aten::Tensor;
using executorch::runtime::ArrayRef;
using executorch::runtime::BackendExecutionContext;
using executorch::runtime::BackendInitContext;
using executorch::runtime::CompileSpec;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::Result;
using executorch::runtime::Span;

namespace {

// One delegate instance: its runtime, and the external values handed to
// XNNPACK at each run. Runs of one instance take turns.
struct Delegate {
  Compiled compiled;
  std::vector<xnn_external_value> externals;
  std::mutex mutex;
};

bool initialize_xnnpack() {
  static const xnn_status status = xnn_initialize(nullptr);
  if (status != xnn_status_success) {
    ET_LOG(Error, "XnnpackBackend: xnn_initialize: %s", status_name(status));
  }
  return status == xnn_status_success;
}

// Argument `index` as an fp32 tensor of at most XNNPACK's rank, contiguous.
Result<Tensor*> tensor_arg(Span<EValue*> args, uint32_t index) {
  if (index >= args.size() || args[index] == nullptr || !args[index]->isTensor()) {
    ET_LOG(Error, "XnnpackBackend: argument %u of %zu is not a tensor", index, args.size());
    return Error::InvalidArgument;
  }
  Tensor* t = &args[index]->toTensor();
  if (t->scalar_type() != ScalarType::Float) {
    ET_LOG(Error, "XnnpackBackend: argument %u has dtype %d, not float", index,
           static_cast<int>(t->scalar_type()));
    return Error::InvalidArgument;
  }
  if (t->dim() > static_cast<ssize_t>(xnnpack_payload::kMaxDims) ||
      !executorch::runtime::is_contiguous_dim_order(t->dim_order().data(),
                                                    static_cast<size_t>(t->dim()))) {
    ET_LOG(Error, "XnnpackBackend: argument %u has %zd dims or is not contiguous", index,
           static_cast<ssize_t>(t->dim()));
    return Error::NotSupported;
  }
  return t;
}

Error reshape_inputs(Delegate& d, Span<EValue*> args) {
  for (uint32_t id : d.compiled.input_ids) {
    auto t = tensor_arg(args, id);
    if (!t.ok()) {
      return t.error();
    }
    size_t dims[xnnpack_payload::kMaxDims];
    for (ssize_t i = 0; i < (*t)->dim(); ++i) {
      dims[i] = static_cast<size_t>((*t)->size(i));
    }
    const xnn_status s =
        xnn_reshape_external_value(d.compiled.runtime.get(), id, (*t)->dim(), dims);
    if (s != xnn_status_success) {
      ET_LOG(Error, "XnnpackBackend: input %u: reshape: %s", id, status_name(s));
      return Error::InvalidArgument;
    }
  }
  const xnn_status s = xnn_reshape_runtime(d.compiled.runtime.get());
  if (s != xnn_status_success) {
    ET_LOG(Error, "XnnpackBackend: the inputs' shapes do not fit the graph: %s", status_name(s));
    return Error::InvalidArgument;
  }
  return Error::Ok;
}

Error resize_outputs(Delegate& d, Span<EValue*> args) {
  for (uint32_t id : d.compiled.output_ids) {
    auto t = tensor_arg(args, id);
    if (!t.ok()) {
      return t.error();
    }
    size_t num_dims = 0;
    size_t dims[XNN_MAX_TENSOR_DIMS];
    const xnn_status s =
        xnn_get_external_value_shape(d.compiled.runtime.get(), id, &num_dims, dims);
    if (s != xnn_status_success || num_dims != static_cast<size_t>((*t)->dim())) {
      ET_LOG(Error, "XnnpackBackend: output %u: %zu dims, the tensor has %zd (%s)", id, num_dims,
             static_cast<ssize_t>((*t)->dim()), status_name(s));
      return Error::Internal;
    }
    SizesType sizes[XNN_MAX_TENSOR_DIMS];
    for (size_t i = 0; i < num_dims; ++i) {
      sizes[i] = static_cast<SizesType>(dims[i]);
    }
    const Error e = executorch::runtime::resize_tensor(**t, ArrayRef<SizesType>(sizes, num_dims));
    if (e != Error::Ok) {
      ET_LOG(Error, "XnnpackBackend: output %u cannot take the shape XNNPACK derived", id);
      return e;
    }
  }
  return Error::Ok;
}

Error run(Delegate& d, Span<EValue*> args) {
  d.externals.clear();
  const auto& inputs = d.compiled.input_ids; // sorted
  const std::vector<uint32_t>* lists[] = {&inputs, &d.compiled.output_ids};
  for (const auto* list : lists) {
    for (uint32_t id : *list) {
      if (list != &inputs && std::binary_search(inputs.begin(), inputs.end(), id)) {
        continue; // a value both input and output: passed once
      }
      Tensor& t = args[id]->toTensor(); // tensor_arg has checked it
      if (t.numel() != 0 && t.mutable_data_ptr() == nullptr) {
        ET_LOG(Error, "XnnpackBackend: argument %u has no data", id);
        return Error::InvalidArgument;
      }
      d.externals.push_back({id, t.mutable_data_ptr()});
    }
  }
  xnn_status s =
      xnn_setup_runtime_v2(d.compiled.runtime.get(), d.externals.size(), d.externals.data());
  if (s == xnn_status_success) {
    s = xnn_invoke_runtime(d.compiled.runtime.get());
  }
  if (s != xnn_status_success) {
    ET_LOG(Error, "XnnpackBackend: run: %s", status_name(s));
    return Error::Internal;
  }
  return Error::Ok;
}

} // namespace

bool XnnpackBackend::is_available() const { return initialize_xnnpack(); }

Result<DelegateHandle*> XnnpackBackend::init(BackendInitContext& context, FreeableBuffer* processed,
                                             ArrayRef<CompileSpec> /*compile_specs*/) const {
  if (!initialize_xnnpack()) {
    return Error::NotSupported;
  }
  if (processed == nullptr) {
    return Error::InvalidArgument;
  }
  auto payload = xnnpack_payload::parse_payload(processed->data(), processed->size());
  if (!payload.ok()) {
    ET_LOG(Error, "XnnpackBackend: the delegate's payload cannot be read");
    return payload.error();
  }
  auto compiled = compile(*payload, context.get_named_data_map(),
                          executorch::extension::threadpool::get_pthreadpool());
  if (!compiled.ok()) {
    return compiled.error();
  }
  auto* d = new (std::nothrow) Delegate;
  if (d == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  d->compiled = std::move(*compiled);
  d->externals.reserve(d->compiled.input_ids.size() + d->compiled.output_ids.size());
  // Every constant the runtime reads is packed or copied: the blob can go.
  processed->Free();
  return d;
}

Error XnnpackBackend::execute(BackendExecutionContext& /*context*/, DelegateHandle* handle,
                              Span<EValue*> args) const {
  if (handle == nullptr) {
    return Error::InvalidState;
  }
  auto& d = *static_cast<Delegate*>(handle);
  std::lock_guard<std::mutex> lock(d.mutex);
  Error e = reshape_inputs(d, args);
  if (e == Error::Ok) {
    e = resize_outputs(d, args);
  }
  return e == Error::Ok ? run(d, args) : e;
}

void XnnpackBackend::destroy(DelegateHandle* handle) const {
  delete static_cast<Delegate*>(handle);
}

} // namespace xnnpack_backend
