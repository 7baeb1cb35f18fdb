#include <executorch/extension/tensor/tensor_ptr_maker.h>

#include <mutex>
#include <random>

namespace executorch {
namespace extension {

using ::executorch::aten::Scalar;
using ::executorch::aten::ScalarType;
using ::executorch::aten::SizesType;
using ::executorch::aten::StridesType;
using ::executorch::aten::TensorShapeDynamism;

namespace {

// One engine for the process, seeded once; guarded so makers may be called
// from several threads.
std::mt19937_64& random_engine(std::unique_lock<std::mutex>& lock) {
  static std::mutex mutex;
  static std::mt19937_64 engine{std::random_device{}()};
  lock = std::unique_lock<std::mutex>(mutex);
  return engine;
}

// Fills every element of a freshly allocated tensor with gen(), converted
// to its dtype. Dense storage: element order does not matter for fills.
template <typename Gen>
void fill_with(const TensorPtr& t, Gen&& gen) {
  const size_t numel = static_cast<size_t>(t->numel());
  internal::switch_fillable_dtype(t->scalar_type(), [&](auto tag) {
    using CT = decltype(tag);
    CT* out = t->mutable_data_ptr<CT>();
    for (size_t i = 0; i < numel; ++i) {
      out[i] = gen(tag);
    }
  });
}

// A new tensor filled with draws from `dist` on the shared engine.
template <typename Distribution>
TensorPtr random_strided(std::vector<SizesType> sizes, std::vector<StridesType> strides,
                         ScalarType type, TensorShapeDynamism dynamism, Distribution dist) {
  auto t = empty_strided(std::move(sizes), std::move(strides), type, dynamism);
  std::unique_lock<std::mutex> lock;
  auto& engine = random_engine(lock);
  fill_with(t, [&](auto tag) {
    using CT = decltype(tag);
    return internal::convert_element<CT>(dist(engine));
  });
  return t;
}

} // namespace

TensorPtr empty_strided(std::vector<SizesType> sizes, std::vector<StridesType> strides,
                        ScalarType type, TensorShapeDynamism dynamism) {
  const size_t nbytes = static_cast<size_t>(internal::compute_numel(sizes.data(), sizes.size())) *
                        ::executorch::runtime::elementSize(type);
  return make_tensor_ptr(std::move(sizes), std::vector<uint8_t>(nbytes), {}, std::move(strides),
                         type, dynamism);
}

TensorPtr full_strided(std::vector<SizesType> sizes, std::vector<StridesType> strides,
                       Scalar fill_value, ScalarType type, TensorShapeDynamism dynamism) {
  auto t = empty_strided(std::move(sizes), std::move(strides), type, dynamism);
  fill_with(t, [&](auto tag) {
    using CT = decltype(tag);
    if constexpr (std::is_same<CT, bool>::value) {
      return fill_value.to<bool>();
    } else if constexpr (std::is_integral<CT>::value) {
      return fill_value.isFloatingPoint() ? internal::convert_element<CT>(fill_value.to<double>())
                                          : static_cast<CT>(fill_value.to<int64_t>());
    } else {
      return internal::convert_element<CT>(fill_value.to<double>());
    }
  });
  return t;
}

TensorPtr rand_strided(std::vector<SizesType> sizes, std::vector<StridesType> strides,
                       ScalarType type, TensorShapeDynamism dynamism) {
  return random_strided(std::move(sizes), std::move(strides), type, dynamism,
                        std::uniform_real_distribution<double>(0.0, 1.0));
}

TensorPtr randn_strided(std::vector<SizesType> sizes, std::vector<StridesType> strides,
                        ScalarType type, TensorShapeDynamism dynamism) {
  return random_strided(std::move(sizes), std::move(strides), type, dynamism,
                        std::normal_distribution<double>(0.0, 1.0));
}

TensorPtr randint_strided(int64_t low, int64_t high, std::vector<SizesType> sizes,
                          std::vector<StridesType> strides, ScalarType type,
                          TensorShapeDynamism dynamism) {
  ET_CHECK_MSG(low < high, "randint: empty range [%lld, %lld)", static_cast<long long>(low),
               static_cast<long long>(high));
  return random_strided(std::move(sizes), std::move(strides), type, dynamism,
                        std::uniform_int_distribution<int64_t>(low, high - 1));
}

} // namespace extension
} // namespace executorch
