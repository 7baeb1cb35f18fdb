#include <executorch/extension/evalue_util/print_evalue.h>
#include <executorch/extension/tensor/tensor.h>

#include <gtest/gtest.h>

#include <sstream>

using executorch::runtime::EValue;
namespace ext = executorch::extension;

namespace {

std::string str(const EValue& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

TEST(PrintEValueTest, Scalars) {
  EXPECT_EQ(str(EValue()), "None");
  EXPECT_EQ(str(EValue(int64_t(42))), "42");
  EXPECT_EQ(str(EValue(true)), "True");
  EXPECT_EQ(str(EValue(2.5)), "2.5");
  EXPECT_EQ(str(EValue(3.0)), "3.");
  const char s[] = "hi";
  EXPECT_EQ(str(EValue(s, 2)), "\"hi\"");
}

TEST(PrintEValueTest, TensorsAndEdgeItems) {
  auto t = ext::make_tensor_ptr({2}, {2.25f, -1.f});
  EXPECT_EQ(str(EValue(t)), "tensor(sizes=[2], [2.25, -1.])");
  auto big = ext::make_tensor_ptr(std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  std::ostringstream os;
  os << ext::evalue_edge_items(2) << EValue(big);
  EXPECT_EQ(os.str(), "tensor(sizes=[10], [0, 1, ..., 8, 9])");
  // Default: 6 each side, so 10 elements print in full.
  EXPECT_EQ(str(EValue(big)), "tensor(sizes=[10], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])");
}

TEST(PrintEValueTest, Lists) {
  double d[] = {1.5, 2};
  EValue dl(executorch::runtime::ArrayRef<double>(d, 2));
  EXPECT_EQ(str(dl), "(len=2)[1.5, 2.]");
}

} // namespace
