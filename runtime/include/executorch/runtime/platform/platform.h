// The platform abstraction layer (PAL): the C hooks the runtime calls for
// start-up, abort, time, log output and raw memory. libexecutorch.so.1
// defines each et_pal_*() as a weak default (POSIX: clock_gettime, stderr,
// malloc) and always calls them through the PLT, so an application takes a
// hook over either way upstream documents:
//   - link-time: define the function (strong, C linkage) in the executable;
//   - run-time: register_pal(PalImpl::create(...)) with the entries to
//     replace (null entries keep the current ones).
// Runtime code calls the executorch::runtime::pal_*() dispatchers below,
// which go through the table; call those rather than et_pal_*() directly.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>
#include <executorch/runtime/platform/types.h>

// Defined by the library's own default implementations to mark them weak;
// applications neither define nor use it.
#ifndef ET_INTERNAL_PLATFORM_WEAKNESS
#define ET_INTERNAL_PLATFORM_WEAKNESS
#endif

extern "C" {

// nanoseconds = ticks * numerator / denominator.
typedef struct {
  uint64_t numerator;
  uint64_t denominator;
} et_tick_ratio_t;

// Severity of a log message: printable ASCII letters.
typedef enum {
  kDebug = 'D',
  kInfo = 'I',
  kError = 'E',
  kFatal = 'F',
  kUnknown = '?',
} et_pal_log_level_t;

// Sets up platform state; runtime_init() calls it. Must be idempotent.
EXECUTORCH_API void et_pal_init(void) ET_INTERNAL_PLATFORM_WEAKNESS;
// Ends the process abnormally; must not return.
ET_NORETURN EXECUTORCH_API void et_pal_abort(void) ET_INTERNAL_PLATFORM_WEAKNESS;
// A monotonically non-decreasing time in system ticks.
EXECUTORCH_API et_timestamp_t et_pal_current_ticks(void) ET_INTERNAL_PLATFORM_WEAKNESS;
// The ticks -> nanoseconds ratio of et_pal_current_ticks().
EXECUTORCH_API et_tick_ratio_t et_pal_ticks_to_ns_multiplier(void) ET_INTERNAL_PLATFORM_WEAKNESS;
// Writes one log message (`length` bytes of `message`, no newline) out.
EXECUTORCH_API void et_pal_emit_log_message(et_timestamp_t timestamp, et_pal_log_level_t level,
                                            const char* filename, const char* function, size_t line,
                                            const char* message,
                                            size_t length) ET_INTERNAL_PLATFORM_WEAKNESS;
// Raw memory for allocator wrappers (never for the core runtime itself);
// nullptr on failure. et_pal_free() accepts nullptr.
EXECUTORCH_API void* et_pal_allocate(size_t size) ET_INTERNAL_PLATFORM_WEAKNESS;
EXECUTORCH_API void et_pal_free(void* ptr) ET_INTERNAL_PLATFORM_WEAKNESS;

// The hook signatures, under both spellings upstream has used.
typedef void (*pal_init_method)(void);
typedef void (*pal_abort_method)(void);
typedef et_timestamp_t (*pal_current_ticks_method)(void);
typedef et_tick_ratio_t (*pal_ticks_to_ns_multiplier_method)(void);
typedef void (*pal_emit_log_message_method)(et_timestamp_t timestamp, et_pal_log_level_t level,
                                            const char* filename, const char* function, size_t line,
                                            const char* message, size_t length);
typedef void* (*pal_allocate_method)(size_t size);
typedef void (*pal_free_method)(void* ptr);
typedef pal_init_method et_pal_init_t;
typedef pal_abort_method et_pal_abort_t;
typedef pal_current_ticks_method et_pal_current_ticks_t;
typedef pal_ticks_to_ns_multiplier_method et_pal_ticks_to_ns_multiplier_t;
typedef pal_emit_log_message_method et_pal_emit_log_message_t;
typedef pal_allocate_method et_pal_allocate_t;
typedef pal_free_method et_pal_free_t;

} // extern "C"

namespace executorch {
namespace runtime {

// The table of active PAL hooks. An aggregate (no constructors), so the
// library's table is set up before any static initializer runs and a
// register_pal() from one is never lost.
struct EXECUTORCH_API PalImpl {
  // Only emit_log_message replaced.
  static PalImpl create(pal_emit_log_message_method emit_log_message, const char* source_filename);
  static PalImpl create(pal_init_method init, pal_abort_method abort,
                        pal_current_ticks_method current_ticks,
                        pal_ticks_to_ns_multiplier_method ticks_to_ns_multiplier,
                        pal_emit_log_message_method emit_log_message, pal_allocate_method allocate,
                        pal_free_method free, const char* source_filename);

  pal_init_method init = nullptr;
  pal_abort_method abort = nullptr;
  pal_current_ticks_method current_ticks = nullptr;
  pal_ticks_to_ns_multiplier_method ticks_to_ns_multiplier = nullptr;
  pal_emit_log_message_method emit_log_message = nullptr;
  pal_allocate_method allocate = nullptr;
  pal_free_method free = nullptr;
  // Who registered the table (for diagnostics); may be null.
  const char* source_filename = nullptr;
};
using pal_table = PalImpl;

// Replaces the active hooks with the non-null entries of `impl`; calls the
// new init, if one is given. Thread-safe. Returns true.
EXECUTORCH_API bool register_pal(PalImpl impl);
// The active hooks.
EXECUTORCH_API const PalImpl* get_pal_impl();

// Dispatch through the active table.
EXECUTORCH_API void pal_init();
ET_NORETURN EXECUTORCH_API void pal_abort();
EXECUTORCH_API et_timestamp_t pal_current_ticks();
EXECUTORCH_API et_tick_ratio_t pal_ticks_to_ns_multiplier();
EXECUTORCH_API void pal_emit_log_message(et_timestamp_t timestamp, et_pal_log_level_t level,
                                         const char* filename, const char* function, size_t line,
                                         const char* message, size_t length);
EXECUTORCH_API void* pal_allocate(size_t size);
EXECUTORCH_API void pal_free(void* ptr);

} // namespace runtime
} // namespace executorch
