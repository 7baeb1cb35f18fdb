// The C10_* portability macros PyTorch's header-only code uses, for code
// written against c10 that runs on ExecuTorch (CPU host code: the device
// qualifiers expand to nothing unless a CUDA/HIP compiler is in use).
#pragma once

#include <torch/headeronly/macros/Export.h>

#define C10_CONCATENATE_IMPL(s1, s2) s1##s2
#define C10_CONCATENATE(s1, s2) C10_CONCATENATE_IMPL(s1, s2)
#define C10_MACRO_EXPAND(args) args
#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)
#define C10_UID __COUNTER__
#define C10_ANONYMOUS_VARIABLE(str) C10_CONCATENATE(str, __COUNTER__)

#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define C10_ALWAYS_INLINE inline __attribute__((__always_inline__))
#define C10_ALWAYS_INLINE_ATTRIBUTE __attribute__((__always_inline__))
#define C10_NOINLINE __attribute__((__noinline__))
#define C10_UNUSED __attribute__((__unused__))
#define C10_USED __attribute__((__used__))
#define C10_NODISCARD [[nodiscard]]
#define C10_NORETURN __attribute__((noreturn))
#define C10_RESTRICT __restrict
#define C10_DEPRECATED [[deprecated]]
#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]
#define C10_FALLTHROUGH [[fallthrough]]
#define C10_TYPENAME_SUPPORTS_CONSTEXPR 1
#define C10_TYPENAME_CONSTEXPR constexpr

#if defined(__CUDACC__) || defined(__HIPCC__)
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#else
#define C10_HOST_DEVICE
#define C10_DEVICE
#define C10_HOST
#endif
#define C10_HOST_CONSTEXPR constexpr
#define C10_HOST_CONSTEXPR_VAR constexpr

#define C10_DISABLE_COPY_AND_ASSIGN(classname) \
  classname(const classname&) = delete;        \
  classname& operator=(const classname&) = delete

// Diagnostic control around code that trips a warning on purpose.
#define C10_PRAGMA_(x) _Pragma(#x)
#if defined(__clang__)
#define C10_CLANG_DIAGNOSTIC_PUSH() _Pragma("clang diagnostic push")
#define C10_CLANG_DIAGNOSTIC_POP() _Pragma("clang diagnostic pop")
#define C10_CLANG_DIAGNOSTIC_IGNORE(flag) C10_PRAGMA_(clang diagnostic ignored flag)
#define C10_CLANG_HAS_WARNING(flag) __has_warning(flag)
#else
#define C10_CLANG_DIAGNOSTIC_PUSH()
#define C10_CLANG_DIAGNOSTIC_POP()
#define C10_CLANG_DIAGNOSTIC_IGNORE(flag)
#define C10_CLANG_HAS_WARNING(flag) 0
#endif
#if defined(__clang__)
#define C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED(warning)            \
  _Pragma("clang diagnostic push")                                     \
      C10_PRAGMA_(clang diagnostic ignored "-Wunknown-warning-option") \
          C10_PRAGMA_(clang diagnostic ignored warning)
#define C10_DIAGNOSTIC_POP() _Pragma("clang diagnostic pop")
#elif defined(__GNUC__)
#define C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED(warning)                      \
  _Pragma("GCC diagnostic push") C10_PRAGMA_(GCC diagnostic ignored "-Wpragmas") \
      C10_PRAGMA_(GCC diagnostic ignored warning)
#define C10_DIAGNOSTIC_POP() _Pragma("GCC diagnostic pop")
#else
#define C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED(warning)
#define C10_DIAGNOSTIC_POP()
#endif
