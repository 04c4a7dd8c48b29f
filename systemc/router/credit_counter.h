// Credit counter of one output VC: the free slots of the downstream VC buffer as seen by the
// upstream router. Starts full (= downstream depth), decremented per flit sent, incremented
// per credit returned after credit_latency cycles. It never goes below 0 or above its
// capacity; violating either bound throws (a flow-control bug). An unlimited counter models a
// consumer that always accepts (the NI's ejection side).
#pragma once

#include <stdexcept>

namespace wormsim {

class CreditCounter {
 public:
  static constexpr int kUnlimited = -1;

  explicit CreditCounter(int capacity = kUnlimited) : capacity_(capacity), credits_(capacity) {}

  bool unlimited() const { return capacity_ == kUnlimited; }
  int capacity() const { return capacity_; }
  int credits() const { return credits_; }
  bool available() const { return unlimited() | (credits_ > 0); }  // one branch for the caller
  // Whether the downstream VC has at least `flits` free slots.
  bool has_room(int flits) const { return unlimited() || credits_ >= flits; }
  // True when every credit is home: the downstream buffer of this VC is empty.
  bool all_returned() const { return unlimited() || credits_ == capacity_; }

  void consume() {
    if (unlimited()) return;
    if (credits_ <= 0) throw std::logic_error("credit counter underflow: sent without credit");
    --credits_;
  }
  void give() {
    if (unlimited()) return;
    if (credits_ >= capacity_) throw std::logic_error("credit counter overflow: extra credit");
    ++credits_;
  }

 private:
  int capacity_;
  int credits_;
};

}  // namespace wormsim
