// A sorted index over a FlatBuffers vector of tables that have a `key`
// string (named data in a .pte or .ptd), for O(log n) lookups: a file with
// tens of thousands of external tensors must not make loading quadratic.
// The file's own order is kept for ties, so the first entry with a key wins
// as with a linear search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace executorch {
namespace runtime {
namespace internal {

template <typename Entries>
std::string_view entry_key(const Entries* entries, uint32_t i) {
  const auto* k = entries->Get(i)->key();
  return k == nullptr ? std::string_view() : std::string_view(k->c_str(), k->size());
}

// Positions of the entries ordered by key (stable).
template <typename Entries>
std::vector<uint32_t> sort_by_key(const Entries* entries) {
  std::vector<uint32_t> order(entries == nullptr ? 0 : entries->size());
  for (uint32_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return entry_key(entries, a) < entry_key(entries, b);
  });
  return order;
}

// The position of the first entry named `key`, or -1.
template <typename Entries>
int64_t find_key(const Entries* entries, const std::vector<uint32_t>& order, std::string_view key) {
  auto it = std::lower_bound(order.begin(), order.end(), key, [&](uint32_t i, std::string_view k) {
    return entry_key(entries, i) < k;
  });
  if (it == order.end() || entry_key(entries, *it) != key) {
    return -1;
  }
  return *it;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
