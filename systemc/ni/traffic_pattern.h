// Synthetic destination patterns for validation and benchmarking (Dally & Towles ch. 3):
//  uniform_random   - any other node, uniformly;
//  transpose        - coordinates reversed: (x,y)->(y,x), (x,y,z)->(z,y,x); on a hypercube
//                     the upper and lower halves of the address bits swap;
//  bit_complement   - every coordinate complemented, c -> k-1-c (equals complementing the
//                     address bits when sides are powers of two);
//  hotspot          - with probability `fraction` a uniformly chosen hotspot node, otherwise
//                     uniform_random;
//  nearest_neighbor - a uniformly chosen node one hop away.
// Deterministic patterns that map a node onto itself (the transpose diagonal, the centre of
// an odd-sided complement) give no destination: such nodes do not inject.
#pragma once

#include <random>
#include <vector>

#include "config.h"
#include "topology.h"

namespace wormsim {

class DestinationPicker {
 public:
  DestinationPicker(const Topology& topology, const TrafficConfig& config);

  // Destination of the next packet from `src`, or kNoNode when src does not inject.
  NodeId pick(NodeId src, std::mt19937_64& rng) const;
  // Whether `src` ever injects under this pattern.
  bool injects(NodeId src) const;

 private:
  NodeId uniform_other(NodeId src, std::mt19937_64& rng) const;
  NodeId permutation(NodeId src) const;

  const Topology& topology_;
  TrafficConfig config_;
};

}  // namespace wormsim
