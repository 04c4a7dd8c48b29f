#include "huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace wormsim {

namespace {
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
#ifdef MADV_COLLAPSE
constexpr int kMadvCollapse = MADV_COLLAPSE;
#else
constexpr int kMadvCollapse = 25;  // <asm-generic/mman-common.h>, Linux 6.1
#endif
}  // namespace

HugePageAdvice advise_heap_huge_pages() {
  HugePageAdvice result;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.size() < 6 || line.compare(line.size() - 6, 6, "[heap]") != 0) continue;
    const std::size_t dash = line.find('-');
    const std::size_t space = line.find(' ', dash);
    if (dash == std::string::npos || space == std::string::npos) return result;
    std::uintptr_t lo = 0;
    std::uintptr_t hi = 0;
    try {
      lo = static_cast<std::uintptr_t>(std::stoull(line.substr(0, dash), nullptr, 16));
      hi = static_cast<std::uintptr_t>(
          std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16));
    } catch (const std::exception&) {
      return result;
    }
    if (hi <= lo) return result;
    if (::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) != 0) return result;
    result.advised = hi - lo;
    const std::uintptr_t a = (lo + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t b = hi & ~(kHugePage - 1);
    if (b > a && ::madvise(reinterpret_cast<void*>(a), b - a, kMadvCollapse) == 0)
      result.collapsed = b - a;
    return result;
  }
  return result;
}

}  // namespace wormsim
