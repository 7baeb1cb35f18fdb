#pragma once

#include <executorch/runtime/platform/abort.h>
#include <executorch/runtime/platform/log.h>

#define ET_CHECK_MSG(_cond, _format, ...)                                                  \
  do {                                                                                     \
    if (ET_UNLIKELY(!(_cond))) {                                                           \
      ET_LOG(Fatal, "In function %s(), assert failed (%s): " _format, ET_FUNCTION, #_cond, \
             ##__VA_ARGS__);                                                               \
      ::executorch::runtime::runtime_abort();                                              \
    }                                                                                      \
  } while (0)

#define ET_CHECK(_cond)                                                          \
  do {                                                                           \
    if (ET_UNLIKELY(!(_cond))) {                                                 \
      ET_LOG(Fatal, "In function %s(), assert failed: %s", ET_FUNCTION, #_cond); \
      ::executorch::runtime::runtime_abort();                                    \
    }                                                                            \
  } while (0)

#ifdef NDEBUG
#define ET_DCHECK_MSG(_cond, _format, ...) \
  do {                                     \
  } while (0)
#define ET_DCHECK(_cond) \
  do {                   \
  } while (0)
#else
#define ET_DCHECK_MSG(_cond, _format, ...) ET_CHECK_MSG(_cond, _format, ##__VA_ARGS__)
#define ET_DCHECK(_cond) ET_CHECK(_cond)
#endif

#define ET_ASSERT_UNREACHABLE()                                  \
  do {                                                           \
    ET_LOG(Fatal, "In function %s(), unreachable", ET_FUNCTION); \
    ::executorch::runtime::runtime_abort();                      \
  } while (0)
#define ET_ASSERT_UNREACHABLE_MSG(_format, ...)                                           \
  do {                                                                                    \
    ET_LOG(Fatal, "In function %s(), unreachable: " _format, ET_FUNCTION, ##__VA_ARGS__); \
    ::executorch::runtime::runtime_abort();                                               \
  } while (0)
