#include "input_spec.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <utility>
#include <vector>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/half.h>

#include "errors.h"
#include "format.h"

namespace et_run {

using rt::Error;

namespace {

bool is_integral_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
      return true;
    default:
      return false;
  }
}

bool is_float_dtype(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half ||
         t == ScalarType::BFloat16;
}

// Stores v (given as double or as an integer) into element i.
void store_element(ScalarType t, void* data, size_t i, double dv, int64_t iv, bool is_int) {
  const double d = is_int ? static_cast<double>(iv) : dv;
  const int64_t n = is_int ? iv : static_cast<int64_t>(dv);
  switch (t) {
    case ScalarType::Float:
      static_cast<float*>(data)[i] = static_cast<float>(d);
      break;
    case ScalarType::Double:
      static_cast<double*>(data)[i] = d;
      break;
    case ScalarType::Half:
      static_cast<::executorch::aten::Half*>(data)[i] =
          ::executorch::aten::Half(static_cast<float>(d));
      break;
    case ScalarType::BFloat16:
      static_cast<::executorch::aten::BFloat16*>(data)[i] =
          ::executorch::aten::BFloat16(static_cast<float>(d));
      break;
    case ScalarType::Bool:
      static_cast<uint8_t*>(data)[i] = d != 0 ? 1 : 0;
      break;
    case ScalarType::Byte:
      static_cast<uint8_t*>(data)[i] = static_cast<uint8_t>(n);
      break;
    case ScalarType::Char:
      static_cast<int8_t*>(data)[i] = static_cast<int8_t>(n);
      break;
    case ScalarType::Short:
      static_cast<int16_t*>(data)[i] = static_cast<int16_t>(n);
      break;
    case ScalarType::Int:
      static_cast<int32_t*>(data)[i] = static_cast<int32_t>(n);
      break;
    case ScalarType::Long:
      static_cast<int64_t*>(data)[i] = n;
      break;
    case ScalarType::UInt16:
      static_cast<uint16_t*>(data)[i] = static_cast<uint16_t>(n);
      break;
    case ScalarType::UInt32:
      static_cast<uint32_t*>(data)[i] = static_cast<uint32_t>(n);
      break;
    case ScalarType::UInt64:
      static_cast<uint64_t*>(data)[i] = static_cast<uint64_t>(n);
      break;
    default:
      break;
  }
}

std::string trim(std::string s) {
  const char* ws = " \t";
  const size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) {
    return std::string();
  }
  const size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

// Parses one list element for dtype t. Integers are read exactly.
bool parse_value(const std::string& text, ScalarType t, double* dv, int64_t* iv, bool* is_int) {
  const std::string s = trim(text);
  if (s.empty()) {
    return false;
  }
  if (t == ScalarType::Bool) {
    if (s == "true" || s == "True") {
      *iv = 1;
      *is_int = true;
      return true;
    }
    if (s == "false" || s == "False") {
      *iv = 0;
      *is_int = true;
      return true;
    }
  }
  char* end = nullptr;
  errno = 0;
  if (is_integral_dtype(t) || t == ScalarType::Bool) {
    const long long v = std::strtoll(s.c_str(), &end, 0);
    if (errno == 0 && end != nullptr && *end == '\0') {
      *iv = v;
      *is_int = true;
      return true;
    }
    if (t == ScalarType::UInt64) {
      errno = 0;
      const unsigned long long u = std::strtoull(s.c_str(), &end, 0);
      if (errno == 0 && end != nullptr && *end == '\0') {
        *iv = static_cast<int64_t>(u);
        *is_int = true;
        return true;
      }
    }
    return false;
  }
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end == nullptr || *end != '\0' || errno == ERANGE) {
    return false;
  }
  *dv = v;
  *is_int = false;
  return true;
}

} // namespace

bool dtype_fillable(ScalarType t) {
  return is_float_dtype(t) || is_integral_dtype(t) || t == ScalarType::Bool;
}

namespace {

// One element is converted; the rest are copies of the bytes already
// written, doubling each time, so a GiB fills at memcpy speed, in place.
void fill_constant(double v, ScalarType t, size_t numel, uint8_t* data) {
  if (numel == 0) {
    return;
  }
  store_element(t, data, 0, v, static_cast<int64_t>(v), false);
  const size_t total = numel * rt::elementSize(t);
  size_t done = rt::elementSize(t);
  while (done < total) {
    const size_t n = done < total - done ? done : total - done;
    std::memcpy(data + done, data, n);
    done += n;
  }
}

// "random" or "random:SEED": uniform [0, 1) floats, 0..9 integers, bools.
void fill_random(const std::string& spec, size_t index, ScalarType t, size_t numel, uint8_t* data) {
  uint64_t seed = 1;
  if (spec.size() > 6) {
    const std::string s = spec.substr(7);
    char* end = nullptr;
    errno = 0;
    seed = std::strtoull(s.c_str(), &end, 0);
    if (s.empty() || errno != 0 || *end != '\0') {
      fail(Error::InvalidArgument, "input %zu: bad random seed in '%s'", index, spec.c_str());
    }
  }
  // Each input gets its own stream so equal shapes get different data.
  std::mt19937_64 gen(seed + index);
  if (is_float_dtype(t)) {
    std::uniform_real_distribution<double> dist(0.0, 1.0);
    for (size_t i = 0; i < numel; ++i) {
      store_element(t, data, i, dist(gen), 0, false);
    }
    return;
  }
  std::uniform_int_distribution<int64_t> dist(0, t == ScalarType::Bool ? 1 : 9);
  for (size_t i = 0; i < numel; ++i) {
    store_element(t, data, i, 0, dist(gen), true);
  }
}

// "@FILE": raw bytes, exactly nbytes of them.
void fill_from_file(const std::string& path, size_t index, ScalarType t, size_t nbytes,
                    uint8_t* data) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    fail(Error::AccessFailed, "input %zu: cannot open '%s': %s", index, path.c_str(),
         std::strerror(errno));
  }
  const std::streamoff size = in.tellg();
  if (size < 0 || static_cast<uint64_t>(size) != nbytes) {
    fail(Error::InvalidArgument, "input %zu: '%s' holds %lld bytes, the %s input needs %zu", index,
         path.c_str(), static_cast<long long>(size), dtype_name(t), nbytes);
  }
  in.seekg(0);
  if (nbytes != 0 &&
      !in.read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(nbytes))) {
    fail(Error::AccessFailed, "input %zu: cannot read '%s'", index, path.c_str());
  }
}

// "V1,V2,...": one value per element.
void fill_from_list(const std::string& spec, size_t index, ScalarType t, size_t numel,
                    uint8_t* data) {
  std::vector<std::string> items;
  for (size_t start = 0;;) {
    const size_t comma = spec.find(',', start);
    items.push_back(
        spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  if (items.size() != numel) {
    // Still parse first: a spec that is not a list at all gets that error.
    double dv = 0;
    int64_t iv = 0;
    bool is_int = false;
    for (const auto& item : items) {
      if (!parse_value(item, t, &dv, &iv, &is_int)) {
        fail(Error::InvalidArgument,
             "input %zu: '%s' is not ones, zeros, random[:SEED], @FILE or a list of %s "
             "values",
             index, spec.c_str(), dtype_name(t));
      }
    }
    fail(Error::InvalidArgument,
         "input %zu: %zu value(s) given, the %s input has %zu "
         "element(s)",
         index, items.size(), dtype_name(t), numel);
  }
  for (size_t i = 0; i < numel; ++i) {
    double dv = 0;
    int64_t iv = 0;
    bool is_int = false;
    if (!parse_value(items[i], t, &dv, &iv, &is_int)) {
      fail(Error::InvalidArgument,
           "input %zu: '%s' is not ones, zeros, random[:SEED], @FILE or a list of %s "
           "values",
           index, spec.c_str(), dtype_name(t));
    }
    store_element(t, data, i, dv, iv, is_int);
  }
}

} // namespace

void fill_input(const std::string& spec, size_t index, ScalarType t, size_t numel, size_t nbytes,
                uint8_t* data) {
  if (spec == "ones" || spec == "zeros") {
    fill_constant(spec == "ones" ? 1.0 : 0.0, t, numel, data);
  } else if (spec.rfind("random", 0) == 0 && (spec.size() == 6 || spec[6] == ':')) {
    fill_random(spec, index, t, numel, data);
  } else if (!spec.empty() && spec[0] == '@') {
    fill_from_file(spec.substr(1), index, t, nbytes, data);
  } else {
    fill_from_list(spec, index, t, numel, data);
  }
}

} // namespace et_run
