// Routing of multidestination worms (DESIGN.md section 4; docs/multidestination.md).
//
// path (intermediate reception): the header lists the destinations in path order. A worm
// heads for its current target by the base routing; at the target the router gives every
// flit to a consumption (ejection) channel and, unless the target was the last, forwards it
// toward the next one (absorb and forward, seed 003 section 1, seed 004 section 2.2, seed 000
// section 2.5). A list conforms to the base routing (BRCP, seed 003 after Panda et al.) when
// the worm never leaves the route the base routing gives from the source to the last
// destination: under dimension-ordered or e-cube routing every destination lies on that
// route, in order; under Hamiltonian-path routing the labels rise (or fall) strictly.
//
// tree: the header is the destination set; at each router the worm branches to every output
// port the dimension-ordered routes from the source to its destinations take from here, plus
// the consumption channel when this node is a destination (replication at the branch points
// of the DOR tree).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "flit.h"
#include "header_format.h"  // header_flits, addresses_per_header_flit
#include "multicast_table.h"
#include "route_compute.h"
#include "topology.h"

namespace wormsim {

// One output branch of a worm at a router, and the header it carries on that branch.
struct MulticastBranch {
  RouteResult route;
  NodeId dst = kNoNode;    // current target stamped on the flits of this branch
  std::uint16_t mpos = 0;  // path: position of that target in the list
};

// How the routers read a worm's list from its header flits (network.router.header_decode,
// header_encoding, network.flit_bytes and the node count): what header_flits_read needs.
struct HeaderReading {
  HeaderDecode decode = HeaderDecode::kHeadFlit;
  HeaderEncoding encoding = HeaderEncoding::kAddressList;
  int nodes = 2;
  int flit_bytes = 8;
};

class MulticastRoute {
 public:
  // `per_flit`: addresses per header flit on the minimal router (addresses_per_header_flit).
  MulticastRoute(const Topology& topology, const RouteCompute& route_compute,
                 const MulticastTable& table, PathIr path_ir = PathIr::kFull, int per_flit = 1,
                 const HeaderReading& reading = {})
      : topology_(topology),
        route_compute_(route_compute),
        table_(table),
        path_ir_(path_ir),
        per_flit_(std::max(1, per_flit)),
        reading_(reading) {}

  // Branches of the worm whose head `head` arrived at `here` on (in_port, in_vc): one branch
  // for a worm passing through, two or more where it is absorbed or replicated. `absorbed`
  // (minimal path-IR router): `head` is the address flit that became the head when this
  // router stripped the one before it, so the worm goes to the consumption channel and on
  // toward head's target.
  void branches(NodeId here, const Flit& head, int in_port, int in_vc,
                std::vector<MulticastBranch>& out, bool absorbed = false) const;
  // Minimal path-IR router (PathIr::kMinimal): the head's current address is this node, it is
  // the last address of the head flit and more destinations follow, so the router strips the
  // head flit here (docs/multidestination.md, "The minimal path-IR router"). With more
  // addresses left in the head flit the worm is absorbed and forwarded with that flit.
  bool strips(NodeId here, const Flit& head) const {
    if (path_ir_ != PathIr::kMinimal) return false;
    const MulticastHeader& h = table_.at(head.mcast);
    const std::size_t next = static_cast<std::size_t>(head.mpos) + 1;
    return h.dests[head.mpos] == here && next < h.dests.size() &&
           next % static_cast<std::size_t>(per_flit_) == 0;
  }
  // Whether this is the minimal router: it rewrites a worm's head flit only (its current
  // address advanced within the flit, per_flit > 1), never the other flits, which keep the
  // addresses their source gave them.
  bool strips_addresses() const { return path_ir_ == PathIr::kMinimal; }
  int addresses_per_flit() const { return per_flit_; }
  // Header flits (the head counted, so at least 1) a router at `here` must hold in its buffer
  // before it routes the worm whose head is `head` (docs/multidestination.md, "Header
  // decode"): 1 under header_decode head_flit and on the minimal router (whose head flit holds
  // the current address); under buffered on the full router, a tree worm's whole list, and a
  // path worm at its current target, when another target follows, the flits up to the one
  // that completes the next target's address (entry mpos + 1; with a bit-string, the whole
  // string, as the next member along the path can be any bit). Elsewhere a path worm routes
  // on the target its head carries (Flit::dst). The head carries the destination count with
  // the worm's length, so the last target reads no further entry.
  int header_flits_read(NodeId here, const Flit& head) const;
  // Length in flits (header flits included) of the rest of the worm whose head is `head`
  // (address flits stripped before it excluded).
  int worm_flits(const Flit& head) const { return table_.at(head.mcast).flits - head.index; }

 private:
  const Topology& topology_;
  const RouteCompute& route_compute_;
  const MulticastTable& table_;
  PathIr path_ir_;
  int per_flit_;
  HeaderReading reading_;
};

// Empty when `dests` (in the order given) is a base-routing-conformed path from src; else the
// reason it is not, naming the offending destination.
std::string brcp_violation(const RouteCompute& rc, NodeId src, const std::vector<NodeId>& dests);
// Empty when `dests` is a valid destination list for a `mode` worm from src in a network of
// `nodes` nodes: non-empty, existing nodes other than src, each once, and for path worms
// conforming to the base routing. Else the reason, naming the offending destination.
std::string multicast_list_violation(const RouteCompute& rc, MultidestMode mode, NodeId src,
                                     const std::vector<NodeId>& dests, int nodes);
// Splits an arbitrary destination set into conforming paths from src (each in path order):
// greedy along the base routing, fewest paths first for DOR (destinations grouped on the
// route to the farthest remaining one), the high and low label chains for Hamiltonian paths.
std::vector<std::vector<NodeId>> split_into_paths(const RouteCompute& rc, const Topology& topology,
                                                  NodeId src, std::vector<NodeId> dests);
// A random conforming path of up to m destinations from src (fewer when no route from src is
// that long), for synthetic traffic.
std::vector<NodeId> random_brcp_path(const RouteCompute& rc, const Topology& topology, NodeId src,
                                     int m, std::mt19937_64& rng);
// Router-to-router links a multidestination worm uses: the links of its path (src through the
// list), or the edges of the union of the DOR routes from src (tree).
std::uint64_t multicast_links(const RouteCompute& rc, MultidestMode mode, NodeId src,
                              const std::vector<NodeId>& dests);
// Flit-hops of a path worm of `flits` flits from src along `dests` on the minimal path-IR
// router, whose header flits hold `per_flit` addresses each and which strips a header flit at
// the destination of its last address (unless that is the worm's last): the leg after the
// j-th destination carries flits - floor(j / per_flit) flits.
std::uint64_t stripped_path_flit_hops(const RouteCompute& rc, NodeId src,
                                      const std::vector<NodeId>& dests, int flits,
                                      int per_flit = 1);

}  // namespace wormsim
