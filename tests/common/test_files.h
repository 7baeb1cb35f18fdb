// Test data files: where a test finds them and how it reads them. A data
// directory comes from an environment variable when set (installed tests run
// away from the source tree), else from the build's default.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace et_test {

// `name` in the directory $env_var names, or in `fallback` when it is unset.
inline std::string data_path(const char* env_var, const char* fallback, const std::string& name) {
  const char* dir = std::getenv(env_var);
  return std::string(dir != nullptr ? dir : fallback) + "/" + name;
}

// The whole file; empty when it cannot be read.
inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The file as native floats (a trailing partial float is dropped).
inline std::vector<float> read_floats(const std::string& path) {
  const std::vector<uint8_t> bytes = read_bytes(path);
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

} // namespace et_test
