// Activity calendar: which components (routers, NIs) must be evaluated in which cycle. A
// component is evaluated only when something arrives for it or it still holds work, so the
// simulation cost follows activity rather than network size (DESIGN.md section 7): an idle
// 64x64 mesh costs nothing per cycle. Near events live in a timing wheel, far ones (e.g. the
// next Bernoulli arrival at a low injection rate) in a heap.
#pragma once

#include <queue>
#include <vector>

#include "flit.h"

namespace wormsim {

class ActivityCalendar {
 public:
  static constexpr Cycle kNever = ~Cycle{0};

  explicit ActivityCalendar(int components = 0);

  // Schedule `component` for evaluation in cycle `at` (> the cycle being taken).
  void wake(int component, Cycle at) {
    // Inline fast path, the most frequent call of a run: a known component woken for a cycle
    // within the wheel, most often again for the cycle it is already in the wheel for (every
    // flit of a worm wakes the same router); the stamp drops those duplicates.
    // One unsigned compare each: c < components_, and now_ < at < now_ + kWheel.
    const auto c = static_cast<std::size_t>(component);
    if (c < components_ && at - now_ - 1 < kWheel - 1) {
      // Without a branch on the duplicate test, which is as likely as not: the component is
      // written past the bucket's end and counted only when it is new there.
      Cycle& stamp = stamp_[c];
      const std::size_t fresh = stamp != at ? 1 : 0;
      stamp = at;
      wheel_[at % kWheel].append(component, fresh);
      wheel_items_ += fresh;
      return;
    }
    wake_slow(component, at);
  }
  // wake(component, now + 1) in a step of cycle `now` (after take(now)), the most frequent
  // wake-up (a flit or credit sent with latency 1), with the same effect and without wake()'s
  // range tests: `component` must be below the calendar's component count, which must not be
  // 0 (the flat engine, fabric/flat_routers.cpp, for its routers).
  void wake_next(int component) {
    Cycle& stamp = stamp_[static_cast<std::size_t>(component)];
    const std::size_t fresh = stamp != next_ ? 1 : 0;
    stamp = next_;
    next_bucket_->append(component, fresh);
    wheel_items_ += fresh;
  }
  // The next cycle (now + 1 in a step of cycle `now`) is to be evaluated, with or without
  // components to step: the flat engine's links (fabric/flat_routers.cpp) wake no component
  // for a flit or credit that changes nothing in the next cycle, where the reference engine's
  // receiver steps, and both engines evaluate the same cycles.
  void visit_next() { visit_ = next_; }
  // Earliest cycle > `after` with a scheduled component or a visit, or kNever.
  Cycle next_cycle(Cycle after) const;
  // Moves the components scheduled for `now` into `out`, without duplicates. The order is
  // deterministic but otherwise unspecified: results do not depend on it (DESIGN.md sec. 3).
  void take(Cycle now, std::vector<int>& out);

 private:
  void wake_slow(int component, Cycle at);

  static constexpr std::size_t kWheel = 1024;
  struct Far {
    Cycle at;
    int component;
    bool operator>(const Far& o) const { return at > o.at; }
  };
  // The components woken for one cycle of the wheel: items[0, count); the vector's size is
  // its capacity, also kept in `capacity`.
  struct Bucket {
    std::vector<int> items;
    std::size_t count = 0;
    std::size_t capacity = 0;
    // Writes `component` at the end and counts it if `counted` (0 or 1).
    void append(int component, std::size_t counted) {
      if (count == capacity) {
        capacity = capacity == 0 ? 16 : 2 * capacity;
        items.resize(capacity);
      }
      items[count] = component;
      count += counted;
    }
    void push(int component) { append(component, 1); }
  };
  std::vector<Bucket> wheel_;
  std::size_t components_;    // the components known to the calendar (0: any, none stamped)
  std::vector<Cycle> stamp_;  // per component: last cycle it was put in the wheel for
  std::vector<Cycle> taken_;  // per component: last cycle it was taken for
  std::size_t wheel_items_ = 0;
  Cycle now_ = 0;
  Cycle next_ = 0;                 // now_ + 1 after a take(), for wake_next()
  Bucket* next_bucket_ = nullptr;  // its bucket
  Cycle visit_ = kNever;           // the cycle of the last visit_next(), or kNever
  bool taken_any_ = false;         // after the first take(), wake-ups must be later than now_
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
};

}  // namespace wormsim
