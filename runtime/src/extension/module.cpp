#include <executorch/extension/module/module.h>

#include <optional>

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/data_loader/mmap_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/extension/memory_allocator/planned_memory.h>
#include <executorch/extension/named_data_map/merged_data_map.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"

namespace executorch {
namespace extension {
namespace ET_MODULE_NAMESPACE {

using ::executorch::ET_RUNTIME_NAMESPACE::Kernel;
using ::executorch::ET_RUNTIME_NAMESPACE::LoadBackendOptionsMap;
using ::executorch::ET_RUNTIME_NAMESPACE::MemoryManager;
using ::executorch::runtime::BackendOption;
using ::executorch::runtime::DataLoader;
using ::executorch::runtime::EventTracer;
using ::executorch::runtime::FreeableBuffer;
using ::executorch::runtime::HierarchicalAllocator;
using ::executorch::runtime::MemoryAllocator;
using ::executorch::runtime::NamedDataMap;
using ::executorch::runtime::Span;
using ::executorch::runtime::TensorLayout;

namespace {

Result<std::unique_ptr<DataLoader>> make_loader(const std::string& path, Module::LoadMode mode) {
  using Mlock = MmapDataLoader::MlockConfig;
  Mlock config = Mlock::NoMlock;
  switch (mode) {
    case Module::LoadMode::File: {
      auto r = FileDataLoader::from(path.c_str());
      if (!r.ok()) {
        return r.error();
      }
      return std::unique_ptr<DataLoader>(new FileDataLoader(std::move(*r)));
    }
    case Module::LoadMode::Mmap:
      config = Mlock::NoMlock;
      break;
    case Module::LoadMode::MmapUseMlock:
      config = Mlock::UseMlock;
      break;
    case Module::LoadMode::MmapUseMlockIgnoreErrors:
      config = Mlock::UseMlockIgnoreErrors;
      break;
    case Module::LoadMode::MmapUseMadvise:
      config = Mlock::UseMadvise;
      break;
    default:
      ET_LOG(Error, "Unknown Module::LoadMode %d for %s", static_cast<int>(mode), path.c_str());
      return Error::InvalidArgument;
  }
  auto r = MmapDataLoader::from(path.c_str(), config);
  if (!r.ok()) {
    return r.error();
  }
  return std::unique_ptr<DataLoader>(new MmapDataLoader(std::move(*r)));
}

} // namespace

struct Module::Impl {
  struct MethodHolder {
    std::unique_ptr<PlannedMemory> planned; // only when the Module planned
    std::unique_ptr<MemoryAllocator> own_method_allocator;
    std::unique_ptr<MemoryManager> memory_manager;
    std::vector<Kernel> kernels;
    std::vector<EValue> inputs; // stored by set_input; None = not set
    std::unique_ptr<Method> method;
  };

  // Declaration order is teardown order in reverse: methods go first, then
  // the data maps and program, then the loaders they read from.
  std::string file_path;
  std::vector<std::string> data_files;
  LoadMode load_mode = LoadMode::File;
  bool share_memory_arenas = false;

  std::unique_ptr<DataLoader> data_loader;
  std::vector<std::unique_ptr<DataLoader>> data_map_loaders;
  std::unique_ptr<MemoryAllocator> memory_allocator; // user's, shared by methods
  std::unique_ptr<MemoryAllocator> temp_allocator;
  std::unique_ptr<EventTracer> event_tracer;

  std::shared_ptr<Program> program;
  std::vector<std::unique_ptr<FlatTensorDataMap>> data_maps;
  std::optional<merged_data_map::MergedDataMap> merged_map;
  const NamedDataMap* named_data_map = nullptr;
  bool data_maps_loaded = false;

  // Deep copy of the options given to load().
  std::vector<std::string> option_backend_ids;
  std::vector<std::vector<BackendOption>> option_values;
  LoadBackendOptionsMap backend_options;

  // Everything the Module allocates for planned memory is charged here.
  MemoryBudget budget;
  std::unique_ptr<PlannedMemory> shared_planned; // share_memory_arenas only
  std::unordered_map<std::string, std::unique_ptr<MethodHolder>> methods;

  ~Impl() {
    // Methods reference the program, data maps and allocators.
    methods.clear();
  }

  // What every constructor ends with: the caller's tracer and allocators (a
  // malloc temp allocator when none is given), an optional data-map loader.
  static std::unique_ptr<Impl> create(std::unique_ptr<EventTracer> event_tracer,
                                      std::unique_ptr<MemoryAllocator> memory_allocator,
                                      std::unique_ptr<MemoryAllocator> temp_allocator,
                                      std::unique_ptr<DataLoader> data_map_loader,
                                      bool share_memory_arenas) {
    auto impl = std::make_unique<Impl>();
    impl->event_tracer = std::move(event_tracer);
    impl->memory_allocator = std::move(memory_allocator);
    impl->temp_allocator =
        temp_allocator ? std::move(temp_allocator) : std::make_unique<MallocMemoryAllocator>();
    if (data_map_loader) {
      impl->data_map_loaders.push_back(std::move(data_map_loader));
    }
    impl->share_memory_arenas = share_memory_arenas;
    return impl;
  }

  MethodHolder* find(const std::string& name) {
    auto it = methods.find(name);
    return it == methods.end() ? nullptr : it->second.get();
  }

  // Opens the .ptd files (or reads the caller's data-map loader). Nothing
  // is kept unless every map loads, so a failed load can be retried.
  Error load_data_maps() {
    std::vector<std::unique_ptr<DataLoader>> opened;
    for (const std::string& path : data_files) {
      auto loader = make_loader(path, load_mode);
      if (!loader.ok()) {
        ET_LOG(Error, "Cannot open data file %s", path.c_str());
        return loader.error();
      }
      opened.push_back(std::move(*loader));
    }
    std::vector<std::unique_ptr<FlatTensorDataMap>> maps;
    auto add = [&](DataLoader* loader) {
      auto map = FlatTensorDataMap::load(loader);
      if (!map.ok()) {
        ET_LOG(Error, "Cannot read a .ptd data map (error 0x%x)",
               static_cast<unsigned>(map.error()));
        return map.error();
      }
      maps.push_back(std::make_unique<FlatTensorDataMap>(std::move(*map)));
      return Error::Ok;
    };
    for (auto& loader : data_map_loaders) {
      ET_CHECK_OK_OR_RETURN_ERROR(add(loader.get()));
    }
    for (auto& loader : opened) {
      ET_CHECK_OK_OR_RETURN_ERROR(add(loader.get()));
    }
    std::optional<merged_data_map::MergedDataMap> merged;
    if (maps.size() > 1) {
      std::vector<const NamedDataMap*> ptrs;
      for (auto& m : maps) {
        ptrs.push_back(m.get());
      }
      auto m = merged_data_map::MergedDataMap::load({ptrs.data(), ptrs.size()});
      ET_CHECK_OK_OR_RETURN_ERROR(m.error(), "Cannot use the .ptd files together");
      merged.emplace(std::move(*m));
    }
    // unique_ptr moves keep the addresses the maps and the merge point at.
    for (auto& loader : opened) {
      data_map_loaders.push_back(std::move(loader));
    }
    data_maps = std::move(maps);
    if (merged.has_value()) {
      merged_map.emplace(std::move(*merged));
      named_data_map = &*merged_map;
    } else if (data_maps.size() == 1) {
      named_data_map = data_maps[0].get();
    }
    data_maps_loaded = true;
    return Error::Ok;
  }

  // Sizes every planned buffer to the largest any method needs, once, so
  // methods can share them.
  Error ensure_shared_planned() {
    if (shared_planned != nullptr) {
      return Error::Ok;
    }
    std::vector<size_t> sizes;
    std::vector<::executorch::aten::Device> devices;
    std::vector<bool> device_set;
    for (size_t m = 0; m < program->num_methods(); ++m) {
      auto name = program->get_method_name(m);
      ET_CHECK_OK_OR_RETURN_ERROR(name.error());
      auto meta = program->method_meta(*name);
      ET_CHECK_OK_OR_RETURN_ERROR(meta.error());
      const size_t n = meta->num_memory_planned_buffers();
      if (sizes.size() < n) {
        sizes.resize(n, 0);
        devices.resize(n, ::executorch::aten::Device(::executorch::aten::DeviceType::CPU));
        device_set.resize(n, false);
      }
      for (size_t i = 0; i < n; ++i) {
        auto dev = meta->memory_planned_buffer_device(i);
        ET_CHECK_OK_OR_RETURN_ERROR(dev.error());
        ET_CHECK_OR_RETURN_ERROR(!device_set[i] || devices[i] == *dev, NotSupported,
                                 "Shared planned buffer %zu is on different devices in "
                                 "different methods",
                                 i);
        devices[i] = *dev;
        device_set[i] = true;
        auto s = meta->memory_planned_buffer_size(i);
        ET_CHECK_OK_OR_RETURN_ERROR(s.error());
        ET_CHECK_OR_RETURN_ERROR(*s >= 0, InvalidProgram, "Negative planned buffer size %lld",
                                 static_cast<long long>(*s));
        // 64-bit in the program: on a 32-bit host it may not fit size_t.
        size_t bytes = 0;
        ET_CHECK_OR_RETURN_ERROR(::executorch::runtime::internal::to_size_signed(*s, &bytes),
                                 MemoryAllocationFailed,
                                 "Planned buffer %zu of %lld bytes does not fit this host's size_t",
                                 i, static_cast<long long>(*s));
        sizes[i] = std::max(sizes[i], bytes);
      }
    }
    auto planned = PlannedMemory::allocate(
        Span<const size_t>(sizes.data(), sizes.size()),
        Span<const ::executorch::aten::Device>(devices.data(), devices.size()), &budget);
    ET_CHECK_OK_OR_RETURN_ERROR(planned.error());
    shared_planned = std::move(*planned);
    return Error::Ok;
  }
};

Module::Module(const std::string& file_path, const LoadMode load_mode,
               std::unique_ptr<EventTracer> event_tracer,
               std::unique_ptr<MemoryAllocator> memory_allocator,
               std::unique_ptr<MemoryAllocator> temp_allocator, bool share_memory_arenas)
    : Module(file_path, std::vector<std::string>{}, load_mode, std::move(event_tracer),
             std::move(memory_allocator), std::move(temp_allocator), share_memory_arenas) {}

Module::Module(const std::string& file_path, const std::string& data_map_path,
               const LoadMode load_mode, std::unique_ptr<EventTracer> event_tracer,
               std::unique_ptr<MemoryAllocator> memory_allocator,
               std::unique_ptr<MemoryAllocator> temp_allocator, bool share_memory_arenas)
    : Module(file_path,
             data_map_path.empty() ? std::vector<std::string>{}
                                   : std::vector<std::string>{data_map_path},
             load_mode, std::move(event_tracer), std::move(memory_allocator),
             std::move(temp_allocator), share_memory_arenas) {}

Module::Module(const std::string& file_path, std::vector<std::string> data_files,
               const LoadMode load_mode, std::unique_ptr<EventTracer> event_tracer,
               std::unique_ptr<MemoryAllocator> memory_allocator,
               std::unique_ptr<MemoryAllocator> temp_allocator, bool share_memory_arenas)
    : impl_(Impl::create(std::move(event_tracer), std::move(memory_allocator),
                         std::move(temp_allocator), nullptr, share_memory_arenas)) {
  impl_->file_path = file_path;
  impl_->data_files = std::move(data_files);
  impl_->load_mode = load_mode;
}

Module::Module(std::unique_ptr<DataLoader> data_loader,
               std::unique_ptr<MemoryAllocator> memory_allocator,
               std::unique_ptr<MemoryAllocator> temp_allocator,
               std::unique_ptr<EventTracer> event_tracer,
               std::unique_ptr<DataLoader> data_map_loader, bool share_memory_arenas)
    : impl_(Impl::create(std::move(event_tracer), std::move(memory_allocator),
                         std::move(temp_allocator), std::move(data_map_loader),
                         share_memory_arenas)) {
  impl_->data_loader = std::move(data_loader);
}

Module::Module(std::shared_ptr<Program> program, std::unique_ptr<MemoryAllocator> memory_allocator,
               std::unique_ptr<MemoryAllocator> temp_allocator,
               std::unique_ptr<EventTracer> event_tracer,
               std::unique_ptr<DataLoader> data_map_loader, bool share_memory_arenas)
    : impl_(Impl::create(std::move(event_tracer), std::move(memory_allocator),
                         std::move(temp_allocator), std::move(data_map_loader),
                         share_memory_arenas)) {
  impl_->program = std::move(program);
}

Module::~Module() = default;

Error Module::load(const Program::Verification verification) {
  Impl& d = *impl_;
  if (!d.data_maps_loaded) {
    ET_CHECK_OK_OR_RETURN_ERROR(d.load_data_maps());
  }
  if (d.program != nullptr) {
    return Error::Ok;
  }
  if (d.data_loader == nullptr) {
    auto loader = make_loader(d.file_path, d.load_mode);
    if (!loader.ok()) {
      ET_LOG(Error, "Cannot open program file %s", d.file_path.c_str());
      return loader.error();
    }
    d.data_loader = std::move(*loader);
  }
  auto program = Program::load(d.data_loader.get(), verification);
  if (!program.ok()) {
    return program.error();
  }
  d.program = std::make_shared<Program>(std::move(*program));
  return Error::Ok;
}

Error Module::load(const LoadBackendOptionsMap& backend_options,
                   const Program::Verification verification) {
  Impl& d = *impl_;
  // A deep copy of every entry, registered backend or not (as upstream's:
  // backend_options() reads back what was given, and the caller's map may go).
  d.option_backend_ids.clear();
  d.option_values.clear();
  d.backend_options = LoadBackendOptionsMap();
  for (size_t i = 0; i < backend_options.size(); ++i) {
    const LoadBackendOptionsMap::EntryView entry = backend_options.entry_at(i);
    if (entry.backend_id == nullptr) {
      continue;
    }
    d.option_backend_ids.emplace_back(entry.backend_id);
    d.option_values.emplace_back(entry.options.begin(), entry.options.end());
  }
  for (size_t i = 0; i < d.option_backend_ids.size(); ++i) {
    const Error err = d.backend_options.set_options(
        d.option_backend_ids[i].c_str(),
        Span<BackendOption>(d.option_values[i].data(), d.option_values[i].size()));
    ET_CHECK_OK_OR_RETURN_ERROR(err, "Too many backends with load options");
  }
  return load(verification);
}

bool Module::is_loaded() const { return impl_->program != nullptr; }

void Module::set_memory_limit(size_t bytes) { impl_->budget.set_limit(bytes); }

size_t Module::memory_limit() const { return impl_->budget.limit(); }

std::shared_ptr<Program> Module::program() const { return impl_->program; }

Result<size_t> Module::num_methods() {
  ET_CHECK_OK_OR_RETURN_ERROR(load());
  return impl_->program->num_methods();
}

Result<std::unordered_set<std::string>> Module::method_names() {
  ET_CHECK_OK_OR_RETURN_ERROR(load());
  std::unordered_set<std::string> names;
  const size_t n = impl_->program->num_methods();
  for (size_t i = 0; i < n; ++i) {
    auto name = impl_->program->get_method_name(i);
    if (!name.ok()) {
      return name.error();
    }
    names.emplace(*name);
  }
  return names;
}

Error Module::load_method(const std::string& method_name, HierarchicalAllocator* planned_memory,
                          EventTracer* event_tracer, const LoadBackendOptionsMap* backend_options,
                          std::vector<Kernel> kernel_registry) {
  if (is_method_loaded(method_name)) {
    return Error::Ok;
  }
  ET_CHECK_OK_OR_RETURN_ERROR(load());
  Impl& d = *impl_;
  auto meta = d.program->method_meta(method_name.c_str());
  if (!meta.ok()) {
    ET_LOG(Error, "No method named '%s' in the program", method_name.c_str());
    return meta.error();
  }

  auto holder = std::make_unique<Impl::MethodHolder>();
  if (planned_memory == nullptr) {
    if (d.share_memory_arenas) {
      ET_CHECK_OK_OR_RETURN_ERROR(d.ensure_shared_planned());
      planned_memory = d.shared_planned->allocator();
    } else {
      auto planned = PlannedMemory::for_method(*meta, &d.budget);
      if (!planned.ok()) {
        ET_LOG(Error, "Cannot allocate the planned memory of '%s'", method_name.c_str());
        return planned.error();
      }
      holder->planned = std::move(*planned);
      planned_memory = holder->planned->allocator();
    }
  }

  // Without a caller allocator each method gets its own, so unloading a
  // method gives its memory back.
  MemoryAllocator* method_allocator = d.memory_allocator.get();
  if (method_allocator == nullptr) {
    holder->own_method_allocator = std::make_unique<MallocMemoryAllocator>();
    method_allocator = holder->own_method_allocator.get();
  }
  holder->memory_manager =
      std::make_unique<MemoryManager>(method_allocator, planned_memory, d.temp_allocator.get());
  holder->kernels = std::move(kernel_registry);

  const LoadBackendOptionsMap* options =
      backend_options != nullptr ? backend_options
                                 : (d.backend_options.size() > 0 ? &d.backend_options : nullptr);
  auto method = d.program->load_method(
      method_name.c_str(), holder->memory_manager.get(),
      event_tracer != nullptr ? event_tracer : d.event_tracer.get(), d.named_data_map, options,
      Span<const Kernel>(holder->kernels.data(), holder->kernels.size()));
  if (!method.ok()) {
    return method.error();
  }
  holder->method = std::make_unique<Method>(std::move(*method));
  holder->inputs.resize(holder->method->inputs_size());
  d.methods.emplace(method_name, std::move(holder));
  return Error::Ok;
}

bool Module::unload_method(const std::string& method_name) {
  return impl_->methods.erase(method_name) > 0;
}

bool Module::is_method_loaded(const std::string& method_name) const {
  return impl_->methods.count(method_name) > 0;
}

Result<MethodMeta> Module::method_meta(const std::string& method_name) {
  ET_CHECK_OK_OR_RETURN_ERROR(load());
  return impl_->program->method_meta(method_name.c_str());
}

Result<std::vector<EValue>> Module::execute(const std::string& method_name,
                                            const std::vector<EValue>& input_values) {
  ET_CHECK_OK_OR_RETURN_ERROR(load_method(method_name));
  Impl::MethodHolder* h = impl_->find(method_name);
  Method& method = *h->method;
  ET_CHECK_OR_RETURN_ERROR(input_values.size() <= method.inputs_size(), InvalidArgument,
                           "'%s' takes %zu inputs, %zu given", method_name.c_str(),
                           method.inputs_size(), input_values.size());
  for (size_t i = 0; i < h->inputs.size(); ++i) {
    const EValue& v =
        i < input_values.size() && !input_values[i].isNone() ? input_values[i] : h->inputs[i];
    if (!v.isNone()) {
      const Error err = method.set_input(v, i);
      ET_CHECK_OK_OR_RETURN_ERROR(err, "Input %zu of '%s' rejected", i, method_name.c_str());
    }
  }
  ET_CHECK_OK_OR_RETURN_ERROR(method.execute());
  std::vector<EValue> outputs(method.outputs_size());
  if (!outputs.empty()) {
    ET_CHECK_OK_OR_RETURN_ERROR(method.get_outputs(outputs.data(), outputs.size()));
  }
  return outputs;
}

Result<EValue> Module::get(const std::string& method_name,
                           const std::vector<EValue>& input_values) {
  auto outputs = execute(method_name, input_values);
  if (!outputs.ok()) {
    return outputs.error();
  }
  ET_CHECK_OR_RETURN_ERROR(!outputs->empty(), InvalidArgument, "'%s' returned no outputs",
                           method_name.c_str());
  return std::move((*outputs)[0]);
}

Error Module::set_input(const std::string& method_name, const EValue& input_value,
                        size_t input_index) {
  ET_CHECK_OK_OR_RETURN_ERROR(load_method(method_name));
  Impl::MethodHolder* h = impl_->find(method_name);
  ET_CHECK_OR_RETURN_ERROR(input_index < h->inputs.size(), InvalidArgument,
                           "Input index %zu out of range ('%s' takes %zu)", input_index,
                           method_name.c_str(), h->inputs.size());
  // Validate now so the error surfaces at the call that caused it.
  ET_CHECK_OK_OR_RETURN_ERROR(h->method->set_input(input_value, input_index));
  h->inputs[input_index] = input_value;
  return Error::Ok;
}

Error Module::set_inputs(const std::string& method_name, const std::vector<EValue>& input_values) {
  ET_CHECK_OK_OR_RETURN_ERROR(load_method(method_name));
  Impl::MethodHolder* h = impl_->find(method_name);
  ET_CHECK_OR_RETURN_ERROR(input_values.size() == h->inputs.size(), InvalidArgument,
                           "'%s' takes %zu inputs, %zu given", method_name.c_str(),
                           h->inputs.size(), input_values.size());
  for (size_t i = 0; i < input_values.size(); ++i) {
    ET_CHECK_OK_OR_RETURN_ERROR(set_input(method_name, input_values[i], i));
  }
  return Error::Ok;
}

Error Module::set_output(const std::string& method_name, EValue output_value, size_t output_index) {
  ET_CHECK_OK_OR_RETURN_ERROR(load_method(method_name));
  Impl::MethodHolder* h = impl_->find(method_name);
  ET_CHECK_OR_RETURN_ERROR(output_index < h->method->outputs_size(), InvalidArgument,
                           "Output index %zu out of range ('%s' has %zu)", output_index,
                           method_name.c_str(), h->method->outputs_size());
  ET_CHECK_OR_RETURN_ERROR(output_value.isTensor(), InvalidArgument, "set_output takes a tensor");
  const auto& t = output_value.toTensor();
  return h->method->set_output_data_ptr(t.mutable_data_ptr(), t.nbytes(), output_index);
}

Error Module::set_outputs(const std::string& method_name,
                          const std::vector<EValue>& output_values) {
  ET_CHECK_OK_OR_RETURN_ERROR(load_method(method_name));
  Impl::MethodHolder* h = impl_->find(method_name);
  ET_CHECK_OR_RETURN_ERROR(output_values.size() == h->method->outputs_size(), InvalidArgument,
                           "'%s' has %zu outputs, %zu given", method_name.c_str(),
                           h->method->outputs_size(), output_values.size());
  for (size_t i = 0; i < output_values.size(); ++i) {
    ET_CHECK_OK_OR_RETURN_ERROR(set_output(method_name, output_values[i], i));
  }
  return Error::Ok;
}

Result<std::vector<EValue>> Module::get_outputs(const std::string& method_name) {
  ET_CHECK_OK_OR_RETURN_ERROR(load_method(method_name));
  Method& method = *impl_->find(method_name)->method;
  std::vector<EValue> outputs(method.outputs_size());
  if (!outputs.empty()) {
    ET_CHECK_OK_OR_RETURN_ERROR(method.get_outputs(outputs.data(), outputs.size()));
  }
  return outputs;
}

Result<EValue> Module::get_output(const std::string& method_name, size_t output_index) {
  ET_CHECK_OK_OR_RETURN_ERROR(load_method(method_name));
  Method& method = *impl_->find(method_name)->method;
  ET_CHECK_OR_RETURN_ERROR(output_index < method.outputs_size(), InvalidArgument,
                           "Output index %zu out of range ('%s' has %zu)", output_index,
                           method_name.c_str(), method.outputs_size());
  return method.get_output(output_index);
}

EventTracer* Module::event_tracer() const { return impl_->event_tracer.get(); }

const LoadBackendOptionsMap& Module::backend_options() const { return impl_->backend_options; }

Result<Method*> Module::method(const std::string& method_name) {
  ET_CHECK_OK_OR_RETURN_ERROR(load_method(method_name));
  return impl_->find(method_name)->method.get();
}

} // namespace ET_MODULE_NAMESPACE
} // namespace extension
} // namespace executorch
