#include <executorch/extension/runner_util/inputs.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

using ::executorch::ET_RUNTIME_NAMESPACE::Method;
using ::executorch::ET_RUNTIME_NAMESPACE::MethodMeta;
using ::executorch::ET_RUNTIME_NAMESPACE::TensorInfo;
using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;
using ::executorch::runtime::Result;
using ::executorch::runtime::Span;
using ::executorch::runtime::Tag;

BufferCleanup::~BufferCleanup() {
  for (void* b : buffers_) {
    std::free(b);
  }
  delete[] buffers_.data();
}

namespace {

void fill_ones(void* data, size_t numel, ::executorch::aten::ScalarType type) {
  internal::switch_fillable_dtype(type, [&](auto tag) {
    using CT = decltype(tag);
    CT* out = static_cast<CT*>(data);
    for (size_t i = 0; i < numel; ++i) {
      out[i] = internal::convert_element<CT>(1);
    }
  });
}

// Fills `data` (info.nbytes() bytes) from `source`, or with ones when there
// is none, and sets it as input i of the method.
Error fill_and_set_input(Method& method, size_t i, const TensorInfo& info, const char* source,
                         void* data) {
  const size_t nbytes = info.nbytes();
  if (source != nullptr) {
    if (nbytes != 0) {
      std::memcpy(data, source, nbytes);
    }
  } else {
    const size_t elem = ::executorch::runtime::elementSizeOrZero(info.scalar_type());
    if (elem != 0) {
      fill_ones(data, nbytes / elem, info.scalar_type());
    }
  }

  // The TensorImpl only needs to live through set_input: planned inputs are
  // copied, unplanned ones alias data (owned by the cleanup).
  auto sizes = info.sizes();
  auto dim_order = info.dim_order();
  ::executorch::aten::TensorImpl impl(
      info.scalar_type(), static_cast<ssize_t>(sizes.size()),
      const_cast<::executorch::aten::SizesType*>(sizes.data()), data,
      const_cast<::executorch::aten::DimOrderType*>(dim_order.data()));
  const Error err = method.set_input(::executorch::aten::Tensor(&impl), i);
  if (err != Error::Ok) {
    ET_LOG(Error, "Input %zu rejected by the method (error 0x%x)", i, static_cast<unsigned>(err));
  }
  return err;
}

// Reads a scalar of type T from a caller's buffer of exactly sizeof(T) bytes.
template <typename T>
Error set_scalar_from_buffer(Method& method, size_t i, const std::pair<char*, size_t>& buffer,
                             const char* type_name) {
  ET_CHECK_OR_RETURN_ERROR(buffer.first != nullptr && buffer.second == sizeof(T), InvalidArgument,
                           "%s input %zu: buffer has %zu bytes, expected %zu", type_name, i,
                           buffer.second, sizeof(T));
  T value;
  std::memcpy(&value, buffer.first, sizeof(T));
  return method.set_input(EValue(value), i);
}

// A None or scalar input. With caller buffers, an Int, Double or Bool comes
// from its buffer (as upstream: the buffer must be the scalar's exact size);
// without, a scalar is set to the value the program was traced with (upstream
// leaves it unset, so execute() would refuse to run).
Error set_non_tensor_input(Method& method, size_t i, Tag tag,
                           const std::vector<std::pair<char*, size_t>>& input_buffers) {
  if (tag == Tag::None) {
    return method.set_input(EValue(), i);
  }
  if (input_buffers.empty()) {
    if (tag == Tag::Int || tag == Tag::Double || tag == Tag::Bool) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
      const EValue traced = method.get_input(i);
#pragma GCC diagnostic pop
      return method.set_input(traced, i);
    }
    return Error::Ok;
  }
  switch (tag) {
    case Tag::Int:
      return set_scalar_from_buffer<int64_t>(method, i, input_buffers[i], "Int");
    case Tag::Double:
      return set_scalar_from_buffer<double>(method, i, input_buffers[i], "Double");
    case Tag::Bool:
      return set_scalar_from_buffer<bool>(method, i, input_buffers[i], "Bool");
    default:
      ET_LOG(Error, "Input %zu: tag %u cannot be read from a buffer", i, unsigned(tag));
      return Error::InvalidArgument;
  }
}

} // namespace

Result<BufferCleanup> prepare_input_tensors(
    Method& method, PrepareInputTensorsOptions options,
    const std::vector<std::pair<char*, size_t>>& input_buffers) {
  const MethodMeta meta = method.method_meta();
  const size_t num_inputs = meta.num_inputs();
  ET_CHECK_OR_RETURN_ERROR(num_inputs <= options.max_inputs, InvalidProgram,
                           "Method has %zu inputs, more than the limit of %zu", num_inputs,
                           options.max_inputs);
  ET_CHECK_OR_RETURN_ERROR(input_buffers.empty() || input_buffers.size() == num_inputs,
                           InvalidArgument, "%zu input buffers given for %zu inputs",
                           input_buffers.size(), num_inputs);

  void** buffers = new (std::nothrow) void*[num_inputs == 0 ? 1 : num_inputs];
  ET_CHECK_OR_RETURN_ERROR(buffers != nullptr, MemoryAllocationFailed,
                           "Cannot allocate the input buffer table");
  size_t num_allocated = 0;
  // Every error return below frees what was allocated so far.
  auto fail = [&](Error e) -> Result<BufferCleanup> {
    BufferCleanup partial(Span<void*>(buffers, num_allocated));
    return e;
  };

  size_t total = 0;
  for (size_t i = 0; i < num_inputs; ++i) {
    auto tag = meta.input_tag(i);
    if (!tag.ok()) {
      return fail(tag.error());
    }
    if (*tag != Tag::Tensor) {
      const Error err = set_non_tensor_input(method, i, *tag, input_buffers);
      if (err != Error::Ok) {
        return fail(err);
      }
      continue;
    }
    auto info = meta.input_tensor_meta(i);
    if (!info.ok()) {
      return fail(info.error());
    }
    const size_t nbytes = info->nbytes();
    if (nbytes > options.max_total_allocation_size - total) {
      ET_LOG(Error, "Inputs need more than the %zu-byte allocation limit",
             options.max_total_allocation_size);
      return fail(Error::InvalidProgram);
    }
    total += nbytes;
    if (!input_buffers.empty() && input_buffers[i].second != nbytes) {
      ET_LOG(Error, "Input %zu: buffer has %zu bytes, the tensor needs %zu", i,
             input_buffers[i].second, nbytes);
      return fail(Error::InvalidArgument);
    }
    void* data = std::malloc(nbytes == 0 ? 1 : nbytes);
    if (data == nullptr) {
      ET_LOG(Error, "Cannot allocate %zu bytes for input %zu", nbytes, i);
      return fail(Error::MemoryAllocationFailed);
    }
    buffers[num_allocated++] = data;
    const char* source = input_buffers.empty() ? nullptr : input_buffers[i].first;
    const Error err = fill_and_set_input(method, i, *info, source, data);
    if (err != Error::Ok) {
      return fail(err);
    }
  }
  // Hand ownership to the caller's cleanup object.
  return BufferCleanup(Span<void*>(buffers, num_allocated));
}

} // namespace extension
} // namespace executorch
