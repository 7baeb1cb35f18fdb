// Corrupted programs must fail with an Error (or still run), never crash:
// the two upstream conformance programs and the writer-built seeds, each cut
// at every length, bit-flipped ~300 times from a fixed seed, with edited
// extended-header offsets and sizes and with vector lengths set huge, all go
// through Program::load + load_method + execute.
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_files.h"

#include "untrusted_input/corrupt.h"
#include "untrusted_input/run_program.h"
#include "untrusted_input/seed_programs.h"

namespace {

void quiet(::executorch::runtime::LogLevel, const char*, const char*, size_t, const char*, size_t) {
}

struct Totals {
  size_t variants = 0;
  size_t ok = 0;
  et_fuzz::Outcomes o;
};

void run_variants(const std::string& name, const std::vector<uint8_t>& good, size_t max_trunc,
                  Totals* t) {
  auto variants = et_fuzz::corruptions(good, 300, /*seed=*/20261202u, max_trunc);
  for (const auto& v : variants) {
    SCOPED_TRACE(name + "/" + v.first);
    ++t->variants;
    if (et_fuzz::load_and_run(v.second.data(), v.second.size(), &t->o) ==
        ::executorch::runtime::Error::Ok) {
      ++t->ok;
    }
  }
}

void print(const char* what, const Totals& t) {
  std::printf(
      "%s: %zu variants: %zu ran every method; load failed %zu, meta failed %zu, "
      "load_method failed %zu, set_input failed %zu, execute failed %zu, "
      "executed methods %zu\n",
      what, t.variants, t.ok, t.o.load_failed, t.o.meta_failed, t.o.method_load_failed,
      t.o.input_failed, t.o.execute_failed, t.o.executed);
}

class Corruption : public ::testing::Test {
 protected:
  void SetUp() override { prev_ = ::executorch::runtime::set_log_sink(&quiet); }
  void TearDown() override { ::executorch::runtime::set_log_sink(prev_); }
  ::executorch::runtime::LogSink prev_ = nullptr;
};

TEST_F(Corruption, ConformancePrograms) {
  const std::string dir = ET_CONFORMANCE_DIR;
  Totals t;
  size_t found = 0;
  for (const char* f : {"add.pte", "linear_constant_buffer.pte"}) {
    auto good = et_test::read_bytes(dir + "/" + f);
    if (good.empty()) continue;
    ++found;
    run_variants(f, good, /*every length*/ 0, &t);
  }
  if (found == 0) GTEST_SKIP() << "no conformance programs under " << dir;
  print("conformance", t);
  EXPECT_GT(t.o.load_failed, 0u); // truncation to 0 bytes at least
}

TEST_F(Corruption, WriterBuiltPrograms) {
  Totals t;
  for (const auto& p : et_fuzz::seed_programs()) {
    run_variants(p.first, p.second, /*every length*/ 0, &t);
  }
  print("writer-built", t);
  EXPECT_GT(t.o.load_failed, 0u);
}

// The uncorrupted seeds: the ones that only need the portable add/mul
// kernels must run when those kernels are registered.
TEST_F(Corruption, UncorruptedSeedsRun) {
  const bool have_kernels = ::executorch::runtime::registry_has_op_function("aten::add.out") &&
                            ::executorch::runtime::registry_has_op_function("aten::mul.out");
  for (const auto& p : et_fuzz::seed_programs()) {
    et_fuzz::Outcomes o;
    const auto e = et_fuzz::load_and_run(p.second.data(), p.second.size(), &o);
    std::printf("seed %s: error %d, executed methods %zu\n", p.first.c_str(), static_cast<int>(e),
                o.executed);
    EXPECT_EQ(o.load_failed, 0u) << p.first;
    if (have_kernels && (p.first == "add" || p.first == "two_methods" ||
                         p.first == "constant_segment" || p.first == "constant_buffer")) {
      EXPECT_EQ(e, ::executorch::runtime::Error::Ok) << p.first;
    }
  }
}

TEST_F(Corruption, EmptyAndTinyInputs) {
  et_fuzz::Outcomes o;
  EXPECT_NE(et_fuzz::load_and_run(nullptr, 0, &o), ::executorch::runtime::Error::Ok);
  const uint8_t tiny[] = {0, 0, 0, 0, 'E', 'T', '1', '2'};
  EXPECT_NE(et_fuzz::load_and_run(tiny, sizeof(tiny), &o), ::executorch::runtime::Error::Ok);
}

} // namespace
