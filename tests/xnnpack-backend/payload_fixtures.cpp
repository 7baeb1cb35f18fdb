#include "payload_fixtures.h"

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

namespace xnnpack_test {

std::vector<uint8_t> read_fixture(const std::string& name) {
  const std::string path = std::string(XNNPACK_DATA_DIR) + "/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace xnnpack_test
