// Typed configuration of one simulation run. Loaded from YAML by config_loader; every field
// has a documented default (docs/config.md) and validate() rejects impossible combinations
// with the key path that is wrong. No global state: a Config is passed down explicitly.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flit.h"

namespace wormsim {

enum class TopologyKind { kMesh, kTorus, kHypercube };
// kHamiltonian: Lin-McKinley Hamiltonian-path routing on a 2D mesh (seed 004 section 2.2,
// Fig. 1(c)): nodes labelled along a boustrophedon path; a packet moves through the "high"
// (increasing label) or "low" (decreasing label) channel subnetwork, each acyclic.
enum class RoutingAlgorithm { kDimensionOrder, kEcube, kHamiltonian };
enum class EcubeOrder { kHighToLow, kLowToHigh };
enum class PortModel { kOnePort, kKPort, kAllPort };
enum class AllocatorKind { kSeparableInputFirst, kSeparableOutputFirst };
// How the router pipeline is modelled (docs/timing-model.md, "Router pipeline"). delay: every
// flit waits pipeline_depth - 1 cycles after its buffer write, then VC allocation, switch
// allocation and crossbar traversal happen in one cycle (a fixed per-flit delay, no stage
// occupancy). The others are real stages, each occupied by one head per input VC per cycle,
// with switch traversal (ST) a stage of its own:
//   classic               RC | VA | SA | ST            (4 stages)
//   lookahead             VA | SA | ST                 (route computed one hop upstream)
//   speculative           RC | VA + SA | ST            (SA speculates on VA's outcome)
//   combined              RC | VA.SA | ST              (VA then SA within one cycle)
//   lookahead_speculative VA + SA | ST
//   lookahead_combined    VA.SA | ST
enum class PipelineModel {
  kDelay,
  kClassic,
  kLookahead,
  kSpeculative,
  kCombined,
  kLookaheadSpeculative,
  kLookaheadCombined
};
// Stages of a staged pipeline model (the pipeline_depth it implies); 0 for kDelay.
int pipeline_stages(PipelineModel m);
// Which model of the router runs (docs/rtl.md): the C++ router or the Verilated RTL router
// (rtl/wormsim_router.sv), cycle-equivalent by contract.
enum class RouterImplementation { kSystemC, kRtl };
// Multidestination support in the router (DESIGN.md section 4; docs/multidestination.md):
// none = unicast only; path = path-based worms with intermediate reception (absorb and
// forward at every destination on a base-routing-conformed path); tree = replication at the
// branch points of the dimension-ordered tree.
enum class MultidestMode { kNone, kPath, kTree };
// How a replicated flit leaves its input buffer: synchronous = only when every branch takes
// it in the same cycle; asynchronous = each branch has its own read pointer and the slot frees
// when the last branch has taken the flit.
enum class Replication { kSynchronous, kAsynchronous };
// When a replicating worm (one that leaves a router on two or more outputs) may take its
// output VCs: wormhole = as soon as each branch has a free VC; cut_through = only when every
// branch's downstream VC buffer also has room for the whole worm (virtual cut-through at the
// branch points), so a replicating worm never stalls with flits spread over a branch point
// (docs/multidestination.md, "Deadlock and its avoidance").
enum class ReplicationFlow { kWormhole, kCutThrough };
// Whether the network's cycle loop gives the components cache hints (docs/architecture.md,
// "Cache hints"): auto = timed trials pick on or off while the run goes (kernel/hint_tuner.h),
// on, off = always, never. They never change a result, only the speed.
enum class CacheHints { kAuto, kOn, kOff };
// Which engine evaluates the routers (docs/architecture.md, "The flat engine"): reference = Router
// objects (every feature), flat = FlatRouters (synthetic unicast runs with the delay pipeline,
// separable input-first allocation, latency-1 links, no tracing, one thread), auto = flat where
// it can run, reference elsewhere. The engines give the same results.
enum class Engine { kAuto, kReference, kFlat };
// How a multidestination header encodes its destinations: a list of node addresses packed
// into the header flits, a bit-string with one bit per node, or one address per header flit
// (address flits: the header flits before the last carry no payload; the minimal path-IR
// router strips the leading one at each destination, docs/multidestination.md).
enum class HeaderEncoding { kAddressList, kBitString, kAddressFlits };
// The router hardware behind path worms (multidest path; docs/multidestination.md, "The
// minimal path-IR router"): full = the replicating router (any number of branches, the whole
// list decoded from the head flit); minimal = intermediate reception only: the head's address
// is matched at the buffer head, the matched address flit is stripped, and the next address
// flit becomes the head of a two-branch worm (consumption channel and next hop).
enum class PathIr { kFull, kMinimal };
// When a router may route a multidestination worm's head (docs/multidestination.md, "Header
// decode"): head_flit = as soon as the head is in, with the whole list read from it whatever
// its length (the seeds' latency models, which charge header flits as length only); buffered =
// only from bits in its buffer: the head waits until the header flit holding the last list bit
// routing reads has arrived (a tree worm's whole list; a path worm at its current target, the
// next target's address). Lists of one header flit route alike under both.
enum class HeaderDecode { kHeadFlit, kBuffered };
// How a synthetic multicast travels on unicast routers (network.router.multidest none), as a
// software tree of unicast packets (ni/software_multicast.h): separate_addressing = the source
// sends one packet to every destination; binomial_tree = U-mesh recursive halving over the
// routing-ordered chain (seed 000 section 3.2.2, after McKinley et al.).
enum class SoftwareMulticastScheme { kSeparateAddressing, kBinomialTree };
enum class TrafficPattern {
  kUniformRandom,
  kTranspose,
  kBitComplement,
  kHotspot,
  kNearestNeighbor
};
// Destination sets of synthetic multidestination worms (docs/config.md, traffic.
// multicast_pattern): random = any nodes (path worms: a random base-routing-conformed path);
// row_column = nodes of the source's row and column of a 2D mesh or torus; hotspot = the
// traffic.hotspot.nodes plus random others.
enum class MulticastPattern { kRandom, kRowColumn, kHotspot };
// What drives the network: synthetic traffic from terminals, or node firmware running
// collective operations (processor + NI per node; docs/collectives.md).
enum class Workload { kSynthetic, kCollective };
enum class CollectiveAlgorithm {
  kPingPong,              // seed 000 sections 5.1-5.2 (tau model)
  kSeparateAddressing,    // the root sends to every destination
  kRecursiveDoubling,     // U-mesh / RD, seed 000 sections 3.2.2, 3.3.3
  kDimensionalBroadcast,  // seed 000 section 5.3, Fig. 5.5
  kEdnBroadcast,          // seed 000 sections 3.3-3.4, Appendix A
  kPathMulticast,         // path worms with intermediate reception (multidest: path)
  kTreeMulticast,         // one worm replicated along the DOR tree (multidest: tree)
  kMArray,                // M-array broadcast (Def. 1, Example 1), path worms, seed 004
  kRemArray,              // REM-array broadcast (one channel per block), seed 004
  kScatterSequential,     // scatter ST: one unicast per destination, seed 003 section 2.2
  kScatterBinomial,       // scatter BT: binomial tree of unicasts, seed 003
  kScatterSmt,            // scatter SMT: one worm per BRCP path with its members' data, seed 003
  kScatterHmt,            // scatter HMT: worm to line leaders, then one per group, seed 003
  kGatherDirect,          // a2o_1_lev_dir: every node sends its block to the root, seed 002 s. 4
  kAlltoallDirect,        // a2a_1_lev_dir: every node sends p - 1 blocks directly, seed 002 s. 5
  kBarrierDissemination,  // barrier_dissemination: ceil(log2 p) rounds (Hensgen et al. 1988)
  kReduceBinomial,        // reduce_binomial: binomial tree of partial results to the root
  kAllreduceRecursiveDoubling,  // allreduce_recursive_doubling: pairwise exchange, log2 p rounds
  kAllgatherRing,               // allgather_ring: p - 1 steps around a ring
  kDirectTranspose,             // direct_transpose: (x, y) sends its block to (y, x), s. 3.6
  kEdnReduce,                   // edn_reduce: rotated EDN tree + completion, seed 000 s. 3.5
  kEdnGather,                   // edn_gather: the same pattern carrying subtrees' blocks, s. 3.5
  // Seed 002 one-to-all (scatter, section 3) and all-to-one (gather, section 4) on 2D meshes
  // (firmware/delta_plan.h; docs/seed002-one-to-all.md).
  kO2a1LevDir,     // o2a_1_lev_dir: p - 1 direct sends from the root
  kO2a1LevSysBr,   // o2a_1_lev_sys_br: L(p-1) broadcast, a 2-level direct stand-in
  kO2a1LevOurBr,   // o2a_1_lev_our_br: L(p-1) broadcast over logp-lev-sq's binomial tree
  kO2a2LevRec,     // o2a_2_lev_rec: cL to the root's column, then 1-lev-dir in every row
  kO2a3LevSq,      // o2a_3_lev_sq: qL to every block's leader, then 2-lev-rec in the block
  kO2aLogpLevSq,   // o2a_logp_lev_sq: halving, alternating vertical and horizontal cuts
  kO2aLogpLevRec,  // o2a_logp_lev_rec: snake-order split gamma : 1 - gamma
  kA2o2LevRec,     // a2o_2_lev_rec: 2-lev-rec reversed
  kA2o3LevSq,      // a2o_3_lev_sq: 3-lev-sq reversed
  kA2oLogpLevSq,   // a2o_logp_lev_sq: logp-lev-sq reversed
  kA2oLogpLevRec,  // a2o_logp_lev_rec: snake-order split, gamma in (0, 1)
  // All-to-all personalized, seed 002 section 5 (firmware/alltoall_plan.h):
  kAlltoallLinear,        // a2a_1_lev_lin: permutation i, P_j -> P_(j+i) mod p (s. 5.1)
  kAlltoallXor,           // a2a_1_lev_xor: permutation i, P_j -> P_(j XOR i); p a power of 2
  kAlltoallBalanced,      // a2a_1_lev_bal: Scott's balanced permutations; r, c multiples of 4
  kAlltoallSquare,        // a2a_2_lev_sq: 3 steps over square(ish) submeshes (s. 5.2-5.3)
  kAlltoallColumnRow,     // a2a_2_lev_c_r: xor in the columns, then in the rows (s. 5.2-5.3)
  kAlltoallColumnRowInt,  // a2a_2_lev_c_r_int: c,r with the rows' sends interleaved (s. 5.3)
  kAlltoallButterfly,     // a2a_logp_lev_bfly: log2 p pairwise exchanges of p/2 blocks (s. 5.2)
  kEdnTranspose,          // edn_transpose: k steps via the 4x4 blocks' diagonals, s. 3.6
  // allgather_multicast: every node multicasts its block to all others at once as
  // multidestination worms (path: one worm per conforming path, seed 003; tree: one worm).
  kAllgatherMulticast,
  // Multicast on all-port binary n-cubes under E-cube routing, seed 001 section 4
  // (firmware/cube_multicast.h; docs/hypercube-multicast.md):
  kUCube,    // u_cube: source-relative dimension-ordered chain, next = center (Fig. 4)
  kMaxport,  // maxport: next = highdim, one send per outgoing channel
  kCombine,  // combine: next = max(highdim, center)
  kWSort,    // w_sort: Maxport over the weighted_sort'ed cube-ordered chain (Fig. 7)
  // recursive_doubling_rotated: recursive doubling over the dimension-ordered chain rotated to
  // start at the root (our reconstruction of seed 000's RD baseline, section 3.3.5;
  // docs/collectives.md "EDN versus recursive doubling")
  kRecursiveDoublingRotated,
  // Seed 004's multicast virtual topologies on path worms (firmware/m_array.h;
  // docs/multidestination.md):
  kMArray2Level,         // m_array_2level: our earlier two-level array, 2 group steps
  kMMesh,                // m_mesh: M-array broadcast along the root's row, then columns (Def. 4)
  kMArrayAllgather,      // m_array_allgather: N/N reduction with concatenation, log N steps
  kMArrayReduce,         // m_array_reduce: the N/N reduction on the M-array, the root delivers
  kMArrayAllreduce,      // m_array_allreduce: the N/N global reduction on the M-array
  kMMeshAllreduce,       // m_mesh_allreduce: N/N reduction along rows, then columns
  kTreeRowcolAllreduce,  // tree_rowcol_allreduce: binomial trees in rows and columns, 2 log N
  // Broadcasts on 2D meshes compared by the tau-model, seed 000 section 5.3 (docs/tau-model.md):
  kScatterCollect,  // scatter_collect: scatter in row and columns, ring collects (Table 5.2)
  kFibonacciTree,   // fibonacci_tree: collective.segments-piece pipelined tree (Fig. 5.7)
  kUTorus,  // u_torus: U-mesh's halving over addresses relative to the root, seed 000 s. 4.4
  // sld_broadcast: U-mesh to a dominating set, then one step to the neighbours, seed 000 s. 3.2
  kSldBroadcast,
  // Seed 004's all-to-all broadcasts on the M-mesh and the row/column tree (Table 1) and the
  // REM-array's reductions (firmware/m_array.h; docs/multidestination.md):
  kMMeshAllgather,       // m_mesh_allgather: N/N reduction with concatenation, rows then columns
  kTreeRowcolAllgather,  // tree_rowcol_allgather: binomial gather + broadcast in rows and columns
  kRemArrayReduce,       // rem_array_reduce: the N/N reduction pruned to the root, N - 1 multicasts
  kRemArrayAllreduce,    // rem_array_allreduce: the N/N reduction over the REM-array's channels
};
// What an operation computes, which fixes each node's input and what it must deliver
// (firmware/collective_data.h; docs/collectives.md):
//   kPingPong   root -> peer -> root, the root delivers the echo;
//   kBroadcast  one-to-many: every destination delivers the root's bytes (broadcast, multicast);
//   kScatter    one-to-all personalized: each destination its own block of the root's;
//   kGather     all-to-one personalized: the root delivers every node's block, in node order;
//   kAlltoall   all-to-all personalized: node j delivers block i->j of every node i, in order;
//   kBarrier    every node delivers once, not before the last node has entered;
//   kReduce     the root delivers the element-wise reduction of every node's vector;
//   kAllreduce  every node delivers it;
//   kAllgather  every node delivers every node's block, in node order;
//   kTranspose  on an n x n mesh or torus, node (x, y) delivers the block of node (y, x).
enum class CollectiveKind {
  kPingPong,
  kBroadcast,
  kScatter,
  kGather,
  kAlltoall,
  kBarrier,
  kReduce,
  kAllreduce,
  kAllgather,
  kTranspose
};
// Reduction operator and element type (collective.reduce_op, collective.reduce_type): message
// sizes are vectors of these elements, little-endian.
enum class ReduceOp { kSum, kMax, kMin };
enum class ReduceType { kInt32, kInt64, kFloat32, kFloat64 };
int element_bytes(ReduceType t);
CollectiveKind kind_of(CollectiveAlgorithm a);
// The most blocks one edn_transpose message carries on a side x side mesh (side = 2^k):
// 5^(ceil(k/2) - 1). Why (fw::EdnTranspose): the 4x4 diagonal gather uses every link into the
// diagonal, so its corner collectors end with 3 sub-blocks' data and the inner ones with 5;
// a level-j gather message carries what one holder gathered below, at most 5^(j-1) blocks,
// and the exchange of odd k what k/2 levels gathered, at most 5^(k/2).
std::uint64_t edn_transpose_max_blocks(int side);
// Scatter (personalized one-to-all): each destination gets its own collective.message_bytes.
bool is_scatter(CollectiveAlgorithm a);
// Operations that involve every node and have no root (all-to-all, barrier).
bool is_rootless(CollectiveAlgorithm a);
// Seed 002's one-to-all and all-to-one algorithms on 2D meshes (firmware/delta_plan.h).
bool is_seed002_o2a_a2o(CollectiveAlgorithm a);
enum class RootSelection { kOne, kAll, kSample };
// node.send_mode: a non-blocking send returns once its descriptor is queued at the NI, a
// blocking one once the message's last flit has left the NI (the send buffer may be reused),
// as the Touchstone Delta's NX offers both (seed 002 section 2).
enum class SendMode { kNonBlocking, kBlocking };

// A configuration error: `key` is the dotted path (e.g. "router.vcs"), `line` the 1-based
// line in the YAML source when known (0 otherwise).
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string key, std::string message, int line = 0, const std::string& source = {});
  const std::string& key() const { return key_; }
  int line() const { return line_; }

 private:
  std::string key_;
  int line_;
};

struct TopologyConfig {
  TopologyKind kind = TopologyKind::kMesh;
  std::vector<int> dims{8, 8};  // mesh/torus: side length per dimension (x first)
  int hypercube_dimension = 0;  // hypercube: n of the binary n-cube
};

struct RoutingConfig {
  RoutingAlgorithm algorithm = RoutingAlgorithm::kDimensionOrder;
  std::vector<int> order;  // DOR resolution order of dimensions; empty = 0,1,2,...
  EcubeOrder ecube_order = EcubeOrder::kHighToLow;
  bool dateline = true;  // tori: two VC classes split at the wrap-around link (Dally-Seitz)
};

struct RouterConfig {
  int vcs = 4;             // virtual channels per physical channel
  int buffer_depth = 4;    // flits per VC buffer
  int pipeline_depth = 1;  // 1..4 stages (RC, VA, SA, ST)
  // delay = the fixed per-flit delay above; the others model the stages (PipelineModel) and
  // need pipeline_depth equal to their stage count.
  PipelineModel pipeline = PipelineModel::kDelay;
  int link_latency = 1;    // cycles, router to router
  int credit_latency = 1;  // cycles, credit return
  AllocatorKind allocator = AllocatorKind::kSeparableInputFirst;
  PortModel port_model = PortModel::kOnePort;
  int ports = 1;  // k for k_port (injection = ejection channel count)
  MultidestMode multidest = MultidestMode::kNone;
  Replication replication = Replication::kAsynchronous;
  HeaderEncoding header_encoding = HeaderEncoding::kAddressList;
  PathIr path_ir = PathIr::kFull;
  HeaderDecode header_decode = HeaderDecode::kHeadFlit;
  // Consumption (ejection) channels per node; 0 = as many as the port model has.
  int consumption_channels = 0;
  // Multidestination worms (path or tree) only: the top N VCs of every physical channel (of
  // each dateline class on a torus) are reserved for multidestination worms, which use only
  // those, and unicast packets use the others. 0 = every VC is shared.
  int multidest_vcs = 0;
  ReplicationFlow replication_flow = ReplicationFlow::kWormhole;
  RouterImplementation implementation = RouterImplementation::kSystemC;
  // implementation rtl: the nodes whose router is the RTL model; empty = every node.
  std::vector<NodeId> rtl_nodes;
  // Whether node n's router is the RTL model.
  bool rtl_at(NodeId n) const;
};

struct NetworkConfig {
  TopologyConfig topology;
  RoutingConfig routing;
  RouterConfig router;
  int flit_bytes = 8;  // payload bytes per flit (phit width)
  double clock_period_ns = 1.0;
};

struct HotspotConfig {
  std::vector<NodeId> nodes{0};
  double fraction = 0.1;  // share of packets sent to a hotspot node
};

struct TrafficConfig {
  TrafficPattern pattern = TrafficPattern::kUniformRandom;
  double injection_rate = 0.1;  // offered load, flits/node/cycle (Bernoulli packet arrivals)
  int packet_length = 5;        // flits per packet
  HotspotConfig hotspot;
  // Multicasts: this share of the packets goes to `multicast_destinations` destinations drawn
  // by `multicast_pattern` (ni/multicast_destinations.h): path worms' lists always conform to
  // the base routing; tree worms and software multicasts on unicast routers take the set.
  double multicast_fraction = 0;
  int multicast_destinations = 4;
  MulticastPattern multicast_pattern = MulticastPattern::kRandom;
  // multidest none: a multicast is a software tree of unicast packets of this scheme.
  SoftwareMulticastScheme software_multicast = SoftwareMulticastScheme::kBinomialTree;
  // multidest none: cycles a receiving node spends before each forward it starts (the
  // alpha/gamma analogue; serialised per node).
  Cycle software_forward_cycles = 0;
  std::uint64_t seed = 1;
};

struct SimulationConfig {
  Cycle warmup_cycles = 1000;
  Cycle measure_cycles = 10000;
  Cycle drain_max_cycles = 200000;  // after measurement: stop generating, drain the network
  Cycle watchdog_cycles = 20000;  // no flit movement for this long with flits in flight = deadlock
  Cycle progress_interval = 0;    // >0: progress line on stderr every this many cycles
  // Threads evaluating routers within a cycle (docs/architecture.md "One cycle"); 0 = one per
  // core, capped by the network's size, and one for collective runs. Results are identical for
  // every value.
  int threads = 0;
  // With threads > 1: cycles with fewer active routers than this run serially (the hand-off
  // to the threads costs more than it saves); 1 = every cycle in parallel (tests).
  int parallel_min_routers = 256;
  CacheHints cache_hints = CacheHints::kAuto;
  Engine engine = Engine::kAuto;
};

// The node layer: processor software costs and the NI (DESIGN.md section 6). A machine
// preset sets alpha, gamma and the packet format.
struct NodeConfig {
  Cycle alpha_cycles = 0;    // send start-up, charged on the sending processor per message
  Cycle gamma_cycles = 0;    // receive overhead, charged on the receiving processor per message
  int max_packet_bytes = 0;  // 0: a message travels as one packet; else packets of <= this
  int header_bytes = 0;      // bytes of header at the start of every packet
  int tx_queue_depth = 16;   // descriptors per injection channel
  // Reductions: processor time to combine one element into a partial result, charged as
  // computation after each received vector is combined.
  Cycle combine_cycles_per_element = 0;
  // Software cost of each packet of a message after the first (the first is part of alpha /
  // gamma): seed 002 section 2, the Delta's 512-byte packets, receives slower than sends.
  Cycle send_packet_cycles = 0;
  Cycle receive_packet_cycles = 0;
  SendMode send_mode = SendMode::kNonBlocking;
};

// Background unicast traffic that the NIs' hardware injects during a collective run, beside
// the firmware's messages and invisible to it (docs/collectives.md, "Background load"): Bernoulli
// packet arrivals at every node from cycle 0, the first operation starting after
// warmup_cycles, generation stopping when the last operation ends. load 0 = off (the run is
// exactly the run without background).
struct BackgroundConfig {
  double load = 0;        // offered flits/node/cycle, 0..packet_length
  int packet_length = 5;  // flits per background packet
  TrafficPattern pattern = TrafficPattern::kUniformRandom;  // not hotspot
  Cycle warmup_cycles = 1000;  // background before the first operation starts
  std::uint64_t seed = 1;
};

struct CollectiveConfig {
  std::vector<CollectiveAlgorithm> algorithms{CollectiveAlgorithm::kEdnBroadcast,
                                              CollectiveAlgorithm::kRecursiveDoubling};
  std::vector<std::uint32_t> message_bytes{32, 64, 128, 256, 512, 1024, 2048};
  RootSelection roots = RootSelection::kSample;
  NodeId root = 0;  // roots: one
  int sample = 8;   // roots: sample (distinct random roots, collective.seed)
  // Multicast set; [] = broadcast to every other node. The root is dropped from it, which must
  // not leave it empty for any root (validate()).
  std::vector<NodeId> destinations;
  int random_destinations = 0;  // > 0: a random set of this many per root instead
  std::int64_t peer = -1;       // ping_pong partner; -1 = the root's first neighbour
  std::uint64_t seed = 1;
  ReduceOp reduce_op = ReduceOp::kSum;          // reduce, allreduce
  ReduceType reduce_type = ReduceType::kInt32;  // reduce, allreduce
  // o2a_logp_lev_rec, a2o_logp_lev_rec: the fraction gamma of a submachine that keeps the
  // holder (seed 002 sections 3.1, 4); in [0.5, 1) for one-to-all, (0, 1) for all-to-one.
  double split_gamma = 0.75;
  BackgroundConfig background;
  // fibonacci_tree: the k pieces the message is cut into (seed 000 section 5.3), 1..4096.
  int segments = 4;
};

struct TraceConfig {
  bool enabled = false;
  std::vector<NodeId> routers;  // empty = default_traced_routers() of the topology
  // VCD base name: a relative path inside the output directory (no "..", not absolute).
  std::string file = "wormsim";
  Cycle window_cycles = 0;  // >0: waveforms cover only the first this many cycles
  bool timeline = true;     // collective runs: Chrome trace-event timeline (timeline.json)
  bool rtl_vcd = false;     // RTL routers' FST waves also converted to VCD (fst2vcd)
};

// A machine preset (docs/presets.md) sets network.clock_period_ns and network.flit_bytes
// from a machine the seeds describe; "none" keeps the network section as given.
struct MachineConfig {
  std::string preset = "none";
};

struct Config {
  MachineConfig machine;
  Workload workload = Workload::kSynthetic;
  NetworkConfig network;
  NodeConfig node;
  CollectiveConfig collective;
  TrafficConfig traffic;
  SimulationConfig simulation;
  TraceConfig trace;

  // Throws ConfigError naming the offending key. Checks cross-field constraints too.
  void validate() const;

 private:
  void validate_node_layer(int nodes) const;
  void check_packet_flits(CollectiveAlgorithm alg, std::size_t dests, int nodes) const;
  void check_seed004(CollectiveAlgorithm alg, const std::string& key) const;
  void check_seed002(CollectiveAlgorithm alg, const std::string& key) const;
};

int node_count(const TopologyConfig& t);

// The routers a run with tracing on traces when trace.routers is empty: corner router 0 and
// the one or two central routers, (floor((k-1)/2), ...) and (floor(k/2), ...) for side
// lengths k (8x8: 0, 27, 36; 4x4: 0, 5, 10; a hypercube, a 2-ary n-cube: 0 and 2^n-1).
std::vector<NodeId> default_traced_routers(const TopologyConfig& t);
// trace.routers, or default_traced_routers() when it is empty.
std::vector<NodeId> traced_routers(const Config& c);

// The roots of a collective run, in order: collective.root (roots: one), every node (all), or
// collective.sample distinct nodes drawn with collective.seed (sample, capped at the node count).
std::vector<NodeId> collective_roots(const Config& c);

// Largest packet the network carries, in flits (Flit::index and packet lengths are 16 bits).
inline constexpr int kMaxPacketFlits = 65535;
// The largest message the NI moves: one 16 MiB DMA window (ni/ni_registers.h), enough for seed
// 002's combining algorithms (a 2-level algorithm on 256 nodes sends up to 127 x 16384 bytes).
inline constexpr std::uint32_t kMaxMessageBytes = 16u << 20;
// The most node data (inputs and expected deliveries, summed over nodes) one collective
// operation may have: the model holds it in host memory, a few copies of it at once. Seed
// 002's largest, an all-to-all of 16384-byte blocks on 256 nodes, is 1 GiB.
inline constexpr std::uint64_t kMaxCollectiveDataBytes = std::uint64_t{2} << 30;
// The longest background warm-up (collective.background.warmup_cycles): 2^32 cycles keeps the
// processors' SystemC wait before the first operation far from the time limit.
inline constexpr Cycle kMaxBackgroundWarmup = Cycle{1} << 32;

// Name <-> enum tables shared by the loader, `wormsim list` and the JSON writer.
std::string to_string(TopologyKind v);
std::string to_string(RoutingAlgorithm v);
std::string to_string(EcubeOrder v);
std::string to_string(PortModel v);
std::string to_string(AllocatorKind v);
std::string to_string(PipelineModel v);
std::string to_string(RouterImplementation v);
std::string to_string(MultidestMode v);
std::string to_string(Replication v);
std::string to_string(ReplicationFlow v);
std::string to_string(CacheHints v);
std::string to_string(Engine v);
std::string to_string(HeaderEncoding v);
std::string to_string(PathIr v);
std::string to_string(HeaderDecode v);
std::string to_string(TrafficPattern v);
std::string to_string(SoftwareMulticastScheme v);
std::string to_string(MulticastPattern v);
std::string to_string(Workload v);
std::string to_string(CollectiveAlgorithm v);
std::string to_string(RootSelection v);
std::string to_string(CollectiveKind v);
std::string to_string(ReduceOp v);
std::string to_string(ReduceType v);
std::string to_string(SendMode v);
template <typename E>
std::vector<E> all_values();
template <typename E>
std::optional<E> parse_enum(const std::string& name);

}  // namespace wormsim
