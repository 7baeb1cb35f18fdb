// load_backend_plugins() / load_backend_plugin(): which files register, which
// are skipped and with which Error, and that each backend registers once
// however often and through whichever path its library is reached.
// PLUGIN_DIR holds the test plugins built beside this test: test_plugin_good
// (registers "TestPluginGood"), test_plugin_other_abi (plugin ABI 999,
// registers nothing) and test_plugin_not_a_plugin (no ABI symbol).
#include <executorch/runtime/backend/backend_plugins.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/runtime.h>

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

using executorch::runtime::backend_plugin_abi_version;
using executorch::runtime::backend_plugin_dir;
using executorch::runtime::Error;
using executorch::runtime::get_backend_class;
using executorch::runtime::get_num_registered_backends;
using executorch::runtime::kBackendPluginAbiVersion;
using executorch::runtime::load_backend_plugin;
using executorch::runtime::load_backend_plugins;
using executorch::runtime::LogLevel;
using executorch::runtime::set_log_sink;

const std::string kPluginDir = PLUGIN_DIR;

std::string plugin(const char* name) { return kPluginDir + "/lib" + name + ".so"; }

// The level of the last line logged, for the test that checks it.
LogLevel g_last_level = LogLevel::NumLevels;
void record_level(LogLevel level, const char*, const char*, size_t, const char*, size_t) {
  g_last_level = level;
}

class BackendPluginsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { executorch::runtime::runtime_init(); }

  void SetUp() override {
    char tmpl[] = "/tmp/et-plugins.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    extra_dir_ = tmpl;
  }
  void TearDown() override {
    for (const char* name : {"/broken.so", "/link.so", "/notes.txt"}) {
      unlink((extra_dir_ + name).c_str());
    }
    rmdir(extra_dir_.c_str());
    unsetenv("EXECUTORCH_BACKEND_PATH");
  }
  void write_file(const char* name, const char* text) {
    FILE* f = std::fopen((extra_dir_ + name).c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text, f);
    std::fclose(f);
  }

  std::string extra_dir_;
};

TEST_F(BackendPluginsTest, AbiAndDirectory) {
  EXPECT_EQ(backend_plugin_abi_version(), kBackendPluginAbiVersion);
  const std::string dir = backend_plugin_dir();
  const std::string tail = "/executorch/backends";
  ASSERT_GT(dir.size(), tail.size());
  EXPECT_EQ(dir.compare(dir.size() - tail.size(), tail.size(), tail), 0) << dir;
  EXPECT_EQ(dir[0], '/') << dir;
}

TEST_F(BackendPluginsTest, EachFileGetsItsError) {
  write_file("/broken.so", "not an ELF file\n");
  EXPECT_EQ(load_backend_plugin(nullptr), Error::InvalidArgument);
  EXPECT_EQ(load_backend_plugin((extra_dir_ + "/missing.so").c_str()), Error::NotFound);
  EXPECT_EQ(load_backend_plugin((extra_dir_ + "/broken.so").c_str()), Error::NotFound);
  EXPECT_EQ(load_backend_plugin("libexecutorch_no_such_backend.so.1"), Error::NotFound)
      << "a bare name the loader path does not have";
  EXPECT_EQ(load_backend_plugin("libc.so.6"), Error::InvalidArgument)
      << "a bare name found on the loader path gets the same ABI check";
  EXPECT_EQ(load_backend_plugin(plugin("test_plugin_not_a_plugin").c_str()),
            Error::InvalidArgument);
  EXPECT_EQ(load_backend_plugin(plugin("test_plugin_other_abi").c_str()), Error::NotSupported);
  EXPECT_EQ(get_backend_class("TestPluginOtherAbi"), nullptr)
      << "a plugin of another ABI must not register";
  EXPECT_EQ(load_backend_plugin(plugin("test_plugin_good").c_str()), Error::Ok);
  EXPECT_NE(get_backend_class("TestPluginGood"), nullptr);
}

TEST_F(BackendPluginsTest, MissingBareNameIsInfoMissingFileIsError) {
  // An optional backend that is not installed is normal; a named file that
  // is not there is a mistake.
  const auto previous = set_log_sink(record_level);
  EXPECT_EQ(load_backend_plugin("libexecutorch_no_such_backend.so.1"), Error::NotFound);
  EXPECT_EQ(g_last_level, LogLevel::Info);
  EXPECT_EQ(load_backend_plugin((extra_dir_ + "/missing.so").c_str()), Error::NotFound);
  EXPECT_EQ(g_last_level, LogLevel::Error);
  set_log_sink(previous);
}

TEST_F(BackendPluginsTest, LoadAllRegistersOnceThroughEveryPath) {
  // The good plugin is reachable twice: in PLUGIN_DIR and through a link in
  // the extra directory; the extra directory also holds files to skip.
  write_file("/broken.so", "not an ELF file\n");
  write_file("/notes.txt", "not a candidate\n");
  ASSERT_EQ(symlink(plugin("test_plugin_good").c_str(), (extra_dir_ + "/link.so").c_str()), 0);
  const std::string path = extra_dir_ + "::" + kPluginDir; // an empty entry is ignored
  ASSERT_EQ(setenv("EXECUTORCH_BACKEND_PATH", path.c_str(), 1), 0);

  const size_t first = load_backend_plugins();
  ASSERT_GE(first, 1u);
  ASSERT_NE(get_backend_class("TestPluginGood"), nullptr);
  EXPECT_EQ(get_backend_class("TestPluginOtherAbi"), nullptr);
  const size_t registered = get_num_registered_backends();

  // Again, and the plugin file by its own path: nothing new registers.
  EXPECT_EQ(load_backend_plugins(), first);
  EXPECT_EQ(load_backend_plugin(plugin("test_plugin_good").c_str()), Error::Ok);
  EXPECT_EQ(get_num_registered_backends(), registered);

  // Without the variable only the installed directory is searched: the
  // test plugins are not there.
  unsetenv("EXECUTORCH_BACKEND_PATH");
  EXPECT_EQ(load_backend_plugins(), first - 1);
}

} // namespace
