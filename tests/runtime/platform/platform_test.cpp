// platform.h: the PAL table, register_pal() and the pal_*() dispatchers,
// exercised the way an embedder overrides hooks at run time.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include <executorch/runtime/platform/clock.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>

namespace rt = ::executorch::runtime;

namespace {

// Records what the runtime asks of the platform.
struct Spy {
  int init_calls = 0;
  int ticks_calls = 0;
  int log_calls = 0;
  int allocate_calls = 0;
  int free_calls = 0;
  et_timestamp_t ticks = 1234;
  et_tick_ratio_t ratio = {3, 2};
  et_timestamp_t last_timestamp = 0;
  et_pal_log_level_t last_level = kUnknown;
  std::string last_message;
  std::string last_function;
  size_t last_length = 0;
};
Spy* g_spy = nullptr;

void spy_init() { ++g_spy->init_calls; }
et_timestamp_t spy_ticks() {
  ++g_spy->ticks_calls;
  return g_spy->ticks;
}
et_tick_ratio_t spy_ratio() { return g_spy->ratio; }
void spy_log(et_timestamp_t timestamp, et_pal_log_level_t level, const char*, const char* function,
             size_t, const char* message, size_t length) {
  ++g_spy->log_calls;
  g_spy->last_timestamp = timestamp;
  g_spy->last_level = level;
  g_spy->last_message.assign(message, length);
  g_spy->last_function = function;
  g_spy->last_length = length;
}
void* spy_allocate(size_t size) {
  ++g_spy->allocate_calls;
  return std::malloc(size);
}
void spy_free(void* p) {
  ++g_spy->free_calls;
  std::free(p);
}

class PlatformTest : public ::testing::Test {
 protected:
  void SetUp() override {
    original_ = *rt::get_pal_impl();
    g_spy = &spy_;
  }
  void TearDown() override {
    // Put the defaults back (their init is the library's no-op).
    rt::register_pal(original_);
    g_spy = nullptr;
  }
  void register_spy() {
    ASSERT_TRUE(rt::register_pal(rt::PalImpl::create(spy_init, nullptr, spy_ticks, spy_ratio,
                                                     spy_log, spy_allocate, spy_free, __FILE__)));
  }
  Spy spy_;
  rt::PalImpl original_;
};

} // namespace

TEST_F(PlatformTest, DefaultsAreTheLibrarysHooks) {
  const rt::PalImpl* pal = rt::get_pal_impl();
  EXPECT_EQ(pal->current_ticks, &et_pal_current_ticks);
  EXPECT_EQ(pal->emit_log_message, &et_pal_emit_log_message);
  EXPECT_EQ(pal->abort, &et_pal_abort);
  // The default clock is monotonic nanoseconds.
  const et_timestamp_t a = rt::pal_current_ticks();
  const et_timestamp_t b = rt::pal_current_ticks();
  EXPECT_LE(a, b);
  EXPECT_EQ(rt::pal_ticks_to_ns_multiplier().numerator, 1u);
  EXPECT_EQ(rt::pal_ticks_to_ns_multiplier().denominator, 1u);
  void* p = rt::pal_allocate(32);
  EXPECT_NE(p, nullptr);
  rt::pal_free(p);
  rt::pal_free(nullptr);
}

TEST_F(PlatformTest, RegisterCallsInitAndReplacesHooks) {
  register_spy();
  EXPECT_EQ(spy_.init_calls, 1);
  EXPECT_EQ(rt::get_pal_impl()->current_ticks, &spy_ticks);
  EXPECT_EQ(rt::pal_current_ticks(), 1234u);
  EXPECT_EQ(spy_.ticks_calls, 1);
  EXPECT_EQ(rt::pal_ticks_to_ns_multiplier().numerator, 3u);
  EXPECT_EQ(rt::ticks_to_ns(10), 15u);
  void* p = rt::pal_allocate(16);
  rt::pal_free(p);
  EXPECT_EQ(spy_.allocate_calls, 1);
  EXPECT_EQ(spy_.free_calls, 1);
  rt::pal_emit_log_message(5, kError, "f.cpp", "fn", 6, "hello world", 5);
  EXPECT_EQ(spy_.last_message, "hello");
  EXPECT_EQ(spy_.last_timestamp, 5u);
}

TEST_F(PlatformTest, NullEntriesKeepTheCurrentHook) {
  register_spy();
  // Only the log hook: the spy's clock stays.
  rt::register_pal(rt::PalImpl::create(spy_log, "second"));
  EXPECT_EQ(rt::get_pal_impl()->current_ticks, &spy_ticks);
  EXPECT_EQ(rt::get_pal_impl()->abort, &et_pal_abort);
  EXPECT_STREQ(rt::get_pal_impl()->source_filename, "second");
  EXPECT_EQ(spy_.init_calls, 1); // no init given: not called again
}

TEST_F(PlatformTest, LogGoesThroughThePal) {
  register_spy();
  const auto level = rt::get_log_level();
  rt::set_log_level(rt::LogLevel::Debug);
  ET_LOG(Error, "value %d", 42);
  EXPECT_EQ(spy_.log_calls, 1);
  EXPECT_EQ(spy_.last_message, "value 42");
  EXPECT_EQ(spy_.last_length, 8u);
  EXPECT_EQ(spy_.last_level, kError);
  // The timestamp comes from the PAL clock, read once per message.
  EXPECT_EQ(spy_.last_timestamp, 1234u);
  EXPECT_EQ(spy_.ticks_calls, 1);
  EXPECT_EQ(spy_.last_function, "TestBody");
  // Debug is compiled out below ET_MIN_LOG_LEVEL (Info by default).
  if (rt::LogLevel::Debug >= rt::LogLevel::ET_MIN_LOG_LEVEL) {
    ET_LOG(Debug, "d");
    EXPECT_EQ(spy_.last_level, kDebug);
  }
  ET_LOG(Info, "i");
  EXPECT_EQ(spy_.last_level, kInfo);
  ET_LOG(Fatal, "f");
  EXPECT_EQ(spy_.last_level, kFatal);
  ET_LOG(NumLevels, "n");
  EXPECT_EQ(spy_.last_level, kUnknown);
  // Below the runtime level nothing reaches the PAL.
  rt::set_log_level(rt::LogLevel::Error);
  const int before = spy_.log_calls;
  ET_LOG(Info, "dropped");
  EXPECT_EQ(spy_.log_calls, before);
  rt::set_log_level(level);
}

TEST_F(PlatformTest, LongMessagesAreTruncatedNotOverrun) {
  register_spy();
  const std::string big(2000, 'x');
  ET_LOG(Error, "%s", big.c_str());
  EXPECT_GT(spy_.last_length, 100u);
  EXPECT_LT(spy_.last_length, big.size());
  EXPECT_EQ(spy_.last_message.size(), spy_.last_length);
}

TEST_F(PlatformTest, RuntimeInitCallsPalInitEachTime) {
  register_spy();
  const int after_register = spy_.init_calls;
  rt::runtime_init();
  rt::runtime_init();
  EXPECT_EQ(spy_.init_calls, after_register + 2);
}

TEST(PlatformDeathTest, AbortGoesThroughThePal) {
  EXPECT_EXIT(
      {
        rt::register_pal(rt::PalImpl::create(
            nullptr, [] { std::_Exit(7); }, nullptr, nullptr, nullptr, nullptr, nullptr,
            "abort-test"));
        rt::pal_abort();
      },
      ::testing::ExitedWithCode(7), "");
  // A hook that returns is followed by a real abort.
  EXPECT_DEATH(
      {
        rt::register_pal(rt::PalImpl::create(
            nullptr, [] {}, nullptr, nullptr, nullptr, nullptr, nullptr, "returns"));
        rt::pal_abort();
      },
      "");
}
