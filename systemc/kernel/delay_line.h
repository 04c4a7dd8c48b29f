// Fixed-latency pipe: an item pushed in cycle t is visible to the receiver from cycle
// t + latency (latency >= 1). Because nothing pushed in cycle t is visible in cycle t, the
// order in which components are evaluated within a cycle cannot change any result
// (DESIGN.md section 3). At most one item enters per cycle (one flit per physical channel
// per cycle, one credit per input port per cycle), so latency + 1 slots always suffice.
#pragma once

#include <array>
#include <stdexcept>
#include <vector>

#include "flit.h"
#include "prefetch.h"

namespace wormsim {

template <typename T>
class DelayLine {
 public:
  explicit DelayLine(int latency = 1)
      : latency_(latency),
        size_(static_cast<std::size_t>(latency + 1)),
        far_(size_ > kInline ? size_ : 0) {
    aim();
  }
  // Copies keep their slots apart from the original's (slots_ points into the object itself).
  DelayLine(const DelayLine& o)
      : latency_(o.latency_),
        count_(o.count_),
        size_(o.size_),
        head_(o.head_),
        near_(o.near_),
        far_(o.far_) {
    aim();
  }
  DelayLine& operator=(const DelayLine& o) {
    if (this == &o) return *this;
    latency_ = o.latency_;
    count_ = o.count_;
    size_ = o.size_;
    head_ = o.head_;
    near_ = o.near_;
    far_ = o.far_;
    aim();
    return *this;
  }
  ~DelayLine() = default;

  int latency() const { return latency_; }
  bool empty() const { return count_ == 0; }
  int size() const { return count_; }

  // Returns the arrival cycle.
  Cycle push(Cycle now, const T& item) {
    if (count_ == static_cast<int>(size_))
      throw std::logic_error("delay line overflow: more than one item per cycle");
    Slot& s = slot(wrap(head_ + static_cast<std::size_t>(count_)));
    s.arrival = now + static_cast<Cycle>(latency_);
    s.item = item;
    ++count_;
    return s.arrival;
  }
  bool ready(Cycle now) const { return count_ > 0 && slot(head_).arrival <= now; }
  const T& front() const { return slot(head_).item; }
  Cycle front_arrival() const { return slot(head_).arrival; }
  const T& at(int i) const { return slot(wrap(head_ + static_cast<std::size_t>(i))).item; }
  // Cache hint for a push, front() or pop() soon: the counters and the first inline slot, the
  // one a line that empties every cycle uses (no effect on the contents).
  void prefetch() const { prefetch_between(this, &near_[kInline - 1].item); }
  void pop() {
    if (count_ == 0) throw std::logic_error("delay line underflow");
    // An emptied line restarts at slot 0 (fewer cache lines touched on a lightly used link).
    --count_;
    // Without a branch (whether the line empties is as likely as not).
    head_ = wrap(head_ + 1) & (std::size_t{0} - static_cast<std::size_t>(count_ != 0));
  }

 private:
  struct Slot {
    Cycle arrival = 0;
    T item{};
  };
  // Lines of latency 1 (the common case) keep their slots inside the object, next to the
  // count the receiver tests every cycle: one cache line fewer per link visit in networks far
  // larger than the caches. Longer lines use the heap.
  static constexpr std::size_t kInline = 2;

  // Slot of ring position i < 2 * slots (a mask instead of a division or a branch on the hot
  // path: which slot comes next is as likely as not).
  std::size_t wrap(std::size_t i) const {
    return i - (size_ & (std::size_t{0} - static_cast<std::size_t>(i >= size_)));
  }
  Slot& slot(std::size_t i) { return slots_[i]; }
  const Slot& slot(std::size_t i) const { return slots_[i]; }
  void aim() { slots_ = size_ <= kInline ? near_.data() : far_.data(); }

  int latency_;
  int count_ = 0;
  Slot* slots_ = nullptr;  // near_ or far_, next to the count the receiver tests
  std::size_t size_;
  std::size_t head_ = 0;
  std::array<Slot, kInline> near_{};
  std::vector<Slot> far_;
};

}  // namespace wormsim
