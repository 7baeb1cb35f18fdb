// Per-backend load-time options handed to Program::load_method (and
// Module::load): the runtime gives each delegate the options stored under
// its backend id as BackendInitContext::runtime_specs().
#pragma once

#include <cstring>

#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/platform/compiler.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

class LoadBackendOptionsMap final {
 public:
  // Room for this many backends, as upstream's: a 9th is InvalidArgument.
  static constexpr size_t kMaxBackends = 8;
  static constexpr size_t kMaxBackendIdLength = 64;

  // One entry, as entry_at() returns it: valid until the map changes.
  struct EntryView {
    const char* backend_id = nullptr;
    Span<const BackendOption> options;
  };

  LoadBackendOptionsMap() = default;

  // Stores (or replaces) the options of backend_id. The id is copied; the
  // options are borrowed and must outlive every use of this map.
  // InvalidArgument for a null, empty or too long id, or a full map.
  Error set_options(const char* backend_id, Span<BackendOption> options) {
    if (backend_id == nullptr || backend_id[0] == '\0') {
      return Error::InvalidArgument;
    }
    return set_options_impl(backend_id, options);
  }

  // Any builder with backend_id() and view(), e.g. a backend's own options
  // class: map.set_options(my_backend_options).
  template <typename Builder>
  Error set_options(Builder& builder) {
    return set_options(builder.backend_id(), builder.view());
  }

  // The options of backend_id; empty when it has none (or is null).
  Span<const BackendOption> get_options(const char* backend_id) const {
    const Entry* e = find(backend_id);
    if (e == nullptr) {
      return Span<const BackendOption>();
    }
    return Span<const BackendOption>(e->options.data(), e->options.size());
  }

  bool has_options(const char* backend_id) const { return find(backend_id) != nullptr; }

  size_t size() const { return size_; }

  // The index-th entry (in insertion order); an empty view (null id) when
  // index >= size().
  EntryView entry_at(size_t index) const {
    if (index >= size_) {
      return EntryView();
    }
    const Entry& e = entries_[index];
    return EntryView{e.backend_id, Span<const BackendOption>(e.options.data(), e.options.size())};
  }

 private:
  struct Entry {
    char backend_id[kMaxBackendIdLength] = {};
    Span<BackendOption> options;
  };

  const Entry* find(const char* backend_id) const {
    if (backend_id == nullptr) {
      return nullptr;
    }
    for (size_t i = 0; i < size_; ++i) {
      if (std::strcmp(entries_[i].backend_id, backend_id) == 0) {
        return &entries_[i];
      }
    }
    return nullptr;
  }

  Error set_options_impl(const char* backend_id, Span<BackendOption> options) {
    for (size_t i = 0; i < size_; ++i) {
      if (std::strcmp(entries_[i].backend_id, backend_id) == 0) {
        entries_[i].options = options;
        return Error::Ok;
      }
    }
    const size_t id_len = std::strlen(backend_id);
    if (size_ >= kMaxBackends || id_len >= kMaxBackendIdLength) {
      return Error::InvalidArgument;
    }
    std::memcpy(entries_[size_].backend_id, backend_id, id_len + 1);
    entries_[size_].options = options;
    ++size_;
    return Error::Ok;
  }

  Entry entries_[kMaxBackends];
  size_t size_ = 0;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
