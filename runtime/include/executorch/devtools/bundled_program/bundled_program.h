// The bundled program (.bpte): an ExecuTorch program stored with test inputs
// and reference outputs for its methods. These functions find the program
// inside such a file, feed a method one of its test inputs and compare the
// method's outputs with the stored references.
//
// The file is untrusted: it is verified (FlatBuffers Verifier, tensor sizes
// checked against their data) before anything is read from it, and a bad file
// gives an Error, never a crash. The functions that take no length (as
// upstream's do) read the buffer as one complete bundled program; callers
// holding bytes of unknown origin should check them first with
// get_program_data(), which verifies within the length it is given.
#pragma once

#include <cstddef>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

#define BUNDLED_PROGRAM_NAMESPACE bundled_program

namespace executorch {
namespace BUNDLED_PROGRAM_NAMESPACE {

// A serialized bundled program, as read from a .bpte file.
using SerializedBundledProgram = const void;
using ::executorch::ET_RUNTIME_NAMESPACE::Method;

// Sets every input of `method` from test case `testset_idx` of the suite
// whose name is the method's. NotSupported when the buffer is not a bundled
// program or a value cannot be set; InvalidArgument when no suite names the
// method, the index is out of range or the input count differs;
// InvalidProgram when the file is malformed.
ET_NODISCARD EXECUTORCH_API ::executorch::runtime::Error load_bundled_input(
    Method& method, SerializedBundledProgram* bundled_program_ptr, size_t testset_idx);

// Compares the outputs of the last run of `method` with the expected outputs
// of test case `testset_idx`: floating-point elements within
// atol + rtol * |actual| (NaN matches NaN, an infinity the same infinity),
// anything else bit for bit. NotFound when an output differs; the other
// errors as load_bundled_input.
ET_NODISCARD EXECUTORCH_API ::executorch::runtime::Error verify_method_outputs(
    Method& method, SerializedBundledProgram* bundled_program_ptr, size_t testset_idx,
    double rtol = 1e-5, double atol = 1e-8);

// Points *out_program_data / *out_program_data_len at the program stored in
// the bundled program of `file_data_len` bytes at `file_data` (the bytes
// Program::load can read). NotSupported when the bytes are not a bundled
// program, InvalidProgram when they are a malformed one.
ET_NODISCARD EXECUTORCH_API ::executorch::runtime::Error get_program_data(
    void* file_data, size_t file_data_len, const void** out_program_data,
    size_t* out_program_data_len);

// True when the `file_data_len` bytes at `file_data` carry the bundled
// program's file identifier (the file is not verified further).
EXECUTORCH_API bool is_bundled_program(void* file_data, size_t file_data_len);

// Without a length: looks at the first 128 bytes' worth of header, as
// upstream's overload does. Use the overload with the length.
ET_DEPRECATED inline bool is_bundled_program(void* file_data) {
  return is_bundled_program(file_data, 128);
}

} // namespace BUNDLED_PROGRAM_NAMESPACE
} // namespace executorch

// Upstream's older spellings.
namespace torch {
namespace executor {
namespace bundled_program {

using serialized_bundled_program =
    ::executorch::BUNDLED_PROGRAM_NAMESPACE::SerializedBundledProgram;

ET_NODISCARD inline ::executorch::runtime::Error LoadBundledInput(
    ::executorch::BUNDLED_PROGRAM_NAMESPACE::Method& method,
    serialized_bundled_program* bundled_program_ptr, size_t testset_idx) {
  return ::executorch::BUNDLED_PROGRAM_NAMESPACE::load_bundled_input(method, bundled_program_ptr,
                                                                     testset_idx);
}

ET_NODISCARD inline ::executorch::runtime::Error VerifyResultWithBundledExpectedOutput(
    ::executorch::BUNDLED_PROGRAM_NAMESPACE::Method& method,
    serialized_bundled_program* bundled_program_ptr, size_t testset_idx, double rtol = 1e-5,
    double atol = 1e-8) {
  return ::executorch::BUNDLED_PROGRAM_NAMESPACE::verify_method_outputs(method, bundled_program_ptr,
                                                                        testset_idx, rtol, atol);
}

ET_NODISCARD inline ::executorch::runtime::Error GetProgramData(void* file_data,
                                                                size_t file_data_len,
                                                                const void** out_program_data,
                                                                size_t* out_program_data_len) {
  return ::executorch::BUNDLED_PROGRAM_NAMESPACE::get_program_data(
      file_data, file_data_len, out_program_data, out_program_data_len);
}

inline bool IsBundledProgram(void* file_data) {
  return ::executorch::BUNDLED_PROGRAM_NAMESPACE::is_bundled_program(file_data, 128);
}

} // namespace bundled_program
} // namespace executor
} // namespace torch
