#include <executorch/extension/evalue_util/print_evalue.h>

#include <algorithm>
#include <cmath>
#include <ios>
#include <sstream>
#include <string_view>

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>

namespace executorch {
namespace extension {
namespace internal {

namespace {
// As upstream: three items from each end unless a stream says otherwise.
constexpr long kDefaultEdgeItems = 3;

// Per-stream slot; 0 (a fresh slot) means "not set".
int edge_items_index() {
  static const int index = std::ios_base::xalloc();
  return index;
}
} // namespace

void set_edge_items(std::ostream& os, long edge_items) {
  // Zero or negative restores the default.
  os.iword(edge_items_index()) = edge_items > 0 ? edge_items : 0;
}

long get_edge_items(std::ostream& os) {
  const long v = os.iword(edge_items_index());
  return v > 0 ? v : kDefaultEdgeItems;
}

} // namespace internal
} // namespace extension

namespace runtime {

namespace {

void print_double(std::ostream& os, double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e16) {
    // Keep a trailing '.' so floats read as floats, as Python prints them;
    // -0.0 keeps its sign.
    if (d == 0 && std::signbit(d)) {
      os << "-";
    }
    os << static_cast<long long>(d) << ".";
  } else {
    os << d;
  }
}

void print_bool(std::ostream& os, bool b) { os << (b ? "True" : "False"); }

// A string in double quotes, with '"' and '\' escaped.
void print_string(std::ostream& os, std::string_view s) {
  os << '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      os << '\\';
    }
    os << c;
  }
  os << '"';
}

// Upstream's layout: more than kItemsPerLine shown items go "  "-indented,
// kItemsPerLine to a line, every item followed by ", ", and "]" on a line of
// its own. An elided tail's lines are counted from its end, so its first
// line is the short one and the last is full.
constexpr size_t kItemsPerLine = 10;

template <typename Fn>
void print_wrapped(std::ostream& os, size_t n, size_t front, size_t back, Fn& print_one) {
  auto lines = [&](size_t from, size_t to, size_t first_line) {
    size_t on_line = 0, line_len = first_line;
    for (size_t i = from; i < to; ++i) {
      if (on_line == 0) {
        os << "\n  ";
      }
      print_one(i);
      os << ", ";
      if (++on_line == line_len) {
        on_line = 0;
        line_len = kItemsPerLine;
      }
    }
  };
  os << "[";
  lines(0, front, kItemsPerLine);
  if (back > 0) {
    os << "\n  ...,";
    lines(n - back, n, back % kItemsPerLine == 0 ? kItemsPerLine : back % kItemsPerLine);
  }
  os << "\n]";
}

// Prints "[a, b, c, ..., x, y, z]": at most edge items from each end, on one
// line up to kItemsPerLine shown items, wrapped past that.
template <typename Fn>
void print_sequence_with_edge(std::ostream& os, size_t n, size_t edge, Fn&& print_one) {
  const bool elide = n > 2 * edge;
  const size_t front = elide ? edge : n;
  const size_t back = elide ? edge : 0;
  if (front + back > kItemsPerLine) {
    print_wrapped(os, n, front, back, print_one);
    return;
  }
  os << "[";
  for (size_t i = 0; i < front; ++i) {
    print_one(i);
    if (i + 1 < front || elide) {
      os << ", ";
    }
  }
  if (elide) {
    os << "...";
    for (size_t i = n - back; i < n; ++i) {
      os << ", ";
      print_one(i);
    }
  }
  os << "]";
}

// A list of tensors: every entry (never elided); more than one go one to a
// line, "  [i]: entry,".
template <typename Fn>
void print_entries(std::ostream& os, size_t n, Fn&& print_one) {
  if (n <= 1) {
    os << "[";
    if (n == 1) {
      print_one(0);
    }
    os << "]";
    return;
  }
  os << "[\n";
  for (size_t i = 0; i < n; ++i) {
    os << "  [" << i << "]: ";
    print_one(i);
    os << ",\n";
  }
  os << "]";
}

template <typename Fn>
void print_sequence(std::ostream& os, size_t n, Fn&& print_one) {
  const long edge = ::executorch::extension::internal::get_edge_items(os);
  print_sequence_with_edge(os, n, edge < 0 ? 0 : static_cast<size_t>(edge), print_one);
}

template <typename T>
void print_element(std::ostream& os, const T& v) {
  if constexpr (std::is_same<T, bool>::value) {
    print_bool(os, v);
  } else if constexpr (std::is_integral<T>::value) {
    os << static_cast<long long>(v);
  } else {
    print_double(os, static_cast<double>(v));
  }
}

void print_tensor(std::ostream& os, const ::executorch::aten::Tensor& t) {
  os << "tensor(sizes=";
  // Sizes are never elided (but wrap as any sequence does).
  print_sequence_with_edge(os, t.sizes().size(), t.sizes().size(),
                           [&](size_t i) { os << t.sizes()[i]; });
  os << ", ";
  const auto type = t.scalar_type();
  const void* data = t.const_data_ptr();
  const size_t numel = static_cast<size_t>(t.numel());
  bool printed = false;
  if (data != nullptr) {
    switch (type) {
#define ET_PRINT_CASE_(ctype, name)                                               \
  case ScalarType::name: {                                                        \
    const ctype* p = static_cast<const ctype*>(data);                             \
    print_sequence(os, numel, [&](size_t i) { print_element<ctype>(os, p[i]); }); \
    printed = true;                                                               \
    break;                                                                        \
  }
      ET_PRINT_CASE_(uint8_t, Byte)
      ET_PRINT_CASE_(int8_t, Char)
      ET_PRINT_CASE_(int16_t, Short)
      ET_PRINT_CASE_(int32_t, Int)
      ET_PRINT_CASE_(int64_t, Long)
      ET_PRINT_CASE_(::executorch::aten::Half, Half)
      ET_PRINT_CASE_(float, Float)
      ET_PRINT_CASE_(double, Double)
      case ScalarType::Bool: {
        // Bytes, not bool: tensor data may hold values other than 0 and 1.
        const uint8_t* p = static_cast<const uint8_t*>(data);
        print_sequence(os, numel, [&](size_t i) { print_bool(os, p[i] != 0); });
        printed = true;
        break;
      }
        ET_PRINT_CASE_(::executorch::aten::BFloat16, BFloat16)
        ET_PRINT_CASE_(uint16_t, UInt16)
        ET_PRINT_CASE_(uint32_t, UInt32)
        ET_PRINT_CASE_(uint64_t, UInt64)
#undef ET_PRINT_CASE_
      default:
        break;
    }
  }
  if (!printed) {
    if (data == nullptr) {
      os << "<no data>";
    } else {
      os << "<unprintable dtype " << toString(type) << ">";
    }
  }
  os << ")";
}

} // namespace

std::ostream& operator<<(std::ostream& os, const EValue& value) {
  switch (value.tag) {
    case Tag::None:
      os << "None";
      break;
    case Tag::Bool:
      print_bool(os, value.toBool());
      break;
    case Tag::Int:
      os << value.toInt();
      break;
    case Tag::Double:
      print_double(os, value.toDouble());
      break;
    case Tag::String: {
      print_string(os, value.toString());
      break;
    }
    case Tag::Tensor:
      print_tensor(os, value.toTensor());
      break;
    case Tag::ListBool: {
      auto l = value.toBoolList();
      os << "(len=" << l.size() << ")";
      print_sequence(os, l.size(), [&](size_t i) { print_bool(os, l[i]); });
      break;
    }
    case Tag::ListInt: {
      auto list = value.tryToIntList();
      if (!list.ok()) {
        os << "<invalid list: " << to_string(list.error()) << ">";
        break;
      }
      auto l = *list;
      os << "(len=" << l.size() << ")";
      print_sequence(os, l.size(), [&](size_t i) { os << l[i]; });
      break;
    }
    case Tag::ListDouble: {
      auto l = value.toDoubleList();
      os << "(len=" << l.size() << ")";
      print_sequence(os, l.size(), [&](size_t i) { print_double(os, l[i]); });
      break;
    }
    case Tag::ListTensor: {
      auto list = value.tryToTensorList();
      if (!list.ok()) {
        os << "<invalid list: " << to_string(list.error()) << ">";
        break;
      }
      auto l = *list;
      os << "(len=" << l.size() << ")";
      print_entries(os, l.size(), [&](size_t i) { print_tensor(os, l[i]); });
      break;
    }
    case Tag::ListOptionalTensor: {
      auto list = value.tryToListOptionalTensor();
      if (!list.ok()) {
        os << "<invalid list: " << to_string(list.error()) << ">";
        break;
      }
      auto l = *list;
      os << "(len=" << l.size() << ")";
      print_entries(os, l.size(), [&](size_t i) {
        if (l[i].has_value()) {
          print_tensor(os, *l[i]);
        } else {
          os << "None";
        }
      });
      break;
    }
    default:
      os << "<Unknown EValue tag " << static_cast<int>(value.tag) << ">";
      break;
  }
  return os;
}

} // namespace runtime
} // namespace executorch
