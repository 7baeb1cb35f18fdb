// Deterministic corruptions of a valid .pte: every truncation length, bit
// flips from a fixed seed, edited extended-header offsets and sizes, and
// FlatBuffers vector lengths set huge.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace et_fuzz {

using Variant = std::pair<std::string, std::vector<uint8_t>>;

inline uint32_t read_u32(const std::vector<uint8_t>& b, size_t at) {
  return static_cast<uint32_t>(b[at]) | static_cast<uint32_t>(b[at + 1]) << 8 |
         static_cast<uint32_t>(b[at + 2]) << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
}
inline void write_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void write_u64(std::vector<uint8_t>& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// max_truncations: 0 means every length.
inline std::vector<Variant> corruptions(const std::vector<uint8_t>& good, size_t n_flips,
                                        uint32_t seed, size_t max_truncations = 0) {
  std::vector<Variant> out;
  const size_t n = good.size();
  // Truncations.
  size_t step = 1;
  if (max_truncations != 0 && n > max_truncations) step = n / max_truncations + 1;
  for (size_t len = 0; len < n; len += step) {
    out.emplace_back("trunc" + std::to_string(len),
                     std::vector<uint8_t>(good.begin(), good.begin() + len));
  }
  std::mt19937 rng(seed);
  // Single and multiple bit flips.
  for (size_t i = 0; i < n_flips && n != 0; ++i) {
    std::vector<uint8_t> v = good;
    const size_t flips = 1 + (i % 4 == 3 ? rng() % 8 : 0);
    for (size_t f = 0; f < flips; ++f) {
      const size_t at = rng() % n;
      v[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    out.emplace_back("flip" + std::to_string(i), std::move(v));
  }
  // Random byte overwrites with extreme values.
  const uint8_t extremes[] = {0x00, 0xff, 0x7f, 0x80};
  for (size_t i = 0; i < n_flips / 4 && n >= 4; ++i) {
    std::vector<uint8_t> v = good;
    const size_t at = (rng() % (n / 4)) * 4;
    const uint8_t x = extremes[rng() % 4];
    for (size_t k = 0; k < 4; ++k) v[at + k] = x;
    out.emplace_back("word" + std::to_string(i), std::move(v));
  }
  // Extended header fields (program_size, segment_base_offset,
  // segment_data_size, header length) set to edge values.
  if (n >= 40 && good[8] == 'e' && good[9] == 'h') {
    const uint64_t edges[] = {0,
                              1,
                              7,
                              8,
                              31,
                              32,
                              n - 1,
                              n,
                              n + 1,
                              n * 2,
                              uint64_t(1) << 31,
                              uint64_t(1) << 32,
                              UINT64_MAX / 2,
                              UINT64_MAX - 127,
                              UINT64_MAX};
    const size_t fields[] = {16, 24, 32};
    for (size_t field : fields) {
      for (uint64_t e : edges) {
        std::vector<uint8_t> v = good;
        write_u64(v, field, e);
        out.emplace_back("hdr" + std::to_string(field) + "_" + std::to_string(e), std::move(v));
      }
    }
    const uint32_t lens[] = {0, 8, 16, 23, 24, 31, 33, 40, 0xffffffffu};
    for (uint32_t l : lens) {
      std::vector<uint8_t> v = good;
      write_u32(v, 12, l);
      out.emplace_back("hdrlen" + std::to_string(l), std::move(v));
    }
  }
  // Every 4-byte-aligned word that could be a vector length or an offset:
  // set huge, negative-as-signed and just past the end.
  const uint32_t huge[] = {0x7fffffffu, 0xffffffffu, 0x10000000u, static_cast<uint32_t>(n)};
  for (size_t at = 0; at + 4 <= n; at += 4) {
    const uint32_t w = read_u32(good, at);
    if (w == 0 || w > 4096) continue; // small values look like lengths/offsets
    std::vector<uint8_t> v = good;
    write_u32(v, at, huge[(at / 4) % 4]);
    out.emplace_back("len" + std::to_string(at), std::move(v));
  }
  return out;
}

} // namespace et_fuzz
