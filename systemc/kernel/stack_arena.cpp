#include "stack_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace wormsim {

namespace {

constexpr std::size_t kPage = 4096;
constexpr std::size_t kCanaryWords = StackArena::kCanaryBytes / sizeof(std::uint64_t);
constexpr std::uint64_t kPoisonWord = 0xa5a5a5a5a5a5a5a5ull;

// Word i of a canary: not a repeating pattern, not zero, not the poison.
constexpr std::uint64_t canary_word(std::size_t i) {
  return 0x57a6c0ffee5afe11ull ^ (0x9e3779b97f4a7c15ull * (i + 1));
}

std::uint64_t* canary_of(std::byte* low) {
  return reinterpret_cast<std::uint64_t*>(low - StackArena::kCanaryBytes);
}

}  // namespace

StackArena::StackArena(std::size_t stacks_per_chunk, bool poison)
    : per_chunk_(std::max<std::size_t>(stacks_per_chunk, 1)), poison_(poison) {}

StackArena::~StackArena() {
  for (const Chunk& c : chunks_) ::munmap(c.base, c.bytes);
}

StackArena::Stack StackArena::allocate(std::size_t slot_bytes) {
  if (slot_bytes == 0 || slot_bytes % kPage != 0)
    throw std::invalid_argument("StackArena: a stack slot must be a positive multiple of 4096");
  if (slot_bytes_ == 0) slot_bytes_ = slot_bytes;
  if (slot_bytes != slot_bytes_)
    throw std::invalid_argument("StackArena: every stack slot of an arena has the same size");
  if (chunks_.empty() || chunks_.back().used == chunks_.back().slots) {
    Chunk c;
    c.slots = per_chunk_ + 1;  // + the spare slot at the bottom
    c.bytes = c.slots * slot_bytes;
    void* p = ::mmap(nullptr, c.bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error("StackArena: cannot reserve " + std::to_string(c.bytes) +
                               " bytes for fibre stacks: " + std::strerror(errno));
    c.base = static_cast<std::byte*>(p);
    c.used = 1;
    chunks_.push_back(c);
  }
  Chunk& c = chunks_.back();
  const Stack s{c.base + c.used * slot_bytes, slot_bytes - kCanaryBytes};
  ++c.used;
  ++stacks_;
  std::uint64_t* canary = canary_of(s.low);
  for (std::size_t i = 0; i < kCanaryWords; ++i) canary[i] = canary_word(i);
  if (poison_) {
    auto* words = reinterpret_cast<std::uint64_t*>(s.low);
    std::fill(words, words + s.bytes / sizeof(std::uint64_t), kPoisonWord);
  }
  return s;
}

bool StackArena::intact(const Stack& stack) {
  const std::uint64_t* canary = canary_of(stack.low);
  for (std::size_t i = 0; i < kCanaryWords; ++i)
    if (canary[i] != canary_word(i)) return false;
  return true;
}

std::size_t StackArena::high_water() const {
  if (!poison_) return 0;
  const std::size_t words = (slot_bytes_ - kCanaryBytes) / sizeof(std::uint64_t);
  std::size_t deepest = 0;
  for (const Chunk& c : chunks_)
    for (std::size_t slot = 1; slot < c.used; ++slot) {
      const auto* w = reinterpret_cast<const std::uint64_t*>(c.base + slot * slot_bytes_);
      std::size_t i = 0;
      while (i < words && w[i] == kPoisonWord) ++i;
      deepest = std::max(deepest, (words - i) * sizeof(std::uint64_t));
    }
  return deepest;
}

}  // namespace wormsim
