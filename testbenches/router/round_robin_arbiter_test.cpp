// Tests of the round-robin arbiter: grant order, pointer update, fairness contract.
#include "round_robin_arbiter.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace wormsim::round_robin_arbiter_test {
namespace {

// Reference model written in the test: first requester at or after `ptr`, cyclically.
int reference_pick(const std::vector<bool>& req, int ptr) {
  const int n = static_cast<int>(req.size());
  for (int k = 0; k < n; ++k) {
    const int i = (ptr + k) % n;
    if (req[static_cast<std::size_t>(i)]) return i;
  }
  return -1;
}

int pick(const RoundRobinArbiter& a, const std::vector<bool>& req) {
  return a.pick([&](int i) { return req[static_cast<std::size_t>(i)]; });
}

TEST(RoundRobinArbiter, InitialState) {
  RoundRobinArbiter a(5);
  EXPECT_EQ(a.size(), 5);
  EXPECT_EQ(a.pointer(), 0);
}

TEST(RoundRobinArbiter, NoGrantWithoutRequests) {
  RoundRobinArbiter a(6);
  const std::vector<bool> none(6, false);
  for (int w = 0; w < 6; ++w) {
    a.update(w);
    EXPECT_EQ(pick(a, none), -1);
  }
}

TEST(RoundRobinArbiter, PickDoesNotMovePointer) {
  RoundRobinArbiter a(4);
  const std::vector<bool> all(4, true);
  EXPECT_EQ(pick(a, all), 0);
  EXPECT_EQ(pick(a, all), 0);
  EXPECT_EQ(a.pointer(), 0);
}

TEST(RoundRobinArbiter, PredicateOnlyAskedAboutValidIndices) {
  RoundRobinArbiter a(7);
  a.update(4);
  int calls = 0;
  const int w = a.pick([&](int i) {
    EXPECT_GE(i, 0);
    EXPECT_LT(i, 7);
    ++calls;
    return false;
  });
  EXPECT_EQ(w, -1);
  EXPECT_EQ(calls, 7);
}

TEST(RoundRobinArbiter, UpdateMovesPointerPastWinner) {
  RoundRobinArbiter a(4);
  a.update(0);
  EXPECT_EQ(a.pointer(), 1);
  a.update(2);
  EXPECT_EQ(a.pointer(), 3);
  a.update(3);
  EXPECT_EQ(a.pointer(), 0);  // wraps
  a.update(1);
  EXPECT_EQ(a.pointer(), 2);
}

TEST(RoundRobinArbiter, GrantIsFirstRequesterAtOrAfterPointer) {
  const int n = 5;
  RoundRobinArbiter a(n);
  // Every request pattern at every pointer position against the reference model.
  for (int ptr = 0; ptr < n; ++ptr) {
    a.update((ptr + n - 1) % n);
    ASSERT_EQ(a.pointer(), ptr);
    for (int mask = 0; mask < (1 << n); ++mask) {
      std::vector<bool> req(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) req[static_cast<std::size_t>(i)] = ((mask >> i) & 1) != 0;
      EXPECT_EQ(pick(a, req), reference_pick(req, ptr)) << "ptr " << ptr << " mask " << mask;
    }
  }
}

// pick_mask must implement the same rule as pick for every mask and pointer position.
TEST(RoundRobinArbiter, PickMaskMatchesReference) {
  for (int n : {1, 2, 5, 8}) {
    RoundRobinArbiter a(n);
    for (int ptr = 0; ptr < n; ++ptr) {
      a.update((ptr + n - 1) % n);
      ASSERT_EQ(a.pointer(), ptr);
      for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << n); ++mask) {
        std::vector<bool> req(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) req[static_cast<std::size_t>(i)] = ((mask >> i) & 1u) != 0;
        EXPECT_EQ(a.pick_mask(mask), reference_pick(req, ptr))
            << "n " << n << " ptr " << ptr << " mask " << mask;
      }
    }
  }
}

TEST(RoundRobinArbiter, PickMaskWide) {
  // 64 requesters: the top bit and the pointer at 63 are the edge cases of the shift.
  RoundRobinArbiter a(64);
  const std::uint64_t top = std::uint64_t{1} << 63;
  EXPECT_EQ(a.pick_mask(top), 63);
  EXPECT_EQ(a.pick_mask(top | 1u), 0);
  a.update(62);
  ASSERT_EQ(a.pointer(), 63);
  EXPECT_EQ(a.pick_mask(top | 1u), 63);
  EXPECT_EQ(a.pick_mask(std::uint64_t{0x6}), 1);  // wraps to the lowest requester
  EXPECT_EQ(a.pick_mask(0), -1);
  a.update(63);
  EXPECT_EQ(a.pointer(), 0);
  // Fairness through pick_mask with all 64 requesting: 64 * 3 grants, 3 each.
  std::vector<int> count(64, 0);
  for (int g = 0; g < 64 * 3; ++g) {
    const int w = a.pick_mask(~std::uint64_t{0});
    ASSERT_GE(w, 0);
    ++count[static_cast<std::size_t>(w)];
    a.update(w);
  }
  for (int i = 0; i < 64; ++i) EXPECT_EQ(count[static_cast<std::size_t>(i)], 3) << i;
}

TEST(RoundRobinArbiter, GrantOrderWithAllRequesting) {
  RoundRobinArbiter a(4);
  const std::vector<bool> all(4, true);
  std::vector<int> order;
  for (int g = 0; g < 8; ++g) {
    const int w = pick(a, all);
    order.push_back(w);
    a.update(w);
  }
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}));
}

TEST(RoundRobinArbiter, SkipsNonRequesters) {
  RoundRobinArbiter a(6);
  const std::vector<bool> req{false, true, false, false, true, false};
  std::vector<int> order;
  for (int g = 0; g < 6; ++g) {
    const int w = pick(a, req);
    order.push_back(w);
    a.update(w);
  }
  EXPECT_EQ(order, (std::vector<int>{1, 4, 1, 4, 1, 4}));
}

TEST(RoundRobinArbiter, SingleRequester) {
  RoundRobinArbiter a(1);
  const std::vector<bool> req{true};
  for (int g = 0; g < 3; ++g) {
    EXPECT_EQ(pick(a, req), 0);
    a.update(0);
    EXPECT_EQ(a.pointer(), 0);
  }
}

// Fairness: all n requesting continuously, n*k grants give each requester exactly k.
TEST(RoundRobinArbiter, FairnessAllRequesting) {
  for (int n = 1; n <= 9; ++n) {
    for (int start = 0; start < n; ++start) {
      RoundRobinArbiter a(n);
      if (start > 0) a.update(start - 1);  // arbitrary starting pointer
      const std::vector<bool> all(static_cast<std::size_t>(n), true);
      std::vector<int> count(static_cast<std::size_t>(n), 0);
      const int k = 7;
      for (int g = 0; g < n * k; ++g) {
        const int w = pick(a, all);
        ASSERT_GE(w, 0);
        ++count[static_cast<std::size_t>(w)];
        a.update(w);
      }
      for (int i = 0; i < n; ++i)
        EXPECT_EQ(count[static_cast<std::size_t>(i)], k) << "n " << n << " requester " << i;
    }
  }
}

// A requester that keeps requesting is served within n grants, whatever the others do.
TEST(RoundRobinArbiter, PersistentRequesterServedWithinNGrants) {
  const int n = 6;
  for (int persistent = 0; persistent < n; ++persistent) {
    RoundRobinArbiter a(n);
    unsigned lfsr = 0xACE1u + static_cast<unsigned>(persistent);
    int since_last = 0;
    for (int g = 0; g < 500; ++g) {
      std::vector<bool> req(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) {
        lfsr = lfsr * 1103515245u + 12345u;  // pseudo-random other requests
        req[static_cast<std::size_t>(i)] = ((lfsr >> 16) & 1u) != 0;
      }
      req[static_cast<std::size_t>(persistent)] = true;
      const int w = pick(a, req);
      ASSERT_GE(w, 0);
      ASSERT_TRUE(req[static_cast<std::size_t>(w)]);
      a.update(w);
      ++since_last;
      if (w == persistent) since_last = 0;
      ASSERT_LE(since_last, n - 1) << "persistent " << persistent << " starved at grant " << g;
    }
  }
}

// With all others requesting too, the worst case is exactly n grants (n-1 others first).
TEST(RoundRobinArbiter, PersistentRequesterWorstCaseIsN) {
  const int n = 5;
  RoundRobinArbiter a(n);
  const std::vector<bool> all(static_cast<std::size_t>(n), true);
  const int persistent = 0;
  // Serve requester 0 first; then it must wait for 1..4 and be served at the 5th grant.
  int w = pick(a, all);
  ASSERT_EQ(w, persistent);
  a.update(w);
  for (int g = 1; g <= n; ++g) {
    w = pick(a, all);
    a.update(w);
    if (g < n)
      EXPECT_NE(w, persistent) << g;
    else
      EXPECT_EQ(w, persistent);
  }
}

}  // namespace
}  // namespace wormsim::round_robin_arbiter_test
