// Runtime ISA dispatch for hot loops. Debian's amd64 baseline is x86-64
// without AVX, so with GCC a loop marked ET_SIMD_CLONES is compiled for
// AVX-512, x86-64-v3 (AVX2+FMA) and the baseline, and the loader picks one
// per CPU (function multiversioning through an ifunc). The AVX2 clone is
// named by ISA level, not "arch=haswell": GCC dispatches an arch= clone on
// the CPU model, so it would run on Haswell only, and every AMD CPU and
// newer Intel one without AVX-512 would get the baseline. Elsewhere (arm64
// has NEON in its baseline) it is plain code.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__) && \
    !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
#define ET_SIMD_CLONES __attribute__((target_clones("avx512f", "arch=x86-64-v3", "default")))
// For loops over rows of a few dozen floats: no AVX-512 clone, whose 16-wide
// body leaves most of such a row to the scalar remainder.
#define ET_SIMD_CLONES_SHORT __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ET_SIMD_CLONES
#define ET_SIMD_CLONES_SHORT
#endif

// For small loop helpers called from ET_SIMD_CLONES functions: a helper
// left out of line is compiled for the baseline only, losing the clone's
// vector width.
#if defined(__GNUC__)
#define ET_SIMD_INLINE inline __attribute__((always_inline))
#else
#define ET_SIMD_INLINE inline
#endif
