#pragma once
// One qualifier for code that runs on the host and on the device: kernels are written once and
// compiled by g++ for the OpenMP backend and by nvcc for the CUDA backend.
#if defined(__CUDACC__)
#define BOLT_HOST_DEVICE __host__ __device__
#define BOLT_FORCE_INLINE __forceinline__
#define BOLT_NOINLINE __noinline__
#define BOLT_HOST_INLINE
#else
#define BOLT_HOST_DEVICE
#define BOLT_FORCE_INLINE inline __attribute__((always_inline))
#define BOLT_NOINLINE __attribute__((noinline))
// Inlined where the CPU backend compiles it (nvcc's device code decides for itself): what the
// caller knows at compile time (a null pointer, a constant) then reaches the loops inside.
#define BOLT_HOST_INLINE inline __attribute__((always_inline))
#endif
// Full unrolling of short fixed loops (over the three axes) where the compiler supports it.
// And loops kept rolled, where unrolled copies of a short loop of varying length are mostly
// branches.
#if defined(__CUDACC__)
#define BOLT_UNROLL _Pragma("unroll")
#define BOLT_ROLLED _Pragma("unroll 1")
#else
#define BOLT_UNROLL
#define BOLT_ROLLED
#endif
// No-alias promise for the rows a kernel writes: without it every store may alias the next
// iteration's loads, and the compiler cannot overlap iterations.
#define BOLT_RESTRICT __restrict__
// exp and fabs of a float in single precision on the host as on the device (CUDA declares the
// float overloads for both): the C library's double functions alone would take a float loop's
// exp (the relaxation) and the terms around a fabs (the streaming) in double, converting each
// value and filling half the lanes of a vector register.
#if !defined(__CUDACC__)
#include <cmath>
namespace bolt {
using std::exp;
using std::fabs;
}  // namespace bolt
#endif
