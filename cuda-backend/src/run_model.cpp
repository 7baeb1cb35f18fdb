#include "run_model.h"

#include <cstdint>
#include <cstdio>

#include <executorch/runtime/platform/log.h>

#include "aoti/device_pool.h"
#include "aoti/output_placement.h"
#include "aoti/shim_internal.h"
#include "tensor_resize.h"

namespace executorch {
namespace backends {
namespace cuda {

using runtime::Error;
using runtime::EValue;
using runtime::Span;

namespace {

using aoti::TensorObj;

// Sizes and element strides of an ExecuTorch tensor (contiguous when the
// tensor carries no strides).
void shape_of(const exec_aten::Tensor& t, std::vector<int64_t>& sizes,
              std::vector<int64_t>& strides) {
  const size_t nd = static_cast<size_t>(t.dim());
  sizes.resize(nd);
  strides.resize(nd);
  auto st = t.strides();
  int64_t s = 1;
  for (size_t i = nd; i-- > 0;) {
    sizes[i] = t.sizes()[i];
    strides[i] = (st.size() == nd && st.data() != nullptr) ? st[i] : s;
    s *= sizes[i];
  }
}

// The handles of one Run, over a per-thread vector whose capacity stays
// (no allocation per execute). One input set and one output set are live at
// a time on a thread.
class HandleSet {
 public:
  HandleSet(std::vector<TensorObj*>& storage, size_t n) : handles(storage) {
    handles.assign(n, nullptr);
  }
  ~HandleSet() { drop(); }
  HandleSet(const HandleSet&) = delete;
  HandleSet& operator=(const HandleSet&) = delete;
  // Every slot holding `old` holds `now` instead; `old` is deleted.
  void replace(TensorObj* old, TensorObj* now) {
    for (auto& h : handles) {
      if (h == old) h = now;
    }
    aoti::destroy_tensor(old);
  }
  void drop() {
    // Outputs may repeat a handle: delete each once.
    for (size_t i = 0; i < handles.size(); ++i) {
      if (handles[i] == nullptr) continue;
      for (size_t j = i + 1; j < handles.size(); ++j) {
        if (handles[j] == handles[i]) handles[j] = nullptr;
      }
      aoti::destroy_tensor(handles[i]);
      handles[i] = nullptr;
    }
  }
  std::vector<TensorObj*>& handles;
};

thread_local std::vector<TensorObj*> tl_input_handles, tl_output_handles;
thread_local std::vector<aoti::PlacementTarget> tl_targets;
thread_local std::vector<aoti::OutputFate> tl_fates;

// The caller's device buffers the model may allocate its outputs in: a
// caller tensor on this device, aligned as Inductor assumes its own
// allocations are (16 bytes), overlapping no input.
const aoti::PlacementTarget* placement_targets(const std::vector<IoTensor>& ins,
                                               const std::vector<IoTensor>& outs, int dev) {
  tl_targets.assign(outs.size(), aoti::PlacementTarget{});
  for (size_t j = 0; j < outs.size(); ++j) {
    const IoTensor& t = outs[j];
    if (!t.on_device || t.tensor == nullptr || t.nbytes == 0 ||
        reinterpret_cast<uintptr_t>(t.data) % 16 != 0)
      continue;
    const char* lo = static_cast<const char*>(t.data);
    bool overlaps = false;
    for (const IoTensor& i : ins) {
      const char* ilo = static_cast<const char*>(i.data);
      overlaps = overlaps || (i.on_device && ilo < lo + t.nbytes && lo < ilo + i.nbytes);
    }
    if (overlaps) continue;
    tl_targets[j] = {t.data,         t.nbytes,       t.dtype,         dev,
                     t.sizes.size(), t.sizes.data(), t.strides.data()};
  }
  return tl_targets.data();
}

// A copy of `h` (its whole strided extent) in a fresh device block, for an
// output that lies in a buffer another output is about to be written to.
// Not aoti_torch_clone: the run's ScopedPlacement is still active, and
// clone's empty_strided would count as the run's next allocation there.
TensorObj* stage_copy(const TensorObj& h, int dev, cudaStream_t stream) {
  const int64_t nd = static_cast<int64_t>(h.sizes.size());
  const size_t span = aoti::span_bytes(nd, h.sizes.data(), h.strides.data(), h.elem_size());
  TensorObj* s =
      aoti::make_owned_device(span, nd, h.sizes.data(), h.strides.data(), h.dtype, dev, stream);
  if (s != nullptr && span > 0 &&
      cudaMemcpyAsync(s->data(), h.data(), span, cudaMemcpyDeviceToDevice, stream) != cudaSuccess) {
    aoti::destroy_tensor(s);
    return nullptr;
  }
  return s;
}

// Output j of the model (`h`) against the planned tensor `t`: same dtype;
// the same shape, or (a dynamic shape) `t`'s tensor resized to it within its
// bound. Staging buffers (no tensor) must match in element count.
Error fit_output(const aoti::LoadedModel& model, size_t j, const TensorObj& h, IoTensor& t) {
  const char* label = model.label().c_str();
  ET_CHECK_OR_RETURN_ERROR(t.dtype == h.dtype, InvalidArgument,
                           "CudaBackend[%s]: output %zu has dtype %d; the program planned %d",
                           label, j, h.dtype, t.dtype);
  if (h.sizes == t.sizes) return Error::Ok;
  if (t.tensor == nullptr) {
    int64_t numel = 1;
    for (int64_t s : t.sizes) numel *= s;
    ET_CHECK_OR_RETURN_ERROR(h.numel() == numel, InvalidArgument,
                             "CudaBackend[%s]: output %zu is %lld elements; %lld were planned",
                             label, j, static_cast<long long>(h.numel()),
                             static_cast<long long>(numel));
    return Error::Ok;
  }
  char what[96];
  std::snprintf(what, sizeof what, "CudaBackend[%s] output %zu", label, j);
  const Error e = resize_to(*t.tensor, h.sizes.data(), h.sizes.size(), what);
  if (e != Error::Ok) return e;
  t.nbytes = t.tensor->nbytes();
  shape_of(*t.tensor, t.sizes, t.strides);
  return Error::Ok;
}

// Output `h` into the planned buffer `t` (in the program's layout): one
// memcpy when the layouts agree; a layout change (a channels-last output,
// say) is one kernel on the device, then one copy to a host buffer.
cudaError_t copy_output(const TensorObj& h, const IoTensor& t, int dev, cudaStream_t stream) {
  const int64_t nd = static_cast<int64_t>(t.sizes.size());
  const int64_t* src_strides =
      h.strides.size() == t.sizes.size() ? h.strides.data() : t.strides.data();
  const size_t elem = h.elem_size();
  if (h.device_type != aoti::kDevCuda) {
    return aoti::strided_copy(static_cast<char*>(t.data), t.strides.data(), h.data(), src_strides,
                              t.sizes.data(), nd, elem, stream);
  }
  if (t.on_device) {
    return aoti::device_strided_copy(static_cast<char*>(t.data), t.strides.data(), h.data(),
                                     src_strides, t.sizes.data(), nd, elem, stream);
  }
  bool same = true;
  for (int64_t i = 0; i < nd; ++i)
    same = same && (t.sizes[i] == 1 || src_strides[i] == t.strides[i]);
  if (same) {
    return aoti::strided_copy(static_cast<char*>(t.data), t.strides.data(), h.data(), src_strides,
                              t.sizes.data(), nd, elem, stream);
  }
  // Rearranged on the device first, then one device-to-host copy.
  void* staged = nullptr;
  cudaError_t e = aoti::pool_alloc(&staged, t.nbytes, dev, stream);
  if (e != cudaSuccess) return e;
  e = aoti::device_strided_copy(static_cast<char*>(staged), t.strides.data(), h.data(), src_strides,
                                t.sizes.data(), nd, elem, stream);
  if (e == cudaSuccess) {
    e = aoti::strided_copy(static_cast<char*>(t.data), t.strides.data(),
                           static_cast<const char*>(staged), t.strides.data(), t.sizes.data(), nd,
                           elem, stream);
  }
  const cudaError_t f = aoti::pool_free(staged, t.nbytes, stream);
  return e != cudaSuccess ? e : f;
}

} // namespace

Error describe_args(const aoti::LoadedModel& model, Span<EValue*> args,
                    std::vector<IoTensor>& inputs, std::vector<IoTensor>& outputs) {
  const size_t n_in = model.num_inputs(), n_out = model.num_outputs();
  ET_CHECK_OR_RETURN_ERROR(args.size() == n_in + n_out, InvalidArgument,
                           "CudaBackend[%s]: %zu arguments, the model takes %zu inputs and "
                           "%zu outputs",
                           model.label().c_str(), args.size(), n_in, n_out);
  inputs.resize(n_in);
  outputs.resize(n_out);
  for (size_t i = 0; i < args.size(); ++i) {
    ET_CHECK_OR_RETURN_ERROR(args[i] != nullptr && args[i]->isTensor(), InvalidArgument,
                             "CudaBackend[%s]: argument %zu is not a tensor", model.label().c_str(),
                             i);
    exec_aten::Tensor& t = args[i]->toTensor();
    IoTensor& io = i < n_in ? inputs[i] : outputs[i - n_in];
    io.data = t.mutable_data_ptr();
    io.nbytes = t.nbytes();
    io.dtype = static_cast<int32_t>(t.scalar_type());
    io.on_device = t.device_type() == runtime::etensor::DeviceType::CUDA;
    io.tensor = &t;
    shape_of(t, io.sizes, io.strides);
    ET_CHECK_OR_RETURN_ERROR(aoti::dtype_size(io.dtype) != 0, InvalidArgument,
                             "CudaBackend[%s]: argument %zu has an unsupported dtype %d",
                             model.label().c_str(), i, io.dtype);
  }
  return Error::Ok;
}

namespace {

// Whether the device can address `t`'s memory at its address: device or
// managed memory, or page-locked host memory mapped there. `why` receives
// the reason when it cannot.
bool device_addressable(const IoTensor& t, const char** why) {
  cudaPointerAttributes a{};
  const cudaError_t ce = cudaPointerGetAttributes(&a, t.data);
  if (ce != cudaSuccess) {
    (void)cudaGetLastError();
    *why = cudaGetErrorString(ce);
    return false;
  }
  switch (a.type) {
    case cudaMemoryTypeDevice:
    case cudaMemoryTypeManaged:
      return true;
    case cudaMemoryTypeHost:
      *why = "page-locked host memory not mapped for the device at that address";
      return a.devicePointer == t.data;
    default:
      *why = "host memory the CUDA runtime does not know (pageable)";
      return false;
  }
}

} // namespace

Error check_device_tags(const aoti::LoadedModel& model, const std::vector<IoTensor>& inputs,
                        const std::vector<IoTensor>& outputs) {
  for (const auto* list : {&inputs, &outputs}) {
    for (size_t i = 0; i < list->size(); ++i) {
      const IoTensor& t = (*list)[i];
      const char* why = "";
      // No data yet (an output the model may place, output_placement.h):
      // nothing to ask the driver about.
      if (!t.on_device || t.nbytes == 0 || t.data == nullptr || device_addressable(t, &why)) {
        continue;
      }
      ET_LOG(Error, "CudaBackend[%s]: %s %zu is tagged CUDA but its data %p is %s",
             model.label().c_str(), list == &inputs ? "input" : "output", i, t.data, why);
      return Error::InvalidArgument;
    }
  }
  return Error::Ok;
}

Error run_model(const aoti::LoadedModel& model, const std::vector<IoTensor>& ins,
                std::vector<IoTensor>& outs, cudaStream_t stream) {
  const size_t n_in = ins.size(), n_out = outs.size();
  const int dev = model.device_index();
  const char* label = model.label().c_str();
  // Fresh input handles every call: the model steals and deletes them.
  HandleSet inputs(tl_input_handles, n_in);
  for (size_t i = 0; i < n_in; ++i) {
    const IoTensor& t = ins[i];
    const auto nd = static_cast<int64_t>(t.sizes.size());
    TensorObj* h;
    if (t.on_device) {
      h = aoti::make_view(t.data, t.nbytes, nd, t.sizes.data(), t.strides.data(), t.dtype,
                          aoti::kDevCuda, dev);
    } else {
      // Host input (1.1-1.3 programs): stage a device copy, freed
      // stream-ordered when the model drops the handle.
      h = aoti::make_owned_device(t.nbytes, nd, t.sizes.data(), t.strides.data(), t.dtype, dev,
                                  stream);
      if (h != nullptr && t.nbytes > 0) {
        cudaError_t ce =
            cudaMemcpyAsync(h->data(), t.data, t.nbytes, cudaMemcpyHostToDevice, stream);
        if (ce != cudaSuccess) {
          aoti::destroy_tensor(h);
          ET_LOG(Error, "CudaBackend[%s]: copying input %zu to the GPU: %s", label, i,
                 cudaGetErrorString(ce));
          return Error::Internal;
        }
      }
    }
    ET_CHECK_OR_RETURN_ERROR(h != nullptr, MemoryAllocationFailed,
                             "CudaBackend[%s]: no memory for input %zu", label, i);
    inputs.handles[i] = h;
    AOTI_TRACE("execute[%s] input %zu %s", label, i, aoti::describe(h).c_str());
  }
  HandleSet outputs(tl_output_handles, n_out);
  aoti::OutputPlan& plan = model.output_plan();
  aoti::ScopedPlacement placement(plan, plan.idle() ? nullptr : placement_targets(ins, outs, dev),
                                  n_out);
  AOTI_TRACE("execute[%s] Run(n_in=%zu, n_out=%zu, stream=%p)", label, n_in, n_out,
             static_cast<void*>(stream));
  const int32_t rc = model.api().run(model.container(), inputs.handles.data(), n_in,
                                     outputs.handles.data(), n_out, stream, nullptr);
  // The model took ownership of every input handle (it deletes them during
  // Run, whether or not it nulls the slots): never delete them here.
  for (auto& h : inputs.handles) h = nullptr;
  for (size_t j = 0; j < n_out; ++j) {
    AOTI_TRACE("execute[%s] Run rc=%d output %zu %s", label, rc, j,
               aoti::describe(outputs.handles[j]).c_str());
  }
  if (rc != 0) {
    ET_LOG(Error, "CudaBackend[%s]: AOTInductorModelContainerRun failed (%d)", label, rc);
    return Error::Internal;
  }
  for (size_t j = 0; j < n_out; ++j) {
    ET_CHECK_OR_RETURN_ERROR(outputs.handles[j] != nullptr, Internal,
                             "CudaBackend[%s]: the model produced no output %zu", label, j);
  }
  tl_fates.resize(n_out);
  placement.settle(outputs.handles.data(), tl_fates.data());
  // Staged copies replace their outputs' handles (dropped with the set).
  for (size_t j = 0; j < n_out; ++j) {
    if (tl_fates[j] != aoti::OutputFate::kStage) continue;
    TensorObj* staged = stage_copy(*outputs.handles[j], dev, stream);
    ET_CHECK_OR_RETURN_ERROR(staged != nullptr, MemoryAllocationFailed,
                             "CudaBackend[%s]: no memory to stage output %zu", label, j);
    outputs.replace(outputs.handles[j], staged);
    for (size_t k = j + 1; k < n_out; ++k) {
      if (outputs.handles[k] == staged) tl_fates[k] = aoti::OutputFate::kCopy;
    }
  }
  for (size_t j = 0; j < n_out; ++j) {
    TensorObj* h = outputs.handles[j];
    Error e = fit_output(model, j, *h, outs[j]);
    if (e != Error::Ok) return e;
    const IoTensor& t = outs[j];
    if (tl_fates[j] == aoti::OutputFate::kInPlace) continue;
    if (h->data() == t.data && t.on_device) continue;
    const cudaError_t ce = copy_output(*h, t, model.device_index(), stream);
    if (ce != cudaSuccess) {
      ET_LOG(Error, "CudaBackend[%s]: copying output %zu: %s", label, j, cudaGetErrorString(ce));
      return Error::Internal;
    }
  }
  return Error::Ok;
}

} // namespace cuda
} // namespace backends
} // namespace executorch
