#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/defines.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

#define EXECUTORCH_FORALL_TAGS(_) \
  _(None)                         \
  _(Tensor)                       \
  _(String)                       \
  _(Double)                       \
  _(Int)                          \
  _(Bool)                         \
  _(ListBool)                     \
  _(ListDouble)                   \
  _(ListInt)                      \
  _(ListTensor)                   \
  _(ListScalar)                   \
  _(ListOptionalTensor)

enum class Tag : uint32_t {
#define ET_DEFINE_TAG_(name) name,
  EXECUTORCH_FORALL_TAGS(ET_DEFINE_TAG_)
#undef ET_DEFINE_TAG_
};

constexpr size_t kTagNameBufferSize = 19;

inline const char* tag_to_string(Tag tag) {
  switch (tag) {
#define ET_TAG_CASE_(name) \
  case Tag::name:          \
    return #name;
    EXECUTORCH_FORALL_TAGS(ET_TAG_CASE_)
#undef ET_TAG_CASE_
  }
  return "Unknown";
}

// Writes the tag's name into buf; returns the length it needed.
EXECUTORCH_API size_t tag_to_string(Tag tag, char* buf, size_t n);

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::Tag;
} // namespace executor
} // namespace torch
