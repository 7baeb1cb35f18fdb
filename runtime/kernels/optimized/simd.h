// Runtime ISA dispatch for hot loops. Debian's amd64 baseline is x86-64
// without AVX, so with GCC a loop marked ET_SIMD_CLONES is compiled for AVX2+FMA,
// AVX-512 and the baseline, and the loader picks one per CPU (GCC/Clang
// function multiversioning through an ifunc). Elsewhere (arm64 has NEON in
// its baseline) it is plain code.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__) && \
    !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
#define ET_SIMD_CLONES __attribute__((target_clones("avx512f", "arch=haswell", "default")))
#else
#define ET_SIMD_CLONES
#endif

// For small loop helpers called from ET_SIMD_CLONES functions: a helper
// left out of line is compiled for the baseline only, losing the clone's
// vector width.
#if defined(__GNUC__)
#define ET_SIMD_INLINE inline __attribute__((always_inline))
#else
#define ET_SIMD_INLINE inline
#endif
