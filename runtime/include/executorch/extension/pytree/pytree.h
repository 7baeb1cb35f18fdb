// pytree: nested lists, tuples and dicts of leaves, and the one-line spec
// string (".pte" output/input encodings) that describes their shape.
//
// Spec grammar (what to_str writes and from_str accepts):
//   node   := '$' | seq | dict | custom
//   seq    := ('L' | 'T' | 'N') layout '(' [node (',' node)*] ')'
//   custom := 'C' '(' type-name ')' layout '(' [node (',' node)*] ')'
//   dict   := 'D' layout '(' [key ':' node (',' key ':' node)*] ')'
//   layout := count ('#' leaves){count}   -- leaves: that child's leaf count
//   key    := '\'' any-but-quote* '\'' | '-'? digits   (an int32)
//
// The string comes from a file, so from_str checks all of it: every read is
// bounded, numbers cannot overflow, containers nest at most
// kMaxTreeSpecDepth deep, and each node must hold exactly the children and
// leaves its layout declares. Errors are exceptions, as upstream's:
// std::out_of_range when the string ends early or a node holds more than it
// declares, std::runtime_error for anything else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <executorch/extension/pytree/function_ref.h>

namespace executorch {
namespace extension {
namespace pytree {

// Throws rather than aborts: the trees are often built from file data.
inline void pytree_check(bool must_be_true) {
  if (!must_be_true) {
    throw std::runtime_error("pytree check failed");
  }
}

enum class Kind : uint8_t { List, Tuple, NamedTuple, Dict, Leaf, Custom, None };

using KeyStr = std::string;
using KeyInt = int32_t;

// A dict key: none (default), an int32 or a string.
struct Key {
  // Ordered like the variant's alternatives, so kind() is its index.
  enum class Kind : uint8_t { None, Int, Str };

  Key() = default;
  /*implicit*/ Key(KeyInt key) : value_(key) {}
  /*implicit*/ Key(KeyStr key) : value_(std::move(key)) {}

  Kind kind() const { return static_cast<Kind>(value_.index()); }

  // Both throw std::bad_variant_access when the key is of the other kind.
  KeyInt as_int() const { return std::get<KeyInt>(value_); }
  const KeyStr& as_str() const { return std::get<KeyStr>(value_); }

  operator KeyInt() const { return as_int(); }
  operator const KeyStr&() const { return as_str(); }

  bool operator==(const Key& other) const { return value_ == other.value_; }
  bool operator!=(const Key& other) const { return !(*this == other); }

 private:
  std::variant<std::monostate, KeyInt, KeyStr> value_;
};

struct Empty {};

template <typename T, typename Aux = Empty>
struct ContainerHandle;

// One node. Aux is a base so that users can attach their own data to nodes.
template <typename T, typename Aux = Empty>
struct Container final : public Aux {
  using handle_type = ContainerHandle<T, Aux>;
  using leaf_type = T;

  Kind kind = Kind::None;
  size_t size = 0;
  leaf_type* leaf = nullptr;
  std::unique_ptr<handle_type[]> items;
  std::unique_ptr<Key[]> keys; // only for Kind::Dict, one per item
  std::string custom_type;     // only for Kind::Custom
  // Leaves below this node; kept current by refresh_leaves_num().
  mutable size_t leaves_num = 0;

  /*implicit*/ Container(Kind node_kind, size_t item_count = 0)
      : kind(node_kind), size(item_count), items(new handle_type[item_count]) {
    if (node_kind == Kind::Dict) {
      keys.reset(new Key[item_count]);
    }
  }
  /*implicit*/ Container(leaf_type* leaf_value)
      : kind(Kind::Leaf), leaf(leaf_value), leaves_num(1) {}

  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;
};

// Owns a node; a tree is a handle to its root. Accessors check the node's
// kind and indices and throw std::runtime_error on misuse.
template <typename T, typename Aux>
struct ContainerHandle {
  using container_type = Container<T, Aux>;
  using leaf_type = T;

  std::unique_ptr<container_type> handle;

  ContainerHandle() = default;
  /*implicit*/ ContainerHandle(Kind node_kind, size_t item_count = 0)
      : handle(std::make_unique<container_type>(node_kind, item_count)) {}
  /*implicit*/ ContainerHandle(leaf_type* leaf_value)
      : handle(std::make_unique<container_type>(leaf_value)) {}
  /*implicit*/ ContainerHandle(container_type* owned) : handle(owned) {}
  /*implicit*/ ContainerHandle(std::unique_ptr<container_type> owned) : handle(std::move(owned)) {}

  void set_leaf(leaf_type* leaf_value) {
    pytree_check(isLeaf());
    node().leaf = leaf_value;
  }

  operator leaf_type() const { return leaf(); }
  const leaf_type& leaf() const { return *checked_leaf(); }
  leaf_type& leaf() { return *checked_leaf(); }
  const leaf_type* leaf_ptr() const { return leaf_pointer(); }
  leaf_type* leaf_ptr() { return leaf_pointer(); }

  const ContainerHandle& operator[](size_t idx) const { return item(idx); }
  ContainerHandle& operator[](size_t idx) { return item(idx); }

  bool contains(const Key& lookup_key) const { return find(lookup_key) != nullptr; }
  bool contains(const KeyStr& lookup_key) const { return contains(Key(lookup_key)); }

  // Throws std::runtime_error when the dict has no such key.
  const ContainerHandle& at(const Key& lookup_key) const {
    const ContainerHandle* found = find(lookup_key);
    if (found == nullptr) {
      throw std::runtime_error("pytree dict has no such key");
    }
    return *found;
  }
  const ContainerHandle& at(const KeyInt& lookup_key) const { return at(Key(lookup_key)); }
  const ContainerHandle& at(const KeyStr& lookup_key) const { return at(Key(lookup_key)); }

  const Key& key(size_t idx) const { return key_slot(idx); }
  Key& key(size_t idx) { return key_slot(idx); }

  size_t size() const { return node().size; }
  size_t leaves_num() const { return node().leaves_num; }
  Kind kind() const { return node().kind; }

  bool isDict() const { return kind() == Kind::Dict; }
  bool isList() const { return kind() == Kind::List; }
  bool isNamedTuple() const { return kind() == Kind::NamedTuple; }
  bool isTuple() const { return kind() == Kind::Tuple; }
  bool isLeaf() const { return kind() == Kind::Leaf; }

  // Compares shape only (kinds, sizes, dict keys, custom type names), never
  // leaf values.
  bool operator==(const ContainerHandle& other) const {
    if (kind() != other.kind() || size() != other.size() ||
        node().custom_type != other.node().custom_type) {
      return false;
    }
    for (size_t i = 0; i < size(); ++i) {
      if ((isDict() && key(i) != other.key(i)) || item(i) != other.item(i)) {
        return false;
      }
    }
    return true;
  }
  bool operator!=(const ContainerHandle& other) const { return !(*this == other); }

 private:
  // A default-constructed handle owns nothing: using it is an error, not a crash.
  container_type& node() const {
    pytree_check(handle != nullptr);
    return *handle;
  }
  leaf_type* leaf_pointer() const {
    pytree_check(isLeaf());
    return node().leaf;
  }
  leaf_type* checked_leaf() const {
    leaf_type* target = leaf_pointer();
    pytree_check(target != nullptr); // a spec's leaves point nowhere
    return target;
  }
  ContainerHandle& item(size_t idx) const {
    pytree_check(idx < size());
    return node().items[idx];
  }
  Key& key_slot(size_t idx) const {
    pytree_check(isDict() && idx < size() && node().keys != nullptr);
    return node().keys[idx];
  }
  const ContainerHandle* find(const Key& lookup_key) const {
    pytree_check(isDict());
    for (size_t i = 0; i < size(); ++i) {
      if (key_slot(i) == lookup_key) {
        return &item(i);
      }
    }
    return nullptr;
  }
};

// A spec is a tree whose leaves carry no value.
struct TreeSpecLeaf {};

template <typename Aux>
using TreeSpec = ContainerHandle<TreeSpecLeaf, Aux>;
template <typename Aux>
using TreeSpecContainer = Container<TreeSpecLeaf, Aux>;

using StrTreeSpec = std::string;

// The characters of the spec string.
struct Config final {
  static constexpr char kTuple = 'T';
  static constexpr char kNamedTuple = 'N';
  static constexpr char kList = 'L';
  static constexpr char kDict = 'D';
  static constexpr char kCustom = 'C';
  static constexpr char kLeaf = '$';
  static constexpr char kNodeDataBegin = '(';
  static constexpr char kNodeDataEnd = ')';
  static constexpr char kDictStrKeyQuote = '\'';
  static constexpr char kDictKeyValueSep = ':';
  static constexpr char kChildrenSep = ',';
  static constexpr char kChildrenDataSep = '#';
};

// from_str refuses containers nested deeper than this (it recurses).
inline constexpr size_t kMaxTreeSpecDepth = 64;

// A fixed-size array that owns its elements (value-initialized).
template <typename T>
struct arr {
  explicit arr(size_t n) : data_(new T[n]()), n_(n) {}

  T& operator[](size_t idx) { return data_[idx]; }
  const T& operator[](size_t idx) const { return data_[idx]; }

  T& at(size_t idx) { return data_[checked(idx)]; }
  const T& at(size_t idx) const { return data_[checked(idx)]; }

  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  size_t size() const { return n_; }

 private:
  size_t checked(size_t idx) const {
    if (idx >= n_) {
      throw std::out_of_range("pytree arr index out of range");
    }
    return idx;
  }

  std::unique_ptr<T[]> data_;
  size_t n_;
};

// Sets every node's leaves_num below `node` and returns the root's.
template <typename T, typename Aux>
size_t refresh_leaves_num(const ContainerHandle<T, Aux>& node) {
  size_t leaves = node.isLeaf() ? 1 : 0;
  for (size_t i = 0; i < node.size(); ++i) {
    leaves += refresh_leaves_num(node[i]);
  }
  node.handle->leaves_num = leaves;
  return leaves;
}

namespace detail {

// Lets traverse() take a lambda: its FunctionRef parameter is then not used
// to deduce T and Aux, so the lambda converts.
template <typename X>
struct no_deduce {
  using type = X;
};

// Copies the shape of `node`; the i-th leaf (in order) gets leaves + i, or
// nullptr when `leaves` is null (specs).
template <typename U, typename T, typename Aux>
ContainerHandle<U, Aux> copy_shape(const ContainerHandle<T, Aux>& node, U* leaves,
                                   size_t& next_leaf) {
  if (node.isLeaf()) {
    U* leaf = leaves == nullptr ? nullptr : leaves + next_leaf;
    ++next_leaf;
    return ContainerHandle<U, Aux>(leaf);
  }
  const size_t first_leaf = next_leaf;
  ContainerHandle<U, Aux> copy(node.kind(), node.size());
  for (size_t i = 0; i < node.size(); ++i) {
    copy[i] = copy_shape(node[i], leaves, next_leaf);
    if (node.isDict()) {
      copy.key(i) = node.key(i);
    }
  }
  copy.handle->custom_type = node.handle->custom_type;
  copy.handle->leaves_num = next_leaf - first_leaf;
  return copy;
}

} // namespace detail

// A tree of the same shape whose i-th leaf points at leaves[i].
template <typename T, typename U, typename Aux>
ContainerHandle<U, Aux> clone(const ContainerHandle<T, Aux>& node, U* leaves) {
  size_t next_leaf = 0;
  return detail::copy_shape(node, leaves, next_leaf);
}

// Calls func on every node, children before their parent, left to right.
template <typename T, typename Aux>
void traverse(ContainerHandle<T, Aux>& node,
              FunctionRef<void(typename detail::no_deduce<ContainerHandle<T, Aux>>::type&)> func) {
  for (size_t i = 0; i < node.size(); ++i) {
    traverse(node[i], func);
  }
  func(node);
}

template <typename T, typename Aux>
void traverse(
    const ContainerHandle<T, Aux>& node,
    FunctionRef<void(const typename detail::no_deduce<ContainerHandle<T, Aux>>::type&)> func) {
  for (size_t i = 0; i < node.size(); ++i) {
    traverse(node[i], func);
  }
  func(node);
}

namespace detail {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Writes a spec as the grammar at the top of this file; throws
// std::runtime_error for what the grammar cannot carry.
class SpecWriter {
 public:
  template <typename Aux>
  static void write_node(const TreeSpec<Aux>& spec, std::string& out) {
    switch (spec.kind()) {
      case Kind::Leaf:
        out.push_back(Config::kLeaf);
        return;
      case Kind::List:
        out.push_back(Config::kList);
        break;
      case Kind::Tuple:
        out.push_back(Config::kTuple);
        break;
      case Kind::NamedTuple:
        out.push_back(Config::kNamedTuple);
        break;
      case Kind::Dict:
        out.push_back(Config::kDict);
        break;
      case Kind::Custom:
        write_custom_type(spec.handle->custom_type, out);
        break;
      case Kind::None:
      default:
        throw std::runtime_error("pytree to_str: a None node has no spec form");
    }
    write_layout(spec, out);
    write_children(spec, out);
  }

 private:
  static void write_custom_type(const std::string& type, std::string& out) {
    if (type.empty() || type.find_first_of("()") != std::string::npos) {
      throw std::runtime_error("pytree to_str: custom type name is empty or has a bracket");
    }
    out.push_back(Config::kCustom);
    out.push_back(Config::kNodeDataBegin);
    out.append(type);
    out.push_back(Config::kNodeDataEnd);
  }

  template <typename Aux>
  static void write_layout(const TreeSpec<Aux>& spec, std::string& out) {
    out.append(std::to_string(spec.size()));
    for (size_t i = 0; i < spec.size(); ++i) {
      out.push_back(Config::kChildrenDataSep);
      out.append(std::to_string(spec[i].leaves_num()));
    }
  }

  template <typename Aux>
  static void write_children(const TreeSpec<Aux>& spec, std::string& out) {
    out.push_back(Config::kNodeDataBegin);
    for (size_t i = 0; i < spec.size(); ++i) {
      if (i > 0) {
        out.push_back(Config::kChildrenSep);
      }
      if (spec.isDict()) {
        write_key(spec.key(i), out);
      }
      write_node(spec[i], out);
    }
    out.push_back(Config::kNodeDataEnd);
  }

  static void write_key(const Key& key, std::string& out) {
    if (key.kind() == Key::Kind::Int) {
      out.append(std::to_string(key.as_int()));
    } else if (key.kind() == Key::Kind::Str &&
               key.as_str().find(Config::kDictStrKeyQuote) == std::string::npos) {
      out.push_back(Config::kDictStrKeyQuote);
      out.append(key.as_str());
      out.push_back(Config::kDictStrKeyQuote);
    } else {
      throw std::runtime_error("pytree to_str: dict key must be an int or a string without '");
    }
    out.push_back(Config::kDictKeyValueSep);
  }
};

// Parses one spec string (grammar at the top of this file). Every read is
// bounds-checked; recursion is bounded by kMaxTreeSpecDepth.
template <typename Aux>
class SpecParser {
 public:
  explicit SpecParser(const StrTreeSpec& text) : text_(text) {}

  TreeSpec<Aux> parse() {
    TreeSpec<Aux> root = parse_node(0);
    if (pos_ != text_.size()) {
      fail("characters after the root node");
    }
    return root;
  }

 private:
  using Node = TreeSpecContainer<Aux>;

  [[noreturn]] void fail(const char* what) const {
    throw std::runtime_error(std::string("pytree spec: ") + what + " at offset " +
                             std::to_string(pos_));
  }
  [[noreturn]] void fail_overrun(const char* what) const {
    throw std::out_of_range(std::string("pytree spec: ") + what + " at offset " +
                            std::to_string(pos_));
  }

  char peek() const {
    if (pos_ >= text_.size()) {
      fail_overrun("string ends inside a node");
    }
    return text_[pos_];
  }
  bool next_is(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  void expect(char c, const char* what) {
    if (peek() != c) {
      fail(what);
    }
    ++pos_;
  }

  // A decimal number that must fit in size_t.
  size_t read_number() {
    if (!is_digit(peek())) {
      fail("expected a number");
    }
    size_t value = 0;
    while (pos_ < text_.size() && is_digit(text_[pos_])) {
      const size_t digit = static_cast<size_t>(text_[pos_] - '0');
      if (value > (std::numeric_limits<size_t>::max() - digit) / 10) {
        fail("number too large");
      }
      value = value * 10 + digit;
      ++pos_;
    }
    return value;
  }

  // The child count and each child's declared leaf count.
  std::vector<size_t> read_layout() {
    const size_t children = read_number();
    // Each child takes at least one character: a larger count is a lie, and
    // must not size an allocation.
    if (children > text_.size() - pos_) {
      fail("child count larger than the rest of the string");
    }
    std::vector<size_t> leaves;
    leaves.reserve(children);
    while (next_is(Config::kChildrenDataSep)) {
      ++pos_;
      if (leaves.size() == children) {
        fail_overrun("more leaf counts than children");
      }
      leaves.push_back(read_number());
    }
    if (leaves.size() != children) {
      fail("fewer leaf counts than children");
    }
    return leaves;
  }

  TreeSpec<Aux> parse_node(size_t depth) {
    const char kind_char = peek();
    if (kind_char == Config::kLeaf) {
      ++pos_;
      return TreeSpec<Aux>(new Node(static_cast<TreeSpecLeaf*>(nullptr)));
    }
    const Kind kind = container_kind(kind_char);
    if (depth >= kMaxTreeSpecDepth) {
      fail("containers nested deeper than kMaxTreeSpecDepth");
    }
    ++pos_;
    std::string custom_type = kind == Kind::Custom ? read_custom_type() : std::string();
    const std::vector<size_t> layout = read_layout();
    auto node = std::make_unique<Node>(kind, layout.size());
    node->custom_type = std::move(custom_type);
    parse_children(*node, layout, depth);
    return TreeSpec<Aux>(std::move(node));
  }

  Kind container_kind(char kind_char) const {
    switch (kind_char) {
      case Config::kList:
        return Kind::List;
      case Config::kTuple:
        return Kind::Tuple;
      case Config::kNamedTuple:
        return Kind::NamedTuple;
      case Config::kDict:
        return Kind::Dict;
      case Config::kCustom:
        return Kind::Custom;
      default:
        fail("unknown node kind");
    }
  }

  // "(name)" after 'C': the name runs to the first ')' and holds no '('.
  std::string read_custom_type() {
    expect(Config::kNodeDataBegin, "expected '(' before the custom type name");
    const size_t end = text_.find(Config::kNodeDataEnd, pos_);
    if (end == std::string::npos) {
      fail_overrun("custom type name has no ')'");
    }
    std::string name = text_.substr(pos_, end - pos_);
    if (name.empty() || name.find(Config::kNodeDataBegin) != std::string::npos) {
      fail("custom type name is empty or has a '('");
    }
    pos_ = end + 1;
    return name;
  }

  // "(child,child,...)": exactly layout.size() children, each with the leaf
  // count the layout gives it.
  void parse_children(Node& node, const std::vector<size_t>& layout, size_t depth) {
    expect(Config::kNodeDataBegin, "expected '(' after the layout");
    size_t leaves = 0;
    for (size_t i = 0; i < layout.size(); ++i) {
      if (i > 0) {
        expect(Config::kChildrenSep, "fewer children than the layout declares");
      }
      if (node.kind == Kind::Dict) {
        node.keys[i] = read_key();
      }
      node.items[i] = parse_node(depth + 1);
      if (node.items[i].leaves_num() != layout[i]) {
        fail("leaf count in the layout disagrees with the child");
      }
      leaves += layout[i];
    }
    if (!next_is(Config::kNodeDataEnd)) {
      fail_overrun("expected ')': more children than the layout declares");
    }
    ++pos_;
    node.leaves_num = leaves;
  }

  // "'text':" or "-12:".
  Key read_key() {
    Key key = peek() == Config::kDictStrKeyQuote ? Key(read_str_key()) : Key(read_int_key());
    expect(Config::kDictKeyValueSep, "expected ':' after a dict key");
    return key;
  }

  KeyStr read_str_key() {
    ++pos_; // the opening quote
    const size_t end = text_.find(Config::kDictStrKeyQuote, pos_);
    if (end == std::string::npos) {
      fail_overrun("dict key has no closing quote");
    }
    KeyStr key = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return key;
  }

  KeyInt read_int_key() {
    const bool negative = next_is('-');
    if (negative) {
      ++pos_;
    }
    const size_t magnitude = read_number();
    const size_t limit =
        static_cast<size_t>(std::numeric_limits<KeyInt>::max()) + (negative ? 1 : 0);
    if (magnitude > limit) {
      fail("dict key does not fit in int32");
    }
    const int64_t value =
        negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
    return static_cast<KeyInt>(value);
  }

  const StrTreeSpec& text_;
  size_t pos_ = 0;
};

} // namespace detail

// Parses a spec string; throws (see the top of this file) when it is malformed.
template <typename Aux = Empty>
TreeSpec<Aux> from_str(const StrTreeSpec& spec) {
  return detail::SpecParser<Aux>(spec).parse();
}

// The spec string of `spec`; from_str(to_str(s)) == s. Throws
// std::runtime_error for None nodes, keys holding a quote and custom type
// names holding a bracket, which the string cannot carry.
template <typename Aux>
StrTreeSpec to_str(const TreeSpec<Aux>& spec) {
  refresh_leaves_num(spec);
  std::string out;
  detail::SpecWriter::write_node(spec, out);
  return out;
}

// A tree of spec's shape over leaves[0 .. spec's leaf count).
template <typename T, typename Aux>
ContainerHandle<T, Aux> unflatten(const TreeSpec<Aux>& spec, T* leaves) {
  return clone(spec, leaves);
}

template <typename T, typename Aux = Empty>
ContainerHandle<T, Aux> unflatten(const StrTreeSpec& spec, T* leaves) {
  return unflatten(from_str<Aux>(spec), leaves);
}

namespace detail {

template <typename LeafPtr, typename Tree>
arr<LeafPtr> collect_leaves(Tree& tree) {
  arr<LeafPtr> leaves(refresh_leaves_num(tree));
  size_t next = 0;
  auto take_leaf = [&](Tree& node) {
    if (node.isLeaf()) {
      leaves[next++] = node.leaf_ptr();
    }
  };
  traverse(tree, FunctionRef<void(Tree&)>(take_leaf));
  return leaves;
}

template <typename T, typename Aux>
std::unique_ptr<TreeSpec<Aux>> spec_of(const ContainerHandle<T, Aux>& tree) {
  size_t next_leaf = 0;
  return std::make_unique<TreeSpec<Aux>>(
      copy_shape(tree, static_cast<TreeSpecLeaf*>(nullptr), next_leaf));
}

} // namespace detail

// The leaves of `tree` in order, and its spec.
template <typename T, typename Aux>
std::pair<arr<const T*>, std::unique_ptr<TreeSpec<Aux>>> flatten(
    const ContainerHandle<T, Aux>& tree) {
  arr<const T*> leaves = detail::collect_leaves<const T*>(tree);
  return {std::move(leaves), detail::spec_of(tree)};
}

template <typename T, typename Aux>
std::pair<arr<T*>, std::unique_ptr<TreeSpec<Aux>>> flatten(ContainerHandle<T, Aux>& tree) {
  arr<T*> leaves = detail::collect_leaves<T*>(tree);
  return {std::move(leaves), detail::spec_of(tree)};
}

} // namespace pytree
} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace pytree {
using ::executorch::extension::pytree::Empty;
using ::executorch::extension::pytree::from_str;
using ::executorch::extension::pytree::TreeSpec;
} // namespace pytree
} // namespace executor
} // namespace torch
