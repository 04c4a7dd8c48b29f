#include "fibonacci_tree.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormsim::fw {

namespace {

constexpr std::uint64_t kCap = std::uint64_t{1} << 62;

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return std::min(kCap, a + b); }

}  // namespace

std::uint64_t fibonacci_nodes(int t, int k) {
  if (k < 1) throw std::invalid_argument("fibonacci_nodes: k must be at least 1");
  if (t < k) return 1;
  std::vector<std::uint64_t> n(static_cast<std::size_t>(t) + 1, 1);
  for (int s = k; s <= t; ++s)
    n[static_cast<std::size_t>(s)] =
        sat_add(n[static_cast<std::size_t>(s - k)], n[static_cast<std::size_t>(s - 1)]);
  return n[static_cast<std::size_t>(t)];
}

int fibonacci_steps(std::uint64_t p, int k) {
  if (k < 1) throw std::invalid_argument("fibonacci_steps: k must be at least 1");
  int t = 0;
  while (fibonacci_nodes(t, k) < p) ++t;
  return t;
}

FibonacciTree::FibonacciTree(int p, int k) : k_(k) {
  if (p < 1 || k < 1)
    throw std::invalid_argument("FibonacciTree: needs p >= 1 and k >= 1 (p " + std::to_string(p) +
                                ", k " + std::to_string(k) + ")");
  steps_ = fibonacci_steps(static_cast<std::uint64_t>(p), k);
  // C(x) = 0 (x < 0), x + 1 (0 <= x < k), C(x - 1) + C(x - k) (x >= k): the most nodes a
  // subtree can hold whose root completes x steps before the deadline t(P, k).
  capacity_.assign(static_cast<std::size_t>(steps_) + 1, 0);
  for (int x = 0; x <= steps_; ++x)
    capacity_[static_cast<std::size_t>(x)] =
        x < k ? static_cast<std::uint64_t>(x + 1)
              : sat_add(capacity_[static_cast<std::size_t>(x - 1)],
                        capacity_[static_cast<std::size_t>(x - k)]);
  parent_.assign(static_cast<std::size_t>(p), -1);
  first_.assign(static_cast<std::size_t>(p), 0);
  children_.assign(static_cast<std::size_t>(p), {});
  // The root sends as a node whose last piece arrived in step k - 1 (first piece in step 0).
  build(0, p, k - 1);
}

void FibonacciTree::build(int pos, int end, int complete) {
  int e = end;
  for (int i = 0; e > pos + 1; ++i) {
    const int child_complete = complete + 1 + i * k_;
    const int slack = steps_ - child_complete;
    const std::uint64_t cap = slack < 0 ? 0 : capacity_[static_cast<std::size_t>(slack)];
    if (cap == 0)
      throw std::logic_error("FibonacciTree: a run of " + std::to_string(end - pos) +
                             " nodes does not fit the capacity of t(P, k) steps");
    const int len =
        static_cast<int>(std::min<std::uint64_t>(cap, static_cast<std::uint64_t>(e - pos - 1)));
    const int child = e - len;
    parent_[static_cast<std::size_t>(child)] = pos;
    first_[static_cast<std::size_t>(child)] = child_complete - k_ + 1;
    children_[static_cast<std::size_t>(pos)].push_back(child);
    build(child, e, child_complete);
    e = child;
  }
}

}  // namespace wormsim::fw
