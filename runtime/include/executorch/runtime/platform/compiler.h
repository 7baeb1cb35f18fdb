// Attribute macros shared by every public header.
#pragma once

#define ET_NODISCARD [[nodiscard]]
#define ET_UNUSED __attribute__((unused))
#define __ET_UNUSED ET_UNUSED
#define ET_DEPRECATED [[deprecated]]
#define ET_EXPERIMENTAL
#define ET_INLINE __attribute__((always_inline)) inline
#define ET_NOINLINE __attribute__((noinline))
#define ET_NORETURN [[noreturn]]
#define ET_LIKELY(x) __builtin_expect(!!(x), 1)
#define ET_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ET_PRINTFLIKE(fmt_idx, args_idx) __attribute__((format(printf, fmt_idx, args_idx)))
#define ET_FALLTHROUGH [[fallthrough]]
#define ET_FUNCTION __func__

// ET_RUNTIME_NAMESPACE: Program, Method and the backend types live here.
#ifndef ET_RUNTIME_NAMESPACE
#define ET_RUNTIME_NAMESPACE runtime
#endif
