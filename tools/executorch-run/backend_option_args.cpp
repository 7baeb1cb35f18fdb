#include "backend_option_args.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rt = executorch::runtime;

bool BackendOptionArgs::add(const std::string& arg, std::string* why) {
  const size_t colon = arg.find(':');
  const size_t eq = arg.find('=', colon == std::string::npos ? 0 : colon);
  if (colon == std::string::npos || colon == 0 || eq == std::string::npos || eq == colon + 1) {
    *why = "'" + arg + "' is not BACKEND:KEY=VALUE";
    return false;
  }
  const std::string backend = arg.substr(0, colon);
  const std::string key = arg.substr(colon + 1, eq - colon - 1);
  const std::string value = arg.substr(eq + 1);
  if (key.size() >= rt::kMaxOptionKeyLength) {
    *why = "option key '" + key + "' is longer than " +
           std::to_string(rt::kMaxOptionKeyLength - 1) + " characters";
    return false;
  }
  if (value.size() >= rt::kMaxOptionValueLength) {
    *why = "the value of '" + key + "' is longer than " +
           std::to_string(rt::kMaxOptionValueLength - 1) + " characters";
    return false;
  }
  rt::BackendOption option{};
  std::memcpy(option.key, key.c_str(), key.size() + 1);
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (value == "true" || value == "false") {
    option.value = value == "true";
  } else if (!value.empty() && *end == '\0' && errno == 0 && n >= INT32_MIN && n <= INT32_MAX) {
    option.value = static_cast<int>(n);
  } else {
    std::array<char, rt::kMaxOptionValueLength> text{};
    std::memcpy(text.data(), value.c_str(), value.size() + 1);
    option.value = text;
  }
  for (PerBackend& b : backends_) {
    if (b.name == backend) {
      b.options.push_back(option);
      return true;
    }
  }
  if (backends_.size() >= rt::LoadBackendOptionsMap::kMaxBackends) {
    *why = "options for more than " + std::to_string(rt::LoadBackendOptionsMap::kMaxBackends) +
           " backends";
    return false;
  }
  backends_.push_back({backend, {option}});
  return true;
}

const rt::LoadBackendOptionsMap* BackendOptionArgs::map() {
  if (backends_.empty()) return nullptr;
  map_ = rt::LoadBackendOptionsMap();
  for (PerBackend& b : backends_) {
    (void)map_.set_options(b.name.c_str(), {b.options.data(), b.options.size()});
  }
  return &map_;
}
