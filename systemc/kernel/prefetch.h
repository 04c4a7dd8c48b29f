// Cache hints for the steps of large networks (docs/performance.md, "The 256x256 broadcast"):
// the network's cycle loop asks a component a few positions ahead to fetch what its step will
// read, so the cache misses of several steps overlap instead of following one another. A hint
// changes no state and no result.
//
// The hints are emitted as volatile assembly where the target is known: g++ 12 at -O2 deleted
// `__builtin_prefetch` calls in the range helpers below as dead code (every hint of the
// DelayLine, the router's members and the NI's channels, seen in the disassembly;
// docs/performance.md "Hints the compiler deleted"); testbenches/kernel/prefetch_test.cpp
// checks the compiled code for them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wormsim {

// Hints the cache line holding `p` (a read soon, kept in all cache levels). Any address,
// null or unmapped included: a hint never faults and `p` is not dereferenced.
inline void prefetch_line(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 (%0)" : : "r"(p));
#elif defined(__aarch64__)
  asm volatile("prfm pldl1keep, [%0]" : : "r"(p));
#else
  __builtin_prefetch(p);
#endif
}

// Hints every cache line of [from, from + bytes), each once (no pointer leaves the range).
inline void prefetch_bytes(const void* from, std::size_t bytes) {
  if (bytes == 0) return;
  const char* p = static_cast<const char*>(from);
  const std::size_t lines = ((reinterpret_cast<std::uintptr_t>(p) & 63u) + bytes - 1) / 64 + 1;
  for (std::size_t k = 0; k + 1 < lines; ++k) prefetch_line(p + 64 * k);
  prefetch_line(p + bytes - 1);  // the last line
}

// Hints every cache line of [from, to).
inline void prefetch_between(const void* from, const void* to) {
  const char* a = static_cast<const char*>(from);
  const char* b = static_cast<const char*>(to);
  if (b > a) prefetch_bytes(a, static_cast<std::size_t>(b - a));
}

}  // namespace wormsim
