// clock.h: tick -> nanosecond conversion with the active PAL's ratio.
#include <gtest/gtest.h>

#include <executorch/runtime/platform/clock.h>

namespace rt = ::executorch::runtime;

namespace {
et_tick_ratio_t g_ratio = {1, 1};
et_tick_ratio_t ratio() { return g_ratio; }
} // namespace

TEST(ClockTest, TicksToNanoseconds) {
  const rt::PalImpl original = *rt::get_pal_impl();
  // The default: one tick per nanosecond.
  EXPECT_EQ(rt::ticks_to_ns(12345), 12345u);
  rt::register_pal(
      rt::PalImpl::create(nullptr, nullptr, nullptr, ratio, nullptr, nullptr, nullptr, __FILE__));
  g_ratio = {41, 1}; // e.g. a 24.39 MHz timer
  EXPECT_EQ(rt::ticks_to_ns(3), 123u);
  g_ratio = {1, 4};
  EXPECT_EQ(::torch::executor::ticks_to_ns(10), 2u);
  rt::register_pal(original);
}

TEST(ClockTest, DefaultClockAdvances) {
  const rt::et_timestamp_t a = rt::pal_current_ticks();
  volatile unsigned spin = 0;
  for (unsigned i = 0; i < 100000; ++i) spin = spin + i;
  const rt::et_timestamp_t b = rt::pal_current_ticks();
  EXPECT_GT(b, a);
  EXPECT_GT(rt::ticks_to_ns(b - a), 0u);
}
