// CudaBackend's process-wide options as upstream's runners set them
// (set_option before loading methods): "use_shared_cuda_stream" and
// "enable_cuda_graph_for_method" beside "weight_sharing_across_methods",
// read back through get_option; wrong types and bad lists refused with
// nothing applied; unknown keys logged by name; the same options given at
// load checked before any device question. Runs without a GPU.
#include <array>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/platform/log.h>

#include <gtest/gtest.h>

#include "error_log.h"

#include "registry_probe.h"

namespace rt = executorch::runtime;
using rt::ArrayRef;
using rt::BackendInitContext;
using rt::BackendOption;
using rt::CompileSpec;
using rt::Error;
using rt::FreeableBuffer;
using rt::LogLevel;
using rt::Span;
using Text = std::array<char, rt::kMaxOptionValueLength>;

namespace {

BackendOption option(const char* key) {
  BackendOption o{};
  std::strncpy(o.key, key, sizeof(o.key) - 1);
  return o;
}

Text text(const char* s) {
  Text t{};
  std::strncpy(t.data(), s, t.size() - 1);
  return t;
}

Error set(std::vector<BackendOption> opts) {
  return rt::set_option("CudaBackend", Span<BackendOption>(opts.data(), opts.size()));
}

// get_option of one key; the value keeps `probe`'s type when the backend
// does not know the key.
rt::OptionValue get(const char* key, rt::OptionValue probe) {
  BackendOption o = option(key);
  o.value = probe;
  Span<BackendOption> view(&o, 1);
  EXPECT_EQ(rt::get_option("CudaBackend", view), Error::Ok);
  return o.value;
}

bool get_bool(const char* key) {
  rt::OptionValue v = get(key, 7);
  EXPECT_TRUE(std::holds_alternative<bool>(v)) << key;
  return std::holds_alternative<bool>(v) && std::get<bool>(v);
}

std::string get_text(const char* key) {
  rt::OptionValue v = get(key, 7);
  EXPECT_TRUE(std::holds_alternative<Text>(v)) << key;
  return std::holds_alternative<Text>(v) ? std::string(std::get<Text>(v).data()) : "<not text>";
}

BackendOption with(const char* key, rt::OptionValue value) {
  BackendOption o = option(key);
  o.value = value;
  return o;
}

TEST(CudaBackendOptions, SharedStreamDefault) {
  EXPECT_FALSE(get_bool("use_shared_cuda_stream"));
  ASSERT_EQ(set({with("use_shared_cuda_stream", true)}), Error::Ok);
  EXPECT_TRUE(get_bool("use_shared_cuda_stream"));
  {
    et_test::ErrorLog log;
    EXPECT_EQ(set({with("use_shared_cuda_stream", 1)}), Error::InvalidArgument);
    EXPECT_TRUE(log.any_names("use_shared_cuda_stream"));
  }
  EXPECT_EQ(set({with("use_shared_cuda_stream", text("true"))}), Error::InvalidArgument);
  EXPECT_TRUE(get_bool("use_shared_cuda_stream"));
  ASSERT_EQ(set({with("use_shared_cuda_stream", false)}), Error::Ok);
  EXPECT_FALSE(get_bool("use_shared_cuda_stream"));
  // No delegate holds a shared stream (none can be made without a device).
  EXPECT_EQ(get_text("shared_cuda_stream"), "none");
  EXPECT_EQ(et_test::backend_int_option("shared_stream_delegates"), 0);
}

TEST(CudaBackendOptions, GraphMethodList) {
  EXPECT_EQ(get_text("enable_cuda_graph_for_method"), "");
  ASSERT_EQ(set({with("enable_cuda_graph_for_method", text("prefill, decode"))}), Error::Ok);
  EXPECT_EQ(get_text("enable_cuda_graph_for_method"), "prefill, decode");
  {
    et_test::ErrorLog log;
    EXPECT_EQ(set({with("enable_cuda_graph_for_method", true)}), Error::InvalidArgument);
    EXPECT_TRUE(log.any_names("enable_cuda_graph_for_method"));
  }
  EXPECT_EQ(set({with("enable_cuda_graph_for_method", text("decode\nprefill"))}),
            Error::InvalidArgument);
  Text unterminated;
  unterminated.fill('a');
  EXPECT_EQ(set({with("enable_cuda_graph_for_method", unterminated)}), Error::InvalidArgument);
  EXPECT_EQ(get_text("enable_cuda_graph_for_method"), "prefill, decode");
  ASSERT_EQ(set({with("enable_cuda_graph_for_method", text(""))}), Error::Ok);
  EXPECT_EQ(get_text("enable_cuda_graph_for_method"), "");
}

TEST(CudaBackendOptions, OneBadValueAppliesNothing) {
  ASSERT_FALSE(get_bool("weight_sharing_across_methods"));
  EXPECT_EQ(set({with("weight_sharing_across_methods", true),
                 with("enable_cuda_graph_for_method", text("decode")),
                 with("use_shared_cuda_stream", 5)}),
            Error::InvalidArgument);
  EXPECT_FALSE(get_bool("weight_sharing_across_methods"));
  EXPECT_EQ(get_text("enable_cuda_graph_for_method"), "");
  EXPECT_FALSE(get_bool("use_shared_cuda_stream"));
}

TEST(CudaBackendOptions, UnknownKeysAreLoggedByName) {
  et_test::ErrorLog log;
  BackendOption long_key = with("", true);
  std::memset(long_key.key, 'k', sizeof(long_key.key)); // no NUL at all
  EXPECT_EQ(set({with("skip_copy_output_to_cpu_for_method", text("decode")),
                 with("use_shared_cuda_stream", true), long_key}),
            Error::Ok);
  EXPECT_TRUE(log.any_names("unknown option 'skip_copy_output_to_cpu_for_method'"));
  EXPECT_TRUE(log.any_names(("unknown option '" + std::string(64, 'k') + "'").c_str()));
  EXPECT_EQ(et_test::error_lines().size(), 2u);
  // The known key beside them was applied.
  EXPECT_TRUE(get_bool("use_shared_cuda_stream"));
  ASSERT_EQ(set({with("use_shared_cuda_stream", false)}), Error::Ok);
}

// init with one runtime option and the 1.4 payload: the Error it fails with.
Error init_with(BackendOption opt) {
  rt::BackendInterface* backend = rt::get_backend_class("CudaBackend");
  EXPECT_NE(backend, nullptr);
  if (backend == nullptr) return Error::NotFound;
  static const char keys[] = "abc_so_blob\ndef_weights_blob";
  FreeableBuffer processed(keys, sizeof(keys) - 1, nullptr);
  BackendInitContext context(nullptr, nullptr, "decode", nullptr, {&opt, 1});
  auto r = backend->init(context, &processed, ArrayRef<CompileSpec>());
  if (r.ok()) backend->destroy(*r);
  return r.ok() ? Error::Ok : r.error();
}

TEST(CudaBackendOptions, LoadOptionsCheckedBeforeTheDevice) {
  EXPECT_EQ(init_with(with("use_shared_cuda_stream", text("maybe"))), Error::InvalidArgument);
  EXPECT_EQ(init_with(with("enable_cuda_graph_for_method", true)), Error::InvalidArgument);
  EXPECT_EQ(init_with(with("enable_cuda_graph_for_method", text("decode\r"))),
            Error::InvalidArgument);
  Text unterminated;
  unterminated.fill('d');
  EXPECT_EQ(init_with(with("enable_cuda_graph_for_method", unterminated)), Error::InvalidArgument);
  // Good values get as far as the device question.
  if (et_test::no_gpu_node()) {
    EXPECT_EQ(init_with(with("use_shared_cuda_stream", true)), Error::DelegateInvalidCompatibility);
    EXPECT_EQ(init_with(with("enable_cuda_graph_for_method", text("prefill,decode"))),
              Error::DelegateInvalidCompatibility);
  }
  EXPECT_EQ(et_test::backend_int_option("live_delegates"), 0);
}

} // namespace
