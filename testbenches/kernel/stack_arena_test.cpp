// The fibre stack arena: many stacks from one mapping (the point of it: a SystemC thread per
// node took two mappings each, and 65,536 nodes exceeded the default vm.max_map_count of
// 65,530), chunks when asked for, a canary below every stack that only that stack's overflow
// breaks, and the high-water mark of poisoned stacks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

#include "stack_arena.h"

namespace wormsim::stack_arena_test {
namespace {

// The mappings of this process that overlap [low, high). Counted over the stacks' own address
// range rather than the whole process, whose mapping count the sanitizers' allocators change.
std::size_t mappings_overlapping(std::uintptr_t low, std::uintptr_t high) {
  std::ifstream maps("/proc/self/maps");
  std::size_t n = 0;
  for (std::string line; std::getline(maps, line);) {
    const std::size_t dash = line.find('-');
    const std::uintptr_t begin = std::stoull(line.substr(0, dash), nullptr, 16);
    const std::uintptr_t end = std::stoull(line.substr(dash + 1), nullptr, 16);
    if (begin < high && end > low) ++n;
  }
  return n;
}

TEST(StackArena, MoreStacksThanTheDefaultMapCountTakeOneMapping) {
  constexpr std::size_t kStacks = 66000;  // > vm.max_map_count's default 65530
  StackArena arena(kStacks);
  std::uintptr_t low = UINTPTR_MAX, high = 0;
  for (std::size_t i = 0; i < kStacks; ++i) {
    const StackArena::Stack s = arena.allocate(8192);
    const auto at = reinterpret_cast<std::uintptr_t>(s.low);
    low = std::min(low, at);
    high = std::max(high, at + s.bytes);
  }
  EXPECT_EQ(arena.mappings(), 1u);
  EXPECT_EQ(arena.stacks(), kStacks);
  // Every stack lies in one mapping of the process: 66,000 stacks, not 132,000 mappings.
  EXPECT_EQ(mappings_overlapping(low, high), 1u);
}

TEST(StackArena, ChunksHoldTheirStacksPerChunk) {
  StackArena arena(3);
  for (int i = 0; i < 7; ++i) arena.allocate(4096);
  EXPECT_EQ(arena.mappings(), 3u);  // ceil(7 / 3)
}

TEST(StackArena, StacksAreDisjointWithTheCanaryBelowEach) {
  StackArena arena(4);
  const StackArena::Stack a = arena.allocate(16384);
  const StackArena::Stack b = arena.allocate(16384);
  EXPECT_EQ(a.bytes, 16384 - StackArena::kCanaryBytes);
  // b's canary sits between a's top and b's low end.
  EXPECT_EQ(a.low + a.bytes + StackArena::kCanaryBytes, b.low);
  EXPECT_TRUE(StackArena::intact(a));
  EXPECT_TRUE(StackArena::intact(b));
  a.low[a.bytes - 1] = std::byte{1};  // a's own top: nobody's canary
  EXPECT_TRUE(StackArena::intact(a));
  EXPECT_TRUE(StackArena::intact(b));
  b.low[-1] = std::byte{0};  // one byte past b's low end
  EXPECT_FALSE(StackArena::intact(b));
  EXPECT_TRUE(StackArena::intact(a));
}

TEST(StackArena, HighWaterIsTheDeepestWriteFromTheTop) {
  StackArena arena(4, true);
  const StackArena::Stack a = arena.allocate(16384);
  const StackArena::Stack b = arena.allocate(16384);
  EXPECT_EQ(arena.high_water(), 0u);
  a.low[a.bytes - 100] = std::byte{0};  // 100 bytes from a's top: word-aligned to 104
  EXPECT_EQ(arena.high_water(), 104u);
  b.low[b.bytes - 3000] = std::byte{0};  // word-aligned to 3000 (3000 = 375 x 8)
  EXPECT_EQ(arena.high_water(), 3000u);
  EXPECT_EQ(StackArena(4).high_water(), 0u);  // no poison, no measurement
}

TEST(StackArena, BadSizesAreRejected) {
  StackArena arena(4);
  EXPECT_THROW(arena.allocate(0), std::invalid_argument);
  EXPECT_THROW(arena.allocate(5000), std::invalid_argument);
  arena.allocate(8192);
  EXPECT_THROW(arena.allocate(16384), std::invalid_argument);  // one size per arena
}

}  // namespace
}  // namespace wormsim::stack_arena_test
