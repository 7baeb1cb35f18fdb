// The caller-stream guard: nesting, nullptr still "selected", per thread.
#include <executorch/extension/cuda/caller_stream.h>

#include <thread>

#include <gtest/gtest.h>

using executorch::extension::cuda::CallerStreamGuard;
using executorch::extension::cuda::getCallerStream;

namespace {

cudaStream_t fake_stream(uintptr_t v) { return reinterpret_cast<cudaStream_t>(v); }

TEST(CallerStream, NoneByDefault) { EXPECT_FALSE(getCallerStream().has_value()); }

TEST(CallerStream, GuardSetsAndRestores) {
  {
    CallerStreamGuard guard(fake_stream(0x1000));
    ASSERT_TRUE(getCallerStream().has_value());
    EXPECT_EQ(*getCallerStream(), fake_stream(0x1000));
  }
  EXPECT_FALSE(getCallerStream().has_value());
}

TEST(CallerStream, NestedGuardsRestoreInOrder) {
  CallerStreamGuard outer(fake_stream(0x10));
  {
    CallerStreamGuard inner(fake_stream(0x20));
    EXPECT_EQ(*getCallerStream(), fake_stream(0x20));
    {
      CallerStreamGuard innermost(nullptr);
      ASSERT_TRUE(getCallerStream().has_value());
      EXPECT_EQ(*getCallerStream(), nullptr);
    }
    EXPECT_EQ(*getCallerStream(), fake_stream(0x20));
  }
  EXPECT_EQ(*getCallerStream(), fake_stream(0x10));
}

TEST(CallerStream, NullptrCountsAsSelected) {
  CallerStreamGuard guard(nullptr);
  auto s = getCallerStream();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, nullptr);
}

TEST(CallerStream, StateIsPerThread) {
  CallerStreamGuard guard(fake_stream(0x30));
  bool other_saw_none = false;
  bool other_saw_own = false;
  std::thread t([&] {
    other_saw_none = !getCallerStream().has_value();
    CallerStreamGuard g(fake_stream(0x40));
    other_saw_own = getCallerStream() == fake_stream(0x40);
  });
  t.join();
  EXPECT_TRUE(other_saw_none);
  EXPECT_TRUE(other_saw_own);
  EXPECT_EQ(*getCallerStream(), fake_stream(0x30));
}

static_assert(!std::is_copy_constructible_v<CallerStreamGuard>);
static_assert(!std::is_move_constructible_v<CallerStreamGuard>);
static_assert(!std::is_copy_assignable_v<CallerStreamGuard>);
static_assert(!std::is_move_assignable_v<CallerStreamGuard>);

} // namespace
