// Transparent huge pages for the heap of a large simulation. A network of tens of thousands of
// nodes keeps gigabytes of router, link and NI state on the heap, and each component step
// touches a handful of 4 KiB pages of it far apart: with 4 KiB pages nearly every such access
// misses the TLB (docs/performance.md, "The 256x256 broadcast"). Debian's kernel gives
// transparent huge pages only to memory advised for them (`madvise` mode) and glibc's heap
// does not advise them unless GLIBC_TUNABLES says so; this asks for them once the network is
// built. Only the speed changes: no result depends on how memory is paged.
#pragma once

#include <cstddef>

namespace wormsim {

struct HugePageAdvice {
  std::size_t advised = 0;    // bytes of heap advised MADV_HUGEPAGE
  std::size_t collapsed = 0;  // bytes of those collapsed into huge pages now (MADV_COLLAPSE)
};

// Advises the process's heap (the `[heap]` mapping of /proc/self/maps) for transparent huge
// pages and collapses its populated 2 MiB-aligned part into huge pages at once (Linux >= 6.1).
// Does nothing where the kernel or the system settings do not allow it; never throws.
HugePageAdvice advise_heap_huge_pages();

}  // namespace wormsim
