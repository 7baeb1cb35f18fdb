// executorch/runtime/core/evalue.h: EValue's constructors (including the
// pointer-taking list ones), checked and non-aborting accessors, boxed lists.
#include <executorch/runtime/core/evalue.h>

#include <memory>
#include <optional>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::runtime::ArrayRef;
using executorch::runtime::BoxedEvalueList;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Tag;

class EValueTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }

  // A 2x3 float tensor over this fixture's storage.
  Tensor make_tensor() { return Tensor(&impl_); }

 private:
  float data_[6] = {};
  TensorImpl::SizesType sizes_[2] = {2, 3};
  TensorImpl impl_{ScalarType::Float, 2, sizes_, data_};
};

TEST_F(EValueTest, ScalarsRoundTrip) {
  EValue none;
  EXPECT_TRUE(none.isNone());
  EXPECT_EQ(EValue(int64_t(5)).toInt(), 5);
  EXPECT_EQ(EValue(2.5).toDouble(), 2.5);
  EXPECT_TRUE(EValue(true).toBool());
  EXPECT_EQ(EValue(int64_t(5)).to<int64_t>(), 5);
  EXPECT_TRUE(EValue(executorch::aten::Scalar(1.5)).isDouble());
  EXPECT_EQ(EValue(int64_t(4)).toScalarType(), ScalarType::Long);
  EXPECT_TRUE(EValue(int64_t(0)).toDevice().is_cpu());
  EXPECT_EQ(EValue(int64_t(0)).to<executorch::aten::MemoryFormat>(),
            executorch::aten::MemoryFormat::Contiguous);
}

TEST_F(EValueTest, StringFromPointerAndLength) {
  const EValue e("foo", 3);
  EXPECT_TRUE(e.isString());
  EXPECT_EQ(e.toString(), "foo");
  ArrayRef<char> chars("bar", 3);
  EValue from_ptr(&chars);
  EXPECT_EQ(from_ptr.to<std::string_view>(), "bar");
}

TEST_F(EValueTest, PointerTakingListConstructors) {
  double doubles[2] = {1.5, 2.5};
  ArrayRef<double> double_list(doubles, 2);
  EValue d(&double_list);
  ASSERT_TRUE(d.isDoubleList());
  EXPECT_EQ(d.toDoubleList()[1], 2.5);

  bool bools[3] = {true, false, true};
  ArrayRef<bool> bool_list(bools, 3);
  EValue b(&bool_list);
  ASSERT_TRUE(b.isBoolList());
  EXPECT_EQ(b.toBoolList().size(), 3u);

  EValue values[3] = {EValue(int64_t(1)), EValue(int64_t(2)), EValue(int64_t(3))};
  EValue* wrapped[3] = {&values[0], &values[1], &values[2]};
  int64_t storage[3] = {};
  BoxedEvalueList<int64_t> ints(wrapped, storage, 3);
  EValue i(&ints);
  ASSERT_TRUE(i.isIntList());
  EXPECT_EQ(i.toIntList()[2], 3);
  // The list reads the live values it points at.
  values[2] = EValue(int64_t(30));
  EXPECT_EQ(i.toIntList()[2], 30);

  EValue tensor_value(make_tensor());
  EValue* wrapped_tensors[1] = {&tensor_value};
  alignas(Tensor) unsigned char tensor_storage[sizeof(Tensor)];
  BoxedEvalueList<Tensor> tensors(wrapped_tensors, reinterpret_cast<Tensor*>(tensor_storage), 1);
  EValue t(&tensors);
  ASSERT_TRUE(t.isTensorList());
  EXPECT_EQ(t.toTensorList()[0].numel(), 6);

  EValue none;
  EValue* wrapped_optional[2] = {&tensor_value, &none};
  std::optional<Tensor> optional_storage[2];
  BoxedEvalueList<std::optional<Tensor>> optionals(wrapped_optional, optional_storage, 2);
  EValue o(&optionals);
  ASSERT_TRUE(o.isListOptionalTensor());
  auto list = o.toListOptionalTensor();
  EXPECT_TRUE(list[0].has_value());
  EXPECT_FALSE(list[1].has_value());
}

TEST_F(EValueTest, TryAccessorsReportTheWrongTag) {
  EValue i(int64_t(7));
  EXPECT_EQ(*i.tryToInt(), 7);
  EXPECT_EQ(*i.tryTo<int64_t>(), 7);
  EXPECT_EQ(i.tryToDouble().error(), Error::InvalidType);
  EXPECT_EQ(i.tryToBool().error(), Error::InvalidType);
  EXPECT_EQ(i.tryToTensor().error(), Error::InvalidType);
  EXPECT_EQ(i.tryToString().error(), Error::InvalidType);
  EXPECT_EQ(i.tryToIntList().error(), Error::InvalidType);
  EXPECT_EQ(i.tryTo<ArrayRef<double>>().error(), Error::InvalidType);
  EXPECT_EQ(*i.tryToScalarType(), static_cast<ScalarType>(7));
  EXPECT_EQ(*i.tryToLayout(), static_cast<executorch::aten::Layout>(7));
  EXPECT_EQ(EValue(1.0).tryToMemoryFormat().error(), Error::InvalidType);
  EXPECT_EQ(EValue(1.0).tryToDevice().error(), Error::InvalidType);
  EXPECT_TRUE(EValue(true).tryToScalar()->isBoolean());
  EXPECT_EQ(EValue().tryToScalar().error(), Error::InvalidType);

  EValue t(make_tensor());
  EXPECT_EQ(t.tryToTensor()->dim(), 2);
  EXPECT_EQ(t.tryTo<Tensor>()->numel(), 6);
}

TEST_F(EValueTest, OptionalAccessors) {
  EValue none;
  EXPECT_FALSE(none.toOptional<int64_t>().has_value());
  EXPECT_FALSE(none.to<std::optional<Tensor>>().has_value());
  EXPECT_FALSE(none.tryToOptional<int64_t>()->has_value());
  EValue t(make_tensor());
  EXPECT_TRUE(t.to<std::optional<Tensor>>().has_value());
  EXPECT_TRUE(t.tryTo<std::optional<Tensor>>()->has_value());
  EXPECT_EQ(EValue(2.0).tryToOptional<int64_t>().error(), Error::InvalidType);
}

TEST_F(EValueTest, BoxedListTryGetRejectsMistypedAndNullElements) {
  EValue values[3] = {EValue(int64_t(1)), EValue(3.14), EValue(int64_t(3))};
  EValue* wrapped[3] = {&values[0], &values[1], &values[2]};
  int64_t storage[3] = {};
  BoxedEvalueList<int64_t> list(wrapped, storage, 3);
  EXPECT_EQ(list.tryGet().error(), Error::InvalidType);
  // get() does not abort: it logs and returns an empty list.
  EXPECT_EQ(list.get().size(), 0u);

  EValue* with_null[2] = {&values[0], nullptr};
  BoxedEvalueList<int64_t> null_list(with_null, storage, 2);
  EXPECT_EQ(null_list.tryGet().error(), Error::InvalidState);
  EXPECT_EQ(null_list.get().size(), 0u);

  values[1] = EValue(int64_t(2));
  auto ok = list.tryGet();
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)[1], 2);
}

TEST_F(EValueTest, ListAccessorsDoNotAbortOnARetypedElement) {
  // What a program could make of a tensor list: one element retyped to Int.
  EValue tensor_value(make_tensor());
  EValue retyped(int64_t(1));
  EValue* wrapped[2] = {&tensor_value, &retyped};
  alignas(Tensor) unsigned char storage[2 * sizeof(Tensor)];
  BoxedEvalueList<Tensor> tensors(wrapped, reinterpret_cast<Tensor*>(storage), 2);
  EValue list(&tensors);
  EXPECT_EQ(list.tryToTensorList().error(), Error::InvalidType);
  EXPECT_EQ(list.toTensorList().size(), 0u);

  EValue* optional_wrapped[1] = {&retyped};
  std::optional<Tensor> optional_storage[1];
  BoxedEvalueList<std::optional<Tensor>> optionals(optional_wrapped, optional_storage, 1);
  EValue optional_list(&optionals);
  EXPECT_EQ(optional_list.tryToListOptionalTensor().error(), Error::InvalidType);
  EXPECT_EQ(optional_list.toListOptionalTensor().size(), 0u);
}

TEST_F(EValueTest, MovingLeavesTheSourceNone) {
  EValue a(int64_t(3));
  EValue b(std::move(a));
  EXPECT_TRUE(b.isInt());
  EXPECT_TRUE(a.isNone()); // NOLINT(bugprone-use-after-move): upstream's contract
  EValue c;
  c = std::move(b);
  EXPECT_EQ(c.toInt(), 3);
  EXPECT_TRUE(b.isNone()); // NOLINT(bugprone-use-after-move)
  EValue t(make_tensor());
  Tensor out = std::move(t).toTensor();
  EXPECT_EQ(out.numel(), 6);
  EXPECT_TRUE(t.isNone()); // NOLINT(bugprone-use-after-move)
}

TEST_F(EValueTest, ConstructsFromPointerLikeValues) {
  auto unique = std::make_unique<Tensor>(make_tensor());
  EValue from_unique(std::move(unique));
  EXPECT_TRUE(from_unique.isTensor());
  auto shared = std::make_shared<Tensor>(make_tensor());
  EValue from_shared(shared);
  EXPECT_EQ(from_shared.toTensor().dim(), 2);
}

TEST_F(EValueTest, WrongTagAborts) {
  EXPECT_DEATH({ (void)EValue(true).toInt(); }, "");
  EXPECT_DEATH({ EValue e(static_cast<ArrayRef<double>*>(nullptr)); }, "");
}

TEST_F(EValueTest, TorchExecutorAliases) {
  torch::executor::EValue e(int64_t(1));
  EXPECT_EQ(e.tag, torch::executor::Tag::Int);
  static_assert(
      std::is_same<torch::executor::BoxedEvalueList<int64_t>, BoxedEvalueList<int64_t>>::value,
      "alias");
}
