// Stacks for user-level fibres (kernel/fibre.h), carved from large anonymous mappings reserved
// with MAP_NORESERVE. The OS sees one mapping per chunk however many stacks it holds, where
// SystemC gives every thread its own mapping plus a guard page (two mappings per node: a
// 256x256 machine needed about 131k, above the default vm.max_map_count of 65,530), and a
// stack's pages become resident only when its fibre touches them.
//
// There are no guard pages. A chunk is a row of equal slots; every stack has a canary
// directly below its low end, in the top kCanaryBytes of the slot below, which are not part of
// that slot's stack. So the canary shares a page with the hot top of the neighbouring stack and
// costs no page of its own. The owner checks it whenever the fibre switches back (intact()).
// The bottom slot of a chunk is a spare, holding only the lowest stack's canary, so an overflow
// of that stack also lands in the arena. An overflow writes into the stack below it, which
// belongs to another fibre: after one, no fibre of the arena may run again (mark_overflowed(),
// overflowed()).
//
// Measuring stack use: an arena made with `poison` fills every stack it hands out with a
// pattern, and high_water() reports the deepest use of any of its stacks so far. Networks turn
// this on when the environment variable WORMSIM_STACK_HIGH_WATER is set (fabric/network.h) and
// report it on stderr at the end of the run (docs/architecture.md, "Firmware fibres").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wormsim {

class StackArena {
 public:
  // One stack: [low, low + bytes); it grows down from low + bytes; its canary is the
  // kCanaryBytes below low.
  struct Stack {
    std::byte* low = nullptr;
    std::size_t bytes = 0;
  };
  static constexpr std::size_t kCanaryBytes = 64;

  // `stacks_per_chunk`: how many stacks one mapping holds (a network asks for its node count:
  // one mapping per run). `poison`: fill every stack handed out, for high_water().
  explicit StackArena(std::size_t stacks_per_chunk, bool poison = false);
  ~StackArena();
  StackArena(const StackArena&) = delete;
  StackArena& operator=(const StackArena&) = delete;

  // A fresh stack in a slot of `slot_bytes` (a positive multiple of 4096; every slot of an
  // arena has the size of the first); the stack has slot_bytes - kCanaryBytes. Maps a new chunk when the current one is full; throws
  // std::invalid_argument for a bad size and std::runtime_error (with the OS's reason) when
  // the mapping fails.
  Stack allocate(std::size_t slot_bytes);
  // Whether the canary below `stack` is as allocate() wrote it.
  static bool intact(const Stack& stack);

  bool overflowed() const { return overflowed_; }
  void mark_overflowed() { overflowed_ = true; }

  bool poisoned() const { return poison_; }
  // Poisoned arenas: the most bytes (from its top down) any stack handed out has written so
  // far; 0 for an arena without poison.
  std::size_t high_water() const;
  std::size_t slot_bytes() const { return slot_bytes_; }
  std::size_t stacks() const { return stacks_; }
  std::size_t mappings() const { return chunks_.size(); }

 private:
  struct Chunk {
    std::byte* base = nullptr;
    std::size_t bytes = 0;
    std::size_t slots = 0;  // stack slots, the spare at the bottom included
    std::size_t used = 0;   // slots handed out, the spare counted
  };

  std::size_t per_chunk_;
  bool poison_;
  bool overflowed_ = false;
  std::size_t slot_bytes_ = 0;
  std::size_t stacks_ = 0;
  std::vector<Chunk> chunks_;
};

}  // namespace wormsim
