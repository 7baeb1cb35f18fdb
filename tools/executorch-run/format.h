// Text forms of dtypes, shapes, tags and elements shared by the commands,
// and JSON string escaping.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <executorch/runtime/core/portable_type/scalar_type.h>
#include <executorch/runtime/core/tag.h>

namespace et_run {

using ::executorch::runtime::etensor::ScalarType;

const char* dtype_name(ScalarType t);
std::string shape_string(const int32_t* sizes, size_t n);
const char* tag_name(::executorch::runtime::Tag t);
std::string json_escape(std::string_view s);
// Up to 9 significant digits; NaN and infinities as null in JSON.
std::string fmt_double(double v, bool json);
// Up to 17 significant digits (doubles).
std::string fmt_double17(double v, bool json);
// Element i of data (dtype t) as text; false when t is not printable.
bool format_element(ScalarType t, const void* data, size_t i, bool json, std::string* out);

} // namespace et_run
