// What FileDataLoader and MmapDataLoader check alike: opening a regular
// file, and that a loader still owns its file and a requested range lies
// inside it. Each failure is an Error with one log line.
#pragma once

#include <sys/stat.h>

#include <cstddef>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>

namespace executorch {
namespace extension {
namespace internal {

struct OpenedFile {
  int fd;
  size_t size;
};

// file_name opened read-only (close-on-exec) if it is a regular file.
// `loader` names the caller in the log line ("MmapDataLoader").
::executorch::runtime::Result<OpenedFile> open_regular_file(const char* file_name,
                                                            const char* loader);

// st.st_size as size_t; InvalidArgument, naming file_name, when it is
// negative or over SIZE_MAX (a file over 4 GiB on a 32-bit host).
::executorch::runtime::Result<size_t> file_size_of(const struct stat& st, const char* file_name);

// InvalidState when fd < 0 (a moved-from loader), InvalidArgument when
// [offset, offset + size) is not inside the file_size bytes of file_name.
::executorch::runtime::Error check_load(int fd, const char* file_name, size_t file_size,
                                        size_t offset, size_t size, const char* loader);

} // namespace internal
} // namespace extension
} // namespace executorch
