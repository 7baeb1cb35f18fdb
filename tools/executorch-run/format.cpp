#include "format.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/half.h>

namespace et_run {

using ::executorch::runtime::Tag;

const char* dtype_name(ScalarType t) { return ::executorch::runtime::toString(t); }

std::string shape_string(const int32_t* sizes, size_t n) {
  std::string s = "[";
  for (size_t i = 0; i < n; ++i) {
    if (i != 0) {
      s += ", ";
    }
    s += std::to_string(sizes[i]);
  }
  s += "]";
  return s;
}

const char* tag_name(Tag t) {
  switch (t) {
    case Tag::None:
      return "None";
    case Tag::Tensor:
      return "Tensor";
    case Tag::String:
      return "String";
    case Tag::Double:
      return "Double";
    case Tag::Int:
      return "Int";
    case Tag::Bool:
      return "Bool";
    case Tag::ListBool:
      return "ListBool";
    case Tag::ListDouble:
      return "ListDouble";
    case Tag::ListInt:
      return "ListInt";
    case Tag::ListTensor:
      return "ListTensor";
    case Tag::ListScalar:
      return "ListScalar";
    case Tag::ListOptionalTensor:
      return "ListOptionalTensor";
  }
  return "Unknown";
}

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string fmt_double(double v, bool json) {
  if (std::isnan(v)) {
    return json ? "null" : "nan";
  }
  if (std::isinf(v)) {
    return json ? "null" : (v > 0 ? "inf" : "-inf");
  }
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

std::string fmt_double17(double v, bool json) {
  if (!std::isfinite(v)) {
    return fmt_double(v, json);
  }
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

bool format_element(ScalarType t, const void* data, size_t i, bool json, std::string* out) {
  char buf[40];
  switch (t) {
    case ScalarType::Float:
      *out = fmt_double(static_cast<const float*>(data)[i], json);
      return true;
    case ScalarType::Double:
      *out = fmt_double17(static_cast<const double*>(data)[i], json);
      return true;
    case ScalarType::Half:
      *out = fmt_double(static_cast<float>(static_cast<const ::executorch::aten::Half*>(data)[i]),
                        json);
      return true;
    case ScalarType::BFloat16:
      *out = fmt_double(
          static_cast<float>(static_cast<const ::executorch::aten::BFloat16*>(data)[i]), json);
      return true;
    case ScalarType::Bool:
      *out = static_cast<const uint8_t*>(data)[i] != 0 ? "true" : "false";
      return true;
    case ScalarType::Byte:
      std::snprintf(buf, sizeof(buf), "%u", static_cast<const uint8_t*>(data)[i]);
      break;
    case ScalarType::Char:
      std::snprintf(buf, sizeof(buf), "%d", static_cast<const int8_t*>(data)[i]);
      break;
    case ScalarType::Short:
      std::snprintf(buf, sizeof(buf), "%d", static_cast<const int16_t*>(data)[i]);
      break;
    case ScalarType::Int:
      std::snprintf(buf, sizeof(buf), "%" PRId32, static_cast<const int32_t*>(data)[i]);
      break;
    case ScalarType::Long:
      std::snprintf(buf, sizeof(buf), "%" PRId64, static_cast<const int64_t*>(data)[i]);
      break;
    case ScalarType::UInt16:
      std::snprintf(buf, sizeof(buf), "%u", static_cast<const uint16_t*>(data)[i]);
      break;
    case ScalarType::UInt32:
      std::snprintf(buf, sizeof(buf), "%" PRIu32, static_cast<const uint32_t*>(data)[i]);
      break;
    case ScalarType::UInt64:
      std::snprintf(buf, sizeof(buf), "%" PRIu64, static_cast<const uint64_t*>(data)[i]);
      break;
    default:
      return false;
  }
  *out = buf;
  return true;
}

} // namespace et_run
