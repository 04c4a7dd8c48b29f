// Per-VC input flit buffer: a FIFO of fixed depth B. Each entry records the cycle from which
// the flit may compete for the switch (its buffer-write cycle plus pipeline_depth - 1): the
// router pipeline is modelled as a fixed per-flit delay (docs/timing-model.md). Credit-based
// flow control guarantees the upstream never pushes into a full buffer; doing so is a
// contract violation and throws.
#pragma once

#include <stdexcept>
#include <vector>

#include "flit.h"

namespace wormsim {

class FlitBuffer {
 public:
  struct Entry {
    Cycle ready = 0;  // first: the eligibility test reads it with the flit's header fields
    Flit flit;
  };

  explicit FlitBuffer(int depth = 1) : slots_(static_cast<std::size_t>(depth)), depth_(depth) {}

  int depth() const { return depth_; }
  int size() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ == depth(); }

  void push(const Flit& flit, Cycle ready) {
    if (full()) throw std::logic_error("flit buffer overflow: credit protocol violated");
    Entry& e = slots_[static_cast<std::size_t>(wrap(head_ + count_))];
    e.flit = flit;
    e.ready = ready;
    ++count_;
  }
  const Entry& front() const { return slots_[static_cast<std::size_t>(head_)]; }
  Entry& front() { return slots_[static_cast<std::size_t>(head_)]; }
  // i-th entry from the front (0 = front); for deadlock reports and tracing.
  const Entry& at(int i) const { return slots_[static_cast<std::size_t>(wrap(head_ + i))]; }
  // Removes the front entry; its slot keeps the flit until the next push.
  void pop() {
    if (empty()) throw std::logic_error("flit buffer underflow");
    // An emptied FIFO restarts at slot 0, so a lightly used VC keeps touching the same few
    // cache lines instead of cycling through all B slots.
    --count_;
    head_ = wrap(head_ + 1) & -static_cast<int>(count_ != 0);  // without a branch
  }

 private:
  // Slot of ring position i < 2 * depth (a mask instead of a division or a branch).
  int wrap(int i) const { return i - (depth_ & -static_cast<int>(i >= depth_)); }

  std::vector<Entry> slots_;
  int depth_;
  int head_ = 0;
  int count_ = 0;
};

}  // namespace wormsim
