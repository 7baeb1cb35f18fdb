// executorch/runtime/core/function_ref.h: a non-owning callable reference.
#include <executorch/runtime/core/function_ref.h>

#include <gtest/gtest.h>

using executorch::runtime::FunctionRef;

namespace {
int twice(int x) { return 2 * x; }
int apply(FunctionRef<int(int)> f, int x) { return f(x); }
} // namespace

TEST(FunctionRefTest, CallsLambdasFunctorsAndFunctions) {
  int offset = 10;
  auto add = [&](int x) { return x + offset; };
  EXPECT_EQ(apply(add, 1), 11);
  offset = 20; // a reference, not a copy: the change is seen
  EXPECT_EQ(apply(add, 1), 21);
  EXPECT_EQ(apply(twice, 4), 8);

  struct Counter {
    int calls = 0;
    void operator()() { ++calls; }
  } counter;
  FunctionRef<void()> ref(counter);
  ref();
  ref();
  EXPECT_EQ(counter.calls, 2);
}

TEST(FunctionRefTest, EmptyAndEquality) {
  FunctionRef<void()> empty;
  EXPECT_FALSE(empty);
  FunctionRef<void()> null_ref(nullptr);
  EXPECT_FALSE(null_ref);
  auto f = [] {};
  FunctionRef<void()> a(f);
  FunctionRef<void()> b(f);
  EXPECT_TRUE(a);
  EXPECT_TRUE(a == b);
  auto g = [] {};
  EXPECT_FALSE(a == FunctionRef<void()>(g));
}

TEST(FunctionRefTest, ForwardsReferencesAndConvertsReturns) {
  auto set = [](int& out) { out = 5; };
  FunctionRef<void(int&)> ref(set);
  int v = 0;
  ref(v);
  EXPECT_EQ(v, 5);
  auto small = [](int x) -> short { return static_cast<short>(x); };
  FunctionRef<long(int)> widen(small);
  EXPECT_EQ(widen(7), 7L);
}
