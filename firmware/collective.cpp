// Dispatch of collective operations and the firmware tables.
#include "collective.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormsim::fw {

std::vector<int> resolution_order(const Config& config) {
  const int dims = config.network.topology.kind == TopologyKind::kHypercube
                       ? config.network.topology.hypercube_dimension
                       : static_cast<int>(config.network.topology.dims.size());
  std::vector<int> order;
  if (config.network.topology.kind == TopologyKind::kHypercube) {
    for (int d = 0; d < dims; ++d) order.push_back(d);
    if (config.network.routing.ecube_order == EcubeOrder::kHighToLow)
      std::reverse(order.begin(), order.end());
  } else if (!config.network.routing.order.empty()) {
    order = config.network.routing.order;
  } else {
    for (int d = 0; d < dims; ++d) order.push_back(d);
  }
  return order;
}

FirmwareTables make_firmware_tables(const Config& config) {
  FirmwareTables t;
  t.resolution_order = resolution_order(config);
  const RouterConfig& r = config.network.router;
  t.layout = PortLayout::make(r.port_model, Topology(config.network.topology).network_ports(),
                              r.ports, r.consumption_channels);
  t.combine_cycles_per_element = config.node.combine_cycles_per_element;
  t.multidest = r.multidest;
  const auto& algs = config.collective.algorithms;
  const auto uses = [&](CollectiveAlgorithm a) {
    return config.workload == Workload::kCollective &&
           std::find(algs.begin(), algs.end(), a) != algs.end();
  };
  int k = 0;
  if (uses(CollectiveAlgorithm::kEdnTranspose))
    while ((1 << k) < config.network.topology.dims.at(0)) ++k;
  const bool torus = config.network.topology.kind == TopologyKind::kTorus;
  const std::vector<int>& dims = config.network.topology.dims;
  // The general constructions are searches (EdnMesh, the reduction's completion); validation
  // admits every 2D mesh, so a size for which a search finds nothing is reported as a
  // configuration error naming the algorithm, not as a firmware fault.
  const auto build = [&](CollectiveAlgorithm a, auto make) {
    try {
      return make();
    } catch (const std::logic_error& e) {
      const auto i =
          static_cast<std::size_t>(std::find(algs.begin(), algs.end(), a) - algs.begin());
      throw ConfigError("collective.algorithms[" + std::to_string(i) + "]",
                        to_string(a) + ": no pattern for this network: " + e.what());
    }
  };
  if (uses(CollectiveAlgorithm::kEdnBroadcast) && torus)
    t.edn_torus = std::make_shared<const EdnTorusPattern>(dims);
  if (uses(CollectiveAlgorithm::kEdnBroadcast) && !torus) {
    // 2^k x 2^k squares keep the Appendix A pattern (Table 3.1); every other mesh EdnMesh.
    if (dims.size() == 2 && dims[0] == dims[1] && dims[0] >= 4 && (dims[0] & (dims[0] - 1)) == 0) {
      while ((1 << k) < dims[0]) ++k;
      t.edn = std::make_shared<const EdnPattern>(k);
    } else {
      t.edn_mesh = build(CollectiveAlgorithm::kEdnBroadcast,
                         [&] { return std::make_shared<const EdnMesh>(dims); });
    }
  }
  for (CollectiveAlgorithm a : {CollectiveAlgorithm::kEdnReduce, CollectiveAlgorithm::kEdnGather})
    if (uses(a) && !t.edn_reduction)
      t.edn_reduction = build(a, [&] { return std::make_shared<const EdnReduction>(dims); });
  if (uses(CollectiveAlgorithm::kEdnTranspose))
    t.edn_transpose = std::make_shared<const EdnTranspose>(k);
  if (uses(CollectiveAlgorithm::kSldBroadcast))
    t.sld = std::make_shared<const SldPattern>(config.network.topology.dims.at(0),
                                               config.network.topology.dims.at(1));
  return t;
}

std::vector<std::uint8_t> scatter_chunk(const Operation& op, const std::vector<std::uint8_t>& data,
                                        NodeId dst) {
  const auto it = std::lower_bound(op.destinations.begin(), op.destinations.end(), dst);
  if (it == op.destinations.end() || *it != dst)
    throw std::logic_error("scatter_chunk: node " + std::to_string(dst) + " is not a destination");
  const std::size_t offset = static_cast<std::size_t>(it - op.destinations.begin()) * op.bytes;
  if (data.size() < offset + op.bytes)
    throw std::logic_error("scatter_chunk: the scatter buffer is too short");
  return {data.begin() + static_cast<std::ptrdiff_t>(offset),
          data.begin() + static_cast<std::ptrdiff_t>(offset + op.bytes)};
}

std::uint32_t WormSteps::next(int first_hop_port) {
  if (!all_port_) return base_ + ++count_;
  for (auto& [port, n] : per_port_)
    if (port == first_hop_port) return base_ + ++n;
  per_port_.emplace_back(first_hop_port, 1);
  return base_ + 1;
}

void run_ping_pong(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                   const Deliver& deliver);
void run_separate_addressing(Runtime& rt, const Operation& op,
                             const std::vector<std::uint8_t>& data, const Deliver& deliver,
                             const FirmwareTables& tables);
void run_recursive_doubling(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                            const Deliver& deliver, const FirmwareTables& tables);
void run_dimensional_broadcast(Runtime& rt, const Operation& op,
                               const std::vector<std::uint8_t>& data, const Deliver& deliver,
                               const FirmwareTables& tables);
void run_edn_broadcast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver, const FirmwareTables& tables);

void run_path_multicast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver, const PortLayout& layout);
void run_tree_multicast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver);
void run_array_multicast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                         const Deliver& deliver, const FirmwareTables& tables);
void run_scatter_sequential(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                            const Deliver& deliver, const FirmwareTables& tables);
void run_scatter_binomial(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver, const FirmwareTables& tables);
void run_scatter_smt(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                     const Deliver& deliver, const FirmwareTables& tables);
void run_scatter_hmt(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                     const Deliver& deliver, const FirmwareTables& tables);
void run_gather_direct(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver);
void run_o2a_plan(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                  const Deliver& deliver);
void run_a2o_plan(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                  const Deliver& deliver);
void run_alltoall_direct(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                         const Deliver& deliver);
// The all-to-alls of seed 002 sections 5.1-5.3 other than 1-lev-dir, from a2a::program.
void run_alltoall_program(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver);
void run_barrier_dissemination(Runtime& rt, const Operation& op, const Deliver& deliver);
void run_allgather_ring(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver);
void run_allgather_multicast(Runtime& rt, const Operation& op,
                             const std::vector<std::uint8_t>& data, const Deliver& deliver,
                             const PortLayout& layout, MultidestMode multidest);
void run_direct_transpose(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver);
void run_edn_transpose(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver, const FirmwareTables& tables);
void run_edn_reduce(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                    const Deliver& deliver, const FirmwareTables& tables);
void run_edn_gather(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                    const Deliver& deliver, const FirmwareTables& tables);
void run_u_torus(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                 const Deliver& deliver, const FirmwareTables& tables);

void run_m_array_broadcast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                           const Deliver& deliver, const FirmwareTables& tables);
void run_m_array_reduction(Runtime& rt, const Operation& op, std::vector<std::uint8_t> data,
                           const Deliver& deliver, const Combine& combine,
                           const FirmwareTables& tables);
void run_m_array_allgather(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                           const Deliver& deliver, const FirmwareTables& tables);
void run_tree_rowcol_allreduce(Runtime& rt, const Operation& op, std::vector<std::uint8_t> data,
                               const Deliver& deliver, const Combine& combine,
                               Cycle combine_cycles);
void run_m_mesh_allgather(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver);
void run_tree_rowcol_allgather(Runtime& rt, const Operation& op,
                               const std::vector<std::uint8_t>& data, const Deliver& deliver);

void run_cube_multicast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver, const FirmwareTables& tables);
void run_scatter_collect(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                         const Deliver& deliver, const FirmwareTables& tables);
void run_fibonacci_tree(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver, const FirmwareTables& tables);

void run_sld_broadcast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver, const FirmwareTables& tables);

void run_collective(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                    const Deliver& deliver, const FirmwareTables& tables) {
  switch (op.algorithm) {
    case CollectiveAlgorithm::kPingPong: return run_ping_pong(rt, op, data, deliver);
    case CollectiveAlgorithm::kSeparateAddressing:
      return run_separate_addressing(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kRecursiveDoubling:
    case CollectiveAlgorithm::kRecursiveDoublingRotated:
      return run_recursive_doubling(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kDimensionalBroadcast:
      return run_dimensional_broadcast(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kEdnBroadcast:
      return run_edn_broadcast(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kPathMulticast:
      return run_path_multicast(rt, op, data, deliver, tables.layout);
    case CollectiveAlgorithm::kTreeMulticast: return run_tree_multicast(rt, op, data, deliver);
    case CollectiveAlgorithm::kMArray:
    case CollectiveAlgorithm::kRemArray:
    case CollectiveAlgorithm::kMMesh: return run_m_array_broadcast(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kScatterSequential:
      return run_scatter_sequential(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kScatterBinomial:
      return run_scatter_binomial(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kScatterSmt: return run_scatter_smt(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kScatterHmt: return run_scatter_hmt(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kGatherDirect: return run_gather_direct(rt, op, data, deliver);
    case CollectiveAlgorithm::kAlltoallDirect: return run_alltoall_direct(rt, op, data, deliver);
    case CollectiveAlgorithm::kAlltoallLinear:
    case CollectiveAlgorithm::kAlltoallXor:
    case CollectiveAlgorithm::kAlltoallBalanced:
    case CollectiveAlgorithm::kAlltoallSquare:
    case CollectiveAlgorithm::kAlltoallColumnRow:
    case CollectiveAlgorithm::kAlltoallColumnRowInt:
    case CollectiveAlgorithm::kAlltoallButterfly:
      return run_alltoall_program(rt, op, data, deliver);
    case CollectiveAlgorithm::kBarrierDissemination:
      return run_barrier_dissemination(rt, op, deliver);
    case CollectiveAlgorithm::kReduceBinomial:
      return reduce_binomial(rt, op, data, deliver, builtin_combine(op.reduce_op, op.reduce_type),
                             tables.combine_cycles_per_element);
    case CollectiveAlgorithm::kAllreduceRecursiveDoubling:
      return allreduce_recursive_doubling(rt, op, data, deliver,
                                          builtin_combine(op.reduce_op, op.reduce_type),
                                          tables.combine_cycles_per_element);
    case CollectiveAlgorithm::kAllgatherRing: return run_allgather_ring(rt, op, data, deliver);
    case CollectiveAlgorithm::kAllgatherMulticast:
      return run_allgather_multicast(rt, op, data, deliver, tables.layout, tables.multidest);
    case CollectiveAlgorithm::kDirectTranspose: return run_direct_transpose(rt, op, data, deliver);
    case CollectiveAlgorithm::kEdnReduce: return run_edn_reduce(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kEdnGather: return run_edn_gather(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kO2a1LevDir:
    case CollectiveAlgorithm::kO2a1LevSysBr:
    case CollectiveAlgorithm::kO2a1LevOurBr:
    case CollectiveAlgorithm::kO2a2LevRec:
    case CollectiveAlgorithm::kO2a3LevSq:
    case CollectiveAlgorithm::kO2aLogpLevSq:
    case CollectiveAlgorithm::kO2aLogpLevRec: return run_o2a_plan(rt, op, data, deliver);
    case CollectiveAlgorithm::kA2o2LevRec:
    case CollectiveAlgorithm::kA2o3LevSq:
    case CollectiveAlgorithm::kA2oLogpLevSq:
    case CollectiveAlgorithm::kA2oLogpLevRec: return run_a2o_plan(rt, op, data, deliver);
    case CollectiveAlgorithm::kEdnTranspose:
      return run_edn_transpose(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kUCube:
    case CollectiveAlgorithm::kMaxport:
    case CollectiveAlgorithm::kCombine:
    case CollectiveAlgorithm::kWSort: return run_cube_multicast(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kMArray2Level:
      return run_array_multicast(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kMArrayAllgather:
      return run_m_array_allgather(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kMArrayReduce:
    case CollectiveAlgorithm::kMArrayAllreduce:
    case CollectiveAlgorithm::kMMeshAllreduce:
      return run_m_array_reduction(rt, op, data, deliver,
                                   builtin_combine(op.reduce_op, op.reduce_type), tables);
    case CollectiveAlgorithm::kTreeRowcolAllreduce:
      return run_tree_rowcol_allreduce(rt, op, data, deliver,
                                       builtin_combine(op.reduce_op, op.reduce_type),
                                       tables.combine_cycles_per_element);
    case CollectiveAlgorithm::kScatterCollect:
      return run_scatter_collect(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kFibonacciTree:
      return run_fibonacci_tree(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kUTorus: return run_u_torus(rt, op, data, deliver, tables);
    case CollectiveAlgorithm::kSldBroadcast:
      return run_sld_broadcast(rt, op, data, deliver, tables);
    // Seed 004: the M-mesh's and the row/column tree's all-to-all broadcasts, the REM-array's
    // reductions (firmware/m_array_firmware.cpp).
    case CollectiveAlgorithm::kMMeshAllgather: return run_m_mesh_allgather(rt, op, data, deliver);
    case CollectiveAlgorithm::kTreeRowcolAllgather:
      return run_tree_rowcol_allgather(rt, op, data, deliver);
    case CollectiveAlgorithm::kRemArrayReduce:
    case CollectiveAlgorithm::kRemArrayAllreduce:
      return run_m_array_reduction(rt, op, data, deliver,
                                   builtin_combine(op.reduce_op, op.reduce_type), tables);
  }
  throw std::logic_error("run_collective: unknown algorithm");
}

}  // namespace wormsim::fw
