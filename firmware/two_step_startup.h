// The two-step startup search shared by the EDN patterns (seed 000 section 3.3, Fig. 3.10:
// the root reaches the top nodes in a first step, then the nodes holding the message reach
// the rest in a second): EdnPattern (the 4-top 2D mesh of the seed) and EdnMesh (any mesh).
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "flit.h"

namespace wormsim::fw {

using Sends = std::vector<std::pair<NodeId, NodeId>>;  // (sender, receiver)

// Calls visit(step1, step2, busiest) for every two-step startup from `root` to `others`
// (at most 31 nodes): step 1 = the root sends to a nonempty subset of `others` whose sends
// `step1_ok` accepts (and to all of them only if `all_in_step1`), step 2 = every other node
// receives from one holder (the root or a step-1 receiver); `busiest` is the most sends any
// holder makes over both steps. Subsets in increasing bit-mask order (bit i = others[i]), then
// the holders' assignments in increasing base-h code order: callers that keep the first
// best-scoring candidate get the same choice every time.
template <typename Step1Ok, typename Visit>
void for_each_two_step_startup(NodeId root, const std::vector<NodeId>& others, bool all_in_step1,
                               Step1Ok&& step1_ok, Visit&& visit) {
  const std::size_t m = others.size();
  const unsigned end = all_in_step1 ? (1u << m) : (1u << m) - 1;
  for (unsigned mask = 1; mask < end; ++mask) {
    Sends step1;
    std::vector<NodeId> rest;
    for (std::size_t i = 0; i < m; ++i) {
      if (mask & (1u << i))
        step1.emplace_back(root, others[i]);
      else
        rest.push_back(others[i]);
    }
    if (!step1_ok(step1)) continue;
    std::vector<NodeId> holders{root};
    for (const auto& sr : step1) holders.push_back(sr.second);
    std::size_t combos = 1;
    for (std::size_t i = 0; i < rest.size(); ++i) combos *= holders.size();
    for (std::size_t c = 0; c < combos; ++c) {
      Sends step2;
      std::size_t code = c;
      std::vector<int> sends(holders.size(), 0);
      sends[0] = static_cast<int>(step1.size());
      for (NodeId r : rest) {
        const std::size_t h = code % holders.size();
        code /= holders.size();
        step2.emplace_back(holders[h], r);
        ++sends[h];
      }
      visit(step1, step2, *std::max_element(sends.begin(), sends.end()));
    }
  }
}

}  // namespace wormsim::fw
