// EValue: a tagged value in a method's value table (tensor, scalar, string,
// list). Tensors are shallow handles; lists of ints/tensors are "boxed": they
// point at other EValues and are materialized on read.
#pragma once

#include <cstdint>
#include <new>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/tag.h>
#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace runtime {

struct EValue;

// A list whose elements live in other EValues (wrapped_vals); get() copies
// them into unwrapped_vals and returns a view of that copy.
template <typename T>
class BoxedEvalueList {
 public:
  BoxedEvalueList() = default;
  BoxedEvalueList(EValue** wrapped_vals, T* unwrapped_vals, int size)
      : wrapped_vals_(wrapped_vals, static_cast<size_t>(size)),
        unwrapped_vals_(unwrapped_vals) {}
  ArrayRef<T> get() const;
  ArrayRef<EValue*> wrapped() const { return wrapped_vals_; }

 private:
  ArrayRef<EValue*> wrapped_vals_;
  T* unwrapped_vals_ = nullptr;
};

// None entries (-1 in the program) read back as nullopt.
template <>
ArrayRef<std::optional<::executorch::aten::Tensor>>
BoxedEvalueList<std::optional<::executorch::aten::Tensor>>::get() const;

struct EValue {
  union Payload {
    union TriviallyCopyablePayload {
      TriviallyCopyablePayload() : as_int(0) {}
      int64_t as_int;
      double as_double;
      bool as_bool;
      ArrayRef<char> as_string;
      ArrayRef<double> as_double_list;
      ArrayRef<bool> as_bool_list;
      BoxedEvalueList<int64_t> as_int_list;
      BoxedEvalueList<::executorch::aten::Tensor> as_tensor_list;
      BoxedEvalueList<std::optional<::executorch::aten::Tensor>> as_list_optional_tensor;
    } copyable_union;
    ::executorch::aten::Tensor as_tensor;

    Payload() {}
    ~Payload() {}
  };

  Payload payload;
  Tag tag;

  EValue() : tag(Tag::None) { payload.copyable_union.as_int = 0; }
  /* implicit */ EValue(int64_t i) : tag(Tag::Int) { payload.copyable_union.as_int = i; }
  /* implicit */ EValue(double d) : tag(Tag::Double) { payload.copyable_union.as_double = d; }
  /* implicit */ EValue(bool b) : tag(Tag::Bool) { payload.copyable_union.as_bool = b; }
  /* implicit */ EValue(::executorch::aten::Scalar s) {
    if (s.isIntegral(false)) {
      tag = Tag::Int;
      payload.copyable_union.as_int = s.to<int64_t>();
    } else if (s.isFloatingPoint()) {
      tag = Tag::Double;
      payload.copyable_union.as_double = s.to<double>();
    } else {
      tag = Tag::Bool;
      payload.copyable_union.as_bool = s.to<bool>();
    }
  }
  /* implicit */ EValue(::executorch::aten::Tensor t) : tag(Tag::Tensor) {
    new (&payload.as_tensor)::executorch::aten::Tensor(t);
  }
  EValue(const char* s, size_t size) : tag(Tag::String) {
    payload.copyable_union.as_string = ArrayRef<char>(s, size);
  }
  /* implicit */ EValue(BoxedEvalueList<int64_t> l) : tag(Tag::ListInt) {
    payload.copyable_union.as_int_list = l;
  }
  /* implicit */ EValue(ArrayRef<bool> l) : tag(Tag::ListBool) {
    payload.copyable_union.as_bool_list = l;
  }
  /* implicit */ EValue(ArrayRef<double> l) : tag(Tag::ListDouble) {
    payload.copyable_union.as_double_list = l;
  }
  /* implicit */ EValue(BoxedEvalueList<::executorch::aten::Tensor> l)
      : tag(Tag::ListTensor) {
    payload.copyable_union.as_tensor_list = l;
  }
  /* implicit */ EValue(BoxedEvalueList<std::optional<::executorch::aten::Tensor>> l)
      : tag(Tag::ListOptionalTensor) {
    payload.copyable_union.as_list_optional_tensor = l;
  }

  // Pointer-like values (e.g. TensorPtr): shallow-copies the pointee.
  template <typename T,
            typename = typename std::enable_if<
                !std::is_pointer<typename std::decay<T>::type>::value &&
                !std::is_same<typename std::decay<T>::type, EValue>::value &&
                std::is_convertible<decltype(*std::declval<T>()), EValue>::value>::type>
  /* implicit */ EValue(T&& value) {
    ET_CHECK_MSG(value != nullptr, "Pointer is null.");
    new (this) EValue(*value);
  }
  template <typename T>
  explicit EValue(T* value) = delete;

  EValue(const EValue& rhs) : EValue(rhs.payload, rhs.tag) {}
  EValue(EValue&& rhs) noexcept : EValue(rhs.payload, rhs.tag) {}
  EValue& operator=(EValue&& rhs) & noexcept {
    if (&rhs != this) {
      new (this) EValue(rhs.payload, rhs.tag);
    }
    return *this;
  }
  EValue& operator=(const EValue& rhs) & {
    if (&rhs != this) {
      new (this) EValue(rhs.payload, rhs.tag);
    }
    return *this;
  }
  ~EValue() = default;

  bool isNone() const { return tag == Tag::None; }
  bool isInt() const { return tag == Tag::Int; }
  bool isDouble() const { return tag == Tag::Double; }
  bool isBool() const { return tag == Tag::Bool; }
  bool isScalar() const { return isInt() || isDouble() || isBool(); }
  bool isTensor() const { return tag == Tag::Tensor; }
  bool isString() const { return tag == Tag::String; }
  bool isIntList() const { return tag == Tag::ListInt; }
  bool isBoolList() const { return tag == Tag::ListBool; }
  bool isDoubleList() const { return tag == Tag::ListDouble; }
  bool isTensorList() const { return tag == Tag::ListTensor; }
  bool isListOptionalTensor() const { return tag == Tag::ListOptionalTensor; }

  int64_t toInt() const {
    ET_CHECK_MSG(isInt(), "EValue is not an int (tag %s)", tag_to_string(tag));
    return payload.copyable_union.as_int;
  }
  double toDouble() const {
    ET_CHECK_MSG(isDouble(), "EValue is not a double (tag %s)", tag_to_string(tag));
    return payload.copyable_union.as_double;
  }
  bool toBool() const {
    ET_CHECK_MSG(isBool(), "EValue is not a bool (tag %s)", tag_to_string(tag));
    return payload.copyable_union.as_bool;
  }
  ::executorch::aten::Scalar toScalar() const {
    if (isDouble()) return ::executorch::aten::Scalar(payload.copyable_union.as_double);
    if (isInt()) return ::executorch::aten::Scalar(payload.copyable_union.as_int);
    if (isBool()) return ::executorch::aten::Scalar(payload.copyable_union.as_bool);
    ET_CHECK_MSG(false, "EValue is not a Scalar (tag %s)", tag_to_string(tag));
    return ::executorch::aten::Scalar();
  }
  ::executorch::aten::Tensor& toTensor() & {
    ET_CHECK_MSG(isTensor(), "EValue is not a Tensor (tag %s)", tag_to_string(tag));
    return payload.as_tensor;
  }
  const ::executorch::aten::Tensor& toTensor() const& {
    ET_CHECK_MSG(isTensor(), "EValue is not a Tensor (tag %s)", tag_to_string(tag));
    return payload.as_tensor;
  }
  ::executorch::aten::Tensor toTensor() && {
    ET_CHECK_MSG(isTensor(), "EValue is not a Tensor (tag %s)", tag_to_string(tag));
    auto t = payload.as_tensor;
    tag = Tag::None;
    payload.copyable_union.as_int = 0;
    return t;
  }
  std::string_view toString() const {
    ET_CHECK_MSG(isString(), "EValue is not a String (tag %s)", tag_to_string(tag));
    return std::string_view(payload.copyable_union.as_string.data(),
                            payload.copyable_union.as_string.size());
  }
  ArrayRef<int64_t> toIntList() const {
    ET_CHECK_MSG(isIntList(), "EValue is not an int list (tag %s)", tag_to_string(tag));
    return payload.copyable_union.as_int_list.get();
  }
  ArrayRef<bool> toBoolList() const {
    ET_CHECK_MSG(isBoolList(), "EValue is not a bool list (tag %s)", tag_to_string(tag));
    return payload.copyable_union.as_bool_list;
  }
  ArrayRef<double> toDoubleList() const {
    ET_CHECK_MSG(isDoubleList(), "EValue is not a double list (tag %s)", tag_to_string(tag));
    return payload.copyable_union.as_double_list;
  }
  ArrayRef<::executorch::aten::Tensor> toTensorList() const {
    ET_CHECK_MSG(isTensorList(), "EValue is not a tensor list (tag %s)", tag_to_string(tag));
    return payload.copyable_union.as_tensor_list.get();
  }
  ArrayRef<std::optional<::executorch::aten::Tensor>> toListOptionalTensor() const {
    ET_CHECK_MSG(isListOptionalTensor(), "EValue is not an optional tensor list (tag %s)",
                 tag_to_string(tag));
    return payload.copyable_union.as_list_optional_tensor.get();
  }
  ::executorch::aten::ScalarType toScalarType() const {
    return static_cast<::executorch::aten::ScalarType>(toInt());
  }
  ::executorch::aten::MemoryFormat toMemoryFormat() const {
    return static_cast<::executorch::aten::MemoryFormat>(toInt());
  }
  ::executorch::aten::Layout toLayout() const {
    return static_cast<::executorch::aten::Layout>(toInt());
  }
  ::executorch::aten::Device toDevice() const {
    return ::executorch::aten::Device(static_cast<::executorch::aten::DeviceType>(toInt()));
  }

  // Non-aborting accessors: InvalidType on a wrong tag.
  Result<int64_t> tryToInt() const {
    if (!isInt()) return Error::InvalidType;
    return payload.copyable_union.as_int;
  }
  Result<double> tryToDouble() const {
    if (!isDouble()) return Error::InvalidType;
    return payload.copyable_union.as_double;
  }
  Result<bool> tryToBool() const {
    if (!isBool()) return Error::InvalidType;
    return payload.copyable_union.as_bool;
  }
  Result<::executorch::aten::Scalar> tryToScalar() const {
    if (!isScalar()) return Error::InvalidType;
    return toScalar();
  }
  Result<::executorch::aten::Tensor> tryToTensor() const {
    if (!isTensor()) return Error::InvalidType;
    return payload.as_tensor;
  }
  Result<std::string_view> tryToString() const {
    if (!isString()) return Error::InvalidType;
    return toString();
  }
  Result<ArrayRef<int64_t>> tryToIntList() const {
    if (!isIntList()) return Error::InvalidType;
    return toIntList();
  }
  Result<ArrayRef<bool>> tryToBoolList() const {
    if (!isBoolList()) return Error::InvalidType;
    return toBoolList();
  }
  Result<ArrayRef<double>> tryToDoubleList() const {
    if (!isDoubleList()) return Error::InvalidType;
    return toDoubleList();
  }
  Result<ArrayRef<::executorch::aten::Tensor>> tryToTensorList() const {
    if (!isTensorList()) return Error::InvalidType;
    return toTensorList();
  }
  Result<ArrayRef<std::optional<::executorch::aten::Tensor>>> tryToListOptionalTensor() const {
    if (!isListOptionalTensor()) return Error::InvalidType;
    return toListOptionalTensor();
  }
  Result<::executorch::aten::ScalarType> tryToScalarType() const {
    if (!isInt()) return Error::InvalidType;
    return toScalarType();
  }

  template <typename T>
  T to() &&;
  template <typename T>
  typename std::conditional<std::is_same<T, ::executorch::aten::Tensor>::value,
                            const T&, T>::type
  to() const&;
  template <typename T>
  typename std::conditional<std::is_same<T, ::executorch::aten::Tensor>::value,
                            T&, T>::type
  to() &;

  template <typename T>
  Result<T> tryTo() const;

  // nullopt for None, else the value.
  template <typename T>
  std::optional<T> toOptional() const {
    if (isNone()) {
      return std::nullopt;
    }
    return this->to<T>();
  }
  template <typename T>
  Result<std::optional<T>> tryToOptional() const {
    if (isNone()) {
      return std::optional<T>(std::nullopt);
    }
    auto r = this->tryTo<T>();
    if (!r.ok()) {
      return r.error();
    }
    return std::optional<T>(std::move(*r));
  }

 private:
  EValue(const Payload& p, Tag t) : tag(t) {
    if (isTensor()) {
      new (&payload.as_tensor)::executorch::aten::Tensor(p.as_tensor);
    } else {
      payload.copyable_union = p.copyable_union;
    }
  }
};

#define ET_EVALUE_DEFINE_TO_(T, method_name)                                 \
  template <>                                                                \
  inline T EValue::to<T>() && {                                              \
    return static_cast<T>(std::move(*this).method_name());                   \
  }                                                                          \
  template <>                                                                \
  inline std::conditional<std::is_same<T, ::executorch::aten::Tensor>::value, \
                          const T&, T>::type                                 \
  EValue::to<T>() const& {                                                   \
    return static_cast<T>(this->method_name());                              \
  }                                                                          \
  template <>                                                                \
  inline std::conditional<std::is_same<T, ::executorch::aten::Tensor>::value, \
                          T&, T>::type                                       \
  EValue::to<T>() & {                                                        \
    return static_cast<T>(this->method_name());                              \
  }
ET_EVALUE_DEFINE_TO_(::executorch::aten::Scalar, toScalar)
ET_EVALUE_DEFINE_TO_(int64_t, toInt)
ET_EVALUE_DEFINE_TO_(bool, toBool)
ET_EVALUE_DEFINE_TO_(double, toDouble)
ET_EVALUE_DEFINE_TO_(std::string_view, toString)
ET_EVALUE_DEFINE_TO_(::executorch::aten::ScalarType, toScalarType)
ET_EVALUE_DEFINE_TO_(::executorch::aten::MemoryFormat, toMemoryFormat)
ET_EVALUE_DEFINE_TO_(::executorch::aten::Layout, toLayout)
ET_EVALUE_DEFINE_TO_(::executorch::aten::Device, toDevice)
ET_EVALUE_DEFINE_TO_(ArrayRef<int64_t>, toIntList)
ET_EVALUE_DEFINE_TO_(ArrayRef<bool>, toBoolList)
ET_EVALUE_DEFINE_TO_(ArrayRef<double>, toDoubleList)
ET_EVALUE_DEFINE_TO_(ArrayRef<::executorch::aten::Tensor>, toTensorList)
ET_EVALUE_DEFINE_TO_(ArrayRef<std::optional<::executorch::aten::Tensor>>,
                     toListOptionalTensor)
#undef ET_EVALUE_DEFINE_TO_

template <>
inline ::executorch::aten::Tensor EValue::to<::executorch::aten::Tensor>() && {
  return std::move(*this).toTensor();
}
template <>
inline const ::executorch::aten::Tensor& EValue::to<::executorch::aten::Tensor>() const& {
  return this->toTensor();
}
template <>
inline ::executorch::aten::Tensor& EValue::to<::executorch::aten::Tensor>() & {
  return this->toTensor();
}

#define ET_EVALUE_DEFINE_TRY_TO_(T, method_name) \
  template <>                                    \
  inline Result<T> EValue::tryTo<T>() const {    \
    return this->method_name();                  \
  }
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::Scalar, tryToScalar)
ET_EVALUE_DEFINE_TRY_TO_(int64_t, tryToInt)
ET_EVALUE_DEFINE_TRY_TO_(bool, tryToBool)
ET_EVALUE_DEFINE_TRY_TO_(double, tryToDouble)
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::Tensor, tryToTensor)
ET_EVALUE_DEFINE_TRY_TO_(std::string_view, tryToString)
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::ScalarType, tryToScalarType)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<int64_t>, tryToIntList)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<bool>, tryToBoolList)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<double>, tryToDoubleList)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<::executorch::aten::Tensor>, tryToTensorList)
#undef ET_EVALUE_DEFINE_TRY_TO_

template <typename T>
ArrayRef<T> BoxedEvalueList<T>::get() const {
  for (size_t i = 0; i < wrapped_vals_.size(); ++i) {
    ET_CHECK(wrapped_vals_[i] != nullptr);
    unwrapped_vals_[i] = wrapped_vals_[i]->template to<T>();
  }
  return ArrayRef<T>(unwrapped_vals_, wrapped_vals_.size());
}

template <>
inline ArrayRef<std::optional<::executorch::aten::Tensor>>
BoxedEvalueList<std::optional<::executorch::aten::Tensor>>::get() const {
  for (size_t i = 0; i < wrapped_vals_.size(); ++i) {
    if (wrapped_vals_[i] == nullptr || wrapped_vals_[i]->isNone()) {
      unwrapped_vals_[i] = std::nullopt;
    } else {
      unwrapped_vals_[i] = wrapped_vals_[i]->toTensor();
    }
  }
  return ArrayRef<std::optional<::executorch::aten::Tensor>>(unwrapped_vals_,
                                                             wrapped_vals_.size());
}

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::BoxedEvalueList;
using ::executorch::runtime::EValue;
} // namespace executor
} // namespace torch
