// Fibres (kernel/fibre.h): resume and suspend interleave caller and body exactly; what the
// body throws stays on its stack and is handed over; a deep recursion breaks the canary below
// the stack (and only that fibre's), which is how the processor detects a stack overflow.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fibre.h"
#include "stack_arena.h"

namespace wormsim::fibre_test {
namespace {

constexpr std::size_t kSlot = 64 * 1024;

// Uses about `frames` KiB of stack, writing all of it.
__attribute__((noinline)) int deep(int frames) {
  volatile char frame[1024];
  for (volatile char& b : frame) b = static_cast<char>(frames);
  if (frames == 0) return frame[0];
  return deep(frames - 1) + frame[1023];
}

TEST(Fibre, ResumeAndSuspendInterleave) {
  StackArena arena(2);
  std::vector<std::string> trace;
  Fibre* self = nullptr;
  Fibre f(arena.allocate(kSlot), [&] {
    for (int i = 0; i < 3; ++i) {
      trace.push_back("body " + std::to_string(i));
      self->suspend();
    }
    trace.push_back("body end");
  });
  self = &f;
  for (int i = 0; i < 5 && !f.finished(); ++i) {
    trace.push_back("resume " + std::to_string(i));
    f.resume();
  }
  EXPECT_EQ(trace, (std::vector<std::string>{"resume 0", "body 0", "resume 1", "body 1", "resume 2",
                                             "body 2", "resume 3", "body end"}));
  EXPECT_TRUE(f.finished());
  EXPECT_FALSE(f.error());
  EXPECT_TRUE(f.stack_intact());
  f.resume();  // a finished fibre stays finished
  EXPECT_EQ(trace.size(), 8u);
}

TEST(Fibre, WhatTheBodyThrowsIsHandedOverNotUnwoundAcrossTheSwitch) {
  StackArena arena(2);
  Fibre f(arena.allocate(kSlot), [] {
    try {
      throw std::logic_error("caught inside");
    } catch (const std::logic_error&) {
    }
    throw std::runtime_error("boom");
  });
  EXPECT_NO_THROW(f.resume());
  EXPECT_TRUE(f.finished());
  ASSERT_TRUE(f.error());
  try {
    std::rethrow_exception(f.error());
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "boom");
  }
}

TEST(Fibre, DeepRecursionBreaksOnlyItsOwnCanary) {
  StackArena arena(3);
  Fibre below(arena.allocate(kSlot), [] {});
  Fibre* self = nullptr;
  int result = 0;
  Fibre deep_one(arena.allocate(kSlot), [&] {
    result = deep(static_cast<int>(kSlot / 1024) + 8);  // 8 KiB more than the stack
    self->suspend();
  });
  self = &deep_one;
  Fibre shallow(arena.allocate(kSlot), [] { EXPECT_EQ(deep(16), 136); });  // 1 + ... + 16
  shallow.resume();
  EXPECT_TRUE(shallow.finished());
  EXPECT_TRUE(shallow.stack_intact());
  deep_one.resume();
  EXPECT_FALSE(deep_one.stack_intact());
  EXPECT_TRUE(below.stack_intact());  // its canary is below its own stack, not above
  EXPECT_TRUE(shallow.stack_intact());
  EXPECT_NE(result, 0);
}

TEST(Fibre, TenThousandFibresRunOnOneMapping) {
  constexpr int kFibres = 10000;
  StackArena arena(kFibres);
  std::vector<std::unique_ptr<Fibre>> fibres;
  std::vector<int> steps(kFibres, 0);
  for (int i = 0; i < kFibres; ++i) {
    fibres.push_back(std::make_unique<Fibre>(arena.allocate(16384), [&, i] {
      for (int k = 0; k < 3; ++k) {
        ++steps[static_cast<std::size_t>(i)];
        fibres[static_cast<std::size_t>(i)]->suspend();
      }
    }));
  }
  for (int round = 0; round < 4; ++round)
    for (auto& f : fibres) f->resume();
  for (int i = 0; i < kFibres; ++i) {
    EXPECT_EQ(steps[static_cast<std::size_t>(i)], 3);
    EXPECT_TRUE(fibres[static_cast<std::size_t>(i)]->finished());
  }
  EXPECT_EQ(arena.mappings(), 1u);
}

}  // namespace
}  // namespace wormsim::fibre_test
