// TensorPtr and its makers: values, layouts, ownership and deleters.
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/platform/runtime.h>

#include "../core/fake_device_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorShapeDynamism;
using executorch::extension::TensorPtr;
using executorch::runtime::Error;
using executorch::runtime::EValue;
namespace ext = executorch::extension;

namespace {

class TensorPtrTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { executorch::runtime::runtime_init(); }
};

TEST_F(TensorPtrTest, OwnsVectorData) {
  TensorPtr t = ext::make_tensor_ptr({2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6});
  EXPECT_EQ(t->dim(), 2);
  EXPECT_EQ(t->numel(), 6);
  EXPECT_EQ(t->scalar_type(), ScalarType::Float);
  EXPECT_EQ(t->size(0), 2);
  EXPECT_EQ(t->strides()[0], 3);
  EXPECT_EQ(t->strides()[1], 1);
  EXPECT_EQ(t->dim_order()[0], 0);
  EXPECT_EQ(t->dim_order()[1], 1);
  EXPECT_EQ(t->const_data_ptr<float>()[5], 6.f);
  EXPECT_EQ(t->shape_dynamism(), TensorShapeDynamism::DYNAMIC_BOUND);
  // A copy of the handle shares the same tensor.
  TensorPtr copy = t;
  t.reset();
  EXPECT_EQ(copy->const_data_ptr<float>()[0], 1.f);
}

TEST_F(TensorPtrTest, InitializerListsAndScalars) {
  auto a = ext::make_tensor_ptr({2, 2}, {1.f, 2.f, 3.f, 4.f});
  EXPECT_EQ(a->numel(), 4);
  EXPECT_EQ(a->const_data_ptr<float>()[3], 4.f);
  auto b = ext::make_tensor_ptr({1, 2, 3});
  EXPECT_EQ(b->scalar_type(), ScalarType::Int);
  EXPECT_EQ(b->dim(), 1);
  EXPECT_EQ(b->size(0), 3);
  auto c = ext::make_tensor_ptr(std::vector<int64_t>{5, 6});
  EXPECT_EQ(c->scalar_type(), ScalarType::Long);
  EXPECT_EQ(c->const_data_ptr<int64_t>()[1], 6);
  auto s = ext::make_tensor_ptr(3.5);
  EXPECT_EQ(s->dim(), 0);
  EXPECT_EQ(s->numel(), 1);
  EXPECT_EQ(s->scalar_type(), ScalarType::Double);
  EXPECT_EQ(s->const_data_ptr<double>()[0], 3.5);
}

TEST_F(TensorPtrTest, CastsToRequestedType) {
  auto t = ext::make_tensor_ptr({3}, std::vector<int32_t>{1, -2, 3}, {}, {}, ScalarType::Float);
  EXPECT_EQ(t->scalar_type(), ScalarType::Float);
  EXPECT_EQ(t->const_data_ptr<float>()[1], -2.f);
  auto h = ext::make_tensor_ptr(std::vector<float>{0.5f, 2.f}, ScalarType::Half);
  EXPECT_EQ(h->scalar_type(), ScalarType::Half);
  EXPECT_EQ(static_cast<float>(h->const_data_ptr<executorch::aten::Half>()[0]), 0.5f);
  auto raw = ext::make_tensor_ptr({2}, std::vector<uint8_t>(8, 0), ScalarType::Float);
  EXPECT_EQ(raw->nbytes(), 8u);
}

TEST_F(TensorPtrTest, RawPointerOverloadAndDeleterRunsOnce) {
  std::vector<float> a = {1, 2, 3, 4};
  // float* binds to void*: the raw, non-owning overload.
  auto view = ext::make_tensor_ptr({2, 2}, a.data());
  EXPECT_EQ(view->const_data_ptr<float>(), a.data());
  view.reset();
  EXPECT_EQ(a[0], 1.f); // nothing freed or touched

  int calls = 0;
  void* seen = nullptr;
  {
    auto owned = ext::make_tensor_ptr({4}, a.data(), ScalarType::Float, TensorShapeDynamism::STATIC,
                                      [&](void* p) {
                                        ++calls;
                                        seen = p;
                                      });
    TensorPtr c1 = owned, c2 = owned;
    owned.reset();
    c1.reset();
    EXPECT_EQ(calls, 0);
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen, a.data());
}

TEST_F(TensorPtrTest, DimOrderAndStrides) {
  std::vector<float> d(24);
  // Channels-last style order for a [2,3,4] tensor: strides follow.
  auto t = ext::make_tensor_ptr({2, 3, 4}, d.data(), {0, 2, 1}, {});
  EXPECT_EQ(t->strides()[0], 12);
  EXPECT_EQ(t->strides()[1], 1);
  EXPECT_EQ(t->strides()[2], 3);
  // Strides only: the dim order is derived.
  auto u = ext::make_tensor_ptr({2, 3, 4}, d.data(), {}, {12, 1, 3});
  EXPECT_EQ(u->dim_order()[0], 0);
  EXPECT_EQ(u->dim_order()[1], 2);
  EXPECT_EQ(u->dim_order()[2], 1);
  auto e = ext::from_blob(d.data(), {4, 6}, {6, 1});
  EXPECT_EQ(e->strides()[0], 6);
}

TEST_F(TensorPtrTest, FromBlobAndForBlob) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  auto t = ext::from_blob(data, {2, 3});
  EXPECT_EQ(t->mutable_data_ptr<float>(), data);
  t->mutable_data_ptr<float>()[0] = 10;
  EXPECT_EQ(data[0], 10.f);

  int deleted = 0;
  {
    TensorPtr m = ext::for_blob(data, {3, 2}, ScalarType::Float)
                      .dynamism(TensorShapeDynamism::STATIC)
                      .deleter([&](void*) { ++deleted; });
    EXPECT_EQ(m->shape_dynamism(), TensorShapeDynamism::STATIC);
    EXPECT_EQ(m->size(0), 3);
  }
  EXPECT_EQ(deleted, 1);
  int32_t ints[4] = {1, 2, 3, 4};
  auto i = ext::from_blob(ints, {4}, ScalarType::Int, [&](void*) { ++deleted; });
  i.reset();
  EXPECT_EQ(deleted, 2);
}

TEST_F(TensorPtrTest, ViewsShareDataAndKeepSourceAlive) {
  auto src = ext::make_tensor_ptr({2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6});
  auto view = ext::make_tensor_ptr(src, {6});
  EXPECT_EQ(view->dim(), 1);
  EXPECT_EQ(view->const_data_ptr(), src->const_data_ptr());
  src.reset(); // the view keeps the data alive
  EXPECT_EQ(view->const_data_ptr<float>()[5], 6.f);
  auto same = ext::make_tensor_ptr(*view);
  EXPECT_EQ(same->size(0), 6);
}

TEST_F(TensorPtrTest, CloneIsDeepAndCasts) {
  auto src = ext::make_tensor_ptr({3}, std::vector<float>{1.5f, 2.5f, -3.f});
  auto c = ext::clone_tensor_ptr(src);
  EXPECT_NE(c->const_data_ptr(), src->const_data_ptr());
  src->mutable_data_ptr<float>()[0] = 100;
  EXPECT_EQ(c->const_data_ptr<float>()[0], 1.5f);
  auto d = ext::clone_tensor_ptr(*src, ScalarType::Double);
  EXPECT_EQ(d->scalar_type(), ScalarType::Double);
  EXPECT_EQ(d->const_data_ptr<double>()[2], -3.0);
  auto ints = ext::make_tensor_ptr({2}, std::vector<int32_t>{7, -8});
  auto widened = ext::clone_tensor_ptr(ints, ScalarType::Long);
  EXPECT_EQ(widened->const_data_ptr<int64_t>()[1], -8);
  auto cpu =
      ext::clone_tensor_ptr_to(src, executorch::aten::Device(executorch::aten::DeviceType::CPU));
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->const_data_ptr<float>()[0], 100.f);
}

TEST_F(TensorPtrTest, Resize) {
  auto t = ext::make_tensor_ptr({2, 3}, std::vector<float>(6, 1.f));
  ASSERT_EQ(ext::resize_tensor_ptr(t, {3, 2}), Error::Ok);
  EXPECT_EQ(t->size(0), 3);
  EXPECT_EQ(t->strides()[0], 2);
  ASSERT_EQ(ext::resize_tensor_ptr(t, {1, 2}), Error::Ok);
  EXPECT_EQ(t->numel(), 2);
  // Bounded: cannot grow past what it was created with, nor change rank.
  EXPECT_NE(ext::resize_tensor_ptr(t, {4, 3}), Error::Ok);
  EXPECT_NE(ext::resize_tensor_ptr(t, {2}), Error::Ok);
  auto s = ext::make_tensor_ptr({2}, std::vector<float>(2), {}, {}, ScalarType::Float,
                                TensorShapeDynamism::STATIC);
  EXPECT_NE(ext::resize_tensor_ptr(s, {1}), Error::Ok);
}

TEST_F(TensorPtrTest, FillingMakers) {
  auto z = ext::zeros({2, 2});
  auto o = ext::ones({3}, ScalarType::Int);
  auto f = ext::full({2}, 7.25);
  auto e = ext::empty({5}, ScalarType::Long);
  EXPECT_EQ(z->const_data_ptr<float>()[3], 0.f);
  EXPECT_EQ(o->const_data_ptr<int32_t>()[2], 1);
  EXPECT_EQ(f->const_data_ptr<float>()[1], 7.25f);
  EXPECT_EQ(e->nbytes(), 40u);
  auto sc = ext::scalar_tensor(2.5);
  EXPECT_EQ(sc->dim(), 0);
  EXPECT_EQ(sc->const_data_ptr<float>()[0], 2.5f);
  auto b = ext::full({2}, true, ScalarType::Bool);
  EXPECT_TRUE(b->const_data_ptr<bool>()[1]);

  auto zl = ext::zeros_like(o);
  EXPECT_EQ(zl->scalar_type(), ScalarType::Int);
  EXPECT_EQ(zl->numel(), 3);
  auto ol = ext::ones_like(z, ScalarType::Double);
  EXPECT_EQ(ol->const_data_ptr<double>()[0], 1.0);
  auto fl = ext::full_like(z, 4);
  EXPECT_EQ(fl->const_data_ptr<float>()[2], 4.f);
  auto el = ext::empty_like(z);
  EXPECT_EQ(el->dim(), 2);
  auto es = ext::empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(es->dim_order()[0], 1);
}

TEST_F(TensorPtrTest, RandomMakersStayInRange) {
  auto r = ext::rand({1000});
  for (ssize_t i = 0; i < r->numel(); ++i) {
    const float v = r->const_data_ptr<float>()[i];
    ASSERT_GE(v, 0.f);
    ASSERT_LT(v, 1.f);
  }
  auto n = ext::randn({1000}, ScalarType::Double);
  double sum = 0;
  for (ssize_t i = 0; i < n->numel(); ++i) sum += n->const_data_ptr<double>()[i];
  EXPECT_LT(std::abs(sum / 1000), 0.2);
  auto ri = ext::randint(-3, 4, {500});
  EXPECT_EQ(ri->scalar_type(), ScalarType::Int);
  bool saw_low = false, saw_high = false;
  for (ssize_t i = 0; i < ri->numel(); ++i) {
    const int32_t v = ri->const_data_ptr<int32_t>()[i];
    ASSERT_GE(v, -3);
    ASSERT_LT(v, 4);
    saw_low |= v == -3;
    saw_high |= v == 3;
  }
  EXPECT_TRUE(saw_low && saw_high);
  auto rl = ext::rand_like(ri, ScalarType::Float);
  EXPECT_EQ(rl->numel(), 500);
  auto rnl = ext::randn_like(rl);
  EXPECT_EQ(rnl->scalar_type(), ScalarType::Float);
  auto ril = ext::randint_like(rl, 0, 2);
  EXPECT_EQ(ril->scalar_type(), ScalarType::Float);
  auto rs = ext::rand_strided({2, 2}, {1, 2});
  EXPECT_EQ(rs->strides()[1], 2);
}

TEST_F(TensorPtrTest, ConvertsToEValue) {
  auto t = ext::make_tensor_ptr({2}, {1.f, 2.f});
  EValue v = t;
  ASSERT_TRUE(v.isTensor());
  EXPECT_EQ(v.toTensor().const_data_ptr(), t->const_data_ptr());
  std::vector<EValue> list = {t, t};
  EXPECT_EQ(list.size(), 2u);
}

TEST_F(TensorPtrTest, CastsTheDtypeRulesForbidAbort) {
  // Upstream's canCast: no float -> integral, no non-bool -> bool.
  auto floats = ext::make_tensor_ptr({2}, std::vector<float>{1.5f, 2.5f});
  EXPECT_DEATH((void)ext::clone_tensor_ptr(floats, ScalarType::Int), "");
  EXPECT_DEATH((void)ext::clone_tensor_ptr(floats, ScalarType::Bool), "");
  EXPECT_DEATH(
      (void)ext::make_tensor_ptr({2}, std::vector<float>{1.f, 2.f}, {}, {}, ScalarType::Long), "");
  EXPECT_DEATH((void)ext::make_tensor_ptr(std::vector<int32_t>{1, 0}, ScalarType::Bool), "");
  // Allowed: widening, integral -> float, bool -> anything.
  auto flags = ext::make_tensor_ptr({2}, std::vector<uint8_t>{1, 0}, ScalarType::Bool);
  EXPECT_EQ(ext::clone_tensor_ptr(flags, ScalarType::Float)->const_data_ptr<float>()[0], 1.f);
  // Floats into a barebones unsigned type are converted, as upstream does.
  auto u32 = ext::make_tensor_ptr(std::vector<float>{1.f, 7.f}, ScalarType::UInt32);
  EXPECT_EQ(u32->const_data_ptr<uint32_t>()[1], 7u);
}

TEST_F(TensorPtrTest, SameShapeViewKeepsTheSourceLayout) {
  std::vector<float> d(24);
  auto src = ext::make_tensor_ptr({2, 3, 4}, d.data(), {0, 2, 1}, {});
  auto same = ext::make_tensor_ptr(src);
  ASSERT_EQ(same->dim(), 3);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(same->dim_order()[i], src->dim_order()[i]);
    EXPECT_EQ(same->strides()[i], src->strides()[i]);
  }
  // Sizes given but equal to the source's: still the source's layout.
  auto explicit_same = ext::make_tensor_ptr(src, {2, 3, 4});
  EXPECT_EQ(explicit_same->strides()[1], 1);
  // Same rank, other shape: the dim order stays, strides follow the sizes.
  auto reshaped = ext::make_tensor_ptr(src, {2, 4, 3});
  EXPECT_EQ(reshaped->dim_order()[1], 2);
  EXPECT_EQ(reshaped->strides()[0], 12);
  EXPECT_EQ(reshaped->strides()[1], 1);
  EXPECT_EQ(reshaped->strides()[2], 4);
  // Other rank: contiguous.
  auto flat = ext::make_tensor_ptr(src, {24});
  EXPECT_EQ(flat->strides()[0], 1);
  // A view larger than the source aborts.
  EXPECT_DEATH((void)ext::make_tensor_ptr(src, {5, 5}), "");
}

TEST_F(TensorPtrTest, SizeOneDimensionStrideIsCanonical) {
  float d[4] = {};
  // Any stride is accepted for a size-1 dimension; the tensor keeps the
  // dense one.
  auto t = ext::from_blob(d, {1, 4}, {100, 1});
  EXPECT_EQ(t->strides()[0], 4);
  EXPECT_EQ(t->strides()[1], 1);
  // A size-0 dimension gets no such leeway.
  EXPECT_DEATH((void)ext::from_blob(d, {0, 4}, {100, 1}), "");
}

TEST_F(TensorPtrTest, ScalarTensorsAreStatic) {
  auto s = ext::make_tensor_ptr(3.0f);
  EXPECT_EQ(s->dim(), 0);
  EXPECT_EQ(s->shape_dynamism(), TensorShapeDynamism::STATIC);
  auto v = ext::make_tensor_ptr({2}, std::vector<float>{1, 2});
  EXPECT_EQ(v->shape_dynamism(), TensorShapeDynamism::DYNAMIC_BOUND);
}

TEST_F(TensorPtrTest, Accessor) {
  auto t = ext::make_tensor_ptr({2, 3}, std::vector<float>{0, 1, 2, 3, 4, 5});
  auto acc = ext::make_tensor_accessor<float, 2>(*t);
  ASSERT_TRUE(acc.ok());
  EXPECT_EQ((*acc)[1][2], 5.f);
  (*acc)[0][1] = 9.f;
  EXPECT_EQ(t->const_data_ptr<float>()[1], 9.f);
  EXPECT_FALSE((ext::make_tensor_accessor<float, 3>(*t).ok()));
  EXPECT_FALSE((ext::make_tensor_accessor<double, 2>(*t).ok()));
}

} // namespace

// clone_tensor_ptr_to through a registered allocator: host to "CUDA" and
// back, the device memory freed with the last copy; without an allocator or
// data, nullptr instead of a crash.
TEST_F(TensorPtrTest, CloneToADeviceAndBack) {
  using executorch::aten::Device;
  using executorch::aten::DeviceType;
  auto src = ext::make_tensor_ptr({2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6});
  EXPECT_EQ(ext::clone_tensor_ptr_to(src, Device(DeviceType::CUDA)), nullptr);
  et_test::FakeCudaAllocator cuda;
  {
    et_test::ScopedRegistration reg(&cuda);
    auto dev = ext::clone_tensor_ptr_to(src, DeviceType::CUDA);
    ASSERT_NE(dev, nullptr);
    EXPECT_EQ(dev->unsafeGetTensorImpl()->device_type(), DeviceType::CUDA);
    EXPECT_EQ(dev->size(1), 3);
    EXPECT_NE(dev->const_data_ptr(), src->const_data_ptr());
    EXPECT_EQ(cuda.allocations, 1);
    auto back = ext::clone_tensor_ptr_to(dev, DeviceType::CPU);
    ASSERT_NE(back, nullptr);
    EXPECT_TRUE(back->device().is_cpu());
    EXPECT_EQ(back->const_data_ptr<float>()[5], 6.0f);
    // FakeCudaAllocator has no device-to-device copy: refused, not crashed.
    EXPECT_EQ(ext::clone_tensor_ptr_to(dev, DeviceType::CUDA), nullptr);
    EXPECT_EQ(cuda.allocations, 2);
    EXPECT_EQ(cuda.deallocations, 1);
    dev.reset();
    EXPECT_EQ(cuda.deallocations, 2);
  }
  auto empty = ext::make_tensor_ptr({4}, static_cast<float*>(nullptr));
  EXPECT_EQ(ext::clone_tensor_ptr_to(empty, DeviceType::CUDA), nullptr);
  EXPECT_EQ(ext::clone_tensor_ptr_to(TensorPtr(), DeviceType::CPU), nullptr);
}
