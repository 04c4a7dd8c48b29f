// What each node brings to a collective operation and what it must deliver, by the
// operation's kind (CollectiveKind, core/config.h). The harness gives every node its input
// and checks every delivery against these, byte for byte and exactly once; tests and
// algorithms use the same functions, so "correct" has one definition.
//
// Blocks are deterministic pseudo-random bytes that differ per operation, sender and receiver,
// so a block delivered to the wrong node, or in the wrong place, never matches by accident.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "collective.h"
#include "topology.h"

namespace wormsim::fw {

// op.bytes bytes from `from` for `to` (to == kNoNode: a block meant for everybody).
std::vector<std::uint8_t> block(const Operation& op, NodeId from, NodeId to);

// The bytes node `node` holds when the operation starts:
//   broadcast, ping_pong: the root's message at the root, nothing elsewhere;
//   scatter: at the root one block per destination in op.destinations order;
//   gather: every node its own block;
//   all-to-all: every node `nodes` blocks, block j for node j (its own included);
//   barrier: nothing;
//   reduce, allreduce: a vector of small integers (op.reduce_type elements; exact in floating
//   point too, so any reduction order gives the same bits);
//   allgather: its block; transpose: its block for the node at the transposed coordinates.
std::vector<std::uint8_t> input_data(const Operation& op, NodeId node, const Topology& topology);

// What node `node` must deliver, exactly once; nullopt: it delivers nothing.
//   broadcast: every destination, the root's message; ping_pong: the peer and the root (the
//   echo), the root's message; scatter: each destination, its block;
//   gather: the root, every node's block (its own included) in node order (MPI_Gather);
//   all-to-all: node j, block i->j of every node i in order of i, its own included
//   (MPI_Alltoall); barrier: every node, an empty message; reduce: the root, allreduce: every
//   node, the element-wise op.reduce_op of all nodes' vectors; allgather: every node, every
//   node's block in node order; transpose: node (x, y), the block of node (y, x).
std::optional<std::vector<std::uint8_t>> expected_delivery(const Operation& op, NodeId node,
                                                           const Topology& topology);

// The nodes that deliver, in the order latencies are reported (the harness's max and average
// latency are over these).
std::vector<NodeId> receivers(const Operation& op, const Topology& topology);

// Barrier: the cycles after the operation starts at which node `node` enters the barrier.
// Staggered (0 to 990 cycles, a different order in every operation) so that a barrier that
// lets a node out before the last one is in shows up.
Cycle barrier_arrival(const Operation& op, NodeId node);

}  // namespace wormsim::fw
