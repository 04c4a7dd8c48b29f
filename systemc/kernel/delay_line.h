// Fixed-latency pipe: an item pushed in cycle t is visible to the receiver from cycle
// t + latency (latency >= 1). Because nothing pushed in cycle t is visible in cycle t, the
// order in which components are evaluated within a cycle cannot change any result
// (DESIGN.md section 3). At most one item enters per cycle (one flit per physical channel
// per cycle, one credit per input port per cycle), so latency + 1 slots always suffice.
#pragma once

#include <stdexcept>
#include <vector>

#include "flit.h"

namespace wormsim {

template <typename T>
class DelayLine {
 public:
  explicit DelayLine(int latency = 1)
      : latency_(latency), slots_(static_cast<std::size_t>(latency + 1)) {}

  int latency() const { return latency_; }
  bool empty() const { return count_ == 0; }
  int size() const { return count_; }

  // Returns the arrival cycle.
  Cycle push(Cycle now, const T& item) {
    if (count_ == static_cast<int>(slots_.size()))
      throw std::logic_error("delay line overflow: more than one item per cycle");
    Slot& s = slots_[wrap(head_ + static_cast<std::size_t>(count_))];
    s.arrival = now + static_cast<Cycle>(latency_);
    s.item = item;
    ++count_;
    return s.arrival;
  }
  bool ready(Cycle now) const { return count_ > 0 && slots_[head_].arrival <= now; }
  const T& front() const { return slots_[head_].item; }
  Cycle front_arrival() const { return slots_[head_].arrival; }
  const T& at(int i) const { return slots_[wrap(head_ + static_cast<std::size_t>(i))].item; }
  void pop() {
    if (count_ == 0) throw std::logic_error("delay line underflow");
    // An emptied line restarts at slot 0 (fewer cache lines touched on a lightly used link).
    head_ = --count_ == 0 ? 0 : wrap(head_ + 1);
  }

 private:
  // Slot of ring position i < 2 * slots (a compare instead of a division on the hot path).
  std::size_t wrap(std::size_t i) const { return i >= slots_.size() ? i - slots_.size() : i; }

  struct Slot {
    Cycle arrival = 0;
    T item{};
  };
  int latency_;
  std::vector<Slot> slots_;
  std::size_t head_ = 0;
  int count_ = 0;
};

}  // namespace wormsim
