#include "config.h"

#include "header_format.h"
#include "machine_preset.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <numeric>
#include <random>
#include <utility>

#include <fmt/format.h>

namespace wormsim {

ConfigError::ConfigError(std::string key, std::string message, int line, const std::string& source)
    : std::runtime_error(
          fmt::format("{}{}{}: {}", source.empty() ? "" : source + ":",
                      line > 0 ? fmt::format("{}: ", line) : std::string(source.empty() ? "" : " "),
                      key, message)),
      key_(std::move(key)),
      line_(line) {}

namespace {

template <typename E, std::size_t N>
using NameTable = std::array<std::pair<E, const char*>, N>;

constexpr NameTable<TopologyKind, 3> kTopologyNames{{{TopologyKind::kMesh, "mesh"},
                                                     {TopologyKind::kTorus, "torus"},
                                                     {TopologyKind::kHypercube, "hypercube"}}};
constexpr NameTable<RoutingAlgorithm, 3> kRoutingNames{
    {{RoutingAlgorithm::kDimensionOrder, "dor"},
     {RoutingAlgorithm::kEcube, "ecube"},
     {RoutingAlgorithm::kHamiltonian, "hamiltonian"}}};
constexpr NameTable<MultidestMode, 3> kMultidestNames{{{MultidestMode::kNone, "none"},
                                                       {MultidestMode::kPath, "path"},
                                                       {MultidestMode::kTree, "tree"}}};
constexpr NameTable<Replication, 2> kReplicationNames{
    {{Replication::kSynchronous, "synchronous"}, {Replication::kAsynchronous, "asynchronous"}}};
constexpr NameTable<ReplicationFlow, 2> kReplicationFlowNames{
    {{ReplicationFlow::kWormhole, "wormhole"}, {ReplicationFlow::kCutThrough, "cut_through"}}};
constexpr NameTable<CacheHints, 3> kCacheHintNames{
    {{CacheHints::kAuto, "auto"}, {CacheHints::kOn, "on"}, {CacheHints::kOff, "off"}}};
constexpr NameTable<Engine, 3> kEngineNames{
    {{Engine::kAuto, "auto"}, {Engine::kReference, "reference"}, {Engine::kFlat, "flat"}}};
constexpr NameTable<HeaderEncoding, 3> kEncodingNames{
    {{HeaderEncoding::kAddressList, "address_list"},
     {HeaderEncoding::kBitString, "bit_string"},
     {HeaderEncoding::kAddressFlits, "address_flits"}}};
constexpr NameTable<PathIr, 2> kPathIrNames{
    {{PathIr::kFull, "full"}, {PathIr::kMinimal, "minimal"}}};
constexpr NameTable<HeaderDecode, 2> kHeaderDecodeNames{
    {{HeaderDecode::kHeadFlit, "head_flit"}, {HeaderDecode::kBuffered, "buffered"}}};
constexpr NameTable<EcubeOrder, 2> kEcubeNames{
    {{EcubeOrder::kHighToLow, "high_to_low"}, {EcubeOrder::kLowToHigh, "low_to_high"}}};
constexpr NameTable<PortModel, 3> kPortModelNames{{{PortModel::kOnePort, "one_port"},
                                                   {PortModel::kKPort, "k_port"},
                                                   {PortModel::kAllPort, "all_port"}}};
constexpr NameTable<AllocatorKind, 2> kAllocatorNames{
    {{AllocatorKind::kSeparableInputFirst, "separable_input_first"},
     {AllocatorKind::kSeparableOutputFirst, "separable_output_first"}}};
constexpr NameTable<PipelineModel, 7> kPipelineNames{
    {{PipelineModel::kDelay, "delay"},
     {PipelineModel::kClassic, "classic"},
     {PipelineModel::kLookahead, "lookahead"},
     {PipelineModel::kSpeculative, "speculative"},
     {PipelineModel::kCombined, "combined"},
     {PipelineModel::kLookaheadSpeculative, "lookahead_speculative"},
     {PipelineModel::kLookaheadCombined, "lookahead_combined"}}};
constexpr NameTable<RouterImplementation, 2> kImplementationNames{
    {{RouterImplementation::kSystemC, "systemc"}, {RouterImplementation::kRtl, "rtl"}}};
constexpr NameTable<SoftwareMulticastScheme, 2> kSoftwareMulticastNames{
    {{SoftwareMulticastScheme::kSeparateAddressing, "separate_addressing"},
     {SoftwareMulticastScheme::kBinomialTree, "binomial_tree"}}};
constexpr NameTable<TrafficPattern, 5> kTrafficNames{
    {{TrafficPattern::kUniformRandom, "uniform_random"},
     {TrafficPattern::kTranspose, "transpose"},
     {TrafficPattern::kBitComplement, "bit_complement"},
     {TrafficPattern::kHotspot, "hotspot"},
     {TrafficPattern::kNearestNeighbor, "nearest_neighbor"}}};
constexpr NameTable<MulticastPattern, 3> kMulticastPatternNames{
    {{MulticastPattern::kRandom, "random"},
     {MulticastPattern::kRowColumn, "row_column"},
     {MulticastPattern::kHotspot, "hotspot"}}};

template <typename E, std::size_t N>
std::string name_of(const NameTable<E, N>& table, E v) {
  for (const auto& [e, n] : table)
    if (e == v) return n;
  return "?";
}
template <typename E, std::size_t N>
std::vector<E> values_of(const NameTable<E, N>& table) {
  std::vector<E> out;
  for (const auto& entry : table) out.push_back(entry.first);
  return out;
}
template <typename E, std::size_t N>
std::optional<E> parse_of(const NameTable<E, N>& table, const std::string& name) {
  for (const auto& [e, n] : table)
    if (name == n) return e;
  return std::nullopt;
}

constexpr NameTable<Workload, 2> kWorkloadNames{
    {{Workload::kSynthetic, "synthetic"}, {Workload::kCollective, "collective"}}};
constexpr NameTable<CollectiveAlgorithm, 62> kCollectiveNames{
    {{CollectiveAlgorithm::kPingPong, "ping_pong"},
     {CollectiveAlgorithm::kSeparateAddressing, "separate_addressing"},
     {CollectiveAlgorithm::kRecursiveDoubling, "recursive_doubling"},
     {CollectiveAlgorithm::kDimensionalBroadcast, "dimensional_broadcast"},
     {CollectiveAlgorithm::kEdnBroadcast, "edn_broadcast"},
     {CollectiveAlgorithm::kPathMulticast, "path_multicast"},
     {CollectiveAlgorithm::kTreeMulticast, "tree_multicast"},
     {CollectiveAlgorithm::kMArray, "m_array"},
     {CollectiveAlgorithm::kRemArray, "rem_array"},
     {CollectiveAlgorithm::kScatterSequential, "scatter_st"},
     {CollectiveAlgorithm::kScatterBinomial, "scatter_bt"},
     {CollectiveAlgorithm::kScatterSmt, "scatter_smt"},
     {CollectiveAlgorithm::kScatterHmt, "scatter_hmt"},
     {CollectiveAlgorithm::kGatherDirect, "a2o_1_lev_dir"},
     {CollectiveAlgorithm::kAlltoallDirect, "a2a_1_lev_dir"},
     {CollectiveAlgorithm::kBarrierDissemination, "barrier_dissemination"},
     {CollectiveAlgorithm::kReduceBinomial, "reduce_binomial"},
     {CollectiveAlgorithm::kAllreduceRecursiveDoubling, "allreduce_recursive_doubling"},
     {CollectiveAlgorithm::kAllgatherRing, "allgather_ring"},
     {CollectiveAlgorithm::kDirectTranspose, "direct_transpose"},
     {CollectiveAlgorithm::kEdnReduce, "edn_reduce"},
     {CollectiveAlgorithm::kEdnGather, "edn_gather"},
     {CollectiveAlgorithm::kO2a1LevDir, "o2a_1_lev_dir"},
     {CollectiveAlgorithm::kO2a1LevSysBr, "o2a_1_lev_sys_br"},
     {CollectiveAlgorithm::kO2a1LevOurBr, "o2a_1_lev_our_br"},
     {CollectiveAlgorithm::kO2a2LevRec, "o2a_2_lev_rec"},
     {CollectiveAlgorithm::kO2a3LevSq, "o2a_3_lev_sq"},
     {CollectiveAlgorithm::kO2aLogpLevSq, "o2a_logp_lev_sq"},
     {CollectiveAlgorithm::kO2aLogpLevRec, "o2a_logp_lev_rec"},
     {CollectiveAlgorithm::kA2o2LevRec, "a2o_2_lev_rec"},
     {CollectiveAlgorithm::kA2o3LevSq, "a2o_3_lev_sq"},
     {CollectiveAlgorithm::kA2oLogpLevSq, "a2o_logp_lev_sq"},
     {CollectiveAlgorithm::kA2oLogpLevRec, "a2o_logp_lev_rec"},
     {CollectiveAlgorithm::kAlltoallLinear, "a2a_1_lev_lin"},
     {CollectiveAlgorithm::kAlltoallXor, "a2a_1_lev_xor"},
     {CollectiveAlgorithm::kAlltoallBalanced, "a2a_1_lev_bal"},
     {CollectiveAlgorithm::kAlltoallSquare, "a2a_2_lev_sq"},
     {CollectiveAlgorithm::kAlltoallColumnRow, "a2a_2_lev_c_r"},
     {CollectiveAlgorithm::kAlltoallColumnRowInt, "a2a_2_lev_c_r_int"},
     {CollectiveAlgorithm::kAlltoallButterfly, "a2a_logp_lev_bfly"},
     {CollectiveAlgorithm::kEdnTranspose, "edn_transpose"},
     {CollectiveAlgorithm::kAllgatherMulticast, "allgather_multicast"},
     {CollectiveAlgorithm::kUCube, "u_cube"},
     {CollectiveAlgorithm::kMaxport, "maxport"},
     {CollectiveAlgorithm::kCombine, "combine"},
     {CollectiveAlgorithm::kWSort, "w_sort"},
     {CollectiveAlgorithm::kRecursiveDoublingRotated, "recursive_doubling_rotated"},
     {CollectiveAlgorithm::kMArray2Level, "m_array_2level"},
     {CollectiveAlgorithm::kMMesh, "m_mesh"},
     {CollectiveAlgorithm::kMArrayAllgather, "m_array_allgather"},
     {CollectiveAlgorithm::kMArrayReduce, "m_array_reduce"},
     {CollectiveAlgorithm::kMArrayAllreduce, "m_array_allreduce"},
     {CollectiveAlgorithm::kMMeshAllreduce, "m_mesh_allreduce"},
     {CollectiveAlgorithm::kTreeRowcolAllreduce, "tree_rowcol_allreduce"},
     {CollectiveAlgorithm::kScatterCollect, "scatter_collect"},
     {CollectiveAlgorithm::kFibonacciTree, "fibonacci_tree"},
     {CollectiveAlgorithm::kUTorus, "u_torus"},
     {CollectiveAlgorithm::kSldBroadcast, "sld_broadcast"},
     {CollectiveAlgorithm::kMMeshAllgather, "m_mesh_allgather"},
     {CollectiveAlgorithm::kTreeRowcolAllgather, "tree_rowcol_allgather"},
     {CollectiveAlgorithm::kRemArrayReduce, "rem_array_reduce"},
     {CollectiveAlgorithm::kRemArrayAllreduce, "rem_array_allreduce"}}};
constexpr NameTable<CollectiveKind, 10> kKindNames{{{CollectiveKind::kPingPong, "ping_pong"},
                                                    {CollectiveKind::kBroadcast, "broadcast"},
                                                    {CollectiveKind::kScatter, "scatter"},
                                                    {CollectiveKind::kGather, "gather"},
                                                    {CollectiveKind::kAlltoall, "alltoall"},
                                                    {CollectiveKind::kBarrier, "barrier"},
                                                    {CollectiveKind::kReduce, "reduce"},
                                                    {CollectiveKind::kAllreduce, "allreduce"},
                                                    {CollectiveKind::kAllgather, "allgather"},
                                                    {CollectiveKind::kTranspose, "transpose"}}};
constexpr NameTable<ReduceOp, 3> kReduceOpNames{
    {{ReduceOp::kSum, "sum"}, {ReduceOp::kMax, "max"}, {ReduceOp::kMin, "min"}}};
constexpr NameTable<ReduceType, 4> kReduceTypeNames{{{ReduceType::kInt32, "int32"},
                                                     {ReduceType::kInt64, "int64"},
                                                     {ReduceType::kFloat32, "float32"},
                                                     {ReduceType::kFloat64, "float64"}}};
constexpr NameTable<SendMode, 2> kSendModeNames{
    {{SendMode::kNonBlocking, "nonblocking"}, {SendMode::kBlocking, "blocking"}}};
constexpr NameTable<RootSelection, 3> kRootNames{{{RootSelection::kOne, "one"},
                                                  {RootSelection::kAll, "all"},
                                                  {RootSelection::kSample, "sample"}}};

void require(bool ok, const std::string& key, const std::string& message) {
  if (!ok) throw ConfigError(key, message);
}

// Flits a multidestination worm to `dests` destinations carries beyond a unicast packet's
// one header flit.
std::uint64_t destination_list_flits(const NetworkConfig& network, std::uint64_t dests, int nodes) {
  return static_cast<std::uint64_t>(header_flits(network.router.header_encoding,
                                                 static_cast<std::size_t>(dests), nodes,
                                                 network.flit_bytes, network.router.path_ir)) -
         1;
}

}  // namespace

#define WORMSIM_ENUM_TABLE(E, table)                       \
  std::string to_string(E v) { return name_of(table, v); } \
  template <>                                              \
  std::vector<E> all_values<E>() {                         \
    return values_of(table);                               \
  }                                                        \
  template <>                                              \
  std::optional<E> parse_enum<E>(const std::string& n) {   \
    return parse_of(table, n);                             \
  }
WORMSIM_ENUM_TABLE(TopologyKind, kTopologyNames)
WORMSIM_ENUM_TABLE(RoutingAlgorithm, kRoutingNames)
WORMSIM_ENUM_TABLE(EcubeOrder, kEcubeNames)
WORMSIM_ENUM_TABLE(PortModel, kPortModelNames)
WORMSIM_ENUM_TABLE(AllocatorKind, kAllocatorNames)
WORMSIM_ENUM_TABLE(PipelineModel, kPipelineNames)
WORMSIM_ENUM_TABLE(RouterImplementation, kImplementationNames)
WORMSIM_ENUM_TABLE(MultidestMode, kMultidestNames)
WORMSIM_ENUM_TABLE(Replication, kReplicationNames)
WORMSIM_ENUM_TABLE(ReplicationFlow, kReplicationFlowNames)
WORMSIM_ENUM_TABLE(CacheHints, kCacheHintNames)
WORMSIM_ENUM_TABLE(Engine, kEngineNames)
WORMSIM_ENUM_TABLE(HeaderEncoding, kEncodingNames)
WORMSIM_ENUM_TABLE(PathIr, kPathIrNames)
WORMSIM_ENUM_TABLE(HeaderDecode, kHeaderDecodeNames)
WORMSIM_ENUM_TABLE(TrafficPattern, kTrafficNames)
WORMSIM_ENUM_TABLE(SoftwareMulticastScheme, kSoftwareMulticastNames)
WORMSIM_ENUM_TABLE(MulticastPattern, kMulticastPatternNames)
WORMSIM_ENUM_TABLE(Workload, kWorkloadNames)
WORMSIM_ENUM_TABLE(CollectiveAlgorithm, kCollectiveNames)
WORMSIM_ENUM_TABLE(RootSelection, kRootNames)
WORMSIM_ENUM_TABLE(CollectiveKind, kKindNames)
WORMSIM_ENUM_TABLE(ReduceOp, kReduceOpNames)
WORMSIM_ENUM_TABLE(ReduceType, kReduceTypeNames)
WORMSIM_ENUM_TABLE(SendMode, kSendModeNames)
#undef WORMSIM_ENUM_TABLE

bool RouterConfig::rtl_at(NodeId n) const {
  if (implementation != RouterImplementation::kRtl) return false;
  return rtl_nodes.empty() || std::find(rtl_nodes.begin(), rtl_nodes.end(), n) != rtl_nodes.end();
}

int pipeline_stages(PipelineModel m) {
  switch (m) {
    case PipelineModel::kDelay: return 0;
    case PipelineModel::kClassic: return 4;
    case PipelineModel::kLookahead:
    case PipelineModel::kSpeculative:
    case PipelineModel::kCombined: return 3;
    case PipelineModel::kLookaheadSpeculative:
    case PipelineModel::kLookaheadCombined: return 2;
  }
  return 0;
}

CollectiveKind kind_of(CollectiveAlgorithm a) {
  using A = CollectiveAlgorithm;
  switch (a) {
    case A::kPingPong: return CollectiveKind::kPingPong;
    case A::kScatterSequential:
    case A::kScatterBinomial:
    case A::kScatterSmt:
    case A::kScatterHmt:
    case A::kO2a1LevDir:
    case A::kO2a1LevSysBr:
    case A::kO2a1LevOurBr:
    case A::kO2a2LevRec:
    case A::kO2a3LevSq:
    case A::kO2aLogpLevSq:
    case A::kO2aLogpLevRec: return CollectiveKind::kScatter;
    case A::kGatherDirect:
    case A::kEdnGather:
    case A::kA2o2LevRec:
    case A::kA2o3LevSq:
    case A::kA2oLogpLevSq:
    case A::kA2oLogpLevRec: return CollectiveKind::kGather;
    case A::kAlltoallDirect:
    case A::kAlltoallLinear:
    case A::kAlltoallXor:
    case A::kAlltoallBalanced:
    case A::kAlltoallSquare:
    case A::kAlltoallColumnRow:
    case A::kAlltoallColumnRowInt:
    case A::kAlltoallButterfly: return CollectiveKind::kAlltoall;
    case A::kBarrierDissemination: return CollectiveKind::kBarrier;
    case A::kReduceBinomial:
    case A::kEdnReduce:
    case A::kMArrayReduce:
    case A::kRemArrayReduce: return CollectiveKind::kReduce;
    case A::kAllreduceRecursiveDoubling:
    case A::kMArrayAllreduce:
    case A::kMMeshAllreduce:
    case A::kTreeRowcolAllreduce:
    case A::kRemArrayAllreduce: return CollectiveKind::kAllreduce;
    case A::kAllgatherRing:
    case A::kAllgatherMulticast:
    case A::kMArrayAllgather:
    case A::kMMeshAllgather:
    case A::kTreeRowcolAllgather: return CollectiveKind::kAllgather;
    case A::kDirectTranspose:
    case A::kEdnTranspose: return CollectiveKind::kTranspose;
    default: return CollectiveKind::kBroadcast;
  }
}

std::uint64_t edn_transpose_max_blocks(int side) {
  int k = 0;
  while ((1 << k) < side) ++k;
  std::uint64_t blocks = 1;
  for (int j = 1; j < (k + 1) / 2; ++j) blocks *= 5;
  return blocks;
}

bool is_scatter(CollectiveAlgorithm a) { return kind_of(a) == CollectiveKind::kScatter; }

bool is_seed002_o2a_a2o(CollectiveAlgorithm a) {
  using A = CollectiveAlgorithm;
  switch (a) {
    case A::kO2a1LevDir:
    case A::kO2a1LevSysBr:
    case A::kO2a1LevOurBr:
    case A::kO2a2LevRec:
    case A::kO2a3LevSq:
    case A::kO2aLogpLevSq:
    case A::kO2aLogpLevRec:
    case A::kA2o2LevRec:
    case A::kA2o3LevSq:
    case A::kA2oLogpLevSq:
    case A::kA2oLogpLevRec: return true;
    default: return false;
  }
}

bool is_rootless(CollectiveAlgorithm a) {
  switch (kind_of(a)) {
    case CollectiveKind::kAlltoall:
    case CollectiveKind::kBarrier:
    case CollectiveKind::kAllreduce:
    case CollectiveKind::kAllgather:
    case CollectiveKind::kTranspose: return true;
    default: return false;
  }
}

int element_bytes(ReduceType t) {
  return t == ReduceType::kInt32 || t == ReduceType::kFloat32 ? 4 : 8;
}

namespace {

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

// ceil(log2 n), n >= 1 (fw::array_levels, which the core layer cannot call).
int array_levels_of(std::uint64_t n) {
  int k = 0;
  while ((std::uint64_t{1} << k) < n) ++k;
  return k;
}

bool is_seed004_worms(CollectiveAlgorithm a) {
  using A = CollectiveAlgorithm;
  return a == A::kMArray2Level || a == A::kMMesh || a == A::kMArrayAllgather ||
         a == A::kMArrayReduce || a == A::kMArrayAllreduce || a == A::kMMeshAllreduce ||
         a == A::kMMeshAllgather || a == A::kRemArrayReduce || a == A::kRemArrayAllreduce;
}

// Why `alg` (an all-to-all of seed 002 section 5) cannot run on `topo`, or "" if it can. The
// shapes follow firmware/alltoall_plan.h: r x c meshes are network.dims [c, r] (dimension 0
// is the column index x, so node ids are row-major).
std::string alltoall_shape_problem(CollectiveAlgorithm alg, const TopologyConfig& topo, int nodes) {
  using A = CollectiveAlgorithm;
  const std::string name = to_string(alg);
  const bool grid = (topo.kind == TopologyKind::kMesh || topo.kind == TopologyKind::kTorus) &&
                    topo.dims.size() == 2;
  switch (alg) {
    case A::kAlltoallXor:
    case A::kAlltoallButterfly:
      if (!power_of_two(nodes))
        return fmt::format(
            "{} pairs node j with j XOR 2^k (seed 002 section 5): it needs a "
            "power-of-two number of nodes (got {})",
            name, nodes);
      return "";
    case A::kAlltoallBalanced:
      if (!grid || topo.dims[0] % 4 != 0 || topo.dims[1] % 4 != 0)
        return fmt::format(
            "{} crosses Scott's balanced permutations of the rows and columns "
            "(seed 002 section 5.1): it needs a 2D mesh or torus whose sides "
            "are multiples of 4",
            name);
      return "";
    case A::kAlltoallSquare:
    case A::kAlltoallColumnRow:
    case A::kAlltoallColumnRowInt: {
      if (!grid || !power_of_two(topo.dims[0]) || !power_of_two(topo.dims[1]))
        return fmt::format(
            "{} runs 1-lev-xor inside rows, columns or submeshes (seed 002 "
            "section 5.3): it needs a 2D mesh or torus whose sides are powers "
            "of two",
            name);
      if (alg == A::kAlltoallSquare) {
        // q = 2^floor(n/2) nodes per submesh of b_r x b_c, b_r = 2^floor(log2(q)/2).
        int n = 0;
        while ((1 << n) < nodes) ++n;
        const int lq = n / 2;
        const int b_r = 1 << (lq / 2);
        const int b_c = (1 << lq) / b_r;
        if (b_r > topo.dims[1] || b_c > topo.dims[0])
          return fmt::format(
              "{}'s {} x {} submeshes do not fit a {} x {} mesh (rows x "
              "columns)",
              name, b_r, b_c, topo.dims[1], topo.dims[0]);
      }
      return "";
    }
    default: return "";
  }
}

// The most blocks one message of `alg` carries (firmware/alltoall_plan.h; seed 002 section
// 5.2): 2-lev-sq step 2 q^2 (steps 1 and 3: p/q), c,r max(r, c), c,r-int c, bfly p/2.
std::uint64_t alltoall_message_blocks(CollectiveAlgorithm alg, const TopologyConfig& topo,
                                      int nodes) {
  using A = CollectiveAlgorithm;
  const auto p = static_cast<std::uint64_t>(nodes);
  const bool grid = topo.dims.size() == 2;
  const auto c = grid ? static_cast<std::uint64_t>(topo.dims[0]) : p;
  const auto r = grid ? static_cast<std::uint64_t>(topo.dims[1]) : 1;
  switch (alg) {
    case A::kAlltoallSquare: {
      int n = 0;
      while ((std::uint64_t{1} << n) < p) ++n;
      const std::uint64_t q = std::uint64_t{1} << (n / 2);
      return std::max(q * q, p / q);
    }
    case A::kAlltoallColumnRow: return std::max(r, c);
    case A::kAlltoallColumnRowInt: return c;
    case A::kAlltoallButterfly: return std::max<std::uint64_t>(1, p / 2);
    default: return 1;
  }
}

}  // namespace

int node_count(const TopologyConfig& t) {
  if (t.kind == TopologyKind::kHypercube) return 1 << t.hypercube_dimension;
  int n = 1;
  for (int d : t.dims) n *= d;
  return n;
}

std::vector<NodeId> default_traced_routers(const TopologyConfig& t) {
  // A hypercube is the 2-ary n-cube: node ids are coordinates in base 2, like a mesh's in
  // base k (node = x + X * y + ...).
  const std::vector<int> sides =
      t.kind == TopologyKind::kHypercube
          ? std::vector<int>(static_cast<std::size_t>(t.hypercube_dimension), 2)
          : t.dims;
  NodeId low = 0;
  NodeId high = 0;
  NodeId stride = 1;
  for (int k : sides) {
    low += static_cast<NodeId>((k - 1) / 2) * stride;
    high += static_cast<NodeId>(k / 2) * stride;
    stride *= static_cast<NodeId>(k);
  }
  std::vector<NodeId> out{0};
  for (NodeId n : {low, high})
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

std::vector<NodeId> traced_routers(const Config& c) {
  return c.trace.routers.empty() ? default_traced_routers(c.network.topology) : c.trace.routers;
}

std::vector<NodeId> collective_roots(const Config& config) {
  const CollectiveConfig& c = config.collective;
  const int nodes = node_count(config.network.topology);
  std::vector<NodeId> roots;
  switch (c.roots) {
    case RootSelection::kOne: roots.push_back(c.root); break;
    case RootSelection::kAll:
      for (int n = 0; n < nodes; ++n) roots.push_back(static_cast<NodeId>(n));
      break;
    case RootSelection::kSample: {
      std::vector<NodeId> all(static_cast<std::size_t>(nodes));
      std::iota(all.begin(), all.end(), 0u);
      std::mt19937_64 rng(c.seed);
      std::shuffle(all.begin(), all.end(), rng);
      all.resize(
          std::min<std::size_t>(all.size(), static_cast<std::size_t>(std::max(c.sample, 0))));
      roots = all;
      break;
    }
  }
  return roots;
}

void Config::validate() const {
  if (machine.preset != kNoPreset && !find_machine_preset(machine.preset))
    throw ConfigError("machine.preset", unknown_preset_message(machine.preset));
  const TopologyConfig& topo = network.topology;
  const RouterConfig& r = network.router;
  const RoutingConfig& rt = network.routing;
  int dimensions = 0;
  if (topo.kind == TopologyKind::kHypercube) {
    require(topo.hypercube_dimension >= 1 && topo.hypercube_dimension <= 16,
            "network.hypercube_dimension",
            fmt::format("must be in 1..16 for a hypercube (got {})", topo.hypercube_dimension));
    dimensions = topo.hypercube_dimension;
    require(rt.algorithm == RoutingAlgorithm::kEcube, "network.routing.algorithm",
            "a hypercube routes with 'ecube'");
  } else {
    require(!topo.dims.empty() && topo.dims.size() <= 3, "network.dims",
            fmt::format("a {} needs 1 to 3 side lengths (got {})", to_string(topo.kind),
                        topo.dims.size()));
    long long nodes = 1;
    for (std::size_t i = 0; i < topo.dims.size(); ++i) {
      require(topo.dims[i] >= 2, fmt::format("network.dims[{}]", i),
              fmt::format("side length must be at least 2 (got {})", topo.dims[i]));
      nodes *= topo.dims[i];
      require(nodes <= (1 << 20), "network.dims", "more than 2^20 nodes");
    }
    dimensions = static_cast<int>(topo.dims.size());
    if (rt.algorithm == RoutingAlgorithm::kHamiltonian)
      require(topo.kind == TopologyKind::kMesh && dimensions == 2, "network.routing.algorithm",
              "hamiltonian routing needs a 2D mesh (seed 004 Fig. 1(c))");
    else
      require(rt.algorithm == RoutingAlgorithm::kDimensionOrder, "network.routing.algorithm",
              fmt::format("a {} routes with 'dor'", to_string(topo.kind)));
  }
  if (!rt.order.empty()) {
    require(static_cast<int>(rt.order.size()) == dimensions, "network.routing.order",
            fmt::format("must list each of the {} dimensions once", dimensions));
    std::vector<int> sorted = rt.order;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < dimensions; ++i)
      require(sorted[static_cast<std::size_t>(i)] == i, "network.routing.order",
              fmt::format("must be a permutation of 0..{}", dimensions - 1));
    require(topo.kind != TopologyKind::kHypercube, "network.routing.order",
            "hypercubes resolve dimensions by network.routing.ecube_order");
  }
  require(r.vcs >= 1 && r.vcs <= 16, "network.router.vcs",
          fmt::format("must be in 1..16 (got {})", r.vcs));
  if (topo.kind == TopologyKind::kTorus && rt.dateline)
    require(r.vcs >= 2, "network.router.vcs",
            fmt::format("a torus with dateline routing needs at least 2 VCs, one per dateline "
                        "class (got {}); set network.routing.dateline: false only to study "
                        "deadlock",
                        r.vcs));
  require(r.buffer_depth >= 1 && r.buffer_depth <= 256, "network.router.buffer_depth",
          fmt::format("must be in 1..256 flits (got {})", r.buffer_depth));
  require(r.pipeline_depth >= 1 && r.pipeline_depth <= 4, "network.router.pipeline_depth",
          fmt::format("must be in 1..4 stages (got {})", r.pipeline_depth));
  if (r.pipeline != PipelineModel::kDelay)
    require(r.pipeline_depth == pipeline_stages(r.pipeline), "network.router.pipeline_depth",
            fmt::format("the {} pipeline (network.router.pipeline) has {} stages: set "
                        "pipeline_depth: {} (got {})",
                        to_string(r.pipeline), pipeline_stages(r.pipeline),
                        pipeline_stages(r.pipeline), r.pipeline_depth));
  require(r.link_latency >= 1 && r.link_latency <= 64, "network.router.link_latency",
          fmt::format("must be in 1..64 cycles (got {})", r.link_latency));
  require(r.credit_latency >= 1 && r.credit_latency <= 64, "network.router.credit_latency",
          fmt::format("must be in 1..64 cycles (got {})", r.credit_latency));
  const int network_ports = topo.kind == TopologyKind::kHypercube ? dimensions : 2 * dimensions;
  if (r.port_model == PortModel::kKPort)
    require(
        r.ports >= 1 && r.ports <= network_ports, "network.router.ports",
        fmt::format("k_port needs 1..{} ports on this topology (got {})", network_ports, r.ports));
  const int ejection_channels = r.port_model == PortModel::kOnePort ? 1
                                : r.port_model == PortModel::kKPort ? r.ports
                                                                    : network_ports;
  require(r.consumption_channels >= 0 && r.consumption_channels <= network_ports,
          "network.router.consumption_channels",
          fmt::format("must be 0 (the port model's {}) or 1..{} (got {})", ejection_channels,
                      network_ports, r.consumption_channels));
  // The RTL build's own limits are checked by the cosim layer (cosim/rtl_limits.h).
  for (std::size_t i = 0; i < r.rtl_nodes.size(); ++i)
    require(static_cast<int>(r.rtl_nodes[i]) < node_count(topo),
            fmt::format("network.router.rtl_nodes[{}]", i),
            fmt::format("node {} does not exist ({} nodes)", r.rtl_nodes[i], node_count(topo)));
  if (r.multidest == MultidestMode::kTree)
    require(rt.algorithm != RoutingAlgorithm::kHamiltonian, "network.router.multidest",
            "tree replication follows the dimension-ordered tree; use routing dor or ecube");
  // Address flits hold whole addresses (docs/multidestination.md, "The minimal path-IR
  // router"): one each with address_flits, as many as fit with address_list on the minimal
  // router, which matches the head flit's current address and strips the flit after its last.
  const bool address_flit_layout =
      r.header_encoding == HeaderEncoding::kAddressFlits ||
      (r.path_ir == PathIr::kMinimal && r.header_encoding == HeaderEncoding::kAddressList);
  if (r.header_encoding == HeaderEncoding::kAddressFlits)
    require(r.multidest != MultidestMode::kTree, "network.router.header_encoding",
            "address_flits carries a path worm's list one address per flit; tree worms carry "
            "their destination set as address_list or bit_string");
  if (r.path_ir == PathIr::kMinimal) {
    require(r.multidest == MultidestMode::kPath, "network.router.path_ir",
            fmt::format("the minimal intermediate-reception router carries path worms; "
                        "network.router.multidest is {}",
                        to_string(r.multidest)));
    require(r.header_encoding != HeaderEncoding::kBitString, "network.router.header_encoding",
            "path_ir minimal matches and strips the head flit's addresses one at a time; use "
            "address_list (as many addresses per header flit as fit) or address_flits (one)");
  }
  if (address_flit_layout) {
    const int bits = address_bits(node_count(topo));
    require(bits <= 8 * network.flit_bytes, "network.flit_bytes",
            fmt::format("{} puts whole {}-bit node addresses in each header flit; {}-byte flits "
                        "are too narrow",
                        r.path_ir == PathIr::kMinimal ? "path_ir minimal" : "address_flits", bits,
                        network.flit_bytes));
  }
  // The RTL's full path router reads the path list from the head flit's header; address flits
  // are the minimal path-IR router's (docs/rtl.md, "The minimal path-IR router").
  if (r.implementation == RouterImplementation::kRtl)
    require(r.path_ir == PathIr::kMinimal || r.header_encoding != HeaderEncoding::kAddressFlits,
            "network.router.header_encoding",
            "the RTL router takes address flits with path_ir minimal only (its full path "
            "router reads the list from the head flit); use path_ir minimal or "
            "implementation systemc");
  if (r.implementation == RouterImplementation::kRtl && r.path_ir == PathIr::kMinimal)
    require(r.header_encoding == HeaderEncoding::kAddressFlits, "network.router.header_encoding",
            "the RTL minimal path-IR router carries one address per header flit; use "
            "address_flits, or implementation systemc for packed address_list headers");
  require(r.multidest_vcs >= 0 && r.multidest_vcs <= 15, "network.router.multidest_vcs",
          fmt::format("must be in 0..15 (got {})", r.multidest_vcs));
  if (r.multidest != MultidestMode::kNone) {
    // The reservation applies inside each dateline class (routing/route_compute.h), and each
    // class must keep at least one VC for unicast packets.
    if (topo.kind == TopologyKind::kTorus && rt.dateline)
      require(r.multidest_vcs < r.vcs / 2, "network.router.multidest_vcs",
              fmt::format("a torus with dateline classes reserves the top N VCs of each class "
                          "(VCs 0..{} and {}..{} of network.router.vcs {}): N must leave each "
                          "class a unicast VC, i.e. be at most {} (got {})",
                          (r.vcs + 1) / 2 - 1, (r.vcs + 1) / 2, r.vcs - 1, r.vcs, r.vcs / 2 - 1,
                          r.multidest_vcs));
    else
      require(r.multidest_vcs < r.vcs, "network.router.multidest_vcs",
              fmt::format("must leave unicast packets at least one of the network.router.vcs {} "
                          "VCs, i.e. be at most {} (got {})",
                          r.vcs, r.vcs - 1, r.multidest_vcs));
    // The RTL router (rtl/wormsim_router.sv) shares every VC and replicates wormhole-style.
    if (r.implementation == RouterImplementation::kRtl) {
      require(r.multidest_vcs == 0, "network.router.multidest_vcs",
              "the RTL router (network.router.implementation rtl) does not reserve VCs for "
              "multidestination worms; use 0, or implementation systemc");
      require(r.replication_flow == ReplicationFlow::kWormhole, "network.router.replication_flow",
              "the RTL router (network.router.implementation rtl) replicates wormhole-style "
              "only; use wormhole, or implementation systemc");
    }
  }
  require(network.flit_bytes >= 1 && network.flit_bytes <= static_cast<int>(Flit::kMaxPayloadBytes),
          "network.flit_bytes",
          fmt::format("must be in 1..{} (got {})", Flit::kMaxPayloadBytes, network.flit_bytes));
  // SystemC time has 1 ps resolution here and 64 bits: keep periods representable.
  require(network.clock_period_ns >= 0.001 && network.clock_period_ns <= 1e6,
          "network.clock_period_ns",
          fmt::format("must be in 0.001..1e6 ns (got {})", network.clock_period_ns));

  const int nodes = node_count(topo);
  require(traffic.packet_length >= 1 && traffic.packet_length <= 65535, "traffic.packet_length",
          fmt::format("must be in 1..65535 flits (got {})", traffic.packet_length));
  require(traffic.injection_rate >= 0 && traffic.injection_rate <= traffic.packet_length,
          "traffic.injection_rate",
          fmt::format("must be in 0..packet_length flits/node/cycle, i.e. at most one packet "
                      "per node per cycle (got {})",
                      traffic.injection_rate));
  require(traffic.multicast_fraction >= 0 && traffic.multicast_fraction <= 1,
          "traffic.multicast_fraction", "must be in 0..1");
  require(traffic.software_forward_cycles <= 1000000000, "traffic.software_forward_cycles",
          fmt::format("must be in 0..1000000000 cycles (got {})", traffic.software_forward_cycles));
  if (traffic.multicast_fraction > 0) {
    require(traffic.multicast_destinations >= 1 && traffic.multicast_destinations < nodes,
            "traffic.multicast_destinations",
            fmt::format("must be in 1..{} (got {})", nodes - 1, traffic.multicast_destinations));
    // Buffered header decode: a head waits for the header flits routing reads, which must fit
    // its VC buffer (a tree worm reads all of them).
    if (workload == Workload::kSynthetic && r.multidest != MultidestMode::kNone &&
        r.header_decode == HeaderDecode::kBuffered) {
      const std::uint64_t header =
          destination_list_flits(
              network, static_cast<std::uint64_t>(traffic.multicast_destinations), nodes) +
          1;
      require(header <= static_cast<std::uint64_t>(r.buffer_depth), "network.router.buffer_depth",
              fmt::format("network.router.header_decode buffered routes a worm once the header "
                          "flits it reads are in the VC buffer: {} destinations take {} header "
                          "flits, more than {}",
                          traffic.multicast_destinations, header, r.buffer_depth));
    }
    // Cut-through at branch points waits for room for the whole worm downstream: the largest
    // worm (ni/terminal.cpp create_packet) must fit one VC buffer.
    if (workload == Workload::kSynthetic && r.replication_flow == ReplicationFlow::kCutThrough) {
      const std::uint64_t list = destination_list_flits(
          network, static_cast<std::uint64_t>(traffic.multicast_destinations), nodes);
      const std::uint64_t worm = static_cast<std::uint64_t>(traffic.packet_length) + list;
      require(worm <= static_cast<std::uint64_t>(r.buffer_depth), "network.router.buffer_depth",
              fmt::format("network.router.replication_flow cut_through needs a VC buffer that "
                          "holds the largest worm: traffic.packet_length {} + {} destination-list "
                          "flits ({} destinations) = {} flits, more than {}",
                          traffic.packet_length, list, traffic.multicast_destinations, worm,
                          r.buffer_depth));
    }
  }
  const bool hotspot_worms =
      traffic.multicast_fraction > 0 && traffic.multicast_pattern == MulticastPattern::kHotspot;
  if (traffic.pattern == TrafficPattern::kHotspot || hotspot_worms) {
    require(!traffic.hotspot.nodes.empty(), "traffic.hotspot.nodes", "must not be empty");
    for (std::size_t i = 0; i < traffic.hotspot.nodes.size(); ++i) {
      require(
          traffic.hotspot.nodes[i] < static_cast<NodeId>(nodes),
          fmt::format("traffic.hotspot.nodes[{}]", i),
          fmt::format("node {} is outside the {}-node network", traffic.hotspot.nodes[i], nodes));
      if (hotspot_worms)
        require(std::find(traffic.hotspot.nodes.begin(),
                          traffic.hotspot.nodes.begin() + static_cast<std::ptrdiff_t>(i),
                          traffic.hotspot.nodes[i]) ==
                    traffic.hotspot.nodes.begin() + static_cast<std::ptrdiff_t>(i),
                fmt::format("traffic.hotspot.nodes[{}]", i),
                fmt::format("node {} is listed twice (multicast_pattern hotspot puts each hotspot "
                            "node in the destination set once)",
                            traffic.hotspot.nodes[i]));
    }
    require(traffic.hotspot.fraction >= 0 && traffic.hotspot.fraction <= 1,
            "traffic.hotspot.fraction", "must be in 0..1");
  }
  if (traffic.multicast_fraction > 0 && traffic.multicast_pattern == MulticastPattern::kRowColumn) {
    require(topo.kind != TopologyKind::kHypercube && topo.dims.size() == 2,
            "traffic.multicast_pattern",
            "row_column draws from the source's row and column: it needs a 2D mesh or torus");
    const int candidates = topo.dims[0] + topo.dims[1] - 2;
    require(traffic.multicast_destinations <= candidates, "traffic.multicast_destinations",
            fmt::format("multicast_pattern row_column on a {}x{} network has {} candidates in a "
                        "source's row and column (got {})",
                        topo.dims[0], topo.dims[1], candidates, traffic.multicast_destinations));
  }
  if (hotspot_worms && r.multidest == MultidestMode::kTree) {
    const auto hot = static_cast<int>(traffic.hotspot.nodes.size());
    require(traffic.multicast_destinations >= hot, "traffic.multicast_destinations",
            fmt::format("multicast_pattern hotspot puts all {} traffic.hotspot.nodes into every "
                        "tree worm's set: needs at least {} destinations (got {})",
                        hot, hot, traffic.multicast_destinations));
  }
  if (traffic.pattern == TrafficPattern::kTranspose) {
    if (topo.kind == TopologyKind::kHypercube) {
      require(dimensions % 2 == 0, "traffic.pattern",
              "transpose on a hypercube needs an even dimension");
    } else {
      require(topo.dims.size() >= 2 && std::all_of(topo.dims.begin(), topo.dims.end(),
                                                   [&](int d) { return d == topo.dims[0]; }),
              "traffic.pattern", "transpose needs a 2D or 3D network with equal side lengths");
    }
  }
  require(simulation.measure_cycles >= 1, "simulation.measure_cycles", "must be at least 1");
  // A healthy flit can legitimately sit still for up to one credit round trip
  // (docs/timing-model.md); the watchdog must be comfortably longer than that.
  const Cycle round_trip = static_cast<Cycle>(r.link_latency + r.pipeline_depth + r.credit_latency);
  require(simulation.watchdog_cycles > 2 * round_trip, "simulation.watchdog_cycles",
          fmt::format("must exceed twice link_latency + pipeline_depth + credit_latency, i.e. "
                      "be at least {} (got {})",
                      2 * round_trip + 1, simulation.watchdog_cycles));
  // Collective runs have no drain phase (they end when the operations do).
  if (workload == Workload::kSynthetic)
    require(simulation.drain_max_cycles >= simulation.watchdog_cycles,
            "simulation.drain_max_cycles",
            fmt::format("must be at least simulation.watchdog_cycles ({}) so a deadlock during "
                        "the drain is caught by the watchdog (got {})",
                        simulation.watchdog_cycles, simulation.drain_max_cycles));
  constexpr Cycle kMaxCycles = Cycle{1} << 40;
  require(simulation.warmup_cycles < kMaxCycles, "simulation.warmup_cycles", "must be below 2^40");
  require(simulation.measure_cycles < kMaxCycles, "simulation.measure_cycles",
          "must be below 2^40");
  require(simulation.drain_max_cycles < kMaxCycles, "simulation.drain_max_cycles",
          "must be below 2^40");
  require(static_cast<double>(simulation.warmup_cycles + simulation.measure_cycles +
                              simulation.drain_max_cycles) *
                  network.clock_period_ns * 1e3 <
              9.0e18,
          "network.clock_period_ns",
          "the run (warmup + measure + drain_max cycles at this period) exceeds SystemC's "
          "64-bit picosecond time");
  require(simulation.threads >= 0 && simulation.threads <= 256, "simulation.threads",
          fmt::format("must be 0 (one per core) or 1..256, got {}", simulation.threads));
  require(simulation.parallel_min_routers >= 1, "simulation.parallel_min_routers",
          fmt::format("must be at least 1, got {}", simulation.parallel_min_routers));
  validate_node_layer(nodes);
  for (std::size_t i = 0; i < trace.routers.size(); ++i)
    require(trace.routers[i] < static_cast<NodeId>(nodes), fmt::format("trace.routers[{}]", i),
            fmt::format("router {} is outside the {}-node network", trace.routers[i], nodes));
  // The waveforms go inside the output directory (--out): a relative path without "..".
  const std::filesystem::path trace_path(trace.file);
  require(!trace_path.is_absolute(), "trace.file",
          fmt::format("'{}' is an absolute path; give a name (or relative path) inside the "
                      "output directory --out",
                      trace.file));
  for (const std::filesystem::path& part : trace_path)
    require(part != "..", "trace.file",
            fmt::format("'{}' leaves the output directory (--out) with '..'; give a name (or "
                        "relative path) inside it",
                        trace.file));
  const std::string base = trace_path.filename().string();
  require(!base.empty() && base != ".", "trace.file",
          fmt::format("'{}' names a directory; give a file base name such as 'wormsim' (the "
                      "run writes <name>.vcd and <name>.gtkw)",
                      trace.file));
}

void Config::validate_node_layer(int nodes) const {
  require(node.alpha_cycles < (Cycle{1} << 32), "node.alpha_cycles", "must be below 2^32");
  require(node.gamma_cycles < (Cycle{1} << 32), "node.gamma_cycles", "must be below 2^32");
  require(node.send_packet_cycles < (Cycle{1} << 32), "node.send_packet_cycles",
          "must be below 2^32");
  require(node.receive_packet_cycles < (Cycle{1} << 32), "node.receive_packet_cycles",
          "must be below 2^32");
  require(node.header_bytes >= 0 && node.header_bytes <= 4096, "node.header_bytes",
          fmt::format("must be in 0..4096 (got {})", node.header_bytes));
  require(node.max_packet_bytes == 0 ||
              (node.max_packet_bytes > node.header_bytes && node.max_packet_bytes <= 65536),
          "node.max_packet_bytes",
          fmt::format("must be 0 (one packet per message) or in header_bytes+1..65536 (got {}, "
                      "header_bytes {})",
                      node.max_packet_bytes, node.header_bytes));
  require(node.tx_queue_depth >= 1 && node.tx_queue_depth <= 65535, "node.tx_queue_depth",
          fmt::format("must be in 1..65535 (got {})", node.tx_queue_depth));
  const CollectiveConfig& col = collective;
  require(!col.algorithms.empty(), "collective.algorithms", "must name at least one algorithm");
  require(!col.message_bytes.empty(), "collective.message_bytes", "must not be empty");
  for (std::size_t i = 0; i < col.message_bytes.size(); ++i)
    require(col.message_bytes[i] <= kMaxMessageBytes,
            fmt::format("collective.message_bytes[{}]", i),
            fmt::format("must be at most {} bytes (16 MiB), the NI's largest message (got {})",
                        kMaxMessageBytes, col.message_bytes[i]));
  require(col.root < static_cast<NodeId>(nodes), "collective.root",
          fmt::format("node {} is outside the {}-node network", col.root, nodes));
  require(col.sample >= 1, "collective.sample",
          fmt::format("must be at least 1 (got {})", col.sample));
  for (std::size_t i = 0; i < col.destinations.size(); ++i)
    require(col.destinations[i] < static_cast<NodeId>(nodes),
            fmt::format("collective.destinations[{}]", i),
            fmt::format("node {} is outside the {}-node network", col.destinations[i], nodes));
  require(col.random_destinations >= 0 && col.random_destinations < nodes,
          "collective.random_destinations",
          fmt::format("must be in 0..{} (got {})", nodes - 1, col.random_destinations));
  if (col.random_destinations > 0)
    require(col.destinations.empty(), "collective.random_destinations",
            "give either collective.destinations or collective.random_destinations, not both");
  require(col.peer >= -1 && col.peer < nodes, "collective.peer",
          fmt::format("must be -1 or a node id below {} (got {})", nodes, col.peer));
  require(col.split_gamma > 0 && col.split_gamma < 1, "collective.split_gamma",
          fmt::format("must be in (0, 1) (got {})", col.split_gamma));
  require(col.segments >= 1 && col.segments <= 4096, "collective.segments",
          fmt::format("must be in 1..4096 (got {})", col.segments));
  const BackgroundConfig& bg = col.background;
  require(bg.packet_length >= 1 && bg.packet_length <= 65535, "collective.background.packet_length",
          fmt::format("must be in 1..65535 flits (got {})", bg.packet_length));
  require(bg.load >= 0 && bg.load <= bg.packet_length, "collective.background.load",
          fmt::format("must be in 0..packet_length flits/node/cycle, i.e. at most one packet per "
                      "node per cycle (got {})",
                      bg.load));
  require(bg.pattern != TrafficPattern::kHotspot, "collective.background.pattern",
          "hotspot is not offered for background traffic (it would need hotspot nodes of its "
          "own); use uniform_random, transpose, bit_complement or nearest_neighbor");
  require(
      bg.warmup_cycles <= kMaxBackgroundWarmup, "collective.background.warmup_cycles",
      fmt::format("must be at most {} cycles (got {})", kMaxBackgroundWarmup, bg.warmup_cycles));
  if (workload != Workload::kCollective) return;
  require(nodes >= 2, "network.dims", "a collective needs at least 2 nodes");
  if (bg.load > 0 && bg.pattern == TrafficPattern::kTranspose) {
    const TopologyConfig& t = network.topology;
    if (t.kind == TopologyKind::kHypercube)
      require(t.hypercube_dimension % 2 == 0, "collective.background.pattern",
              "transpose on a hypercube needs an even dimension");
    else
      require(t.dims.size() >= 2 &&
                  std::all_of(t.dims.begin(), t.dims.end(), [&](int d) { return d == t.dims[0]; }),
              "collective.background.pattern",
              "transpose needs a 2D or 3D network with equal side lengths");
  }
  const TopologyConfig& topo = network.topology;
  const std::vector<NodeId> roots = collective_roots(*this);
  const bool only_ping_pong =
      std::all_of(col.algorithms.begin(), col.algorithms.end(),
                  [](CollectiveAlgorithm a) { return a == CollectiveAlgorithm::kPingPong; });
  // Every operation needs a destination: collective.destinations less the root must not be
  // empty for any root (the root is dropped from the set).
  if (!col.destinations.empty() && col.random_destinations == 0 && !only_ping_pong) {
    std::vector<NodeId> distinct = col.destinations;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() == 1 && std::find(roots.begin(), roots.end(), distinct[0]) != roots.end())
      throw ConfigError(
          "collective.destinations",
          fmt::format("the only destination, node {}, is also a root (collective.roots {}): the "
                      "root is dropped from the set, leaving an operation with no destination; "
                      "list other nodes too, or [] to broadcast",
                      distinct[0], to_string(col.roots)));
  }
  if (col.peer >= 0 &&
      std::find(col.algorithms.begin(), col.algorithms.end(), CollectiveAlgorithm::kPingPong) !=
          col.algorithms.end() &&
      std::find(roots.begin(), roots.end(), static_cast<NodeId>(col.peer)) != roots.end())
    throw ConfigError("collective.peer",
                      fmt::format("ping_pong peer {} is also a root (collective.roots {}): a node "
                                  "cannot ping-pong with itself",
                                  col.peer, to_string(col.roots)));
  for (std::size_t i = 0; i < col.algorithms.size(); ++i) {
    const std::string key = fmt::format("collective.algorithms[{}]", i);
    const std::string name = to_string(col.algorithms[i]);
    // The EDN patterns (seed 000 sections 3.5-3.6): all-port 2D meshes, XY routing; the
    // transpose only on 2^k x 2^k (any_size false), reduction and gather on any size (fw::
    // EdnReduction over fw::EdnMesh, Table 3.7).
    const auto require_edn_mesh = [&](const char* section, bool any_size) {
      const bool mesh2d = topo.kind == TopologyKind::kMesh && topo.dims.size() == 2;
      if (any_size) {
        require(mesh2d, key,
                fmt::format("{} needs a 2D mesh (seed 000 section {})", name, section));
      } else {
        const bool square = mesh2d && topo.dims[0] == topo.dims[1];
        const int side = square ? topo.dims[0] : 0;
        require(square && side >= 4 && side <= 1024 && (side & (side - 1)) == 0, key,
                fmt::format("{} needs a 2D mesh of 2^k x 2^k nodes, 2 <= k <= 10 (seed 000 "
                            "section {})",
                            name, section));
      }
      require(network.router.port_model == PortModel::kAllPort, key,
              fmt::format("{} needs network.router.port_model: all_port (seed 000 section {})",
                          name, section));
      require(
          network.routing.algorithm == RoutingAlgorithm::kDimensionOrder &&
              (network.routing.order.empty() || network.routing.order == std::vector<int>{0, 1}),
          key,
          fmt::format("{}'s patterns assume XY routing (network.routing.algorithm dor, "
                      "network.routing.order [0, 1])",
                      name));
    };
    // The EDN torus patterns (seed 000 chapter 4, fw::EdnTorusPattern): 2^d x 2^d planes,
    // d >= 2, times 1..4096 planes; all-port; x, then y, then z.
    const auto require_edn_torus = [&]() {
      const bool planes = (topo.dims.size() == 2 || topo.dims.size() == 3) &&
                          topo.dims[0] == topo.dims[1] && topo.dims[0] >= 4 &&
                          topo.dims[0] <= 1024 && (topo.dims[0] & (topo.dims[0] - 1)) == 0;
      require(planes && (topo.dims.size() == 2 || topo.dims[2] <= 4096), key,
              fmt::format("{} on a torus needs 2^d x 2^d or 2^d x 2^d x z nodes, 2 <= d <= 10, "
                          "z <= 4096 (seed 000 Corollary 2, Theorem 3)",
                          name));
      require(
          network.router.port_model == PortModel::kAllPort, key,
          fmt::format("{} needs network.router.port_model: all_port (seed 000 section 4.1)", name));
      std::vector<int> xyz{0, 1, 2};
      xyz.resize(topo.dims.size());
      require(network.routing.algorithm == RoutingAlgorithm::kDimensionOrder &&
                  (network.routing.order.empty() || network.routing.order == xyz),
              key,
              fmt::format("{}'s torus patterns assume x, then y, then z routing "
                          "(network.routing.algorithm dor, network.routing.order {})",
                          name, xyz.size() == 2 ? "[0, 1]" : "[0, 1, 2]"));
    };
    switch (col.algorithms[i]) {
      case CollectiveAlgorithm::kSldBroadcast:
        // Seed 000 section 3.2: a dominating set of a 2D mesh (Fig. 3.2), XY paths (fw::SldPattern).
        require(col.destinations.empty() && col.random_destinations == 0, "collective.destinations",
                "sld_broadcast is a broadcast; leave destinations empty");
        require(topo.kind == TopologyKind::kMesh && topo.dims.size() == 2, key,
                "sld_broadcast needs a 2D mesh (network.topology: mesh, two sides; seed 000 "
                "section 3.2)");
        require(
            network.routing.algorithm == RoutingAlgorithm::kDimensionOrder &&
                (network.routing.order.empty() || network.routing.order == std::vector<int>{0, 1}),
            key,
            "sld_broadcast's U-mesh chain assumes XY routing (network.routing.algorithm dor, "
            "network.routing.order [0, 1])");
        break;
      case CollectiveAlgorithm::kUTorus:
        require(topo.kind == TopologyKind::kTorus, key,
                "u_torus orders nodes by their addresses relative to the root around the rings "
                "of a torus; it needs network.topology: torus (seed 000 section 4.4)");
        break;
      case CollectiveAlgorithm::kEdnBroadcast: {
        require(col.destinations.empty() && col.random_destinations == 0, "collective.destinations",
                "edn_broadcast is a broadcast; leave destinations empty");
        if (topo.kind == TopologyKind::kTorus) {
          require_edn_torus();
          break;
        }
        // Seed 000 sections 3.3-3.4 (fw::EdnPattern for 2^k x 2^k, fw::EdnMesh otherwise): any
        // 2D mesh; 3D meshes whose x and y sides are 4 x 2^a (section 3.4.1's XY recursion
        // from 4 x 4 planes), any z (section 3.4.2).
        const auto four_times_power_of_two = [](int s) {
          return s >= 4 && s % 4 == 0 && ((s / 4) & (s / 4 - 1)) == 0;
        };
        const bool mesh = topo.kind == TopologyKind::kMesh;
        require(mesh && (topo.dims.size() == 2 ||
                         (topo.dims.size() == 3 && four_times_power_of_two(topo.dims[0]) &&
                          four_times_power_of_two(topo.dims[1]))),
                key,
                "edn_broadcast needs a 2D mesh, or a 3D mesh whose x and y sides are 4 x 2^a "
                "(seed 000 sections 3.3-3.4)");
        require(network.router.port_model == PortModel::kAllPort, key,
                "edn_broadcast needs network.router.port_model: all_port (seed 000 section 3.3)");
        std::vector<int> identity;
        for (std::size_t d = 0; d < topo.dims.size(); ++d) identity.push_back(static_cast<int>(d));
        require(network.routing.algorithm == RoutingAlgorithm::kDimensionOrder &&
                    (network.routing.order.empty() || network.routing.order == identity),
                key,
                "edn_broadcast's patterns assume XY routing (XYZ in 3D: network.routing.algorithm "
                "dor, network.routing.order in dimension order)");
        break;
      }
      case CollectiveAlgorithm::kUCube:
      case CollectiveAlgorithm::kMaxport:
      case CollectiveAlgorithm::kCombine:
      case CollectiveAlgorithm::kWSort:
        // Seed 001: binary n-cubes under E-cube routing (validated above for hypercubes).
        require(topo.kind == TopologyKind::kHypercube, key,
                fmt::format("{} needs a hypercube (network.topology: hypercube; seed 001)", name));
        // U-cube was designed for one-port hypercubes and runs on all-port ones too (section
        // 2, Fig. 3(c)-(d)); the others choose their sends by outgoing channel (all-port).
        require(
            network.router.port_model == PortModel::kAllPort ||
                (col.algorithms[i] == CollectiveAlgorithm::kUCube &&
                 network.router.port_model == PortModel::kOnePort),
            key,
            fmt::format("{} needs network.router.port_model: all_port{} (seed 001 section 4)", name,
                        col.algorithms[i] == CollectiveAlgorithm::kUCube ? " or one_port" : ""));
        break;
      case CollectiveAlgorithm::kScatterCollect:
      case CollectiveAlgorithm::kFibonacciTree: {
        // Seed 000 section 5.3 defines both on 2D meshes (analysed on 2^n x 2^n); any sides.
        require(topo.kind == TopologyKind::kMesh && topo.dims.size() == 2, key,
                fmt::format("{} needs a 2D mesh (network.topology: mesh, two dims; seed 000 "
                            "section 5.3)",
                            name));
        require(col.destinations.empty() && col.random_destinations == 0, "collective.destinations",
                fmt::format("{} is a broadcast; leave destinations empty", name));
        // Every piece must hold a byte: SC cuts the message into one piece per node, FT into
        // collective.segments pieces.
        const bool sc = col.algorithms[i] == CollectiveAlgorithm::kScatterCollect;
        const std::uint64_t pieces =
            sc ? static_cast<std::uint64_t>(nodes) : static_cast<std::uint64_t>(col.segments);
        for (std::size_t b = 0; b < col.message_bytes.size(); ++b)
          require(col.message_bytes[b] >= pieces, fmt::format("collective.message_bytes[{}]", b),
                  fmt::format("{} cuts the message into {} pieces ({}), so it needs at least "
                              "that many bytes (got {})",
                              name, pieces, sc ? "one per node" : "collective.segments",
                              col.message_bytes[b]));
        break;
      }
      case CollectiveAlgorithm::kDimensionalBroadcast:
        require(topo.kind != TopologyKind::kHypercube, key,
                "dimensional_broadcast needs a mesh or torus");
        require(col.destinations.empty() && col.random_destinations == 0, "collective.destinations",
                "dimensional_broadcast is a broadcast; leave destinations empty");
        break;
      case CollectiveAlgorithm::kPathMulticast:
        require(network.router.multidest == MultidestMode::kPath, key,
                "path_multicast needs network.router.multidest: path");
        break;
      case CollectiveAlgorithm::kTreeMulticast:
        require(network.router.multidest == MultidestMode::kTree, key,
                "tree_multicast needs network.router.multidest: tree");
        break;
      case CollectiveAlgorithm::kMArray:
      case CollectiveAlgorithm::kRemArray:
      case CollectiveAlgorithm::kMArray2Level:
      case CollectiveAlgorithm::kScatterSmt:
        require(network.router.multidest == MultidestMode::kPath, key,
                fmt::format("{} sends path worms; it needs network.router.multidest: path",
                            to_string(col.algorithms[i])));
        break;
      case CollectiveAlgorithm::kScatterHmt:
        require(network.router.multidest == MultidestMode::kPath, key,
                "scatter_hmt sends path worms; it needs network.router.multidest: path");
        require(network.routing.algorithm != RoutingAlgorithm::kHamiltonian, key,
                "scatter_hmt groups nodes by lines of the dimension-ordered base routing; "
                "use network.routing.algorithm dor or ecube");
        break;
      case CollectiveAlgorithm::kEdnTranspose:
        require_edn_mesh("3.6", false);
        for (std::size_t b = 0; b < col.message_bytes.size(); ++b) {
          const std::uint64_t blocks = edn_transpose_max_blocks(topo.dims[0]);
          require(col.message_bytes[b] * blocks <= kMaxMessageBytes,
                  fmt::format("collective.message_bytes[{}]", b),
                  fmt::format("edn_transpose forwards up to {} blocks of {} bytes in one "
                              "message on this mesh: {} bytes, more than the NI's {}-byte "
                              "(16 MiB) message window",
                              blocks, col.message_bytes[b], col.message_bytes[b] * blocks,
                              kMaxMessageBytes));
        }
        require(col.destinations.empty() && col.random_destinations == 0, "collective.destinations",
                "edn_transpose involves every node; leave destinations empty");
        break;
      case CollectiveAlgorithm::kDirectTranspose:
        require((topo.kind == TopologyKind::kMesh || topo.kind == TopologyKind::kTorus) &&
                    topo.dims.size() == 2 && topo.dims[0] == topo.dims[1],
                key, "direct_transpose needs a square 2D mesh or torus (n x n)");
        [[fallthrough]];
      case CollectiveAlgorithm::kEdnReduce:
      case CollectiveAlgorithm::kEdnGather:
        if (col.algorithms[i] != CollectiveAlgorithm::kDirectTranspose)
          require_edn_mesh("3.5", true);
        if (col.algorithms[i] == CollectiveAlgorithm::kEdnGather)
          // A completion message can carry every node's block (fw::EdnReduction).
          for (std::size_t b = 0; b < col.message_bytes.size(); ++b)
            require(static_cast<std::uint64_t>(col.message_bytes[b]) *
                            static_cast<std::uint64_t>(nodes) <=
                        kMaxMessageBytes,
                    fmt::format("collective.message_bytes[{}]", b),
                    fmt::format("edn_gather forwards whole subtrees, up to {} blocks of {} bytes "
                                "in one message: {} bytes, more than the NI's {}-byte (16 MiB) "
                                "message window",
                                nodes, col.message_bytes[b],
                                static_cast<std::uint64_t>(col.message_bytes[b]) *
                                    static_cast<std::uint64_t>(nodes),
                                kMaxMessageBytes));
        [[fallthrough]];
      case CollectiveAlgorithm::kAlltoallLinear:
      case CollectiveAlgorithm::kAlltoallXor:
      case CollectiveAlgorithm::kAlltoallBalanced:
      case CollectiveAlgorithm::kAlltoallSquare:
      case CollectiveAlgorithm::kAlltoallColumnRow:
      case CollectiveAlgorithm::kAlltoallColumnRowInt:
      case CollectiveAlgorithm::kAlltoallButterfly: {
        // Reached by fall-through from the transposes and EDN reductions too.
        const std::string problem = kind_of(col.algorithms[i]) == CollectiveKind::kAlltoall
                                        ? alltoall_shape_problem(col.algorithms[i], topo, nodes)
                                        : std::string();
        require(problem.empty(), key, problem);
      }
        [[fallthrough]];
      case CollectiveAlgorithm::kAllgatherMulticast:
        if (col.algorithms[i] == CollectiveAlgorithm::kAllgatherMulticast)
          require(network.router.multidest != MultidestMode::kNone, key,
                  "allgather_multicast sends multidestination worms; it needs "
                  "network.router.multidest: path or tree");
        [[fallthrough]];
      case CollectiveAlgorithm::kMMesh:
      case CollectiveAlgorithm::kMArrayAllgather:
      case CollectiveAlgorithm::kMArrayReduce:
      case CollectiveAlgorithm::kMArrayAllreduce:
      case CollectiveAlgorithm::kMMeshAllreduce:
      case CollectiveAlgorithm::kTreeRowcolAllreduce:
      case CollectiveAlgorithm::kMMeshAllgather:
      case CollectiveAlgorithm::kTreeRowcolAllgather:
      case CollectiveAlgorithm::kRemArrayReduce:
      case CollectiveAlgorithm::kRemArrayAllreduce:
        check_seed004(col.algorithms[i], key);
        [[fallthrough]];
      case CollectiveAlgorithm::kGatherDirect:
      case CollectiveAlgorithm::kAlltoallDirect:
      case CollectiveAlgorithm::kBarrierDissemination:
      case CollectiveAlgorithm::kReduceBinomial:
      case CollectiveAlgorithm::kAllreduceRecursiveDoubling:
      case CollectiveAlgorithm::kAllgatherRing:
        require(
            col.destinations.empty() && col.random_destinations == 0, "collective.destinations",
            fmt::format("{} {}; leave destinations empty", to_string(col.algorithms[i]),
                        col.algorithms[i] == CollectiveAlgorithm::kMMesh ? "is a broadcast"
                                                                         : "involves every node"));
        if (kind_of(col.algorithms[i]) == CollectiveKind::kReduce ||
            kind_of(col.algorithms[i]) == CollectiveKind::kAllreduce)
          for (std::size_t b = 0; b < col.message_bytes.size(); ++b)
            require(
                col.message_bytes[b] % static_cast<std::uint32_t>(element_bytes(col.reduce_type)) ==
                    0,
                fmt::format("collective.message_bytes[{}]", b),
                fmt::format("{} reduces vectors of {} ({} bytes each): {} bytes is not a "
                            "whole number of elements",
                            to_string(col.algorithms[i]), to_string(col.reduce_type),
                            element_bytes(col.reduce_type), col.message_bytes[b]));
        break;
      default: break;
    }
    if (is_seed002_o2a_a2o(col.algorithms[i])) check_seed002(col.algorithms[i], key);
    const std::size_t dests = !col.destinations.empty() ? col.destinations.size()
                              : col.random_destinations > 0
                                  ? static_cast<std::size_t>(col.random_destinations)
                                  : static_cast<std::size_t>(nodes - 1);
    if (col.algorithms[i] == CollectiveAlgorithm::kScatterBinomial ||
        col.algorithms[i] == CollectiveAlgorithm::kScatterSmt ||
        col.algorithms[i] == CollectiveAlgorithm::kScatterHmt) {
      // The largest message holds several destinations' chunks: BT's first one the half of
      // the participants without the root, an SMT or HMT worm up to every destination's.
      const std::size_t chunks =
          col.algorithms[i] == CollectiveAlgorithm::kScatterBinomial ? (dests + 2) / 2 : dests;
      for (std::size_t b = 0; b < col.message_bytes.size(); ++b)
        require(col.message_bytes[b] * chunks <= kMaxMessageBytes,
                fmt::format("collective.message_bytes[{}]", b),
                fmt::format("{} puts up to {} chunks of {} bytes in one message: {} bytes, more "
                            "than the NI's {}-byte (16 MiB) message window",
                            to_string(col.algorithms[i]), chunks, col.message_bytes[b],
                            col.message_bytes[b] * chunks, kMaxMessageBytes));
    }
    // The model holds every node's input and expected delivery in host memory: p blocks per
    // node for the all-to-alls and allgather, about p in all for the other kinds.
    const CollectiveKind kind = kind_of(col.algorithms[i]);
    const std::uint64_t p = static_cast<std::uint64_t>(nodes);
    const std::uint64_t held =
        kind == CollectiveKind::kAlltoall || kind == CollectiveKind::kAllgather ? p * p : p;
    for (std::size_t b = 0; b < col.message_bytes.size(); ++b)
      require(col.message_bytes[b] * held <= kMaxCollectiveDataBytes,
              fmt::format("collective.message_bytes[{}]", b),
              fmt::format("{} on {} nodes holds {} blocks of {} bytes of node data ({} bytes), "
                          "more than the {} GiB one operation may hold in this model",
                          to_string(col.algorithms[i]), nodes, held, col.message_bytes[b],
                          col.message_bytes[b] * held, kMaxCollectiveDataBytes >> 30));
    check_packet_flits(col.algorithms[i], dests, nodes);
  }
}

// Seed 004's M-array, M-mesh and row/column-tree collectives: path worms, except the tree
// baseline; the M-mesh's rows and columns are lines of a 2D mesh under dimension-ordered
// routing (Definition 4), the tree's rows and columns lines of a 2D mesh (section 5).
void Config::check_seed004(CollectiveAlgorithm alg, const std::string& key) const {
  using A = CollectiveAlgorithm;
  const TopologyConfig& topo = network.topology;
  const std::string name = to_string(alg);
  // Reached by fall-through from the personalized and allgather cases too.
  const bool tree = alg == A::kTreeRowcolAllreduce || alg == A::kTreeRowcolAllgather;
  const bool m_mesh = alg == A::kMMesh || alg == A::kMMeshAllreduce || alg == A::kMMeshAllgather;
  if (!is_seed004_worms(alg) && !tree) return;
  if (!tree)
    require(network.router.multidest == MultidestMode::kPath, key,
            fmt::format("{} sends path worms; it needs network.router.multidest: path", name));
  if (m_mesh || tree)
    require(topo.kind == TopologyKind::kMesh && topo.dims.size() == 2, key,
            fmt::format("{} works along the rows and columns of a 2D mesh (seed 004 "
                        "Definition 4); network.topology must be mesh with two dims",
                        name));
  if (m_mesh)
    require(network.routing.algorithm == RoutingAlgorithm::kDimensionOrder, key,
            fmt::format("{} sends its row and column worms under dimension-ordered routing; "
                        "network.routing.algorithm must be dor",
                        name));
}

// Seed 002's one-to-all and all-to-one algorithms (firmware/delta_plan.h) are defined on 2D
// meshes over every node; 3-lev-sq's blocks (docs/drafts/issue19-spec.md section 0) need
// power-of-two sides that hold them; one-to-all needs gamma >= 0.5 (seed 002 section 3.1).
void Config::check_seed002(CollectiveAlgorithm alg, const std::string& key) const {
  using A = CollectiveAlgorithm;
  const TopologyConfig& topo = network.topology;
  const std::string name = to_string(alg);
  require(topo.kind == TopologyKind::kMesh && topo.dims.size() == 2, key,
          fmt::format("{} is defined on 2D meshes (seed 002 sections 3-4); network.topology must "
                      "be mesh with two dims",
                      name));
  require(collective.destinations.empty() && collective.random_destinations == 0,
          "collective.destinations",
          fmt::format("{} involves every node; leave destinations empty", name));
  // Every node computes the whole plan of an operation (firmware/delta_plan.h), O(p^2) node
  // ids for the broadcasts; up to the Delta's 512 nodes that is at most about 1 MB per node.
  require(topo.dims[0] * topo.dims[1] <= 512, key,
          fmt::format("{} is implemented for meshes of up to 512 nodes (the Touchstone Delta's "
                      "16 x 32, seed 002 section 2): every node holds the operation's whole "
                      "plan (network.dims [{}, {}])",
                      name, topo.dims[0], topo.dims[1]));
  if (alg == A::kO2a3LevSq || alg == A::kA2o3LevSq) {
    const int cols = topo.dims[0], rows = topo.dims[1];
    const auto pow2 = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
    int n = 0;
    while ((1 << n) < rows * cols) ++n;
    const int q = 1 << (n / 2);
    int lq = 0;
    while ((1 << lq) < q) ++lq;
    const int br = 1 << (lq / 2), bc = q / br;
    require(pow2(rows) && pow2(cols) && br <= rows && bc <= cols, key,
            fmt::format("{} partitions the mesh into blocks of 2^floor(log2(q)/2) x ... nodes, "
                        "q = 2^floor(log2(p)/2) (seed 002 section 3.2); it needs power-of-two "
                        "sides that hold a block (network.dims [{}, {}]; block {} x {})",
                        name, cols, rows, br, bc));
  }
  if (alg == A::kO2aLogpLevRec)
    require(collective.split_gamma >= 0.5, "collective.split_gamma",
            fmt::format("o2a_logp_lev_rec needs gamma in [0.5, 1): the holder's part is the larger "
                        "one (seed 002 section 3.1) (got {})",
                        collective.split_gamma));
}

// The most blocks of collective.message_bytes one message of a seed 002 algorithm holds (an
// upper bound; firmware/delta_plan.h): the broadcasts p - 1, 2-lev-rec a row (c), 3-lev-sq a
// block (q <= sqrt(2p)), the halving trees the first cut's larger half (ceil(longer side / 2)
// x shorter side: the root may sit in the smaller half of an odd side), logp-lev-rec's
// non-holder part at most half, the all-to-one split around the destination up to p - 1.
namespace {
std::uint64_t seed002_largest_blocks(CollectiveAlgorithm alg, const TopologyConfig& topo) {
  using A = CollectiveAlgorithm;
  const std::uint64_t cols = topo.dims.empty() ? 1 : static_cast<std::uint64_t>(topo.dims[0]);
  const std::uint64_t rows = topo.dims.size() < 2 ? 1 : static_cast<std::uint64_t>(topo.dims[1]);
  const std::uint64_t p = rows * cols;
  switch (alg) {
    case A::kO2a1LevDir: return 1;
    case A::kO2a2LevRec:
    case A::kA2o2LevRec: return cols;
    case A::kO2a3LevSq:
    case A::kA2o3LevSq: {
      std::uint64_t q = 1;
      while (4 * q * q <= p) q *= 2;
      return q;
    }
    case A::kO2aLogpLevSq:
    case A::kA2oLogpLevSq: return (std::max(rows, cols) + 1) / 2 * std::min(rows, cols);
    case A::kO2aLogpLevRec: return (p + 1) / 2;
    default: return p - 1;
  }
}

// The most blocks one m_mesh_allgather message holds (fw::m_mesh_gathered): a row's level
// ceil(log2 cols) - 1 block, or cols times a column's level ceil(log2 rows) - 1 block.
std::uint64_t m_mesh_allgather_max_blocks(const TopologyConfig& topo) {
  const std::uint64_t cols = topo.dims.empty() ? 1 : static_cast<std::uint64_t>(topo.dims[0]);
  const std::uint64_t rows = topo.dims.size() < 2 ? 1 : static_cast<std::uint64_t>(topo.dims[1]);
  const int lr = array_levels_of(rows);
  const int lc = array_levels_of(cols);
  if (lr > 0) return cols * (std::uint64_t{1} << (lr - 1));
  return lc > 0 ? std::uint64_t{1} << (lc - 1) : 1;
}
}  // namespace

// Every packet must fit the 65535 flits a packet can have (16-bit flit index). The NI sends a
// message as one packet (node.max_packet_bytes 0) or in packets of max_packet_bytes -
// header_bytes payload bytes; each packet carries node.header_bytes of header and, in a
// multidestination worm, its destination list (ni/network_interface.cpp packetise, routing/
// multicast_route.cpp header_flits). `dests` bounds the destinations of one operation.
void Config::check_packet_flits(CollectiveAlgorithm alg, std::size_t dests, int nodes) const {
  using A = CollectiveAlgorithm;
  const bool worms = alg == A::kPathMulticast || alg == A::kTreeMulticast || alg == A::kMArray ||
                     alg == A::kRemArray || alg == A::kScatterSmt || alg == A::kScatterHmt ||
                     alg == A::kAllgatherMulticast || is_seed004_worms(alg);
  // edn_gather: a completion message can carry every node's block (dests + 1 of them);
  // edn_transpose: edn_transpose_max_blocks.
  const std::uint64_t chunks =
      alg == A::kScatterBinomial                       ? (dests + 2) / 2
      : alg == A::kScatterSmt || alg == A::kScatterHmt ? dests
      : alg == A::kEdnGather                           ? dests + 1
      : is_seed002_o2a_a2o(alg) ? seed002_largest_blocks(alg, network.topology)
      : kind_of(alg) == CollectiveKind::kAlltoall
          ? alltoall_message_blocks(alg, network.topology, nodes)
      : alg == A::kEdnTranspose ? edn_transpose_max_blocks(network.topology.dims.at(0))
      : alg == A::kMArrayAllgather
          ? std::uint64_t{1} << (array_levels_of(static_cast<std::uint64_t>(nodes)) - 1)
      : alg == A::kMMeshAllgather      ? m_mesh_allgather_max_blocks(network.topology)
      : alg == A::kTreeRowcolAllgather ? static_cast<std::uint64_t>(nodes)
                                       : 1;
  const auto fb = static_cast<std::uint64_t>(network.flit_bytes);
  const std::uint64_t list_flits = worms ? destination_list_flits(network, dests, nodes) : 0;
  const bool cut_through = worms && workload == Workload::kCollective &&
                           network.router.replication_flow == ReplicationFlow::kCutThrough;
  const auto header = static_cast<std::uint64_t>(node.header_bytes);
  const std::string preset_note =
      machine.preset == kNoPreset
          ? std::string()
          : fmt::format(
                " (machine.preset '{}' sets node.max_packet_bytes and network.flit_bytes: "
                "to change them, use machine.preset: none and give "
                "network.clock_period_ns, network.flit_bytes and node.* yourself)",
                machine.preset);
  for (std::size_t b = 0; b < collective.message_bytes.size(); ++b) {
    const std::uint64_t message = collective.message_bytes[b] * chunks;
    // The NI's DMA window bounds every message (the algorithms with their own window check
    // above have reported theirs already).
    if (message > kMaxMessageBytes)
      throw ConfigError(fmt::format("collective.message_bytes[{}]", b),
                        fmt::format("{} sends messages of up to {} chunks of {} bytes: {} bytes, "
                                    "more than the NI's {}-byte (16 MiB) message window",
                                    to_string(alg), chunks, collective.message_bytes[b], message,
                                    kMaxMessageBytes));
    const std::uint64_t payload =
        node.max_packet_bytes > 0
            ? std::min<std::uint64_t>(message,
                                      static_cast<std::uint64_t>(node.max_packet_bytes) - header)
            : message;
    const std::uint64_t flits =
        list_flits + std::max<std::uint64_t>(1, (header + payload + fb - 1) / fb);
    if (worms && network.router.header_decode == HeaderDecode::kBuffered &&
        list_flits + 1 > static_cast<std::uint64_t>(network.router.buffer_depth))
      throw ConfigError(
          "network.router.buffer_depth",
          fmt::format("network.router.header_decode buffered routes a worm once the header flits "
                      "it reads are in the VC buffer: {} sends worms to up to {} destinations, "
                      "{} header flits, more than {}",
                      to_string(alg), dests, list_flits + 1, network.router.buffer_depth));
    if (cut_through && flits > static_cast<std::uint64_t>(network.router.buffer_depth))
      throw ConfigError(
          "network.router.buffer_depth",
          fmt::format("network.router.replication_flow cut_through needs a VC buffer that holds "
                      "the largest worm: {} with collective.message_bytes[{}] = {} sends worms of "
                      "up to {} flits ({} destination-list flits), more than {}; raise "
                      "buffer_depth or cut messages into packets with node.max_packet_bytes{}",
                      to_string(alg), b, collective.message_bytes[b], flits, list_flits,
                      network.router.buffer_depth, preset_note));
    if (flits <= static_cast<std::uint64_t>(kMaxPacketFlits)) continue;
    std::string what = fmt::format(
        "{} sends a {}-byte message{} {} {} flits ({}-byte flits{}{}), more than the {} flits a "
        "packet can have",
        to_string(alg), message,
        chunks > 1 ? fmt::format(" ({} chunks of {} bytes)", chunks, collective.message_bytes[b])
                   : std::string(),
        node.max_packet_bytes > 0
            ? fmt::format("in packets of {} payload bytes (node.max_packet_bytes {} - "
                          "node.header_bytes {}) of up to",
                          payload, node.max_packet_bytes, header)
            : std::string("as one packet (node.max_packet_bytes 0) of"),
        flits, fb, header > 0 ? fmt::format(", {} header bytes", header) : std::string(),
        list_flits > 0 ? fmt::format(", {} destination-list flits", list_flits) : std::string(),
        kMaxPacketFlits);
    throw ConfigError(
        fmt::format("collective.message_bytes[{}]", b),
        what.append(node.max_packet_bytes > 0
                        ? "; lower node.max_packet_bytes or collective.message_bytes"
                        : "; lower collective.message_bytes, or split messages into packets "
                          "with node.max_packet_bytes")
            .append(preset_note));
  }
}

}  // namespace wormsim
