// --input specs: ones, zeros, random[:SEED], V1,V2,... or @FILE, written
// into a tensor's memory as elements of its dtype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <executorch/runtime/core/portable_type/scalar_type.h>

namespace et_run {

// Whether fill_input can write elements of dtype t.
bool dtype_fillable(::executorch::runtime::etensor::ScalarType t);

// Fills numel elements (nbytes bytes) of dtype t at data from spec, for
// input `index` (named in errors; it also offsets the random seed).
void fill_input(const std::string& spec, size_t index, ::executorch::runtime::etensor::ScalarType t,
                size_t numel, size_t nbytes, uint8_t* data);

} // namespace et_run
