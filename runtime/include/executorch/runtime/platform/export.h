// EXECUTORCH_API marks the symbols libexecutorch.so.1 exports; everything
// else is built with hidden visibility.
#pragma once

#if defined(_WIN32)
#if defined(EXECUTORCH_BUILDING)
#define EXECUTORCH_API __declspec(dllexport)
#else
#define EXECUTORCH_API __declspec(dllimport)
#endif
#else
#define EXECUTORCH_API __attribute__((visibility("default")))
#endif
