// A FIFO that allocates nothing until its first push_back (libstdc++'s std::deque allocates a
// 512-byte block and its map when constructed, about 600 bytes even if never used). The NI
// keeps one per channel and purpose (firmware descriptors, packets, background packets,
// received messages), most of them never used by a node: on a 256x256 all-port mesh eagerly
// allocated deques cost about 0.6 GB (docs/performance.md). The subset of std::deque's
// interface the model uses; once allocated, the deque stays.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <utility>

namespace wormsim {

template <class T>
class LazyDeque {
 public:
  using const_iterator = typename std::deque<T>::const_iterator;

  LazyDeque() = default;
  LazyDeque(const LazyDeque& o) : q_(o.q_ ? std::make_unique<std::deque<T>>(*o.q_) : nullptr) {}
  LazyDeque& operator=(const LazyDeque& o) {
    if (this != &o) q_ = o.q_ ? std::make_unique<std::deque<T>>(*o.q_) : nullptr;
    return *this;
  }
  LazyDeque(LazyDeque&&) noexcept = default;
  LazyDeque& operator=(LazyDeque&&) noexcept = default;

  bool empty() const { return !q_ || q_->empty(); }
  std::size_t size() const { return q_ ? q_->size() : 0; }
  // front(), back() and pop_front() of an empty LazyDeque are undefined, as for std::deque.
  T& front() { return q_->front(); }
  const T& front() const { return q_->front(); }
  T& back() { return q_->back(); }
  const T& back() const { return q_->back(); }
  void pop_front() { q_->pop_front(); }
  void push_back(const T& v) { get().push_back(v); }
  void push_back(T&& v) { get().push_back(std::move(v)); }
  const_iterator begin() const { return q_ ? q_->cbegin() : const_iterator(); }
  const_iterator end() const { return q_ ? q_->cend() : const_iterator(); }

 private:
  std::deque<T>& get() {
    if (!q_) q_ = std::make_unique<std::deque<T>>();
    return *q_;
  }
  std::unique_ptr<std::deque<T>> q_;
};

}  // namespace wormsim
