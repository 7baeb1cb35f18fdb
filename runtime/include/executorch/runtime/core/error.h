// Error codes, numbered as upstream's so values match across runtimes.
#pragma once

#include <cstdint>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {

typedef uint32_t error_code_t;

enum class Error : error_code_t {
  Ok = 0x00,
  Internal = 0x01,
  InvalidState = 0x02,
  EndOfMethod = 0x03,
  AlreadyLoaded = 0x04,
  NotSupported = 0x10,
  NotImplemented = 0x11,
  InvalidArgument = 0x12,
  InvalidType = 0x13,
  OperatorMissing = 0x14,
  RegistrationExceedingMaxKernels = 0x15,
  RegistrationAlreadyRegistered = 0x16,
  NotFound = 0x20,
  MemoryAllocationFailed = 0x21,
  AccessFailed = 0x22,
  InvalidProgram = 0x23,
  InvalidExternalData = 0x24,
  OutOfResources = 0x25,
  DelegateInvalidCompatibility = 0x30,
  DelegateMemoryAllocationFailed = 0x31,
  DelegateInvalidHandle = 0x32,
};

constexpr const char* to_string(const Error error) {
  switch (error) {
    case Error::Ok:
      return "Error::Ok";
    case Error::Internal:
      return "Error::Internal";
    case Error::InvalidState:
      return "Error::InvalidState";
    case Error::EndOfMethod:
      return "Error::EndOfMethod";
    case Error::AlreadyLoaded:
      return "Error::AlreadyLoaded";
    case Error::NotSupported:
      return "Error::NotSupported";
    case Error::NotImplemented:
      return "Error::NotImplemented";
    case Error::InvalidArgument:
      return "Error::InvalidArgument";
    case Error::InvalidType:
      return "Error::InvalidType";
    case Error::OperatorMissing:
      return "Error::OperatorMissing";
    case Error::RegistrationExceedingMaxKernels:
      return "Error::RegistrationExceedingMaxKernels";
    case Error::RegistrationAlreadyRegistered:
      return "Error::RegistrationAlreadyRegistered";
    case Error::NotFound:
      return "Error::NotFound";
    case Error::MemoryAllocationFailed:
      return "Error::MemoryAllocationFailed";
    case Error::AccessFailed:
      return "Error::AccessFailed";
    case Error::InvalidProgram:
      return "Error::InvalidProgram";
    case Error::InvalidExternalData:
      return "Error::InvalidExternalData";
    case Error::OutOfResources:
      return "Error::OutOfResources";
    case Error::DelegateInvalidCompatibility:
      return "Error::DelegateInvalidCompatibility";
    case Error::DelegateMemoryAllocationFailed:
      return "Error::DelegateMemoryAllocationFailed";
    case Error::DelegateInvalidHandle:
      return "Error::DelegateInvalidHandle";
  }
  return "Error::Unknown";
}

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::Error;
using ::executorch::runtime::error_code_t;
} // namespace executor
} // namespace torch

// Returns Error::_error from the enclosing function when _cond is false.
#define ET_CHECK_OR_RETURN_ERROR(_cond, _error, _format, ...) \
  do {                                                        \
    if (ET_UNLIKELY(!(_cond))) {                              \
      ET_LOG(Error, _format, ##__VA_ARGS__);                  \
      return ::executorch::runtime::Error::_error;            \
    }                                                         \
  } while (0)

#define ET_CHECK_OK_OR_RETURN_ERROR(_error, ...)                                             \
  ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_SELECT(__VA_ARGS__, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1) \
  (_error, ##__VA_ARGS__)
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_SELECT(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, N, \
                                                    ...)                                        \
  ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_##N
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_1(_error, ...) \
  do {                                                      \
    const auto et_error__ = (_error);                       \
    if (et_error__ != ::executorch::runtime::Error::Ok) {   \
      return et_error__;                                    \
    }                                                       \
  } while (0)
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2(_error, _format, ...) \
  do {                                                               \
    const auto et_error__ = (_error);                                \
    if (et_error__ != ::executorch::runtime::Error::Ok) {            \
      ET_LOG(Error, _format, ##__VA_ARGS__);                         \
      return et_error__;                                             \
    }                                                                \
  } while (0)
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_3 ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_4 ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_5 ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_6 ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_7 ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_8 ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_9 ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2
#define ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_10 ET_INTERNAL_CHECK_OK_OR_RETURN_ERROR_2

#define ET_CHECK_OR_RETURN_FALSE(_cond, _format, ...) \
  do {                                                \
    if (ET_UNLIKELY(!(_cond))) {                      \
      ET_LOG(Error, _format, ##__VA_ARGS__);          \
      return false;                                   \
    }                                                 \
  } while (0)

#define ET_CHECK_OR_LOG_ERROR(_cond, _format, ...) \
  do {                                             \
    if (ET_UNLIKELY(!(_cond))) {                   \
      ET_LOG(Error, _format, ##__VA_ARGS__);       \
    }                                              \
  } while (0)
