// log.h: ET_LOG formatting, the runtime level, and where messages go (the
// sink if one is set, else the PAL).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/platform.h>

namespace rt = ::executorch::runtime;

namespace {

std::vector<std::string> g_sunk;
std::vector<rt::LogLevel> g_sunk_levels;
void capture(rt::LogLevel level, const char*, const char*, size_t, const char* message,
             size_t length) {
  g_sunk.emplace_back(message, length);
  g_sunk_levels.push_back(level);
}

int g_pal_lines = 0;
void count_pal(et_timestamp_t, et_pal_log_level_t, const char*, const char*, size_t, const char*,
               size_t) {
  ++g_pal_lines;
}

class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    level_ = rt::get_log_level();
    pal_ = *rt::get_pal_impl();
    g_sunk.clear();
    g_sunk_levels.clear();
    g_pal_lines = 0;
  }
  void TearDown() override {
    rt::set_log_sink(nullptr);
    rt::set_log_level(level_);
    rt::register_pal(pal_);
  }
  rt::LogLevel level_;
  rt::PalImpl pal_;
};

} // namespace

TEST_F(LogTest, SinkReceivesFormattedMessages) {
  EXPECT_EQ(rt::set_log_sink(capture), nullptr);
  ET_LOG(Error, "%s has %d items", "list", 3);
  ASSERT_EQ(g_sunk.size(), 1u);
  EXPECT_EQ(g_sunk[0], "list has 3 items");
  EXPECT_EQ(g_sunk_levels[0], rt::LogLevel::Error);
  EXPECT_EQ(rt::set_log_sink(nullptr), &capture);
}

TEST_F(LogTest, RuntimeLevelFilters) {
  rt::set_log_sink(capture);
  rt::set_log_level(rt::LogLevel::Error);
  EXPECT_EQ(rt::get_log_level(), rt::LogLevel::Error);
  ET_LOG(Info, "hidden");
  ET_LOG(Error, "shown");
  ET_LOG(Fatal, "also shown");
  EXPECT_EQ(g_sunk, (std::vector<std::string>{"shown", "also shown"}));
  rt::set_log_level(rt::LogLevel::Info);
  ET_LOG(Info, "info now");
  EXPECT_EQ(g_sunk.back(), "info now");
}

TEST_F(LogTest, MinLevelCompilesDebugOut) {
  // ET_MIN_LOG_LEVEL defaults to Info: a Debug line never reaches the sink,
  // whatever the runtime level.
  rt::set_log_sink(capture);
  rt::set_log_level(rt::LogLevel::Debug);
  ET_LOG(Debug, "compiled out");
  EXPECT_EQ(g_sunk.empty(), rt::LogLevel::Debug < rt::LogLevel::ET_MIN_LOG_LEVEL);
}

TEST_F(LogTest, WithoutASinkMessagesGoToThePal) {
  rt::register_pal(rt::PalImpl::create(count_pal, __FILE__));
  ET_LOG(Error, "one");
  EXPECT_EQ(g_pal_lines, 1);
  rt::set_log_sink(capture);
  ET_LOG(Error, "two");
  EXPECT_EQ(g_pal_lines, 1); // the sink took it
  EXPECT_EQ(g_sunk.back(), "two");
}

TEST_F(LogTest, LevelsAreOrderedBySeverity) {
  static_assert(rt::LogLevel::Debug < rt::LogLevel::Info);
  static_assert(rt::LogLevel::Info < rt::LogLevel::Error);
  static_assert(rt::LogLevel::Error < rt::LogLevel::Fatal);
  rt::set_log_sink(capture);
  rt::set_log_level(rt::LogLevel::Fatal);
  ET_LOG(Error, "below fatal");
  EXPECT_TRUE(g_sunk.empty());
}
