// The ExecuTorch release whose C++ API these headers provide (upstream's
// version.h is generated from its version.txt; this runtime mirrors the
// 1.5.0 development line). The libraries' own version is in executorch.pc.
#pragma once

#define ET_VERSION_MAJOR 1
#define ET_VERSION_MINOR 5
#define ET_VERSION_PATCH 0

#define ET_VERSION "1.5.0"

// (MAJOR << 16) | (MINOR << 8) | PATCH, for #if comparisons:
//   #if ET_VERSION_CODE >= ET_VERSION_CHECK(1, 2, 0)
#define ET_VERSION_CODE ((ET_VERSION_MAJOR << 16) | (ET_VERSION_MINOR << 8) | ET_VERSION_PATCH)
#define ET_VERSION_CHECK(major, minor, patch) (((major) << 16) | ((minor) << 8) | (patch))
