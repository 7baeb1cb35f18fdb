// Every input the fuzzers ever crashed on (tests/fuzz/regressions/) must now
// come back from load + execute as an Error.
#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "untrusted_input/run_program.h"

namespace {

std::vector<std::string> list(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 4 &&
          (n.compare(n.size() - 4, 4, ".pte") == 0 || n.compare(n.size() - 4, 4, ".bin") == 0)) {
        names.push_back(n);
      }
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(FuzzRegressions, EveryInputFailsCleanly) {
  const std::string dir = ET_REGRESSION_DIR;
  auto names = list(dir);
  if (names.empty()) GTEST_SKIP() << "no regression inputs in " << dir;
  for (const auto& n : names) {
    SCOPED_TRACE(n);
    std::ifstream f(dir + "/" + n, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), {});
    et_fuzz::Outcomes o;
    EXPECT_NE(et_fuzz::load_and_run(bytes.data(), bytes.size(), &o),
              ::executorch::runtime::Error::Ok);
  }
}

} // namespace
