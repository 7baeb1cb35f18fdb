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
  // As upstream: 3 each side by default; zero or negative restore it.
  EXPECT_EQ(str(EValue(big)), "tensor(sizes=[10], [0, 1, 2, ..., 7, 8, 9])");
  std::ostringstream reset;
  reset << ext::evalue_edge_items(1) << ext::evalue_edge_items(0) << EValue(big);
  EXPECT_EQ(reset.str(), "tensor(sizes=[10], [0, 1, 2, ..., 7, 8, 9])");
  // Six items: nothing to elide.
  auto six = ext::make_tensor_ptr(std::vector<int32_t>{0, 1, 2, 3, 4, 5});
  EXPECT_EQ(str(EValue(six)), "tensor(sizes=[6], [0, 1, 2, 3, 4, 5])");
  // Sizes are never elided.
  auto deep = ext::make_tensor_ptr({1, 1, 1, 1, 1, 1, 1, 2}, std::vector<float>{1.f, 2.f});
  std::ostringstream one;
  one << ext::evalue_edge_items(1) << EValue(deep);
  EXPECT_EQ(one.str(), "tensor(sizes=[1, 1, 1, 1, 1, 1, 1, 2], [1., 2.])");
  // ... however many there are (past ten they wrap).
  auto eleven =
      ext::make_tensor_ptr({2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, std::vector<float>{1.f, 2.f});
  EXPECT_EQ(str(EValue(eleven)),
            "tensor(sizes=[\n  2, 1, 1, 1, 1, 1, 1, 1, 1, 1, \n  1, \n], [1., 2.])");
}

// Upstream's layout: up to ten shown items stay on one line; more go ten
// to a line, each followed by ", ", the elided tail's short line first.
TEST(PrintEValueTest, MoreThanTenShownItemsWrap) {
  std::vector<double> v(25);
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(i);
  std::ostringstream os;
  os << ext::evalue_edge_items(5)
     << EValue(executorch::runtime::ArrayRef<double>(v.data(), v.size()));
  EXPECT_EQ(os.str(), "(len=25)[0., 1., 2., 3., 4., ..., 20., 21., 22., 23., 24.]");
  EValue twelve(executorch::runtime::ArrayRef<double>(v.data(), 12));
  os.str("");
  os << ext::evalue_edge_items(100) << twelve;
  EXPECT_EQ(os.str(), "(len=12)[\n  0., 1., 2., 3., 4., 5., 6., 7., 8., 9., \n  10., 11., \n]");
  os.str("");
  os << ext::evalue_edge_items(12)
     << EValue(executorch::runtime::ArrayRef<double>(v.data(), v.size()));
  EXPECT_EQ(os.str(),
            "(len=25)[\n  0., 1., 2., 3., 4., 5., 6., 7., 8., 9., \n  10., 11., \n  ...,"
            "\n  13., 14., \n  15., 16., 17., 18., 19., 20., 21., 22., 23., 24., \n]");
  // A front that ends a line: the ellipsis line follows it directly.
  os.str("");
  os << ext::evalue_edge_items(10)
     << EValue(executorch::runtime::ArrayRef<double>(v.data(), v.size()));
  EXPECT_EQ(os.str(),
            "(len=25)[\n  0., 1., 2., 3., 4., 5., 6., 7., 8., 9., \n  ...,"
            "\n  15., 16., 17., 18., 19., 20., 21., 22., 23., 24., \n]");
}

TEST(PrintEValueTest, NegativeZeroAndEscapedStrings) {
  EXPECT_EQ(str(EValue(-0.0)), "-0.");
  EXPECT_EQ(str(EValue(0.0)), "0.");
  const char s[] = "a\"b\\c";
  EXPECT_EQ(str(EValue(s, 5)), "\"a\\\"b\\\\c\"");
}

// A list of more than one tensor prints one entry per line, never elided.
TEST(PrintEValueTest, TensorListsOnePerLine) {
  auto a = ext::make_tensor_ptr({1}, {1.f});
  auto b = ext::make_tensor_ptr({1}, {2.f});
  executorch::aten::Tensor storage[2] = {*a, *b};
  EValue items[2] = {EValue(storage[0]), EValue(storage[1])};
  EValue* ptrs[2] = {&items[0], &items[1]};
  executorch::runtime::BoxedEvalueList<executorch::aten::Tensor> list(ptrs, storage, 2);
  EXPECT_EQ(str(EValue(&list)),
            "(len=2)[\n"
            "  [0]: tensor(sizes=[1], [1.]),\n"
            "  [1]: tensor(sizes=[1], [2.]),\n"
            "]");
  executorch::runtime::BoxedEvalueList<executorch::aten::Tensor> one(ptrs, storage, 1);
  EXPECT_EQ(str(EValue(&one)), "(len=1)[tensor(sizes=[1], [1.])]");
}

TEST(PrintEValueTest, Lists) {
  double d[] = {1.5, 2};
  EValue dl(executorch::runtime::ArrayRef<double>(d, 2));
  EXPECT_EQ(str(dl), "(len=2)[1.5, 2.]");
}

} // namespace
