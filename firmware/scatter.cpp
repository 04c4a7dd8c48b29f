// One-to-all scatter (personalized: each destination gets its own chunk of op.bytes), the
// four schemes Banikazemi and Panda compare (seed 003):
//  - ST, sequential tree (separate addressing, seed 003 section 2.2): the root sends every
//    destination its chunk as a unicast, in dimension-ordered chain order;
//  - BT, binomial tree: recursive halving; each message carries the chunks of the subtree it
//    enters and the receiver forwards the parts that are not its own;
//  - SMT, sequential multidestination tree: the root groups the destinations along
//    base-routing-conformed paths (BRCP) and sends each path one multidestination worm that
//    holds the chunks of all its members in path order; every member absorbs the worm and
//    keeps its own chunk;
//  - HMT, hierarchical multidestination tree: the root sends path worms along its line in the
//    first resolved dimension to the line's leaders, each worm holding the chunks of every
//    leader's group (the nodes that share the leader's coordinate in that dimension); then
//    every leader, and the root for its own group, sends its group SMT-style.
// A receiver finds its chunk by recomputing the sender's (deterministic) path split. Step
// tags follow path_multicast's convention (WormSteps); a leader that is not a destination
// relays without delivering.
#include <algorithm>
#include <map>
#include <stdexcept>

#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

namespace {

using Chunks = std::map<NodeId, std::vector<std::uint8_t>>;

Chunks root_chunks(const Operation& op, const std::vector<std::uint8_t>& data) {
  Chunks c;
  for (NodeId d : op.destinations) c[d] = scatter_chunk(op, data, d);
  return c;
}

std::vector<std::uint8_t> concat(const Chunks& chunks, const std::vector<NodeId>& nodes) {
  std::vector<std::uint8_t> out;
  for (NodeId n : nodes) {
    const std::vector<std::uint8_t>& c = chunks.at(n);
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

// Splits a message that holds the chunks of `nodes` (in that order, op.bytes each).
Chunks split(const Operation& op, const std::vector<std::uint8_t>& data,
             const std::vector<NodeId>& nodes) {
  if (data.size() != nodes.size() * op.bytes)
    throw std::logic_error("scatter: a message holds " + std::to_string(data.size()) +
                           " bytes for " + std::to_string(nodes.size()) + " chunks of " +
                           std::to_string(op.bytes));
  Chunks c;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    c[nodes[i]] = {data.begin() + static_cast<std::ptrdiff_t>(i * op.bytes),
                   data.begin() + static_cast<std::ptrdiff_t>((i + 1) * op.bytes)};
  return c;
}

bool is_destination(const Operation& op, NodeId n) {
  return std::binary_search(op.destinations.begin(), op.destinations.end(), n);
}

std::vector<NodeId> chain_with_root(const Runtime& rt, const Operation& op,
                                    const FirmwareTables& tables) {
  std::vector<NodeId> all = op.destinations;
  all.push_back(op.root);
  return dimension_ordered_chain(rt.topology(), tables.resolution_order, all);
}

// The path (of `paths`) that contains `self`.
const std::vector<NodeId>& path_of(const std::vector<std::vector<NodeId>>& paths, NodeId self) {
  for (const auto& p : paths)
    if (std::find(p.begin(), p.end(), self) != p.end()) return p;
  throw std::logic_error("scatter: node " + std::to_string(self) + " is on no path of its sender");
}

// Sends one worm per conforming path of `group` from this node, each with its members' chunks.
void send_group(Runtime& rt, const std::vector<NodeId>& group, const Chunks& chunks,
                WormSteps& steps) {
  for (const std::vector<NodeId>& path : rt.conforming_paths(group))
    rt.send_multicast(path, concat(chunks, path), steps.next(rt.first_hop(path.front())));
}

// HMT: leader -> the members of its group other than itself (sorted), for all participants.
std::map<NodeId, std::vector<NodeId>> hmt_groups(const Runtime& rt, const Operation& op, int dim) {
  std::map<NodeId, std::vector<NodeId>> groups;
  for (NodeId d : op.destinations) {
    const NodeId leader = line_leader(rt.topology(), dim, op.root, d);
    groups[leader];  // a leader with no other member still has its own chunk to receive
    if (d != leader) groups[leader].push_back(d);
  }
  return groups;
}

}  // namespace

BinomialRole binomial_scatter_role(const std::vector<NodeId>& chain, std::size_t root_index,
                                   NodeId self) {
  BinomialRole role;
  std::size_t lo = 0, hi = chain.size(), holder = root_index;
  const auto range = [&](std::size_t a, std::size_t b) {
    return std::vector<NodeId>(chain.begin() + static_cast<std::ptrdiff_t>(a),
                               chain.begin() + static_cast<std::ptrdiff_t>(b));
  };
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    std::size_t olo = mid, ohi = hi, rep = mid;  // holder in the lower half
    if (holder >= mid) {
      olo = lo;
      ohi = mid;
      rep = mid - 1;
    }
    if (chain[holder] == self) role.sends.push_back({chain[rep], range(olo, ohi)});
    const auto first = chain.begin() + static_cast<std::ptrdiff_t>(olo);
    const auto last = chain.begin() + static_cast<std::ptrdiff_t>(ohi);
    if (std::find(first, last, self) != last) {
      if (chain[rep] == self) role.receives = range(olo, ohi);
      holder = rep;
      lo = olo;
      hi = ohi;
    } else if (holder >= mid) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return role;
}

NodeId line_leader(const Topology& topology, int dim, NodeId root, NodeId n) {
  std::vector<int> c;
  for (int d = 0; d < topology.dimensions(); ++d)
    c.push_back(topology.coord(d == dim ? n : root, d));
  return topology.node_at(c);
}

void run_scatter_sequential(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                            const Deliver& deliver, const FirmwareTables& tables) {
  if (rt.id() == op.root) {
    const std::vector<NodeId> order =
        dimension_ordered_chain(rt.topology(), tables.resolution_order, op.destinations);
    std::uint32_t step = 0;
    for (NodeId d : order) rt.send(d, scatter_chunk(op, data, d), ++step);
  } else if (is_destination(op, rt.id())) {
    deliver(rt.receive().data);
  }
}

void run_scatter_binomial(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver, const FirmwareTables& tables) {
  const NodeId self = rt.id();
  if (!participates(op, self)) return;
  const std::vector<NodeId> chain = chain_with_root(rt, op, tables);
  const std::size_t root_index =
      static_cast<std::size_t>(std::find(chain.begin(), chain.end(), op.root) - chain.begin());
  const BinomialRole role = binomial_scatter_role(chain, root_index, self);
  Chunks chunks;
  std::uint32_t step = 0;
  if (self == op.root) {
    chunks = root_chunks(op, data);
  } else {
    Message m = rt.receive();
    step = m.tag;
    chunks = split(op, m.data, role.receives);
    deliver(chunks.at(self));
  }
  for (std::size_t g = 0; g < role.sends.size(); ++g)
    rt.send(role.sends[g].to, concat(chunks, role.sends[g].carries),
            step + 1 + static_cast<std::uint32_t>(g));
}

void run_scatter_smt(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                     const Deliver& deliver, const FirmwareTables& tables) {
  if (rt.id() == op.root) {
    WormSteps steps(tables.layout, 0);
    send_group(rt, op.destinations, root_chunks(op, data), steps);
  } else if (is_destination(op, rt.id())) {
    const Message m = rt.receive();
    const auto paths = rt.conforming_paths(op.destinations, op.root);
    deliver(split(op, m.data, path_of(paths, rt.id())).at(rt.id()));
  }
}

void run_scatter_hmt(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                     const Deliver& deliver, const FirmwareTables& tables) {
  const NodeId self = rt.id();
  const int dim = tables.resolution_order.front();
  const std::map<NodeId, std::vector<NodeId>> groups = hmt_groups(rt, op, dim);
  std::vector<NodeId> leaders;  // other than the root
  for (const auto& [leader, members] : groups)
    if (leader != op.root) leaders.push_back(leader);
  // What a row worm holds for a leader: its own chunk (when it is a destination), then its
  // group's.
  const auto block_of = [&](NodeId leader) {
    std::vector<NodeId> b;
    if (is_destination(op, leader)) b.push_back(leader);
    const auto it = groups.find(leader);
    if (it != groups.end()) b.insert(b.end(), it->second.begin(), it->second.end());
    return b;
  };
  if (self == op.root) {
    const Chunks chunks = root_chunks(op, data);
    WormSteps steps(tables.layout, 0);
    for (const std::vector<NodeId>& path : rt.conforming_paths(leaders)) {
      std::vector<NodeId> carried;
      for (NodeId l : path) {
        const std::vector<NodeId> b = block_of(l);
        carried.insert(carried.end(), b.begin(), b.end());
      }
      rt.send_multicast(path, concat(chunks, carried), steps.next(rt.first_hop(path.front())));
    }
    const auto own = groups.find(op.root);
    if (own != groups.end() && !own->second.empty()) send_group(rt, own->second, chunks, steps);
    return;
  }
  const bool leader = std::find(leaders.begin(), leaders.end(), self) != leaders.end();
  if (leader) {
    const Message m = rt.receive();
    const auto paths = rt.conforming_paths(leaders, op.root);
    const std::vector<NodeId>& path = path_of(paths, self);
    std::size_t offset = 0;  // chunks before this leader's block in the row worm
    for (NodeId l : path) {
      if (l == self) break;
      offset += block_of(l).size();
    }
    const std::vector<NodeId> mine = block_of(self);
    if (m.data.size() < (offset + mine.size()) * op.bytes)
      throw std::logic_error("scatter_hmt: the row worm is too short for leader " +
                             std::to_string(self) + "'s block");
    const auto begin = m.data.begin() + static_cast<std::ptrdiff_t>(offset * op.bytes);
    const auto end = begin + static_cast<std::ptrdiff_t>(mine.size() * op.bytes);
    const Chunks chunks = split(op, {begin, end}, mine);
    if (is_destination(op, self)) deliver(chunks.at(self));
    WormSteps steps(tables.layout, m.tag);
    const std::vector<NodeId>& group = groups.at(self);
    if (!group.empty()) send_group(rt, group, chunks, steps);
  } else if (is_destination(op, self)) {
    const Message m = rt.receive();
    const NodeId my_leader = line_leader(rt.topology(), dim, op.root, self);
    const auto paths = rt.conforming_paths(groups.at(my_leader), my_leader);
    deliver(split(op, m.data, path_of(paths, self)).at(self));
  }
}

}  // namespace wormsim::fw
