// Destination sets of one source's synthetic multidestination worms (traffic.multicast_pattern,
// docs/config.md). m = traffic.multicast_destinations; a set never holds the source or a node
// twice. Path worms' lists are in path order and conform to the base routing (BRCP,
// routing/multicast_route.h); when no conforming path of the pattern holds m nodes they carry
// fewer, as `random` always has. Tree worms get exactly m nodes (Config::validate() checks
// that the pattern has them).
//   random      tree: m distinct nodes, uniform; path: random_brcp_path().
//   row_column  2D mesh or torus; the candidates are the other nodes of the source's row and
//               column. tree: m of them, uniform. path (dimension order): a conforming path
//               from the source runs along one arm of its row or column, so the worm takes the
//               base route to an end node drawn uniformly among the candidates whose route
//               holds at least m nodes (the longest such route when none does; the first in
//               node order on a tie) and lists m of that route's nodes, uniformly, in route
//               order. path (Hamiltonian): the candidates with a higher label, or those with
//               a lower one (each side drawn with equal chance among the sides of at least m
//               nodes, else the larger side), m of them in label order.
//   hotspot     H = traffic.hotspot.nodes without the source. tree: all of H, then m - |H|
//               distinct other nodes, uniform. path: one node h of H, uniform, is the last
//               destination; the other min(m, r) - 1 are drawn uniformly, in route order, from
//               the r - 1 nodes the base route from the source passes before h (Hamiltonian:
//               the nodes whose labels lie between the source's and h's). A source whose H is
//               empty draws as `random`.
#pragma once

#include <random>
#include <vector>

#include "config.h"
#include "route_compute.h"
#include "topology.h"

namespace wormsim {

class MulticastDestinations {
 public:
  // `hotspots` is traffic.hotspot.nodes (read for pattern hotspot only).
  MulticastDestinations(MulticastPattern pattern, MultidestMode mode, int m,
                        const std::vector<NodeId>& hotspots, const Topology& topology,
                        const RouteCompute& route_compute, NodeId src);

  // The destination list of the next worm (never empty for m >= 1 in a network of 2+ nodes).
  std::vector<NodeId> draw(std::mt19937_64& rng) const;

 private:
  std::vector<NodeId> draw_tree(std::mt19937_64& rng) const;
  std::vector<NodeId> draw_path(std::mt19937_64& rng) const;
  // The nodes a conforming path from the source may list on its way to `end`, end last.
  std::vector<NodeId> path_to(NodeId end) const;

  MulticastPattern pattern_;
  MultidestMode mode_;
  int m_;
  const Topology& topology_;
  const RouteCompute& route_compute_;
  NodeId src_;
  std::vector<NodeId> candidates_;  // row_column: the source's row and column
  std::vector<NodeId> hot_;         // hotspot: H
  std::vector<NodeId> ends_;        // row_column path (dimension order): eligible end nodes
  std::vector<NodeId> high_, low_;  // row_column path (Hamiltonian): the two label chains
};

// `want` of `nodes`, uniformly, keeping their order (selection sampling).
std::vector<NodeId> pick_in_order(const std::vector<NodeId>& nodes, std::size_t want,
                                  std::mt19937_64& rng);

}  // namespace wormsim
