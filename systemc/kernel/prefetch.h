// Cache hints for the steps of large networks (docs/performance.md, "The 256x256 broadcast"):
// the network's cycle loop asks a component a few positions ahead to fetch what its step will
// read, so the cache misses of several steps overlap instead of following one another. A hint
// changes no state and no result.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wormsim {

// Hints every cache line of [from, from + bytes), each once.
inline void prefetch_bytes(const void* from, std::size_t bytes) {
  if (bytes == 0) return;
  const char* p = static_cast<const char*>(from);
  const std::size_t lines = ((reinterpret_cast<std::uintptr_t>(p) & 63u) + bytes - 1) / 64 + 1;
  for (std::size_t k = 0; k + 1 < lines; ++k) __builtin_prefetch(p + 64 * k);
  __builtin_prefetch(p + bytes - 1);  // the last line
}

// Hints every cache line of [from, to).
inline void prefetch_between(const void* from, const void* to) {
  const char* a = static_cast<const char*>(from);
  const char* b = static_cast<const char*>(to);
  if (b > a) prefetch_bytes(a, static_cast<std::size_t>(b - a));
}

}  // namespace wormsim
