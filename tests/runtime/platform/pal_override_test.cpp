// An application that defines the PAL hooks itself (strong definitions in
// the executable, as upstream documents) takes over from libexecutorch's
// weak defaults: the library reaches these through the PLT.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>

namespace {
int g_init_calls = 0;
std::vector<std::string> g_messages;
std::vector<et_pal_log_level_t> g_levels;
} // namespace

extern "C" {

void et_pal_init(void) { ++g_init_calls; }

et_timestamp_t et_pal_current_ticks(void) { return 777; }

et_tick_ratio_t et_pal_ticks_to_ns_multiplier(void) { return {1000, 1}; }

void et_pal_emit_log_message(et_timestamp_t timestamp, et_pal_log_level_t level, const char*,
                             const char*, size_t, const char* message, size_t length) {
  EXPECT_EQ(timestamp, 777u);
  g_messages.emplace_back(message, length);
  g_levels.push_back(level);
}

void et_pal_abort(void) {
  std::fputs("application abort hook\n", stderr);
  std::_Exit(5);
}

} // extern "C"

TEST(PalOverrideTest, RuntimeInitCallsTheApplicationsInit) {
  const int before = g_init_calls;
  ::executorch::runtime::runtime_init();
  EXPECT_EQ(g_init_calls, before + 1);
}

TEST(PalOverrideTest, LibraryDispatchReachesTheApplicationsHooks) {
  namespace rt = ::executorch::runtime;
  EXPECT_EQ(rt::pal_current_ticks(), 777u);
  EXPECT_EQ(rt::pal_ticks_to_ns_multiplier().numerator, 1000u);
  // The table the library built at load time points here, not at its own.
  EXPECT_EQ(rt::get_pal_impl()->emit_log_message, &et_pal_emit_log_message);
}

TEST(PalOverrideTest, LogsFromInsideTheLibraryComeHere) {
  g_messages.clear();
  // A malformed program makes the library itself log why it refused it.
  const char garbage[64] = "definitely not a program";
  ::executorch::extension::BufferDataLoader loader(garbage, sizeof(garbage));
  auto program = ::executorch::runtime::Program::load(&loader);
  EXPECT_FALSE(program.ok());
  ASSERT_FALSE(g_messages.empty());
  EXPECT_EQ(g_levels.back(), kError);
  ET_LOG(Info, "from the test %d", 3);
  EXPECT_EQ(g_messages.back(), "from the test 3");
}

TEST(PalOverrideDeathTest, AbortUsesTheApplicationsHook) {
  EXPECT_EXIT(ET_CHECK_MSG(false, "boom"), ::testing::ExitedWithCode(5), "application abort hook");
}
