// unistd.h for the loaders (open, read, pread, close). This distribution
// targets POSIX systems only.
#pragma once

#if defined(_WIN32)
#error "executorch: compat_unistd.h supports POSIX systems only"
#endif

#include <unistd.h>
