// executorch/extension/pytree/pytree.h: spec strings in and out, trees of
// real values, and the malformed strings from_str must refuse.
#include <executorch/extension/pytree/pytree.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

using ::executorch::extension::pytree::arr;
using ::executorch::extension::pytree::clone;
using ::executorch::extension::pytree::ContainerHandle;
using ::executorch::extension::pytree::Empty;
using ::executorch::extension::pytree::flatten;
using ::executorch::extension::pytree::from_str;
using ::executorch::extension::pytree::FunctionRef;
using ::executorch::extension::pytree::Key;
using ::executorch::extension::pytree::Kind;
using ::executorch::extension::pytree::kMaxTreeSpecDepth;
using ::executorch::extension::pytree::refresh_leaves_num;
using ::executorch::extension::pytree::to_str;
using ::executorch::extension::pytree::traverse;
using ::executorch::extension::pytree::TreeSpec;
using ::executorch::extension::pytree::unflatten;

using Leaf = int32_t;
using Tree = ContainerHandle<Leaf>;

namespace {

std::string nested_lists(size_t depth) {
  std::string s;
  for (size_t i = 0; i < depth; ++i) s += "L1#1(";
  s += "$";
  s += std::string(depth, ')');
  return s;
}

} // namespace

TEST(PyTreeArrTest, SizedValueInitializedAndBoundsChecked) {
  arr<int> values(4);
  ASSERT_EQ(values.size(), 4u);
  for (int v : values) EXPECT_EQ(v, 0);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(3 * i);
  EXPECT_EQ(values.at(3), 9);
  EXPECT_THROW(values.at(4), std::out_of_range);
  int sum = 0;
  for (int v : values) sum += v;
  EXPECT_EQ(sum, 18);
}

TEST(PyTreeTest, UnflattenListGivesLeavesInOrder) {
  Leaf items[3] = {4, 5, 6};
  auto tree = unflatten("L3#1#1#1($,$,$)", items);
  ASSERT_TRUE(tree.isList());
  ASSERT_EQ(tree.size(), 3u);
  EXPECT_EQ(tree.leaves_num(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(tree[i].isLeaf());
    EXPECT_EQ(tree[i].leaf_ptr(), &items[i]); // points into the caller's array
  }
  EXPECT_EQ(tree[1], 5); // a leaf converts to its value
}

TEST(PyTreeTest, TupleAndNamedTupleKinds) {
  Leaf items[2] = {1, 2};
  auto tuple = unflatten("T1#1($)", items);
  EXPECT_TRUE(tuple.isTuple());
  EXPECT_EQ(tuple[0].leaf(), 1);
  auto named = unflatten("N2#1#1($,$)", items);
  EXPECT_TRUE(named.isNamedTuple());
  EXPECT_EQ(named.kind(), Kind::NamedTuple);
  EXPECT_EQ(named[1].leaf(), 2);
}

TEST(PyTreeTest, DictWithStringKeys) {
  Leaf items[2] = {10, 20};
  auto tree = unflatten("D2#1#1('logits':$,'a b,c(d)':$)", items);
  ASSERT_TRUE(tree.isDict());
  EXPECT_TRUE(tree.key(0) == Key("logits"));
  EXPECT_EQ(tree.key(1).as_str(), "a b,c(d)"); // brackets inside quotes are text
  EXPECT_EQ(tree.key(0).kind(), Key::Kind::Str);
  EXPECT_TRUE(tree.contains("logits"));
  EXPECT_FALSE(tree.contains("missing"));
  EXPECT_EQ(tree.at("a b,c(d)").leaf(), 20);
  EXPECT_THROW(tree.at("missing"), std::runtime_error);
}

TEST(PyTreeTest, DictWithIntKeysIncludingNegativeAndExtremes) {
  Leaf items[4] = {1, 2, 3, 4};
  auto tree = unflatten("D4#1#1#1#1(0:$,-7:$,2147483647:$,-2147483648:$)", items);
  EXPECT_EQ(tree.key(1).kind(), Key::Kind::Int);
  EXPECT_EQ(tree.at(0).leaf(), 1);
  EXPECT_EQ(tree.at(-7).leaf(), 2);
  EXPECT_EQ(tree.at(INT32_MAX).leaf(), 3);
  EXPECT_EQ(tree.at(INT32_MIN).leaf(), 4);
  EXPECT_THROW(tree.key(1).as_str(), std::bad_variant_access);
}

TEST(PyTreeTest, LeafRoot) {
  Leaf items[1] = {42};
  auto tree = unflatten("$", items);
  ASSERT_TRUE(tree.isLeaf());
  EXPECT_EQ(tree.leaf(), 42);
  EXPECT_EQ(tree.leaves_num(), 1u);
}

TEST(PyTreeTest, NestedContainersCountLeavesPerNode) {
  Leaf items[4] = {1, 2, 3, 4};
  auto tree = unflatten("T2#3#1(D2#2#1('kv':L2#1#1($,$),'n':$),$)", items);
  EXPECT_EQ(tree.leaves_num(), 4u);
  EXPECT_EQ(tree[0].leaves_num(), 3u);
  EXPECT_EQ(tree[0].at("kv").leaves_num(), 2u);
  EXPECT_EQ(tree[0].at("kv")[1].leaf(), 2);
  EXPECT_EQ(tree[0].at("n").leaf(), 3);
  EXPECT_EQ(tree[1].leaf(), 4);
}

TEST(PyTreeTest, EmptyContainers) {
  // An input encoding as upstream's exporter writes it: (args, kwargs).
  auto spec = from_str("T2#1#0(T1#1($),D0())");
  EXPECT_EQ(spec.leaves_num(), 1u);
  EXPECT_TRUE(spec[1].isDict());
  EXPECT_EQ(spec[1].size(), 0u);
  EXPECT_EQ(from_str("L0()").leaves_num(), 0u);
  EXPECT_EQ(from_str("T0()").size(), 0u);
}

TEST(PyTreeTest, StringRoundTrips) {
  const char* specs[] = {
      "$",
      "L0()",
      "D0()",
      "L2#1#1($,$)",
      "T2#1#0(T1#1($),D0())",
      "N3#1#0#2($,L0(),T2#1#1($,$))",
      "D3#1#2#0('a':$,-3:L2#1#1($,$),'':T0())",
      "L2#3#1(D2#2#1(0:T2#1#1($,$),1:$),$)",
      "C(<class 'Point'>)2#1#1($,$)",
      "L1#2(C(Pair)2#1#1($,$))",
  };
  for (const char* spec : specs) {
    EXPECT_EQ(to_str(from_str(spec)), spec);
  }
}

TEST(PyTreeTest, ToStrOfAHandBuiltTree) {
  Leaf items[3] = {1, 2, 3};
  Tree tree(Kind::Dict, 2);
  tree.key(0) = Key("x");
  tree.key(1) = 5;
  tree[0] = Tree(Kind::Tuple, 2);
  tree[0][0] = &items[0];
  tree[0][1] = &items[1];
  tree[1] = &items[2];
  auto flat = flatten(tree);
  EXPECT_EQ(to_str(*flat.second), "D2#2#1('x':T2#1#1($,$),5:$)");
}

TEST(PyTreeTest, FlattenThenUnflattenWithNewValues) {
  Leaf items[4] = {1, 2, 3, 4};
  Tree tree(Kind::List, 3);
  tree[0] = &items[0];
  tree[1] = Tree(Kind::Dict, 2);
  tree[1].key(0) = Key("a");
  tree[1].key(1) = Key("b");
  tree[1][0] = &items[1];
  tree[1][1] = &items[2];
  tree[2] = &items[3];

  auto flat = flatten(tree);
  ASSERT_EQ(flat.first.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(flat.first[i], &items[i]);
  const TreeSpec<Empty>& spec = *flat.second;
  EXPECT_EQ(spec.leaves_num(), 4u);
  EXPECT_EQ(spec[0].leaf_ptr(), nullptr); // specs carry no values
  EXPECT_THROW(spec[0].leaf(), std::runtime_error);

  Leaf doubled[4] = {2, 4, 6, 8};
  auto rebuilt = unflatten(spec, doubled);
  EXPECT_TRUE(rebuilt == tree);
  EXPECT_EQ(rebuilt[1].at("b").leaf(), 6);
  EXPECT_EQ(rebuilt[2].leaf(), 8);
}

TEST(PyTreeTest, FlattenOfAConstTreeGivesConstLeaves) {
  Leaf items[2] = {7, 8};
  const Tree tree = unflatten("T2#1#1($,$)", items);
  auto flat = flatten(tree);
  static_assert(std::is_same<decltype(flat.first[0]), const Leaf*&>::value,
                "a const tree flattens to const leaves");
  EXPECT_EQ(*flat.first[1], 8);
  EXPECT_EQ(to_str(*flat.second), "T2#1#1($,$)");
}

TEST(PyTreeTest, CloneOntoAnotherLeafType) {
  Leaf items[3] = {1, 2, 3};
  auto tree = unflatten("L2#2#1(T2#1#1($,$),$)", items);
  double reals[3] = {0.5, 1.5, 2.5};
  ContainerHandle<double> copy = clone(tree, reals);
  EXPECT_TRUE(copy.isList());
  EXPECT_EQ(copy[0][1].leaf(), 1.5);
  EXPECT_EQ(copy[1].leaf_ptr(), &reals[2]);
  EXPECT_EQ(copy.leaves_num(), 3u);
  EXPECT_EQ(copy[0].leaves_num(), 2u);
}

TEST(PyTreeTest, TraverseVisitsChildrenBeforeParents) {
  Leaf items[3] = {1, 2, 3};
  auto tree = unflatten("L2#2#1(T2#1#1($,$),$)", items);
  std::vector<Kind> order;
  traverse(tree, [&](Tree& node) { order.push_back(node.kind()); });
  const std::vector<Kind> expected = {Kind::Leaf, Kind::Leaf, Kind::Tuple, Kind::Leaf, Kind::List};
  EXPECT_EQ(order, expected);

  // Through an explicit FunctionRef, as upstream callers write it; leaves
  // can be modified.
  auto add_ten = [](Tree& node) {
    if (node.isLeaf()) node.leaf() += 10;
  };
  traverse(tree, FunctionRef<void(Tree&)>{add_ten});
  EXPECT_EQ(items[0], 11);
  EXPECT_EQ(items[2], 13);

  const Tree& view = tree;
  int leaves = 0;
  traverse(view, [&](const Tree& node) { leaves += node.isLeaf() ? 1 : 0; });
  EXPECT_EQ(leaves, 3);
}

TEST(PyTreeTest, EqualityComparesShapeNotValues) {
  Leaf a[2] = {1, 2};
  Leaf b[2] = {3, 4};
  EXPECT_TRUE(unflatten("D2#1#1('x':$,'y':$)", a) == unflatten("D2#1#1('x':$,'y':$)", b));
  EXPECT_TRUE(unflatten("D2#1#1('x':$,'y':$)", a) != unflatten("D2#1#1('x':$,'z':$)", a));
  EXPECT_TRUE(unflatten("L2#1#1($,$)", a) != unflatten("T2#1#1($,$)", a));
  EXPECT_TRUE(unflatten("L2#1#1($,$)", a) != unflatten("L1#1($)", a));
  EXPECT_TRUE(from_str("L1#2(T2#1#1($,$))") != from_str("L1#2(L2#1#1($,$))"));
  EXPECT_TRUE(from_str("C(A)1#1($)") != from_str("C(B)1#1($)"));
  EXPECT_TRUE(from_str("L1#2(T2#1#1($,$))") == from_str("L1#2(T2#1#1($,$))"));
}

TEST(PyTreeTest, RefreshLeavesNumAfterEditing) {
  Leaf items[3] = {1, 2, 3};
  Tree tree(Kind::List, 2);
  tree[0] = &items[0];
  tree[1] = Tree(Kind::Tuple, 2);
  tree[1][0] = &items[1];
  tree[1][1] = &items[2];
  EXPECT_EQ(tree.leaves_num(), 0u); // not counted yet
  EXPECT_EQ(refresh_leaves_num(tree), 3u);
  EXPECT_EQ(tree[1].leaves_num(), 2u);
  tree[1] = &items[1];
  EXPECT_EQ(refresh_leaves_num(tree), 2u);
}

TEST(PyTreeTest, MisuseThrowsInsteadOfCrashing) {
  Leaf items[2] = {1, 2};
  auto tree = unflatten("L2#1#1($,$)", items);
  EXPECT_THROW(tree.leaf(), std::runtime_error);
  EXPECT_THROW(tree[2], std::runtime_error);
  EXPECT_THROW(tree.key(0), std::runtime_error);
  EXPECT_THROW(tree.at("x"), std::runtime_error);
  EXPECT_THROW(tree[0][0], std::runtime_error);
  Tree unfilled(Kind::List, 1);
  EXPECT_THROW(unfilled[0].kind(), std::runtime_error); // owns no node
  auto spec = from_str("L1#1($)");
  spec[0] = TreeSpec<Empty>();
  EXPECT_THROW(to_str(spec), std::runtime_error);
}

TEST(PyTreeTest, ToStrRefusesWhatTheStringCannotCarry) {
  auto spec = from_str("D1#1('k':$)");
  spec.key(0) = Key("it's");
  EXPECT_THROW(to_str(spec), std::runtime_error);
  spec.key(0) = Key();
  EXPECT_THROW(to_str(spec), std::runtime_error);
  auto none = TreeSpec<Empty>(Kind::None);
  EXPECT_THROW(to_str(none), std::runtime_error);
  auto custom = from_str("C(T)0()");
  custom.handle->custom_type = "a)b";
  EXPECT_THROW(to_str(custom), std::runtime_error);
}

TEST(PyTreeTest, DepthLimitIsExact) {
  EXPECT_EQ(from_str(nested_lists(kMaxTreeSpecDepth)).leaves_num(), 1u);
  EXPECT_EQ(to_str(from_str(nested_lists(kMaxTreeSpecDepth))), nested_lists(kMaxTreeSpecDepth));
  EXPECT_THROW(from_str(nested_lists(kMaxTreeSpecDepth + 1)), std::runtime_error);
}

namespace {

enum class Expect { EndsEarly, Malformed };

struct BadSpec {
  std::string text;
  Expect error;
};

// Which exception from_str threw: out_of_range and runtime_error are not
// related, so each case names the one it expects.
std::string error_kind(const std::string& text) {
  try {
    from_str(text);
  } catch (const std::out_of_range&) {
    return "out_of_range";
  } catch (const std::runtime_error&) {
    return "runtime_error";
  } catch (...) {
    return "other exception";
  }
  return "accepted";
}

} // namespace

TEST(PyTreeTest, MalformedSpecsThrow) {
  const BadSpec cases[] = {
      {"", Expect::EndsEarly},
      {"L", Expect::EndsEarly},
      {"L0", Expect::EndsEarly},
      {"L0(", Expect::EndsEarly},
      {"L1#1(", Expect::EndsEarly},
      {"L1#1($", Expect::EndsEarly},
      {"L1#1($,$)", Expect::EndsEarly}, // more children than declared
      {"L1#1#1($)", Expect::EndsEarly}, // more leaf counts than children
      {"D1#1('key0':$,'key1':$)", Expect::EndsEarly},
      {"D1#1('key:$)", Expect::EndsEarly},
      {"D2#1#1('a':$,'b':$", Expect::EndsEarly},
      {"C(abc", Expect::EndsEarly},
      {"L0($)", Expect::EndsEarly},
      {"L2#1#1($)", Expect::Malformed}, // fewer children than declared
      {"L2#1($,$)", Expect::Malformed}, // fewer leaf counts than children
      {"L1#2($)", Expect::Malformed},   // leaf count disagrees
      {"L1#2(L1#1($))", Expect::Malformed},
      {"T2#1#0($,L1#1($))", Expect::Malformed},
      {"L1#1($))", Expect::Malformed}, // trailing garbage
      {"$$", Expect::Malformed},
      {"L0()x", Expect::Malformed},
      {" $", Expect::Malformed},
      {std::string("$\0", 2), Expect::Malformed},
      {"X", Expect::Malformed},
      {"L1#1(X)", Expect::Malformed},
      {"L2#1#1($,,$)", Expect::Malformed},
      {"L2#1#0($,)", Expect::Malformed}, // an empty child is not a None node here
      {"L#1($)", Expect::Malformed},
      {"L1#($)", Expect::Malformed},
      {"L1#1[$]", Expect::Malformed},
      {"L99999999999999999999999(", Expect::Malformed},
      {"L1#184467440737095516160($)", Expect::Malformed},
      {"L18446744073709551615(", Expect::Malformed},
      {"L1000#1($)", Expect::Malformed},
      {"D1#1(key:$)", Expect::Malformed},
      {"D1#1('key'$)", Expect::Malformed},
      {"D1#1(-:$)", Expect::Malformed},
      {"D1#1(2147483648:$)", Expect::Malformed},
      {"D1#1(-2147483649:$)", Expect::Malformed},
      {"D1#1(99999999999999999999999:$)", Expect::Malformed},
      {"C()1#1($)", Expect::Malformed},
      {"C(a(b)1#1($)", Expect::Malformed},
      {"Cx", Expect::Malformed},
      {nested_lists(10000), Expect::Malformed},
      {std::string(10000, '('), Expect::Malformed},
  };
  for (const BadSpec& bad : cases) {
    const char* expected = bad.error == Expect::EndsEarly ? "out_of_range" : "runtime_error";
    EXPECT_EQ(error_kind(bad.text), expected) << "spec: " << bad.text.substr(0, 60);
  }
}

TEST(PyTreeTest, UnflattenOfAMalformedStringThrows) {
  Leaf items[2] = {11, 12};
  EXPECT_THROW(unflatten("", items), std::out_of_range);
  EXPECT_THROW(unflatten("L1#1($,$)", items), std::out_of_range);
  EXPECT_THROW(unflatten("L2#1#1($,$", items), std::out_of_range);
  EXPECT_THROW(unflatten("L2#1#1($,$))", items), std::runtime_error);
}

TEST(PyTreeTest, LegacyNamespaceAliases) {
  torch::executor::pytree::TreeSpec<torch::executor::pytree::Empty> spec =
      torch::executor::pytree::from_str("L1#1($)");
  EXPECT_EQ(spec.size(), 1u);
  int calls = 0;
  auto count = [&](int) { ++calls; };
  torch::executor::pytree::FunctionRef<void(int)> ref(count);
  ref(1);
  EXPECT_EQ(calls, 1);
}
