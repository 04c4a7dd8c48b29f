// MPI-named collective calls for node firmware (docs/firmware.md, "MPI names"): the
// operations of the collective suite under the names an MPI programmer knows, over every node
// of the machine (MPI_COMM_WORLD; ranks are node ids), each by the algorithm the caller names
// (any algorithm of the operation's kind, `wormsim list`). Buffers follow MPI: scatter's
// `sendbuf` and alltoall's hold one block per rank in rank order, gather's and allgather's
// result likewise; every call returns what MPI leaves in this rank's receive buffer (empty
// where MPI leaves nothing, e.g. reduce at a non-root).
//
// Every node calls the same sequence of collectives (SPMD). A call returns when this node's
// part is done, not when the whole operation is; a node may start the next collective while
// others still finish this one, and algorithms take messages by their own rules, so programs
// that run collectives back to back must not let one operation's messages reach a node still
// in the previous one: the collective harness starts each operation on an idle network, and
// a program of its own separates operations as a real machine's runtime would (the Delta's
// NX by a global synchronisation, seed 002 section 1's supersteps).
#pragma once

#include <cstdint>
#include <vector>

#include "collective.h"

namespace wormsim::fw {

class Communicator {
 public:
  Communicator(Runtime& rt, const FirmwareTables& tables) : rt_(rt), tables_(tables) {}

  int rank() const { return static_cast<int>(rt_.id()); }
  int size() const { return rt_.nodes(); }

  // MPI_Bcast: `data` at the root; every rank returns it.
  std::vector<std::uint8_t> bcast(
      const std::vector<std::uint8_t>& data, NodeId root,
      CollectiveAlgorithm alg = CollectiveAlgorithm::kRecursiveDoubling);
  // MPI_Scatter: the root's `sendbuf` holds size() blocks of `block_bytes` in rank order; every
  // rank returns its block.
  std::vector<std::uint8_t> scatter(
      const std::vector<std::uint8_t>& sendbuf, std::uint32_t block_bytes, NodeId root,
      CollectiveAlgorithm alg = CollectiveAlgorithm::kScatterBinomial);
  // MPI_Gather: every rank's `block`; the root returns all of them in rank order.
  std::vector<std::uint8_t> gather(const std::vector<std::uint8_t>& block, NodeId root,
                                   CollectiveAlgorithm alg = CollectiveAlgorithm::kGatherDirect);
  // MPI_Reduce: the element-wise `op` over every rank's vector of `type`; the root returns it.
  std::vector<std::uint8_t> reduce(const std::vector<std::uint8_t>& data, NodeId root, ReduceOp op,
                                   ReduceType type,
                                   CollectiveAlgorithm alg = CollectiveAlgorithm::kReduceBinomial);
  // With a user operator (MPI_Op_create): reduce_binomial, elements of `element_bytes`.
  std::vector<std::uint8_t> reduce(const std::vector<std::uint8_t>& data, NodeId root,
                                   const Combine& combine, int element_bytes);
  // MPI_Allreduce: every rank returns the reduction.
  std::vector<std::uint8_t> allreduce(
      const std::vector<std::uint8_t>& data, ReduceOp op, ReduceType type,
      CollectiveAlgorithm alg = CollectiveAlgorithm::kAllreduceRecursiveDoubling);
  std::vector<std::uint8_t> allreduce(const std::vector<std::uint8_t>& data, const Combine& combine,
                                      int element_bytes);
  // MPI_Allgather: every rank returns every rank's block in rank order.
  std::vector<std::uint8_t> allgather(
      const std::vector<std::uint8_t>& block,
      CollectiveAlgorithm alg = CollectiveAlgorithm::kAllgatherRing);
  // MPI_Alltoall: `sendbuf` holds size() blocks of `block_bytes`, block j for rank j; every rank
  // returns block i -> this rank of every rank i, in rank order.
  std::vector<std::uint8_t> alltoall(
      const std::vector<std::uint8_t>& sendbuf, std::uint32_t block_bytes,
      CollectiveAlgorithm alg = CollectiveAlgorithm::kAlltoallDirect);
  // MPI_Barrier: returns once every rank has entered.
  void barrier(CollectiveAlgorithm alg = CollectiveAlgorithm::kBarrierDissemination);

 private:
  // An operation of `alg` (checked to be of `kind`, else std::invalid_argument naming the
  // call) with every other node as destination.
  Operation operation(const char* call, CollectiveKind kind, CollectiveAlgorithm alg, NodeId root,
                      std::uint32_t bytes);
  // Runs `op` and returns what this node delivered (`fallback` when it delivers nothing).
  std::vector<std::uint8_t> run(const Operation& op, const std::vector<std::uint8_t>& data,
                                std::vector<std::uint8_t> fallback);

  Runtime& rt_;
  const FirmwareTables& tables_;
  int next_index_ = 0;
};

}  // namespace wormsim::fw
