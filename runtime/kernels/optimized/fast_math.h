// Math without libm calls, so that loops over it vectorize.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace executorch {
namespace runtime {
namespace optimized {

// e^x in float without a libm call, so that loops over it vectorize: x =
// n ln2 + r with |r| <= ln2/2, a degree-6 polynomial for e^r and 2^n built
// from exponent bits in two halves (so that subnormal results come out
// right). Within 2 ulp; overflow gives inf, NaN stays NaN.
inline float exp_approx(float x) {
  const float kLog2e = 1.44269504088896341f;
  const float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  const float kRound = 12582912.0f; // 1.5 * 2^23: adding it rounds to an integer
  float xc = x > 88.75f ? 88.75f : (x < -104.0f ? -104.0f : x);
  xc = x == x ? xc : 0.0f;
  const float n = (xc * kLog2e + kRound) - kRound;
  float r = xc - n * kLn2Hi;
  r = r - n * kLn2Lo;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * r * r + r + 1.0f;
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni / 2, n2 = ni - n1;
  const int32_t b1 = (n1 + 127) << 23, b2 = (n2 + 127) << 23;
  float s1, s2;
  std::memcpy(&s1, &b1, sizeof s1);
  std::memcpy(&s2, &b2, sizeof s2);
  float res = y * s1 * s2;
  res = x > 88.7228394f ? std::numeric_limits<float>::infinity() : res;
  return x == x ? res : x;
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
