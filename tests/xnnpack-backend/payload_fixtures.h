// The payloads of tests/data/xnnpack/ (make_payloads.py) for the tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace xnnpack_test {

// The bytes of tests/data/xnnpack/<name>; empty (and a test failure) when
// the file cannot be read.
std::vector<uint8_t> read_fixture(const std::string& name);

} // namespace xnnpack_test
