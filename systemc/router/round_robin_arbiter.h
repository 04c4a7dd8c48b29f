// Round-robin arbiter over n requesters: the grant goes to the first requester at or after
// the priority pointer; update(winner) moves the pointer just past the winner, so a requester
// that keeps requesting is served within n grants (the fairness contract tested in
// testbenches/router/round_robin_arbiter_test.cpp). Separable allocators call update() only for
// grants that survive both stages (iSLIP-style pointer update).
#pragma once

#include <cstdint>

namespace wormsim {

// The rules on a bare pointer, for allocators that keep their pointers elsewhere
// (router/separable_input_first.h). The first set bit of `requests` (!= 0) at or after
// `pointer`, cyclically:
inline int round_robin_pick_mask(int pointer, std::uint64_t requests) {
  const std::uint64_t at_or_after = pointer >= 64 ? 0 : requests & (~std::uint64_t{0} << pointer);
  return __builtin_ctzll(at_or_after != 0 ? at_or_after : requests);
}
// The pointer after a grant to `winner` among `n` requesters (without a branch: whether the
// pointer wraps is as likely as not for two requesters).
inline int round_robin_next(int winner, int n) {
  const int next = winner + 1;
  return next & -static_cast<int>(next < n);
}

class RoundRobinArbiter {
 public:
  explicit RoundRobinArbiter(int n = 1) : n_(n) {}

  int size() const { return n_; }
  int pointer() const { return pointer_; }

  // `requested(i)` says whether requester i requests; returns the winner or -1.
  template <typename Pred>
  int pick(Pred&& requested) const {
    for (int k = 0; k < n_; ++k) {
      int i = pointer_ + k;
      if (i >= n_) i -= n_;
      if (requested(i)) return i;
    }
    return -1;
  }
  // Same rule for up to 64 requesters given as a bit mask (bit i = requester i).
  int pick_mask(std::uint64_t requests) const {
    return requests == 0 ? -1 : round_robin_pick_mask(pointer_, requests);
  }
  void update(int winner) { pointer_ = round_robin_next(winner, n_); }

 private:
  int n_;
  int pointer_ = 0;
};

}  // namespace wormsim
