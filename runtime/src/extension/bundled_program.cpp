// The bundled-program reader (devtools/bundled_program.h). The .bpte is
// untrusted: the FlatBuffers Verifier runs over it first, then every value
// used is checked (types, ranks, sizes against the data actually stored,
// dim orders) before a tensor is built from it.
#include <executorch/devtools/bundled_program/bundled_program.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include <executorch/runtime/core/event_tracer_hooks.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_dimension_limit.h>
#include <executorch/runtime/core/portable_type/half.h>
#include <executorch/runtime/core/portable_type/tensor.h>
#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/platform/log.h>

#include "bundled_program_internal.h"
#include "core/checked_math.h"

namespace executorch {
namespace bundled_program {

using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;
using ::executorch::runtime::Result;
using ::executorch::runtime::etensor::ScalarType;
using ::executorch::runtime::etensor::Tensor;
using ::executorch::runtime::etensor::TensorImpl;
namespace checked = ::executorch::runtime::internal;
namespace fb = ::bundled_program_flatbuffer;

namespace internal {
namespace {

constexpr size_t kMaxRank = ::executorch::runtime::kTensorDimensionLimit;
// Tables a bundled program may hold; its length bounds the count further.
constexpr flatbuffers::uoffset_t kMaxTables = 1u << 20;

// A bundled tensor, checked and ready to wrap in a TensorImpl: its own
// copies of sizes and dim order, strides computed from them.
struct CheckedTensor {
  ScalarType type = ScalarType::Float;
  size_t rank = 0;
  int32_t sizes[kMaxRank] = {};
  uint8_t dim_order[kMaxRank] = {};
  int32_t strides[kMaxRank] = {};
  const uint8_t* data = nullptr;
  size_t nbytes = 0;

  TensorImpl impl() {
    return TensorImpl(type, static_cast<ssize_t>(rank), sizes, const_cast<uint8_t*>(data),
                      dim_order, strides);
  }
};

// `what` names the value in log lines ("input 1 of test case 0").
Error check_tensor(const fb::Tensor& t, const char* what, size_t index, CheckedTensor* out) {
  const auto type = static_cast<ScalarType>(t.scalar_type());
  const size_t elem = ::executorch::runtime::elementSizeOrZero(type);
  ET_CHECK_OR_RETURN_ERROR(::executorch::runtime::isValid(type) && elem != 0, InvalidProgram,
                           "Bundled %s %zu: unknown scalar type %d", what, index,
                           static_cast<int>(t.scalar_type()));
  const size_t rank = t.sizes() == nullptr ? 0 : t.sizes()->size();
  ET_CHECK_OR_RETURN_ERROR(rank <= kMaxRank, InvalidProgram,
                           "Bundled %s %zu: rank %zu is over the limit of %zu", what, index, rank,
                           kMaxRank);
  out->type = type;
  out->rank = rank;
  for (size_t i = 0; i < rank; ++i) {
    out->sizes[i] = t.sizes()->Get(static_cast<flatbuffers::uoffset_t>(i));
  }
  int64_t numel = 0;
  ET_CHECK_OR_RETURN_ERROR(checked::checked_numel(out->sizes, rank, &numel), InvalidProgram,
                           "Bundled %s %zu: a size is negative or the element count overflows",
                           what, index);
  // numel is 64-bit: on a 32-bit host it must fit size_t before the multiply.
  size_t nbytes = 0;
  ET_CHECK_OR_RETURN_ERROR(checked::to_size_signed(numel, &nbytes) &&
                               checked::checked_mul<size_t>(nbytes, elem, &nbytes),
                           InvalidProgram, "Bundled %s %zu: byte size of %lld elements overflows",
                           what, index, static_cast<long long>(numel));
  const size_t have = t.data() == nullptr ? 0 : t.data()->size();
  ET_CHECK_OR_RETURN_ERROR(have == nbytes, InvalidProgram,
                           "Bundled %s %zu: holds %zu data bytes, its shape needs %zu", what, index,
                           have, nbytes);
  out->data = t.data() == nullptr ? nullptr : t.data()->data();
  out->nbytes = nbytes;

  // The dim order must be a permutation of [0, rank); absent means
  // contiguous.
  if (t.dim_order() == nullptr || t.dim_order()->size() == 0) {
    ET_CHECK_OR_RETURN_ERROR(rank == 0 || t.dim_order() == nullptr, InvalidProgram,
                             "Bundled %s %zu: empty dim order for rank %zu", what, index, rank);
    for (size_t i = 0; i < rank; ++i) {
      out->dim_order[i] = static_cast<uint8_t>(i);
    }
  } else {
    ET_CHECK_OR_RETURN_ERROR(t.dim_order()->size() == rank, InvalidProgram,
                             "Bundled %s %zu: dim order has %u entries for rank %zu", what, index,
                             t.dim_order()->size(), rank);
    bool seen[kMaxRank] = {};
    for (size_t i = 0; i < rank; ++i) {
      const uint8_t d = t.dim_order()->Get(static_cast<flatbuffers::uoffset_t>(i));
      ET_CHECK_OR_RETURN_ERROR(d < rank && !seen[d], InvalidProgram,
                               "Bundled %s %zu: dim order is not a permutation of its %zu dims",
                               what, index, rank);
      seen[d] = true;
      out->dim_order[i] = d;
    }
  }
  ET_CHECK_OR_RETURN_ERROR(
      checked::checked_dense_strides(out->sizes, out->dim_order, rank, out->strides),
      InvalidProgram, "Bundled %s %zu: a stride does not fit 32 bits", what, index);
  return Error::Ok;
}

// The test case `testset_idx` of the suite for `method`.
Result<const fb::BundledMethodTestCase*> find_test_case(const fb::BundledProgram& bp,
                                                        ::executorch::runtime::Method& method,
                                                        size_t testset_idx) {
  const char* name = method.method_meta().name();
  ET_CHECK_OR_RETURN_ERROR(name != nullptr, InvalidArgument, "Method has no name");
  const auto* suites = bp.method_test_suites();
  const fb::BundledMethodTestSuite* suite = nullptr;
  if (suites != nullptr) {
    for (flatbuffers::uoffset_t i = 0; i < suites->size(); ++i) {
      const auto* s = suites->Get(i);
      if (s->method_name() != nullptr && std::strcmp(s->method_name()->c_str(), name) == 0) {
        suite = s;
        break;
      }
    }
  }
  ET_CHECK_OR_RETURN_ERROR(suite != nullptr, InvalidArgument,
                           "Bundled program has no test suite for method '%s'", name);
  const size_t cases = suite->test_cases() == nullptr ? 0 : suite->test_cases()->size();
  ET_CHECK_OR_RETURN_ERROR(testset_idx < cases, InvalidArgument,
                           "Test case %zu of method '%s' does not exist (it has %zu)", testset_idx,
                           name, cases);
  return suite->test_cases()->Get(static_cast<flatbuffers::uoffset_t>(testset_idx));
}

template <typename T>
T load_elem(const uint8_t* p, size_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}

// Upstream's closeness rule: `expected` and `actual` match when both are
// NaN, both the same infinity, or |expected - actual| <= atol + rtol*|actual|
// (exactly equal when both tolerances are 0).
bool elem_is_close(double expected, double actual, double rtol, double atol) {
  if (std::isnan(expected) && std::isnan(actual)) {
    return true;
  }
  if (std::isinf(expected) && std::isinf(actual)) {
    return (expected > 0) == (actual > 0);
  }
  if (rtol == 0 && atol == 0) {
    return expected == actual;
  }
  const double err = std::fabs(expected - actual);
  return std::isfinite(err) && err <= atol + std::fabs(rtol * actual);
}

template <typename T>
bool floats_are_close(const uint8_t* expected, const uint8_t* actual, size_t numel, double rtol,
                      double atol) {
  for (size_t i = 0; i < numel; ++i) {
    if (!elem_is_close(static_cast<double>(load_elem<T>(expected, i)),
                       static_cast<double>(load_elem<T>(actual, i)), rtol, atol)) {
      return false;
    }
  }
  return true;
}

bool halfs_are_close(const uint8_t* expected, const uint8_t* actual, size_t numel, double rtol,
                     double atol) {
  using ::executorch::runtime::etensor::internal::half_bits_to_float;
  for (size_t i = 0; i < numel; ++i) {
    if (!elem_is_close(half_bits_to_float(load_elem<uint16_t>(expected, i)),
                       half_bits_to_float(load_elem<uint16_t>(actual, i)), rtol, atol)) {
      return false;
    }
  }
  return true;
}

// NotFound (upstream's mismatch error) with one line saying why.
Error compare_tensor(const CheckedTensor& expected, const Tensor& actual, size_t index, double rtol,
                     double atol) {
  ET_CHECK_OR_RETURN_ERROR(actual.scalar_type() == expected.type, NotFound,
                           "Output %zu: dtype %d, expected %d", index,
                           static_cast<int>(actual.scalar_type()), static_cast<int>(expected.type));
  bool same_shape = static_cast<size_t>(actual.dim()) == expected.rank;
  for (size_t i = 0; same_shape && i < expected.rank; ++i) {
    same_shape = actual.size(static_cast<ssize_t>(i)) == expected.sizes[i];
  }
  ET_CHECK_OR_RETURN_ERROR(same_shape, NotFound, "Output %zu: shape differs from the expected one",
                           index);
  if (expected.nbytes == 0) {
    return Error::Ok;
  }
  // Same shape; the elements can be compared in memory order when the
  // layouts agree too.
  bool same_strides = true;
  for (size_t i = 0; i < expected.rank; ++i) {
    same_strides =
        same_strides && (expected.sizes[i] <= 1 || actual.strides()[i] == expected.strides[i]);
  }
  ET_CHECK_OR_RETURN_ERROR(same_strides, NotFound,
                           "Output %zu: memory layout (dim order) differs from the expected one",
                           index);
  ET_CHECK_OR_RETURN_ERROR(actual.nbytes() == expected.nbytes && actual.const_data_ptr() != nullptr,
                           NotFound, "Output %zu has no data to compare", index);
  const auto* a = static_cast<const uint8_t*>(actual.const_data_ptr());
  const size_t numel = static_cast<size_t>(actual.numel());
  bool close = false;
  switch (expected.type) {
    case ScalarType::Float:
      close = floats_are_close<float>(expected.data, a, numel, rtol, atol);
      break;
    case ScalarType::Double:
      close = floats_are_close<double>(expected.data, a, numel, rtol, atol);
      break;
    case ScalarType::Half:
      close = halfs_are_close(expected.data, a, numel, rtol, atol);
      break;
    default:
      close = std::memcmp(expected.data, a, expected.nbytes) == 0;
      break;
  }
  ET_CHECK_OR_RETURN_ERROR(close, NotFound, "Output %zu does not match the expected output", index);
  return Error::Ok;
}

} // namespace

Result<const fb::BundledProgram*> verified_bundle(const void* data, size_t size) {
  ET_CHECK_OR_RETURN_ERROR(data != nullptr, InvalidArgument, "Null bundled program buffer");
  const auto* bytes = static_cast<const uint8_t*>(data);
  ET_CHECK_OR_RETURN_ERROR(size >= 8 && fb::BundledProgramBufferHasIdentifier(bytes), NotSupported,
                           "Not a bundled program: file identifier '%.4s' is not '%s'",
                           size >= 8 ? reinterpret_cast<const char*>(bytes) + 4 : "",
                           fb::BundledProgramIdentifier());
  // Scalars up to 8 bytes are read in place, at offsets the Verifier checks
  // against the buffer's start.
  ET_CHECK_OR_RETURN_ERROR(reinterpret_cast<uintptr_t>(bytes) % 8 == 0, InvalidArgument,
                           "Bundled program buffer at %p is not 8-byte aligned", data);
  const size_t limit = FLATBUFFERS_MAX_BUFFER_SIZE - 1;
  flatbuffers::Verifier verifier(bytes, size < limit ? size : limit, 64, kMaxTables);
  ET_CHECK_OR_RETURN_ERROR(fb::VerifyBundledProgramBuffer(verifier), InvalidProgram,
                           "Bundled program FlatBuffer failed verification");
  return fb::GetBundledProgram(bytes);
}

Error load_bundled_input(::executorch::runtime::Method& method, const void* data, size_t size,
                         size_t testset_idx) {
  auto bp = verified_bundle(data, size);
  ET_CHECK_OK_OR_RETURN_ERROR(bp.error());
  auto test_case = find_test_case(**bp, method, testset_idx);
  ET_CHECK_OK_OR_RETURN_ERROR(test_case.error());
  const auto* inputs = (*test_case)->inputs();
  const size_t given = inputs == nullptr ? 0 : inputs->size();
  ET_CHECK_OR_RETURN_ERROR(given == method.inputs_size(), InvalidArgument,
                           "Test case %zu has %zu inputs, method '%s' takes %zu", testset_idx,
                           given, method.method_meta().name(), method.inputs_size());

  for (size_t i = 0; i < given; ++i) {
    const fb::Value* v = inputs->Get(static_cast<flatbuffers::uoffset_t>(i));
    Error status = Error::Ok;
    switch (v->val_type()) {
      case fb::ValueUnion::Tensor: {
        const fb::Tensor* t = v->val_as_Tensor();
        ET_CHECK_OR_RETURN_ERROR(t != nullptr, InvalidProgram, "Bundled input %zu has no value", i);
        CheckedTensor ct;
        ET_CHECK_OK_OR_RETURN_ERROR(check_tensor(*t, "input", i, &ct));
        TensorImpl impl = ct.impl();
        // set_input copies a planned input's bytes out; an unplanned input
        // keeps pointing into the bundle, which outlives the method's use.
        status = method.set_input(EValue(Tensor(&impl)), i);
        break;
      }
      // A scalar table left out reads as its default (0, 0.0, false).
      case fb::ValueUnion::Int: {
        const fb::Int* x = v->val_as_Int();
        status = method.set_input(EValue(x == nullptr ? int64_t{0} : x->int_val()), i);
        break;
      }
      case fb::ValueUnion::Double: {
        const fb::Double* x = v->val_as_Double();
        status = method.set_input(EValue(x == nullptr ? 0.0 : x->double_val()), i);
        break;
      }
      case fb::ValueUnion::Bool: {
        const fb::Bool* x = v->val_as_Bool();
        status = method.set_input(EValue(x == nullptr ? false : x->bool_val()), i);
        break;
      }
      default:
        ET_LOG(Error, "Bundled input %zu: value type %u is not supported", i,
               static_cast<unsigned>(v->val_type()));
        return Error::NotSupported;
    }
    ET_CHECK_OR_RETURN_ERROR(status == Error::Ok, NotSupported,
                             "Setting bundled input %zu failed with error 0x%x", i,
                             static_cast<unsigned>(status));
  }
  ::executorch::runtime::internal::event_tracer_set_bundled_input_index(method.get_event_tracer(),
                                                                        testset_idx);
  return Error::Ok;
}

Error verify_method_outputs(::executorch::runtime::Method& method, const void* data, size_t size,
                            size_t testset_idx, double rtol, double atol) {
  auto bp = verified_bundle(data, size);
  ET_CHECK_OK_OR_RETURN_ERROR(bp.error());
  auto test_case = find_test_case(**bp, method, testset_idx);
  ET_CHECK_OK_OR_RETURN_ERROR(test_case.error());
  const auto* expected = (*test_case)->expected_outputs();
  const size_t given = expected == nullptr ? 0 : expected->size();
  ET_CHECK_OR_RETURN_ERROR(given == method.outputs_size(), InvalidArgument,
                           "Test case %zu has %zu expected outputs, method '%s' gives %zu",
                           testset_idx, given, method.method_meta().name(), method.outputs_size());

  for (size_t i = 0; i < given; ++i) {
    const fb::Value* v = expected->Get(static_cast<flatbuffers::uoffset_t>(i));
    ET_CHECK_OR_RETURN_ERROR(v->val_type() == fb::ValueUnion::Tensor, NotSupported,
                             "Expected output %zu: value type %u is not supported", i,
                             static_cast<unsigned>(v->val_type()));
    const fb::Tensor* t = v->val_as_Tensor();
    ET_CHECK_OR_RETURN_ERROR(t != nullptr, InvalidProgram, "Expected output %zu has no value", i);
    CheckedTensor ct;
    ET_CHECK_OK_OR_RETURN_ERROR(check_tensor(*t, "expected output", i, &ct));
    const EValue& out = method.get_output(i);
    ET_CHECK_OR_RETURN_ERROR(out.isTensor(), NotFound, "Output %zu is not a tensor", i);
    ET_CHECK_OK_OR_RETURN_ERROR(compare_tensor(ct, out.toTensor(), i, rtol, atol));
  }
  return Error::Ok;
}

} // namespace internal

Error load_bundled_input(Method& method, SerializedBundledProgram* bundled_program_ptr,
                         size_t testset_idx) {
  return internal::load_bundled_input(method, bundled_program_ptr, internal::kUnknownSize,
                                      testset_idx);
}

Error verify_method_outputs(Method& method, SerializedBundledProgram* bundled_program_ptr,
                            size_t testset_idx, double rtol, double atol) {
  return internal::verify_method_outputs(method, bundled_program_ptr, internal::kUnknownSize,
                                         testset_idx, rtol, atol);
}

Error get_program_data(void* file_data, size_t file_data_len, const void** out_program_data,
                       size_t* out_program_data_len) {
  ET_CHECK_OR_RETURN_ERROR(out_program_data != nullptr && out_program_data_len != nullptr,
                           InvalidArgument, "get_program_data: null output pointer");
  auto bp = internal::verified_bundle(file_data, file_data_len);
  ET_CHECK_OK_OR_RETURN_ERROR(bp.error());
  const auto* program = (*bp)->program();
  ET_CHECK_OR_RETURN_ERROR(program != nullptr && program->size() > 0, InvalidProgram,
                           "Bundled program holds no program");
  *out_program_data = program->data();
  *out_program_data_len = program->size();
  return Error::Ok;
}

bool is_bundled_program(void* file_data, size_t file_data_len) {
  return file_data != nullptr && file_data_len >= 8 &&
         bundled_program_flatbuffer::BundledProgramBufferHasIdentifier(file_data);
}

} // namespace bundled_program
} // namespace executorch
