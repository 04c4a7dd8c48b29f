// wormsim RTL package: the one definition of the flit format in SystemVerilog (the C++ one is
// systemc/core/flit.h; systemc/cosim/rtl_flit.h packs C++ flits into this layout and the cosim test
// testbenches/cosim/rtl_flit_test.cpp round-trips it), the router's run-time configuration straps
// and the structural maxima of the cosimulation builds (rtl/README.md).
//
// The C++ and CMake sides read this file: scripts/rtl_layout.py parses its parameters, enums
// and packed structs at build time into wormsim_rtl_layout.h (namespace wormsim::rtl::pkg) and
// CMake variables WORMSIM_PKG_<name> (docs/rtl.md, "One definition of the bit layouts"). It
// reads `parameter` lines, `typedef enum` with explicit values, `typedef struct packed` and
// skips functions; anything else here is a build error naming this file and line.
//
// RTL style note (all of rtl/): Debian's yosys 0.23 reads SystemVerilog packages, packed
// structs and enums, but not `import`, multi-dimensional packed arrays, arrays of structs on
// ports, `return` or `int'()` casts. So modules name package items as wormsim_pkg::x and
// multi-dimensional arrays are flat vectors, element [a][b] of an A x B array at index
// a * B + b ([port][vc] order, port major), each element W bits wide at [index*W +: W].
package wormsim_pkg;

  // ---- widths -------------------------------------------------------------------------
  parameter int unsigned NodeW = 16;   // node id: up to 65536 nodes
  parameter int unsigned CoordW = 16;  // one coordinate / side length
  parameter int unsigned MaxDims = 3;  // mesh/torus dimensions (a hypercube uses node bits)
  parameter int unsigned PktW = 32;    // packet id (low bits of the C++ 64-bit id)
  parameter int unsigned IdxW = 16;    // flit index within its packet
  parameter int unsigned VcW = 4;      // VC field on a link (config allows up to 16 VCs)
  parameter int unsigned DataW = 64;   // payload bits carried per flit in RTL
  // Multidestination list (docs/rtl.md, "Destination lists in header flits"): a worm's list
  // rides in the data bits of its head flit and of the header flits after it, 8 x flit_bytes
  // bits per flit (cfg_t flit_bits), as the C++ model charges it (header_flits). Encodings
  // (cfg_t list_*): address_list, entry k of list_addr_w bits at [k*list_addr_w +:
  // list_addr_w] of the list, in path order; bit_string (tree worms), bit n = node n. The head
  // carries the list's length in bits (flit_t hlen): a path router at its current target
  // reads entry mpos + 1 only if the list has one, a tree router decodes the whole list. A
  // full path or tree router collects a list longer than the head flit per input VC, up to
  // HdrW bits (MaxPath addresses of NodeW bits), and routes the head once the bits it reads
  // are in (network.router.header_decode: buffered). MaxPath: destinations a path worm may
  // list (its position `mpos` counts them).
  parameter int unsigned MposW = 4;                 // position in a path list
  parameter int unsigned MaxPath = 1 << MposW;      // 16
  /* verilator lint_off UNUSEDPARAM */
  parameter int unsigned ListW = DataW;             // list bits a head flit carries (C++ side)
  /* verilator lint_on UNUSEDPARAM */
  parameter int unsigned HdrW = MaxPath * NodeW;    // 256
  parameter int unsigned HlenW = 9;                 // list length in bits, up to HdrW
  // Router port number (input or output): 6 bits, so a router has up to 63 outputs, enough
  // for an all-port 16-cube (16 network ports and 16 ejection channels; route_t's port_hi is
  // one past the last candidate, so it reaches 32).
  parameter int unsigned PortW = 6;

  // ---- flit ---------------------------------------------------------------------------
  // A packet of L flits is a head, L-2 bodies and a tail; a 1-flit packet is one head_tail
  // flit (systemc/core/flit.h). Every flit carries packet id, index, source and destination.
  typedef enum logic [1:0] {
    FlitHead     = 2'd0,
    FlitBody     = 2'd1,
    FlitTail     = 2'd2,
    FlitHeadTail = 2'd3
  } flit_type_e;

  typedef struct packed {
    flit_type_e       typ;   // [164:163]
    logic [VcW-1:0]   vc;    // [162:159] VC on the link the flit is crossing
    logic             mc;    // [158]     head of a multidestination worm: data holds its list
    logic [HlenW-1:0] hlen;  // [157:149] multidestination head: its list's length in bits
    // Minimal path-IR router (McPathMin): an address flit of a path worm with more address
    // flits behind it, so its destination strips it (docs/multidestination.md).
    logic             more;  // [148]
    logic [MposW-1:0] mpos;  // [147:144] path worm: position of the current target (dst)
    logic [PktW-1:0]  pkt;   // [143:112]
    logic [IdxW-1:0]  idx;   // [111:96]
    logic [NodeW-1:0] src;   // [95:80]
    logic [NodeW-1:0] dst;   // [79:64]   destination; path worm: current target
    logic [DataW-1:0] data;  // [63:0]    first DataW/8 payload bytes, byte 0 in bits [7:0];
                             //           a multidestination head (mc): its list (ListW)
  } flit_t;

  // Bit widths of the packed types ($bits of a type is beyond Debian's yosys 0.23).
  parameter int unsigned FlitW =
      2 + VcW + 1 + HlenW + 1 + MposW + PktW + IdxW + 2 * NodeW + DataW;  // 165

  function automatic logic is_head(logic [1:0] t);
    is_head = t == 2'd0 || t == 2'd3;  // FlitHead, FlitHeadTail
  endfunction

  function automatic logic is_tail(logic [1:0] t);
    is_tail = t == 2'd2 || t == 2'd3;  // FlitTail, FlitHeadTail
  endfunction

  // Bit offsets of flit_t fields, for slicing flits held in flat vectors.
  parameter int unsigned FlitDstLsb = DataW;
  parameter int unsigned FlitSrcLsb = FlitDstLsb + NodeW;
  parameter int unsigned FlitIdxLsb = FlitSrcLsb + NodeW;
  parameter int unsigned FlitPktLsb = FlitIdxLsb + IdxW;
  parameter int unsigned FlitMposLsb = FlitPktLsb + PktW;
  parameter int unsigned FlitMoreLsb = FlitMposLsb + MposW;
  parameter int unsigned FlitHlenLsb = FlitMoreLsb + 1;
  parameter int unsigned FlitMcLsb = FlitHlenLsb + HlenW;
  parameter int unsigned FlitVcLsb = FlitMcLsb + 1;
  parameter int unsigned FlitTypLsb = FlitVcLsb + VcW;

  // What a router without the full path/tree hardware (unicast, minimal path-IR) keeps of a
  // flit in its buffers, crossbar and ST register (wormsim_router; docs/rtl.md "Lean flits and
  // build shapes"): flit_t without the source, mc and hlen, which such a router never reads; its
  // outputs carry them as zeros. The full path and tree routers keep flit_t whole (the tree
  // route reads the source, and both route on mc).
  typedef struct packed {
    flit_type_e       typ;   // [138:137]
    logic [VcW-1:0]   vc;    // [136:133]
    logic             more;  // [132]
    logic [MposW-1:0] mpos;  // [131:128]
    logic [PktW-1:0]  pkt;   // [127:96]
    logic [IdxW-1:0]  idx;   // [95:80]
    logic [NodeW-1:0] dst;   // [79:64]
    logic [DataW-1:0] data;  // [63:0]
  } lean_flit_t;
  parameter int unsigned LeanFlitW = 2 + VcW + 1 + MposW + PktW + IdxW + NodeW + DataW;  // 139
  parameter int unsigned LeanFlitDstLsb = DataW;
  parameter int unsigned LeanFlitIdxLsb = LeanFlitDstLsb + NodeW;
  parameter int unsigned LeanFlitPktLsb = LeanFlitIdxLsb + IdxW;
  parameter int unsigned LeanFlitMposLsb = LeanFlitPktLsb + PktW;
  parameter int unsigned LeanFlitMoreLsb = LeanFlitMposLsb + MposW;
  parameter int unsigned LeanFlitVcLsb = LeanFlitMoreLsb + 1;
  parameter int unsigned LeanFlitTypLsb = LeanFlitVcLsb + VcW;

  // ---- structural maxima of the Verilated routers (rtl/CMakeLists.txt, docs/rtl.md) -------
  // A configuration may use less (the straps below); systemc/cosim/rtl_limits.cpp checks a
  // config against them. Three shapes are built, each with as many injection and ejection
  // channels as network ports: narrow (1D/2D meshes and tori, up to 4-cubes), wide (3D, 5- to
  // 7-cubes) and cube (8- to 16-cubes, without the multidestination hardware).
  // Read by the build (rtl/CMakeLists.txt) and the C++ side, not by the RTL itself.
  /* verilator lint_off UNUSEDPARAM */
  parameter int unsigned NarrowPorts = 4;
  parameter int unsigned WidePorts = 7;
  parameter int unsigned CubePorts = 16;
  parameter int unsigned MaxVcs = 4;    // NumVcs of every build
  parameter int unsigned MaxDepth = 8;  // Depth of every build (flits per VC buffer)
  /* verilator lint_on UNUSEDPARAM */

  // ---- run-time configuration ---------------------------------------------------------
  // Straps, constant during a run, mirroring network.* of the C++ config (docs/config.md).
  // The synthesis wrapper (wormsim_router_synth) ties them to constants so yosys folds the
  // logic a fixed configuration does not use.
  typedef enum logic [1:0] {
    TopoMesh      = 2'd0,
    TopoTorus     = 2'd1,
    TopoHypercube = 2'd2
  } topo_e;

  typedef enum logic {
    AllocInputFirst  = 1'b0,  // separable, input arbiters first
    AllocOutputFirst = 1'b1   // separable, output arbiters first
  } alloc_e;

  // Multidestination worms (network.router.multidest, network.router.replication).
  typedef enum logic [1:0] {
    McNone = 2'd0,
    McPath = 2'd1,  // path-based, intermediate reception (absorb and forward)
    McTree = 2'd2,  // tree replication along the dimension-ordered tree
    // Minimal path-IR router (network.router.path_ir: minimal, seed 004 introduction: "a
    // relatively minor modification to existing MPC routers"): one address per header flit,
    // matched at the buffer head, stripped, and two branches (ejection and next hop).
    McPathMin = 2'd3
  } multidest_e;

  // Router pipeline model (systemc/core/config.h PipelineModel, same order): PipeDelay holds
  // every flit pipeline - 1 cycles in its buffer; the others are staged (docs/rtl.md, "Staged
  // pipelines"): an RC stage unless lookahead, SA a cycle after VA unless combined, a
  // speculative SA during VA when speculative, and switch traversal a stage of its own.
  typedef enum logic [2:0] {
    PipeDelay                = 3'd0,
    PipeClassic              = 3'd1,
    PipeLookahead            = 3'd2,
    PipeSpeculative          = 3'd3,
    PipeCombined             = 3'd4,
    PipeLookaheadSpeculative = 3'd5,
    PipeLookaheadCombined    = 3'd6
  } pipe_e;

  typedef struct packed {
    multidest_e                     multidest;
    logic                           sync_replication;  // a flit goes to all branches at once
    topo_e                          topo;
    logic [4:0]                     dims;         // mesh/torus: 1..3; hypercube: n <= NumNet
    logic [MaxDims*CoordW-1:0]      side;         // side length of dimension d at [d*CoordW +: CoordW]
    logic [MaxDims*NodeW-1:0]       stride;       // node-id stride of dimension d
    logic [MaxDims*2-1:0]           order;        // DOR: dimension resolved i-th at [i*2 +: 2]
    logic                           ecube_high_to_low;
    logic                           hamiltonian;  // Hamiltonian-path routing (2D mesh)
    logic                           dateline;     // torus dateline VC classes
    logic [4:0]                     vcs;          // VCs in use (1..NumVcs)
    logic [8:0]                     depth;        // flit buffer depth in use (credits)
    logic [2:0]                     pipeline;     // pipeline depth 1..4
    pipe_e                          stages;       // pipeline model
    alloc_e                         alloc;
    logic [PortW-1:0]               net_ports;    // network ports in use (informational, waves)
    logic [PortW-1:0]               ejection;     // ejection channels in use
    logic                           eject_by_direction;  // all-port: eject on arrival dir.
    logic [NodeW-1:0]               node;         // this router's node id
    // Destination list encoding of multidestination heads (network.router.header_encoding):
    // bit_string (tree worms) or address_list of list_addr_w-bit entries (ceil(log2 N)).
    logic                           list_bit_string;
    logic [4:0]                     list_addr_w;
    // List bits per header flit: 8 x network.flit_bytes, at most DataW.
    logic [6:0]                     flit_bits;
  } cfg_t;

  // Candidate outputs of a head: ports [port_lo, port_hi), VCs [vc_lo, vc_hi).
  typedef struct packed {
    logic [PortW-1:0] port_lo;
    logic [PortW-1:0] port_hi;
    logic [4:0] vc_lo;
    logic [4:0] vc_hi;
  } route_t;
  parameter int unsigned RouteW = 2 * PortW + 10;
  // Bit offsets of route_t fields (for flat vectors: yosys 0.23 mis-reads struct-typed locals).
  parameter int unsigned RoutePortLoLsb = 10 + PortW;
  parameter int unsigned RoutePortHiLsb = 10;
  parameter int unsigned RouteVcLoLsb = 5;
  parameter int unsigned RouteVcHiLsb = 0;

  // One branch of a multidestination head at a router: a slot of wormsim_mc_route's br_o and
  // of wormsim_router's per-VC branch state ({valid, route, dst, mpos}, its Br*Lsb).
  typedef struct packed {
    logic             valid;  // the branch exists
    route_t           route;  // its candidate outputs
    logic [NodeW-1:0] dst;    // current target stamped on its flits
    logic [MposW-1:0] mpos;   // path worm: position of that target
  } branch_t;
  /* verilator lint_off UNUSEDPARAM */
  parameter int unsigned BranchW = 1 + RouteW + NodeW + MposW;  // for the C++ side
  /* verilator lint_on UNUSEDPARAM */

endpackage
