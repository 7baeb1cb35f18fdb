// Backend plugin discovery (see backend_plugins.h): dlopen each candidate,
// check its plugin ABI, and say in one log line why a file was skipped.
#include <executorch/runtime/backend/backend_plugins.h>

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <executorch/runtime/platform/log.h>

#ifndef EXECUTORCH_BACKEND_PLUGIN_DIR
#error "the build defines EXECUTORCH_BACKEND_PLUGIN_DIR (<libdir>/executorch/backends)"
#endif

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {
namespace {

constexpr char kAbiSymbol[] = "executorch_backend_plugin_abi";
constexpr char kPathVariable[] = "EXECUTORCH_BACKEND_PATH";

bool has_so_suffix(const std::string& name) {
  return name.size() > 3 && name.compare(name.size() - 3, 3, ".so") == 0;
}

// The "*.so" regular files (or links to them) of one directory, sorted so
// that the load order does not depend on the file system.
std::vector<std::string> candidates_in(const std::string& dir) {
  std::vector<std::string> found;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) {
    return found; // a missing directory is not an error: nothing installed
  }
  while (const dirent* entry = readdir(d)) {
    const std::string name = entry->d_name;
    struct stat st {};
    const std::string path = dir + "/" + name;
    if (has_so_suffix(name) && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      found.push_back(path);
    }
  }
  closedir(d);
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<std::string> search_dirs() {
  std::vector<std::string> dirs;
  if (const char* extra = std::getenv(kPathVariable)) {
    std::string rest = extra;
    size_t start = 0;
    while (start <= rest.size()) {
      const size_t colon = std::min(rest.find(':', start), rest.size());
      if (colon > start) {
        dirs.push_back(rest.substr(start, colon - start));
      }
      start = colon + 1;
    }
  }
  dirs.push_back(backend_plugin_dir());
  return dirs;
}

} // namespace

uint32_t backend_plugin_abi_version() { return kBackendPluginAbiVersion; }

const char* backend_plugin_dir() { return EXECUTORCH_BACKEND_PLUGIN_DIR; }

Error load_backend_plugin(const char* path) {
  if (path == nullptr) {
    return Error::InvalidArgument;
  }
  // RTLD_LOCAL: a plugin's own symbols stay out of the global scope. A
  // library already loaded (by SONAME or another path to the same file)
  // comes back as is: its initializers, which register, do not run again.
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    // A bare name is looked up on the loader path, where an optional
    // backend that is not installed is normal; a file that will not load is
    // an error.
    if (std::strchr(path, '/') == nullptr) {
      ET_LOG(Info, "backend plugin %s not loaded: %s", path, dlerror());
    } else {
      ET_LOG(Error, "backend plugin %s skipped: cannot load it: %s", path, dlerror());
    }
    return Error::NotFound;
  }
  const auto* abi = static_cast<const uint32_t*>(dlsym(handle, kAbiSymbol));
  if (abi == nullptr) {
    ET_LOG(Error, "backend plugin %s skipped: not an ExecuTorch backend plugin (no %s)", path,
           kAbiSymbol);
    dlclose(handle);
    return Error::InvalidArgument;
  }
  if (*abi != kBackendPluginAbiVersion) {
    ET_LOG(Error,
           "backend plugin %s skipped: built for plugin ABI %u, this runtime has %u "
           "(it registered nothing)",
           path, static_cast<unsigned>(*abi), static_cast<unsigned>(kBackendPluginAbiVersion));
    dlclose(handle);
    return Error::NotSupported;
  }
  // Kept open: the backends it registered point into it.
  ET_LOG(Debug, "backend plugin %s loaded", path);
  return Error::Ok;
}

size_t load_backend_plugins() {
  // One library reached through several paths (two directories, a link)
  // counts once.
  std::vector<void*> loaded;
  for (const std::string& dir : search_dirs()) {
    for (const std::string& path : candidates_in(dir)) {
      if (load_backend_plugin(path.c_str()) != Error::Ok) {
        continue;
      }
      void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
      if (handle == nullptr) {
        continue;
      }
      if (std::find(loaded.begin(), loaded.end(), handle) == loaded.end()) {
        loaded.push_back(handle);
      }
      dlclose(handle); // drops the reference RTLD_NOLOAD added
    }
  }
  return loaded.size();
}

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
