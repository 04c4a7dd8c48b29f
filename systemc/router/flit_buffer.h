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
    Flit flit;
    Cycle ready = 0;
  };

  explicit FlitBuffer(int depth = 1) : slots_(static_cast<std::size_t>(depth)) {}

  int depth() const { return static_cast<int>(slots_.size()); }
  int size() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ == depth(); }

  void push(const Flit& flit, Cycle ready) {
    if (full()) throw std::logic_error("flit buffer overflow: credit protocol violated");
    Entry& e = slots_[static_cast<std::size_t>((head_ + count_) % depth())];
    e.flit = flit;
    e.ready = ready;
    ++count_;
  }
  const Entry& front() const { return slots_[static_cast<std::size_t>(head_)]; }
  Entry& front() { return slots_[static_cast<std::size_t>(head_)]; }
  // i-th entry from the front (0 = front); for deadlock reports and tracing.
  const Entry& at(int i) const { return slots_[static_cast<std::size_t>((head_ + i) % depth())]; }
  void pop() {
    if (empty()) throw std::logic_error("flit buffer underflow");
    head_ = (head_ + 1) % depth();
    --count_;
  }

 private:
  std::vector<Entry> slots_;
  int head_ = 0;
  int count_ = 0;
};

}  // namespace wormsim
