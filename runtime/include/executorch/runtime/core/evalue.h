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
// them into unwrapped_vals and returns a view of that copy. The elements
// come from a program file, so neither get() nor tryGet() aborts on a null
// or mistyped element.
template <typename T>
class BoxedEvalueList {
 public:
  BoxedEvalueList() = default;
  BoxedEvalueList(EValue** wrapped_vals, T* unwrapped_vals, int size)
      : wrapped_vals_(wrapped_vals, size < 0 ? 0 : static_cast<size_t>(size)),
        unwrapped_vals_(unwrapped_vals) {}
  // The elements, or (logged) an empty list when one is null or not a T:
  // use tryGet() to tell the two apart.
  ArrayRef<T> get() const;
  // The elements; InvalidState for a null element, InvalidType for one that
  // is not a T (a null optional-tensor element reads as nullopt).
  Result<ArrayRef<T>> tryGet() const;
  ArrayRef<EValue*> wrapped() const { return wrapped_vals_; }

 private:
  ArrayRef<EValue*> wrapped_vals_;
  T* unwrapped_vals_ = nullptr;
};

namespace internal {
// What EValue::to<T>() returns: a reference for Tensor (cheap to hand out,
// and what kernels expect), a value for everything else.
template <typename T>
struct evalue_to_const_ref_overload_return {
  using type = T;
};
template <>
struct evalue_to_const_ref_overload_return<::executorch::aten::Tensor> {
  using type = const ::executorch::aten::Tensor&;
};
template <typename T>
struct evalue_to_ref_overload_return {
  using type = T;
};
template <>
struct evalue_to_ref_overload_return<::executorch::aten::Tensor> {
  using type = ::executorch::aten::Tensor&;
};
} // namespace internal

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
  /* implicit */ EValue(BoxedEvalueList<::executorch::aten::Tensor> l) : tag(Tag::ListTensor) {
    payload.copyable_union.as_tensor_list = l;
  }
  /* implicit */ EValue(BoxedEvalueList<std::optional<::executorch::aten::Tensor>> l)
      : tag(Tag::ListOptionalTensor) {
    payload.copyable_union.as_list_optional_tensor = l;
  }

  // Upstream's list and string constructors take a pointer to an object the
  // caller keeps; the value is copied here (a view or boxed list, so it
  // still reads the caller's elements). A null pointer aborts, as upstream.
  /* implicit */ EValue(ArrayRef<char>* s) : tag(Tag::String) {
    payload.copyable_union.as_string = *checked(s, "ArrayRef<char>");
  }
  /* implicit */ EValue(BoxedEvalueList<int64_t>* l) : tag(Tag::ListInt) {
    payload.copyable_union.as_int_list = *checked(l, "BoxedEvalueList<int64_t>");
  }
  /* implicit */ EValue(ArrayRef<bool>* l) : tag(Tag::ListBool) {
    payload.copyable_union.as_bool_list = *checked(l, "ArrayRef<bool>");
  }
  /* implicit */ EValue(ArrayRef<double>* l) : tag(Tag::ListDouble) {
    payload.copyable_union.as_double_list = *checked(l, "ArrayRef<double>");
  }
  /* implicit */ EValue(BoxedEvalueList<::executorch::aten::Tensor>* l) : tag(Tag::ListTensor) {
    payload.copyable_union.as_tensor_list = *checked(l, "BoxedEvalueList<Tensor>");
  }
  /* implicit */ EValue(BoxedEvalueList<std::optional<::executorch::aten::Tensor>>* l)
      : tag(Tag::ListOptionalTensor) {
    payload.copyable_union.as_list_optional_tensor =
        *checked(l, "BoxedEvalueList<optional<Tensor>>");
  }

  // Pointer-like values (e.g. TensorPtr): shallow-copies the pointee.
  template <typename T, typename = typename std::enable_if<
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
  // A move leaves the source None, as upstream's does.
  EValue(EValue&& rhs) noexcept : EValue(rhs.payload, rhs.tag) { rhs.clear_to_none(); }
  EValue& operator=(EValue&& rhs) & noexcept {
    if (&rhs != this) {
      new (this) EValue(rhs.payload, rhs.tag);
      rhs.clear_to_none();
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
    // Index -1: "the current device of that type", as upstream.
    return ::executorch::aten::Device(static_cast<::executorch::aten::DeviceType>(toInt()), -1);
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
    return payload.copyable_union.as_int_list.tryGet();
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
    return payload.copyable_union.as_tensor_list.tryGet();
  }
  Result<ArrayRef<std::optional<::executorch::aten::Tensor>>> tryToListOptionalTensor() const {
    if (!isListOptionalTensor()) return Error::InvalidType;
    return payload.copyable_union.as_list_optional_tensor.tryGet();
  }
  Result<::executorch::aten::ScalarType> tryToScalarType() const {
    if (!isInt()) return Error::InvalidType;
    return toScalarType();
  }
  Result<::executorch::aten::MemoryFormat> tryToMemoryFormat() const {
    if (!isInt()) return Error::InvalidType;
    return toMemoryFormat();
  }
  Result<::executorch::aten::Layout> tryToLayout() const {
    if (!isInt()) return Error::InvalidType;
    return toLayout();
  }
  Result<::executorch::aten::Device> tryToDevice() const {
    if (!isInt()) return Error::InvalidType;
    return toDevice();
  }

  template <typename T>
  T to() &&;
  template <typename T>
  typename internal::evalue_to_const_ref_overload_return<T>::type to() const&;
  template <typename T>
  typename internal::evalue_to_ref_overload_return<T>::type to() &;

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
  template <typename P>
  static P* checked(P* p, const char* what) {
    ET_CHECK_MSG(p != nullptr, "%s pointer cannot be null", what);
    return p;
  }
  void clear_to_none() noexcept {
    tag = Tag::None;
    payload.copyable_union.as_int = 0;
  }

  EValue(const Payload& p, Tag t) : tag(t) {
    if (isTensor()) {
      new (&payload.as_tensor)::executorch::aten::Tensor(p.as_tensor);
    } else {
      payload.copyable_union = p.copyable_union;
    }
  }
};

#define ET_EVALUE_DEFINE_TO_(T, method_name)                                             \
  template <>                                                                            \
  inline T EValue::to<T>()&& {                                                           \
    return static_cast<T>(std::move(*this).method_name());                               \
  }                                                                                      \
  template <>                                                                            \
  inline internal::evalue_to_const_ref_overload_return<T>::type EValue::to<T>() const& { \
    using R = internal::evalue_to_const_ref_overload_return<T>::type;                    \
    return static_cast<R>(this->method_name());                                          \
  }                                                                                      \
  template <>                                                                            \
  inline internal::evalue_to_ref_overload_return<T>::type EValue::to<T>()& {             \
    using R = internal::evalue_to_ref_overload_return<T>::type;                          \
    return static_cast<R>(this->method_name());                                          \
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
ET_EVALUE_DEFINE_TO_(::executorch::aten::Tensor, toTensor)
ET_EVALUE_DEFINE_TO_(std::optional<::executorch::aten::Tensor>,
                     toOptional<::executorch::aten::Tensor>)
ET_EVALUE_DEFINE_TO_(ArrayRef<int64_t>, toIntList)
ET_EVALUE_DEFINE_TO_(std::optional<ArrayRef<int64_t>>, toOptional<ArrayRef<int64_t>>)
ET_EVALUE_DEFINE_TO_(ArrayRef<bool>, toBoolList)
ET_EVALUE_DEFINE_TO_(std::optional<ArrayRef<bool>>, toOptional<ArrayRef<bool>>)
ET_EVALUE_DEFINE_TO_(ArrayRef<double>, toDoubleList)
ET_EVALUE_DEFINE_TO_(std::optional<ArrayRef<double>>, toOptional<ArrayRef<double>>)
ET_EVALUE_DEFINE_TO_(ArrayRef<::executorch::aten::Tensor>, toTensorList)
ET_EVALUE_DEFINE_TO_(std::optional<ArrayRef<::executorch::aten::Tensor>>,
                     toOptional<ArrayRef<::executorch::aten::Tensor>>)
ET_EVALUE_DEFINE_TO_(ArrayRef<std::optional<::executorch::aten::Tensor>>, toListOptionalTensor)
#undef ET_EVALUE_DEFINE_TO_

#define ET_EVALUE_DEFINE_TRY_TO_(T, method_name) \
  template <>                                    \
  inline Result<T> EValue::tryTo<T>() const {    \
    return this->method_name();                  \
  }
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::Scalar, tryToScalar)
ET_EVALUE_DEFINE_TRY_TO_(int64_t, tryToInt)
ET_EVALUE_DEFINE_TRY_TO_(bool, tryToBool)
ET_EVALUE_DEFINE_TRY_TO_(double, tryToDouble)
ET_EVALUE_DEFINE_TRY_TO_(std::string_view, tryToString)
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::ScalarType, tryToScalarType)
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::MemoryFormat, tryToMemoryFormat)
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::Layout, tryToLayout)
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::Device, tryToDevice)
ET_EVALUE_DEFINE_TRY_TO_(::executorch::aten::Tensor, tryToTensor)
ET_EVALUE_DEFINE_TRY_TO_(std::optional<::executorch::aten::Tensor>,
                         tryToOptional<::executorch::aten::Tensor>)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<int64_t>, tryToIntList)
ET_EVALUE_DEFINE_TRY_TO_(std::optional<ArrayRef<int64_t>>, tryToOptional<ArrayRef<int64_t>>)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<bool>, tryToBoolList)
ET_EVALUE_DEFINE_TRY_TO_(std::optional<ArrayRef<bool>>, tryToOptional<ArrayRef<bool>>)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<double>, tryToDoubleList)
ET_EVALUE_DEFINE_TRY_TO_(std::optional<ArrayRef<double>>, tryToOptional<ArrayRef<double>>)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<::executorch::aten::Tensor>, tryToTensorList)
ET_EVALUE_DEFINE_TRY_TO_(std::optional<ArrayRef<::executorch::aten::Tensor>>,
                         tryToOptional<ArrayRef<::executorch::aten::Tensor>>)
ET_EVALUE_DEFINE_TRY_TO_(ArrayRef<std::optional<::executorch::aten::Tensor>>,
                         tryToListOptionalTensor)
#undef ET_EVALUE_DEFINE_TRY_TO_

namespace internal {
// Reads one element of a boxed list as T (a null element is an error).
template <typename T>
inline Result<T> unbox_list_element(const EValue* element) {
  if (element == nullptr) {
    return Error::InvalidState;
  }
  return element->template tryTo<T>();
}
// A null optional-tensor element is None.
template <>
inline Result<std::optional<::executorch::aten::Tensor>>
unbox_list_element<std::optional<::executorch::aten::Tensor>>(const EValue* element) {
  if (element == nullptr) {
    return std::optional<::executorch::aten::Tensor>();
  }
  return element->tryToOptional<::executorch::aten::Tensor>();
}
} // namespace internal

template <typename T>
Result<ArrayRef<T>> BoxedEvalueList<T>::tryGet() const {
  for (size_t i = 0; i < wrapped_vals_.size(); ++i) {
    Result<T> element = internal::unbox_list_element<T>(wrapped_vals_[i]);
    if (!element.ok()) {
      return element.error();
    }
    new (&unwrapped_vals_[i]) T(std::move(*element));
  }
  return ArrayRef<T>(unwrapped_vals_, wrapped_vals_.size());
}

template <typename T>
ArrayRef<T> BoxedEvalueList<T>::get() const {
  Result<ArrayRef<T>> list = tryGet();
  if (!list.ok()) {
    ET_LOG(Error, "Boxed list of %zu elements has a null or mistyped element (error 0x%x)",
           wrapped_vals_.size(), static_cast<unsigned>(list.error()));
    return ArrayRef<T>();
  }
  return *list;
}

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::BoxedEvalueList;
using ::executorch::runtime::EValue;
} // namespace executor
} // namespace torch
