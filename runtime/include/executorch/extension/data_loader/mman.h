// Memory-mapping helpers in the global namespace, as upstream's mman.h
// declares them for its loaders: the page size, a file's size, the mmap
// offset type and read-ahead hints. POSIX hosts only (this runtime builds
// for Linux); the declarations match upstream's non-Windows branch.
#pragma once

#include <cstddef>
#include <cstdint>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <executorch/runtime/platform/compiler.h>

// The host's page size, the granularity of mmap offsets.
ET_INLINE size_t get_os_page_size() { return static_cast<size_t>(::sysconf(_SC_PAGESIZE)); }

// Stores the size of the open file fd in *out_size; returns fstat's result
// (negative, with errno set, on failure, leaving *out_size alone).
ET_INLINE int get_file_stat(int fd, size_t* out_size) {
  struct stat info;
  const int rc = ::fstat(fd, &info);
  if (rc >= 0) {
    *out_size = static_cast<size_t>(info.st_size);
  }
  return rc;
}

// A byte offset as mmap's offset argument.
ET_INLINE off_t get_mmap_offset(size_t offset) { return static_cast<off_t>(offset); }

// Tells the kernel that [addr, addr + len) will be read soon, in order.
ET_INLINE void madvise_pages_willneed_sequential(void* addr, size_t len) {
#ifdef MADV_WILLNEED
  (void)::madvise(addr, len, MADV_WILLNEED);
#endif
#ifdef MADV_SEQUENTIAL
  (void)::madvise(addr, len, MADV_SEQUENTIAL);
#endif
}

// Read-ahead advice for macOS (F_RDADVISE); nothing elsewhere.
ET_INLINE void fcntl_rdadvise_apple(int fd, size_t file_size) {
#if defined(__APPLE__)
  struct radvisory advice;
  advice.ra_offset = 0;
  advice.ra_count = static_cast<int>(file_size);
  (void)::fcntl(fd, F_RDADVISE, &advice);
#else
  (void)fd;
  (void)file_size;
#endif
}
