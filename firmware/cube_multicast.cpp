// Seed 001's hypercube multicast algorithms as pure functions (cube_multicast.h).
#include "cube_multicast.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormsim::fw {

int cube_delta(std::uint32_t a, std::uint32_t b) {
  std::uint32_t x = a ^ b;
  if (x == 0) throw std::logic_error("cube_delta: the nodes are equal (Definition 1)");
  int d = -1;
  while (x != 0) {
    x >>= 1;
    ++d;
  }
  return d;
}

std::vector<ChainSend> chain_sends(CubeAlgorithm alg, const std::vector<std::uint32_t>& chain,
                                   std::size_t left, std::size_t right) {
  std::vector<ChainSend> out;
  while (right > left) {
    // Fig. 4, steps 1-3.
    const int x = cube_delta(chain[left], chain[right]);
    std::size_t highdim = left + 1;
    while (cube_delta(chain[left], chain[highdim]) != x) ++highdim;
    const std::size_t center = left + (right - left + 1) / 2;
    // Step 4, the one statement in which the algorithms differ (section 4.1).
    std::size_t next = center;
    switch (alg) {
      case CubeAlgorithm::kUCube: next = center; break;
      case CubeAlgorithm::kMaxport:
      case CubeAlgorithm::kWSort:
      case CubeAlgorithm::kWSortDistributed: next = highdim; break;
      case CubeAlgorithm::kCombine: next = std::max(highdim, center); break;
    }
    out.push_back({next, right});  // steps 5-6
    right = next - 1;              // step 7
  }
  return out;
}

void weighted_sort(std::vector<std::uint32_t>& chain, std::size_t first, std::size_t last,
                   int n_s) {
  if (last < first + 2 || n_s <= 0) return;  // "if last - first >= 2"
  // cube_center: the start of the second half (bit n_s - 1), last + 1 if a half is empty.
  const std::uint32_t bit = std::uint32_t{1} << (n_s - 1);
  std::size_t center = first + 1;
  while (center <= last && (chain[center] & bit) == (chain[first] & bit)) ++center;
  weighted_sort(chain, first, center - 1, n_s - 1);
  if (center <= last) weighted_sort(chain, center, last, n_s - 1);
  if (first != 0 && center <= last && (center - first) < (last - center + 1))
    std::rotate(chain.begin() + static_cast<std::ptrdiff_t>(first),
                chain.begin() + static_cast<std::ptrdiff_t>(center),
                chain.begin() + static_cast<std::ptrdiff_t>(last) + 1);  // swap subcubes
}

std::vector<std::uint32_t> weighted_local_order(std::vector<std::uint32_t> block, int n) {
  std::sort(block.begin(), block.end());
  if (block.empty() || block[0] != 0)
    throw std::logic_error("weighted_local_order: the holder (key 0) is not in its block");
  // The holder is at position 0, so the whole-chain rule "first != 0" keeps it first; a
  // local chain has no other block at position 0.
  if (block.size() >= 3) weighted_sort(block, 0, block.size() - 1, n);
  return block;
}

std::uint32_t cube_key(NodeId node, const std::vector<int>& order) {
  const int n = static_cast<int>(order.size());
  std::uint32_t key = 0;
  for (int q = 0; q < n; ++q)
    if ((node >> order[static_cast<std::size_t>(q)]) & 1u) key |= std::uint32_t{1} << (n - 1 - q);
  return key;
}

NodeId cube_node(std::uint32_t key, const std::vector<int>& order) {
  const int n = static_cast<int>(order.size());
  NodeId node = 0;
  for (int q = 0; q < n; ++q)
    if ((key >> (n - 1 - q)) & 1u) node |= NodeId{1} << order[static_cast<std::size_t>(q)];
  return node;
}

CubeMulticast::CubeMulticast(CubeAlgorithm alg, const std::vector<int>& order, NodeId root,
                             const std::vector<NodeId>& destinations, PortModel ports) {
  const int n = static_cast<int>(order.size());
  const std::uint32_t root_key = cube_key(root, order);
  std::vector<std::uint32_t> chain{0};
  for (NodeId d : destinations) {
    if (d == root) throw std::logic_error("CubeMulticast: the root is among the destinations");
    chain.push_back(cube_key(d, order) ^ root_key);
  }
  std::sort(chain.begin(), chain.end());  // the d_0-relative dimension-ordered chain
  if (std::adjacent_find(chain.begin(), chain.end()) != chain.end())
    throw std::logic_error("CubeMulticast: a destination is listed twice");
  if (alg == CubeAlgorithm::kWSort) weighted_sort(chain, 0, chain.size() - 1, n);
  const auto node_of = [&](std::uint32_t rel) { return cube_node(rel ^ root_key, order); };

  // Each holder: its block as relative keys (a range of `chain`, or its own local order for
  // the distributed W-sort) and the step it received in.
  struct Holder {
    std::vector<std::uint32_t> block;
    int step = 0;
  };
  std::vector<Holder> work{{chain, 0}};
  received_.emplace_back(root, 0);
  for (std::size_t w = 0; w < work.size(); ++w) {
    std::vector<std::uint32_t> block = std::move(work[w].block);
    const int step = work[w].step;
    if (alg == CubeAlgorithm::kWSortDistributed) {
      const std::uint32_t self = block[0];
      for (std::uint32_t& k : block) k ^= self;
      block = weighted_local_order(std::move(block), n);
      for (std::uint32_t& k : block) k ^= self;
    }
    const CubeAlgorithm rule =
        alg == CubeAlgorithm::kWSortDistributed ? CubeAlgorithm::kMaxport : alg;
    std::vector<std::pair<int, int>> per_channel;  // (dimension, sends so far)
    int issued = 0;
    for (const ChainSend& s : chain_sends(rule, block, 0, block.size() - 1)) {
      const int bit = cube_delta(block[0], block[s.to]);
      const int dim = order[static_cast<std::size_t>(n - 1 - bit)];
      int offset = ++issued;
      if (ports == PortModel::kAllPort) {
        auto it = std::find_if(per_channel.begin(), per_channel.end(),
                               [&](const auto& p) { return p.first == dim; });
        if (it == per_channel.end()) it = per_channel.insert(per_channel.end(), {dim, 0});
        offset = ++it->second;
      }
      const Send send{node_of(block[0]), node_of(block[s.to]), step + offset, dim};
      sends_.push_back(send);
      received_.emplace_back(send.to, send.step);
      steps_ = std::max(steps_, send.step);
      work.push_back(
          {std::vector<std::uint32_t>(block.begin() + static_cast<std::ptrdiff_t>(s.to),
                                      block.begin() + static_cast<std::ptrdiff_t>(s.last) + 1),
           send.step});
    }
  }
  for (std::uint32_t rel : chain) chain_.push_back(node_of(rel));
  std::sort(received_.begin(), received_.end());
}

int CubeMulticast::receive_step(NodeId n) const {
  const auto it = std::lower_bound(received_.begin(), received_.end(), std::make_pair(n, -1));
  return it != received_.end() && it->first == n ? it->second : -1;
}

std::vector<std::vector<NodeId>> CubeMulticast::groups(NodeId self) const {
  const int base = receive_step(self);
  std::vector<std::vector<NodeId>> out;
  if (base < 0) return out;
  for (const Send& s : sends_) {
    if (s.from != self) continue;
    const auto g = static_cast<std::size_t>(s.step - base - 1);
    if (out.size() <= g) out.resize(g + 1);
    out[g].push_back(s.to);
  }
  return out;
}

}  // namespace wormsim::fw
