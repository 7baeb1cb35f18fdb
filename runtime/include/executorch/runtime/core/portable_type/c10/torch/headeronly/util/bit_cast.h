// c10::bit_cast: std::bit_cast for C++17 (memcpy between same-sized
// trivially copyable types).
#pragma once

#include <cstring>
#include <type_traits>

namespace c10 {
template <typename To, typename From>
std::enable_if_t<sizeof(To) == sizeof(From) && std::is_trivially_copyable<From>::value &&
                     std::is_trivially_copyable<To>::value,
                 To>
bit_cast(const From& src) noexcept {
  To dst;
  std::memcpy(&dst, &src, sizeof(To));
  return dst;
}
} // namespace c10

namespace torch {
namespace headeronly {
using ::c10::bit_cast;
} // namespace headeronly
} // namespace torch
