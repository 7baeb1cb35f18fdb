// Symbol visibility macros of c10 (C10_API and friends). Code built against
// ExecuTorch's c10 headers is not part of libc10, so C10_API only marks
// default visibility.
#pragma once

#define C10_EXPORT __attribute__((__visibility__("default")))
#define C10_HIDDEN __attribute__((__visibility__("hidden")))
#define C10_IMPORT C10_EXPORT
#define C10_API C10_EXPORT
#define TORCH_API C10_EXPORT
#define TORCH_HEADERONLY_API C10_EXPORT
