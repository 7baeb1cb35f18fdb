// The prim ops: the executorch_prim scalar arithmetic (Python's semantics
// for SymInt/SymFloat), sym_numel, _local_scalar_dense and et_copy_index.
#include <cmath>
#include <cstdint>

#include "dtype_test_util.h"

namespace {

using namespace kt;

// Calls a prim op on the operands plus one result slot; returns the result.
Error prim(const char* name, std::vector<EValue> in, EValue* result) {
  in.emplace_back();
  const Error e = call(name, in);
  *result = in.back();
  return e;
}

int64_t int_of(const char* name, std::vector<EValue> in) {
  EValue r;
  EXPECT_EQ(prim(name, std::move(in), &r), Error::Ok) << name;
  EXPECT_TRUE(r.isInt()) << name;
  return r.isInt() ? r.toInt() : -12345;
}

double double_of(const char* name, std::vector<EValue> in) {
  EValue r;
  EXPECT_EQ(prim(name, std::move(in), &r), Error::Ok) << name;
  EXPECT_TRUE(r.isDouble()) << name;
  return r.isDouble() ? r.toDouble() : NAN;
}

bool bool_of(const char* name, std::vector<EValue> in) {
  EValue r;
  EXPECT_EQ(prim(name, std::move(in), &r), Error::Ok) << name;
  EXPECT_TRUE(r.isBool()) << name;
  return r.isBool() && r.toBool();
}

EValue I(int64_t v) { return EValue(v); }
EValue D(double v) { return EValue(v); }

TEST(PrimScalar, Arithmetic) {
  EXPECT_EQ(int_of("executorch_prim::add.Scalar", {I(2), I(3)}), 5);
  EXPECT_EQ(int_of("executorch_prim::add.Scalar", {I(INT64_MAX), I(1)}), INT64_MIN);
  EXPECT_EQ(int_of("executorch_prim::sub.Scalar", {EValue(true), I(3)}), -2);
  EXPECT_EQ(double_of("executorch_prim::mul.Scalar", {I(2), D(1.5)}), 3.0);
  // Python's floor division: -7 // 2 == -4, and 0.5 // 0.1 == 4.0 (not 5).
  EXPECT_EQ(int_of("executorch_prim::floordiv.Scalar", {I(-7), I(2)}), -4);
  EXPECT_EQ(int_of("executorch_prim::floordiv.int", {I(-7), I(2)}), -4);
  EXPECT_EQ(int_of("executorch_prim::floordiv.int", {I(7), I(2)}), 3);
  EXPECT_EQ(double_of("executorch_prim::floordiv.Scalar", {D(-7.5), I(2)}), -4.0);
  EXPECT_EQ(double_of("executorch_prim::floordiv.Scalar", {D(0.5), D(0.1)}), 4.0);
  EXPECT_EQ(double_of("executorch_prim::truediv.Scalar", {I(7), I(2)}), 3.5);
  EXPECT_EQ(double_of("executorch_prim::truediv.Scalar", {D(1), I(4)}), 0.25);
  // Python's modulo takes the divisor's sign.
  EXPECT_EQ(int_of("executorch_prim::mod.Scalar", {I(-7), I(3)}), 2);
  EXPECT_EQ(int_of("executorch_prim::mod.Scalar", {I(7), I(-3)}), -2);
  EXPECT_EQ(int_of("executorch_prim::mod.int", {I(INT64_MIN), I(-1)}), 0);
  EXPECT_EQ(int_of("executorch_prim::mod.int", {I(12), I(5)}), 2);
  EXPECT_EQ(int_of("executorch_prim::sym_max.Scalar", {I(-3), I(4)}), 4);
  EXPECT_EQ(int_of("executorch_prim::sym_min.Scalar", {I(-3), I(4)}), -3);
  EXPECT_EQ(double_of("executorch_prim::sym_max.Scalar", {I(2), D(2.5)}), 2.5);
}

TEST(PrimScalar, ComparisonsAndUnary) {
  EXPECT_TRUE(bool_of("executorch_prim::gt.Scalar", {I(3), D(2.5)}));
  EXPECT_FALSE(bool_of("executorch_prim::lt.Scalar", {I(3), I(3)}));
  EXPECT_TRUE(bool_of("executorch_prim::le.Scalar", {I(3), I(3)}));
  EXPECT_TRUE(bool_of("executorch_prim::ge.Scalar", {D(-1), I(-2)}));
  EXPECT_TRUE(bool_of("executorch_prim::eq.Scalar", {I(2), D(2.0)}));
  EXPECT_FALSE(bool_of("executorch_prim::eq.Scalar", {EValue(true), EValue(false)}));
  // Exact for ints past 2^53, where doubles would compare equal.
  EXPECT_FALSE(
      bool_of("executorch_prim::eq.Scalar", {I((int64_t(1) << 53) + 1), I(int64_t(1) << 53)}));
  EXPECT_EQ(int_of("executorch_prim::neg.Scalar", {I(5)}), -5);
  EXPECT_EQ(int_of("executorch_prim::neg.Scalar", {I(INT64_MIN)}), INT64_MIN);
  EXPECT_EQ(double_of("executorch_prim::neg.Scalar", {D(1.5)}), -1.5);
  EXPECT_EQ(double_of("executorch_prim::sym_float.Scalar", {I(3)}), 3.0);
  EXPECT_EQ(int_of("executorch_prim::ceil.Scalar", {D(2.1)}), 3);
  EXPECT_EQ(int_of("executorch_prim::ceil.Scalar", {D(-2.1)}), -2);
  EXPECT_EQ(int_of("executorch_prim::trunc.Scalar", {D(-2.7)}), -2);
  EXPECT_EQ(int_of("executorch_prim::trunc.Scalar", {I(9)}), 9);
  // Python's round(): half to even.
  const std::vector<std::pair<double, int64_t>> rounds{{2.5, 2},  {3.5, 4},    {-2.5, -2},
                                                       {-0.5, 0}, {1.4999, 1}, {-1.6, -2}};
  for (const auto& r : rounds) {
    EXPECT_EQ(int_of("executorch_prim::round.Scalar", {D(r.first)}), r.second) << r.first;
  }
}

TEST(PrimScalar, Errors) {
  EValue r;
  auto t = tensor_of(ScalarType::Float, {1}, {1});
  for (const char* n : {"executorch_prim::floordiv.Scalar", "executorch_prim::truediv.Scalar",
                        "executorch_prim::mod.Scalar", "executorch_prim::floordiv.int"}) {
    EXPECT_EQ(prim(n, {I(1), I(0)}, &r), Error::InvalidArgument) << n;
  }
  EXPECT_EQ(prim("executorch_prim::truediv.Scalar", {D(1), D(0)}, &r), Error::InvalidArgument);
  EXPECT_EQ(prim("executorch_prim::mod.Scalar", {D(1), I(2)}, &r), Error::InvalidArgument);
  EXPECT_EQ(prim("executorch_prim::floordiv.int", {D(1), I(2)}, &r), Error::InvalidArgument);
  EXPECT_EQ(prim("executorch_prim::add.Scalar", {t->tensor(), I(0)}, &r), Error::InvalidArgument);
  EXPECT_EQ(prim("executorch_prim::round.Scalar", {D(NAN)}, &r), Error::InvalidArgument);
  EXPECT_EQ(prim("executorch_prim::ceil.Scalar", {D(1e30)}, &r), Error::InvalidArgument);
  EXPECT_EQ(prim("executorch_prim::neg.Scalar", {I(1), I(2)}, &r), Error::InvalidArgument);
}

TEST(PrimTensor, SymNumelAndLocalScalarDense) {
  auto a = tensor_of(ScalarType::Int, {2, 3}, {0, 1, 2, 3, 4, 5});
  EXPECT_EQ(int_of("aten::sym_numel", {a->tensor()}), 6);
  auto f = tensor_of(ScalarType::Half, {1, 1}, {-2.5});
  EXPECT_EQ(double_of("aten::_local_scalar_dense", {f->tensor()}), -2.5);
  auto l = tensor_of(ScalarType::Long, {}, {42});
  EXPECT_EQ(int_of("aten::_local_scalar_dense", {l->tensor()}), 42);
  auto b = tensor_of(ScalarType::Bool, {1}, {1});
  EXPECT_TRUE(bool_of("aten::_local_scalar_dense", {b->tensor()}));
  EValue r;
  EXPECT_EQ(prim("aten::_local_scalar_dense", {a->tensor()}, &r), Error::InvalidArgument);
  EXPECT_EQ(prim("aten::sym_numel", {I(1)}, &r), Error::InvalidArgument);
}

TEST(PrimTensor, EtCopyIndexGrowsTheFirstDim) {
  // copy_to starts with one row and room for three.
  auto to = out_of(ScalarType::Float, {1, 2}, {}, 6);
  for (int i = 0; i < 3; ++i) {
    auto from = tensor_of(ScalarType::Float, {2}, {double(i), double(10 * i)});
    std::vector<EValue> v{to->tensor(), from->tensor(), I(i)};
    ASSERT_EQ(call("executorch_prim::et_copy_index.tensor", v), Error::Ok) << i;
    EXPECT_EQ(to->shape(), (std::vector<int32_t>{i + 1, 2}));
  }
  EXPECT_EQ(logical(*to), (std::vector<double>{0, 0, 1, 10, 2, 20}));
  // Past the capacity; a negative index; ranks, dtypes and shapes that
  // do not fit.
  auto from = tensor_of(ScalarType::Float, {2}, {7, 8});
  std::vector<EValue> past{to->tensor(), from->tensor(), I(3)};
  EXPECT_EQ(call("executorch_prim::et_copy_index.tensor", past), Error::InvalidArgument);
  std::vector<EValue> neg{to->tensor(), from->tensor(), I(-1)};
  EXPECT_EQ(call("executorch_prim::et_copy_index.tensor", neg), Error::InvalidArgument);
  std::vector<EValue> rank{to->tensor(), to->tensor(), I(0)};
  EXPECT_EQ(call("executorch_prim::et_copy_index.tensor", rank), Error::InvalidArgument);
  auto wrong = tensor_of(ScalarType::Int, {2}, {7, 8});
  std::vector<EValue> dtype{to->tensor(), wrong->tensor(), I(0)};
  EXPECT_EQ(call("executorch_prim::et_copy_index.tensor", dtype), Error::InvalidArgument);
  auto three = tensor_of(ScalarType::Float, {3}, {1, 2, 3});
  std::vector<EValue> shape{to->tensor(), three->tensor(), I(1)};
  EXPECT_EQ(call("executorch_prim::et_copy_index.tensor", shape), Error::InvalidArgument);
  // Rows already there are kept; a trailing return slot is accepted.
  std::vector<EValue> again{to->tensor(), from->tensor(), I(1), EValue()};
  ASSERT_EQ(call("executorch_prim::et_copy_index.tensor", again), Error::Ok);
  EXPECT_EQ(logical(*to), (std::vector<double>{0, 0, 7, 8, 2, 20}));
}

} // namespace
