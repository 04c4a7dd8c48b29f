// Seed 004's multicast virtual topologies as firmware over path worms (network.router.multidest:
// path, intermediate reception; seed 004 section 5): each node runs its part of the pure
// schedules of m_array.h. A channel's multicast is one path worm per base-routing-conformed
// path of its members (one worm under Hamiltonian routing, whose order the array follows,
// section 5.1; a row or column worm under dimension-ordered routing in the M-mesh); every worm
// of a schedule step carries that step as its tag, so the harness's step count is the
// schedule's.
//  - m_array, rem_array: broadcast / multicast (array_broadcast) over the participants in path
//    order (Hamiltonian labels, else the dimension-ordered chain), not rotated: the root keeps
//    its position, as node 1010 in Example 1.
//  - m_mesh: m_mesh_broadcast on a 2D mesh (Definition 4).
//  - m_array_allreduce, m_array_reduce, m_mesh_allreduce: the N/N global reduction
//    (array_reduction, m_mesh_reduction) with the operation's operator; a node combines the
//    lower positions' partial first, so every node computes the same result for any operator;
//    m_array_reduce: only the root delivers.
//  - m_array_allgather: all-to-all broadcast as the N/N reduction with concatenation as the
//    operator (section 4): a level-i message carries the 2^i blocks of the sender's block.
//  - rem_array_allreduce: the same N/N reduction, named for the REM-array: array_reduction uses
//    only REM-array channels, so the worms are m_array_allreduce's (docs/multidestination.md).
//  - rem_array_reduce: rem_array_reduce's pruned schedule to the root (N - 1 channel
//    multicasts); a node combines what it receives until it has sent its block's result on, and
//    only takes the later channel messages (they are for its block's target).
//  - m_mesh_allgather: all-to-all broadcast on the M-mesh, m_mesh_reduction with concatenation:
//    a message carries its sender's m_mesh_gathered blocks, row blocks, then whole rows.
//  - tree_rowcol_allgather: the unicast baseline of Table 1 for all-to-all broadcast on the
//    same binomial trees as tree_rowcol_allreduce: gather along every row to column 0, along
//    column 0 to node (0, 0), each message the sender's contiguous blocks; then the N blocks
//    back down column 0 and along the rows; 2 (ceil(log2 cols) + ceil(log2 rows)) steps.
//  - tree_rowcol_allreduce: the seed's unicast baseline, "a spanning binomial tree in each row
//    and column" (Table 1, Fig. 7): binomial reduction along every row to column 0, along
//    column 0 to node (0, 0), then binomial broadcast back down column 0 and along the rows;
//    2 (ceil(log2 cols) + ceil(log2 rows)) steps.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "collective.h"
#include "m_array.h"
#include "mailbox.h"
#include "tree_forward.h"

namespace wormsim::fw {

namespace {

// `nodes` in the order of the array: Hamiltonian labels, else the dimension-ordered chain.
std::vector<NodeId> array_order(const Runtime& rt, std::vector<NodeId> nodes,
                                const FirmwareTables& tables) {
  if (rt.hamiltonian_label(nodes.front()) >= 0) {
    std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
      return rt.hamiltonian_label(a) < rt.hamiltonian_label(b);
    });
    return nodes;
  }
  return dimension_ordered_chain(rt.topology(), tables.resolution_order, std::move(nodes));
}

std::uint32_t position_of(const std::vector<NodeId>& order, NodeId n) {
  const auto it = std::find(order.begin(), order.end(), n);
  if (it == order.end()) throw std::logic_error("m_array: node is not in the array");
  return static_cast<std::uint32_t>(it - order.begin());
}

// One channel multicast: a path worm per conforming path of `members`, all tagged `step`.
void multicast(Runtime& rt, const std::vector<NodeId>& members,
               const std::vector<std::uint8_t>& data, int step) {
  for (const std::vector<NodeId>& path : rt.conforming_paths(members))
    rt.send_multicast(path, data, static_cast<std::uint32_t>(step));
}

// A schedule in node ids: the array's positions mapped through `node`.
struct Send {
  int step = 0;
  NodeId from = kNoNode;
  std::vector<NodeId> to;
};
template <typename S, typename Node>
std::vector<Send> in_nodes(const std::vector<S>& sends, Node node) {
  std::vector<Send> out;
  for (const S& s : sends) {
    Send n{s.step, node(s.from), {}};
    for (std::uint32_t p : s.to) n.to.push_back(node(p));
    out.push_back(std::move(n));
  }
  return out;
}

// The grid of a 2D mesh: position x + y * cols is node (x, y).
struct Grid {
  int cols = 0;
  int rows = 0;
  const Topology* topology = nullptr;
  NodeId node(std::uint32_t p) const {
    const auto c = static_cast<std::uint32_t>(cols);
    return topology->node_at({static_cast<int>(p % c), static_cast<int>(p / c)});
  }
  std::uint32_t position(NodeId n) const {
    return static_cast<std::uint32_t>(topology->coord(n, 0) + topology->coord(n, 1) * cols);
  }
};
Grid grid_of(const Runtime& rt) {
  if (rt.topology().dimensions() != 2) throw std::logic_error("m_mesh: needs a 2D mesh");
  return {rt.topology().side(0), rt.topology().side(1), &rt.topology()};
}

// Receive-then-forward of a broadcast schedule.
void run_schedule_broadcast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                            const Deliver& deliver, const std::vector<Send>& sends) {
  const NodeId self = rt.id();
  std::vector<std::uint8_t> payload;
  std::uint32_t step = 0;
  if (self == op.root) {
    payload = data;
  } else {
    Message m = rt.receive();
    payload = std::move(m.data);
    step = m.tag;
    deliver(payload);
  }
  for (const Send& s : sends)
    if (s.from == self) {
      if (static_cast<std::uint32_t>(s.step) <= step)
        throw std::logic_error("m_array: a send scheduled before its sender holds the message");
      multicast(rt, s.to, payload, s.step);
    }
}

void charge(Runtime& rt, const Operation& op, Cycle combine_cycles) {
  const auto elements =
      static_cast<Cycle>(op.bytes) / static_cast<Cycle>(element_bytes(op.reduce_type));
  if (combine_cycles > 0) rt.compute(elements * combine_cycles);
}

// Everyone's node ids in array order (m_array_*) or grid order (m_mesh_*): position p is
// order[p].
std::vector<NodeId> all_nodes(const Runtime& rt) {
  std::vector<NodeId> all;
  for (int n = 0; n < rt.nodes(); ++n) all.push_back(static_cast<NodeId>(n));
  return all;
}

// The N/N reduction schedule of the run, in node ids, and this node's position map.
std::vector<Send> reduction_sends(const Runtime& rt, const Operation& op,
                                  const FirmwareTables& tables, std::vector<NodeId>& order) {
  if (op.algorithm == CollectiveAlgorithm::kMMeshAllreduce) {
    const Grid g = grid_of(rt);
    order.assign(static_cast<std::size_t>(rt.nodes()), kNoNode);
    for (std::uint32_t p = 0; p < order.size(); ++p) order[p] = g.node(p);
    return in_nodes(m_mesh_reduction(g.cols, g.rows), [&](std::uint32_t p) { return order[p]; });
  }
  order = array_order(rt, all_nodes(rt), tables);
  if (op.algorithm == CollectiveAlgorithm::kRemArrayReduce)
    return in_nodes(rem_array_reduce(order.size(), position_of(order, op.root)),
                    [&](std::uint32_t p) { return order[p]; });
  return in_nodes(array_reduction(order.size()), [&](std::uint32_t p) { return order[p]; });
}

}  // namespace

void run_m_array_broadcast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                           const Deliver& deliver, const FirmwareTables& tables) {
  if (!participates(op, rt.id())) return;
  if (op.algorithm == CollectiveAlgorithm::kMMesh) {
    const Grid g = grid_of(rt);
    return run_schedule_broadcast(rt, op, data, deliver,
                                  in_nodes(m_mesh_broadcast(g.cols, g.rows, g.position(op.root)),
                                           [&](std::uint32_t p) { return g.node(p); }));
  }
  std::vector<NodeId> members = op.destinations;
  members.push_back(op.root);
  const std::vector<NodeId> order = array_order(rt, members, tables);
  const ArrayTopology t = op.algorithm == CollectiveAlgorithm::kMArray ? ArrayTopology::kMArray
                                                                       : ArrayTopology::kRemArray;
  run_schedule_broadcast(rt, op, data, deliver,
                         in_nodes(array_broadcast(t, order.size(), position_of(order, op.root)),
                                  [&](std::uint32_t p) { return order[p]; }));
}

void run_m_array_reduction(Runtime& rt, const Operation& op, std::vector<std::uint8_t> data,
                           const Deliver& deliver, const Combine& combine,
                           const FirmwareTables& tables) {
  std::vector<NodeId> order;
  const std::vector<Send> sends = reduction_sends(rt, op, tables, order);
  const NodeId self = rt.id();
  const std::uint32_t me = position_of(order, self);
  int steps = 0;
  for (const Send& s : sends) steps = std::max(steps, s.step);
  Mailbox box(rt);
  bool passed_on = false;  // rem_array_reduce: this node has sent its block's result on
  for (int step = 1; step <= steps; ++step) {
    NodeId from = kNoNode;
    for (const Send& s : sends) {
      if (s.step != step) continue;
      if (s.from == self) {
        multicast(rt, s.to, data, step);
        passed_on = op.algorithm == CollectiveAlgorithm::kRemArrayReduce;
      }
      if (std::find(s.to.begin(), s.to.end(), self) != s.to.end()) from = s.from;
    }
    if (from == kNoNode) continue;
    std::vector<std::uint8_t> theirs = box.take(from, static_cast<std::uint32_t>(step)).data;
    if (passed_on) continue;
    if (position_of(order, from) > me) {
      combine(data, theirs);
    } else {
      combine(theirs, data);
      data = std::move(theirs);
    }
    charge(rt, op, tables.combine_cycles_per_element);
  }
  if (box.unclaimed() > 0) throw std::logic_error("m_array reduction: unexpected messages");
  const bool to_root = op.algorithm == CollectiveAlgorithm::kMArrayReduce ||
                       op.algorithm == CollectiveAlgorithm::kRemArrayReduce;
  if (!to_root || self == op.root) deliver(data);
}

void run_m_array_allgather(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                           const Deliver& deliver, const FirmwareTables& tables) {
  const std::vector<NodeId> order = array_order(rt, all_nodes(rt), tables);
  const std::size_t p = order.size();
  const std::uint32_t me = position_of(order, rt.id());
  // blocks[q]: the block of position q; this node holds those of its level-i block after
  // step i, contiguous positions [lo, hi).
  std::vector<std::vector<std::uint8_t>> blocks(p);
  blocks[me] = data;
  std::uint32_t lo = me, hi = me + 1;
  Mailbox box(rt);
  const std::vector<ArraySend> sends = array_reduction(p);
  for (int level = 0; level < array_levels(p); ++level) {
    const int step = level + 1;
    for (const ArraySend& s : sends)
      if (s.step == step && s.from == me) {
        std::vector<std::uint8_t> message;
        for (std::uint32_t q = lo; q < hi; ++q)
          message.insert(message.end(), blocks[q].begin(), blocks[q].end());
        std::vector<NodeId> to;
        for (std::uint32_t q : s.to) to.push_back(order[q]);
        multicast(rt, to, message, step);
      }
    // The sender is the boundary node of this node's sibling block, and its message that
    // block's blocks in position order.
    const std::vector<std::uint32_t> sib = sibling_block(p, me, level);
    if (sib.empty()) continue;
    const NodeId from = order[boundary_node(sib.front(), level)];
    const std::vector<std::uint8_t> m = box.take(from, static_cast<std::uint32_t>(step)).data;
    if (m.size() != sib.size() * op.bytes)
      throw std::logic_error("m_array_allgather: message of " + std::to_string(m.size()) +
                             " bytes for " + std::to_string(sib.size()) + " blocks");
    for (std::size_t k = 0; k < sib.size(); ++k)
      blocks[sib[k]].assign(m.begin() + static_cast<std::ptrdiff_t>(k * op.bytes),
                            m.begin() + static_cast<std::ptrdiff_t>((k + 1) * op.bytes));
    lo = std::min(lo, sib.front());
    hi = std::max(hi, sib.back() + 1);
  }
  if (box.unclaimed() > 0) throw std::logic_error("m_array_allgather: unexpected messages");
  std::vector<std::uint8_t> all;
  all.reserve(p * op.bytes);
  for (std::uint32_t n = 0; n < p; ++n) {
    const std::vector<std::uint8_t>& b = blocks[position_of(order, n)];
    all.insert(all.end(), b.begin(), b.end());
  }
  deliver(all);
}

void run_tree_rowcol_allreduce(Runtime& rt, const Operation& op, std::vector<std::uint8_t> data,
                               const Deliver& deliver, const Combine& combine,
                               Cycle combine_cycles) {
  const Topology& topo = rt.topology();
  if (topo.dimensions() != 2) throw std::logic_error("tree_rowcol_allreduce: needs a 2D mesh");
  const int x = topo.coord(rt.id(), 0), y = topo.coord(rt.id(), 1);
  const int cols = topo.side(0), rows = topo.side(1);
  const int nc = array_levels(static_cast<std::size_t>(cols));
  const int nr = array_levels(static_cast<std::size_t>(rows));
  Mailbox box(rt);
  // Binomial reduction along a line toward rank 0 (rank r = coordinate), rounds tagged
  // base + 1...; returns false once this node has sent its partial on.
  const auto reduce_line = [&](int rank, int length, int levels, std::uint32_t base,
                               const auto& node) {
    for (int k = 0; k < levels; ++k) {
      const int mask = 1 << k;
      const auto tag = base + static_cast<std::uint32_t>(k + 1);
      if (rank & mask) {
        rt.send(node(rank - mask), data, tag);
        return false;
      }
      if (rank + mask < length) {
        combine(data, box.take(node(rank + mask), tag).data);
        charge(rt, op, combine_cycles);
      }
    }
    return true;
  };
  // Binomial broadcast along a line from rank 0, largest half first.
  const auto broadcast_line = [&](int rank, int length, int levels, std::uint32_t base,
                                  const auto& node) {
    for (int j = 0; j < levels; ++j) {
      const int mask = 1 << (levels - 1 - j);
      const auto tag = base + static_cast<std::uint32_t>(j + 1);
      if (rank % (2 * mask) == mask)
        data = box.take(node(rank - mask), tag).data;
      else if (rank % (2 * mask) == 0 && rank + mask < length)
        rt.send(node(rank + mask), data, tag);
    }
  };
  const auto in_row = [&](int r) { return topo.node_at({r, y}); };
  const auto in_column0 = [&](int r) { return topo.node_at({0, r}); };
  const auto b = [](int v) { return static_cast<std::uint32_t>(v); };
  if (reduce_line(x, cols, nc, 0, in_row) && x == 0) {
    reduce_line(y, rows, nr, b(nc), in_column0);
  }
  if (x == 0) broadcast_line(y, rows, nr, b(nc + nr), in_column0);
  broadcast_line(x, cols, nc, b(nc + 2 * nr), in_row);
  if (box.unclaimed() > 0) throw std::logic_error("tree_rowcol_allreduce: unexpected messages");
  deliver(data);
}

namespace {

// The copy of `count` blocks of `bytes` from block `first` of `all`.
std::vector<std::uint8_t> blocks_of(const std::vector<std::uint8_t>& all, std::size_t first,
                                    std::size_t count, std::size_t bytes) {
  const auto begin = all.begin() + static_cast<std::ptrdiff_t>(first * bytes);
  return {begin, begin + static_cast<std::ptrdiff_t>(count * bytes)};
}

// Places `m` (`count` blocks) at block `first` of `all`, checking its size.
void place_blocks(std::vector<std::uint8_t>& all, std::size_t first, std::size_t count,
                  std::size_t bytes, const std::vector<std::uint8_t>& m, const char* who) {
  if (m.size() != count * bytes)
    throw std::logic_error(std::string(who) + ": message of " + std::to_string(m.size()) +
                           " bytes for " + std::to_string(count) + " blocks");
  std::copy(m.begin(), m.end(), all.begin() + static_cast<std::ptrdiff_t>(first * bytes));
}

// Every node's block in node order from `all`, indexed by grid position.
std::vector<std::uint8_t> in_node_order(const Runtime& rt, const Grid& g,
                                        const std::vector<std::uint8_t>& all, std::size_t bytes) {
  std::vector<std::uint8_t> out;
  out.reserve(all.size());
  for (int n = 0; n < rt.nodes(); ++n) {
    const std::vector<std::uint8_t> b =
        blocks_of(all, g.position(static_cast<NodeId>(n)), 1, bytes);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

}  // namespace

void run_m_mesh_allgather(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver) {
  const Grid g = grid_of(rt);
  const std::size_t bytes = op.bytes;
  const std::uint32_t me = g.position(rt.id());
  // all: every grid position's block, those this node holds filled in.
  std::vector<std::uint8_t> all(static_cast<std::size_t>(rt.nodes()) * bytes);
  place_blocks(all, me, 1, bytes, data, "m_mesh_allgather");
  const std::vector<MeshSend> sends = m_mesh_reduction(g.cols, g.rows);
  int steps = 0;
  for (const MeshSend& s : sends) steps = std::max(steps, s.step);
  Mailbox box(rt);
  for (int step = 1; step <= steps; ++step) {
    std::uint32_t from = 0;
    bool receives = false;
    for (const MeshSend& s : sends) {
      if (s.step != step) continue;
      if (s.from == me) {
        std::vector<std::uint8_t> message;
        for (std::uint32_t q : m_mesh_gathered(g.cols, g.rows, me, step - 1)) {
          const std::vector<std::uint8_t> b = blocks_of(all, q, 1, bytes);
          message.insert(message.end(), b.begin(), b.end());
        }
        std::vector<NodeId> to;
        for (std::uint32_t q : s.to) to.push_back(g.node(q));
        multicast(rt, to, message, step);
      }
      if (std::find(s.to.begin(), s.to.end(), me) != s.to.end()) {
        from = s.from;
        receives = true;
      }
    }
    if (!receives) continue;
    // The sender's blocks are contiguous in position order: a piece of a row or whole rows.
    const std::vector<std::uint32_t> theirs = m_mesh_gathered(g.cols, g.rows, from, step - 1);
    place_blocks(all, theirs.front(), theirs.size(), bytes,
                 box.take(g.node(from), static_cast<std::uint32_t>(step)).data, "m_mesh_allgather");
  }
  if (box.unclaimed() > 0) throw std::logic_error("m_mesh_allgather: unexpected messages");
  deliver(in_node_order(rt, g, all, bytes));
}

void run_tree_rowcol_allgather(Runtime& rt, const Operation& op,
                               const std::vector<std::uint8_t>& data, const Deliver& deliver) {
  const Grid g = grid_of(rt);
  const std::size_t bytes = op.bytes;
  const int x = g.topology->coord(rt.id(), 0), y = g.topology->coord(rt.id(), 1);
  const int nc = array_levels(static_cast<std::size_t>(g.cols));
  const int nr = array_levels(static_cast<std::size_t>(g.rows));
  const auto cols = static_cast<std::size_t>(g.cols);
  const auto u = [](int v) { return static_cast<std::size_t>(v); };
  const auto tag = [](int v) { return static_cast<std::uint32_t>(v); };
  std::vector<std::uint8_t> all(static_cast<std::size_t>(rt.nodes()) * bytes);
  place_blocks(all, u(y) * cols + u(x), 1, bytes, data, "tree_rowcol_allgather");
  Mailbox box(rt);
  // Binomial gather along a line toward rank 0: in round k a rank with bit k set sends the
  // blocks of ranks [rank, rank + 2^k) to rank - 2^k; a line rank is `unit` blocks starting
  // at block first(rank). Returns whether this node gathered its whole line.
  const auto gather_line = [&](int rank, int length, int levels, int base, std::size_t unit,
                               const auto& first, const auto& node) {
    for (int k = 0; k < levels; ++k) {
      const int mask = 1 << k;
      if (rank & mask) {
        const int end = std::min(rank + mask, length);
        rt.send(node(rank - mask), blocks_of(all, first(rank), u(end - rank) * unit, bytes),
                tag(base + k + 1));
        return false;
      }
      if (rank + mask < length) {
        const int end = std::min(rank + 2 * mask, length);
        place_blocks(all, first(rank + mask), u(end - rank - mask) * unit, bytes,
                     box.take(node(rank + mask), tag(base + k + 1)).data, "tree_rowcol_allgather");
      }
    }
    return true;
  };
  // Binomial broadcast of every block along a line from rank 0, largest half first.
  const auto broadcast_line = [&](int rank, int length, int levels, int base, const auto& node) {
    for (int j = 0; j < levels; ++j) {
      const int mask = 1 << (levels - 1 - j);
      if (rank % (2 * mask) == mask)
        place_blocks(all, 0, u(rt.nodes()), bytes,
                     box.take(node(rank - mask), tag(base + j + 1)).data, "tree_rowcol_allgather");
      else if (rank % (2 * mask) == 0 && rank + mask < length)
        rt.send(node(rank + mask), all, tag(base + j + 1));
    }
  };
  const auto in_row = [&](int r) { return g.topology->node_at({r, y}); };
  const auto in_column0 = [&](int r) { return g.topology->node_at({0, r}); };
  const auto row_block = [&](int r) { return u(y) * cols + u(r); };
  const auto row_start = [&](int r) { return u(r) * cols; };
  if (gather_line(x, g.cols, nc, 0, 1, row_block, in_row) && x == 0)
    gather_line(y, g.rows, nr, nc, cols, row_start, in_column0);
  if (x == 0) broadcast_line(y, g.rows, nr, nc + nr, in_column0);
  broadcast_line(x, g.cols, nc, nc + 2 * nr, in_row);
  if (box.unclaimed() > 0) throw std::logic_error("tree_rowcol_allgather: unexpected messages");
  deliver(in_node_order(rt, g, all, bytes));
}

}  // namespace wormsim::fw
