// EXECUTORCH_EXTENSION_CUDA_API marks what libexecutorch_extension_cuda.so.1
// exports; the library is built with hidden visibility otherwise.
#pragma once

#if defined(_WIN32)
#if defined(EXECUTORCH_EXTENSION_CUDA_BUILDING)
#define EXECUTORCH_EXTENSION_CUDA_API __declspec(dllexport)
#else
#define EXECUTORCH_EXTENSION_CUDA_API __declspec(dllimport)
#endif
#else
#define EXECUTORCH_EXTENSION_CUDA_API __attribute__((visibility("default")))
#endif
