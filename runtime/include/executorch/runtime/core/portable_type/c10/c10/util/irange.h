// c10::irange: `for (const auto i : c10::irange(n))` loops over 0..n-1
// (begin..end-1 with two arguments) without signed/unsigned comparison
// warnings. An end before the begin gives an empty range.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <type_traits>

namespace c10 {
namespace detail {

template <typename I, bool one_sided = false,
          typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
struct integer_iterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = I;
  using difference_type = std::ptrdiff_t;
  using pointer = I*;
  using reference = I&;

  explicit constexpr integer_iterator(I v) : value(v) {}
  constexpr I operator*() const { return value; }
  constexpr I const* operator->() const { return &value; }
  constexpr integer_iterator& operator++() {
    ++value;
    return *this;
  }
  constexpr integer_iterator operator++(int) {
    const auto copy = *this;
    ++*this;
    return copy;
  }
  constexpr bool operator==(const integer_iterator& other) const { return value == other.value; }
  constexpr bool operator!=(const integer_iterator& other) const { return value != other.value; }

 protected:
  I value;
};

} // namespace detail

template <typename I, bool one_sided = false,
          typename std::enable_if<std::is_integral<I>::value, bool>::type = true>
struct integer_range {
 public:
  constexpr integer_range(I begin, I end) : begin_(begin), end_(end) {}
  using iterator = detail::integer_iterator<I, one_sided>;
  constexpr iterator begin() const { return begin_; }
  constexpr iterator end() const { return end_; }

 private:
  iterator begin_;
  iterator end_;
};

// begin..end-1, in the type of `end`.
template <typename Integer1, typename Integer2,
          typename std::enable_if<std::is_integral<Integer1>::value, bool>::type = true,
          typename std::enable_if<std::is_integral<Integer2>::value, bool>::type = true>
constexpr integer_range<Integer2> irange(Integer1 begin, Integer2 end) {
  return {static_cast<Integer2>(begin), std::max(static_cast<Integer2>(begin), end)};
}

// 0..end-1.
template <typename Integer,
          typename std::enable_if<std::is_integral<Integer>::value, bool>::type = true>
constexpr integer_range<Integer, true> irange(Integer end) {
  return {Integer(), std::max(Integer(), end)};
}

} // namespace c10
