// Synthesis wrapper for the hardware-cost table (scripts/rtl_cost, docs/rtl-cost.md): the
// router sized for one configuration, with the run-time straps tied to constants so yosys
// removes what that configuration does not use. Only the node id stays an input: every
// router of a network is the same netlist.
module wormsim_router_synth #(
  parameter int unsigned NumNet = 4,
  parameter int unsigned NumInj = 1,
  parameter int unsigned NumEj = 1,
  parameter int unsigned NumVcs = 2,
  parameter int unsigned Depth = 4,
  parameter int unsigned Side = 8,         // k of the k x k mesh
  parameter int unsigned AllPort = 0,      // 1: eject on the arrival direction
  parameter int unsigned OutputFirst = 0,  // 1: output-first separable allocators
  parameter int unsigned Pipeline = 1,
  parameter int unsigned Stages = 0,       // wormsim_pkg::pipe_e (0: the delay model)
  // 0 none, 1 path, 2 tree, 3 minimal path-IR router (wormsim_pkg::multidest_e)
  parameter int unsigned Multidest = 0,
  parameter int unsigned SyncReplication = 0,
  localparam int unsigned NumIn = NumNet + NumInj,
  localparam int unsigned NumOut = NumNet + NumEj,
  localparam int unsigned FlitW = wormsim_pkg::FlitW,
  localparam int unsigned VcW = wormsim_pkg::VcW,
  localparam int unsigned NodeW = wormsim_pkg::NodeW,
  localparam int unsigned CoordW = wormsim_pkg::CoordW,
  localparam int unsigned PortW = wormsim_pkg::PortW,
  // The list bits a full path or tree router collects: MaxPath addresses of this mesh's width,
  // at least the 64 data bits of the head flit (docs/rtl.md, "Destination lists in header
  // flits").
  localparam int unsigned ListBits = wormsim_pkg::MaxPath * $clog2(Side * Side),
  localparam int unsigned HdrW = ListBits > wormsim_pkg::DataW ? ListBits : wormsim_pkg::DataW
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [NodeW-1:0]        node_i,
  input  logic [NumIn-1:0]        in_valid_i,
  input  logic [NumIn*FlitW-1:0]  in_flit_i,
  output logic [NumIn-1:0]        in_credit_o,
  output logic [NumIn*VcW-1:0]    in_credit_vc_o,
  output logic [NumOut-1:0]       out_valid_o,
  output logic [NumOut*FlitW-1:0] out_flit_o,
  input  logic [NumOut-1:0]       out_credit_i,
  input  logic [NumOut*VcW-1:0]   out_credit_vc_i
);
  wormsim_pkg::cfg_t cfg;
  always_comb begin
    cfg = '0;
    cfg.topo = wormsim_pkg::TopoMesh;
    cfg.dims = 5'd2;
    cfg.side[0 +: CoordW] = CoordW'(Side);
    cfg.side[CoordW +: CoordW] = CoordW'(Side);
    cfg.stride[0 +: NodeW] = NodeW'(1);
    cfg.stride[NodeW +: NodeW] = NodeW'(Side);
    cfg.order[1:0] = 2'd0;
    cfg.order[3:2] = 2'd1;
    cfg.vcs = 5'(NumVcs);
    cfg.depth = 9'(Depth);
    cfg.pipeline = 3'(Pipeline);
    cfg.stages = Stages == 1 ? wormsim_pkg::PipeClassic
               : Stages == 2 ? wormsim_pkg::PipeLookahead
               : Stages == 3 ? wormsim_pkg::PipeSpeculative
               : Stages == 4 ? wormsim_pkg::PipeCombined
               : Stages == 5 ? wormsim_pkg::PipeLookaheadSpeculative
               : Stages == 6 ? wormsim_pkg::PipeLookaheadCombined : wormsim_pkg::PipeDelay;
    cfg.alloc = OutputFirst != 0 ? wormsim_pkg::AllocOutputFirst : wormsim_pkg::AllocInputFirst;
    cfg.net_ports = PortW'(NumNet);
    cfg.ejection = PortW'(NumEj);
    cfg.eject_by_direction = AllPort != 0;
    cfg.node = node_i;
    cfg.multidest = Multidest == 1 ? wormsim_pkg::McPath
                  : Multidest == 2 ? wormsim_pkg::McTree
                  : Multidest == 3 ? wormsim_pkg::McPathMin : wormsim_pkg::McNone;
    cfg.sync_replication = SyncReplication != 0;
    // Multidestination heads list their destinations as an address_list (the default
    // network.router.header_encoding) of ceil(log2(Side * Side))-bit addresses.
    cfg.list_bit_string = 1'b0;
    cfg.list_addr_w = 5'($clog2(Side * Side));
    cfg.flit_bits = 7'd64;  // network.flit_bytes = 8 (below)
  end

  // Realistic flits (issue 22): what a buffer entry stores is the payload (network.flit_bytes
  // = 8: DataW = 64) plus the control a real router carries (head/tail type, VC), not the
  // side fields of the simulation flit (flit_t, 156 bits), so the cost table compares like
  // with like:
  // - pkt and idx are simulation tags for the lock-step checker: tied off in every row.
  // - src: tied off except with tree worms, whose route reads the source (wormsim_mc_route:
  //   the destinations on the source's dimension-ordered tree), so there it is part of the
  //   worm's header.
  // - dst: a real head flit carries its destination in its payload. Unicast and minimal
  //   path-IR routers (one address per head or address flit) take it from the payload's
  //   first bytes (the low NodeW bits of data), so a buffer stores the payload once: the
  //   flip-flops of the dst field have the same data and enable as those of data[NodeW-1:0],
  //   and yosys merges them (opt_merge). Full path and tree routers keep dst as a field of
  //   its own: their routers stamp each branch's current target into it (wormsim_router,
  //   replication), while a multidestination head's payload holds its destination list
  //   (wormsim_pkg ListW).
  // - mc (the head of a multidestination worm) and hlen (its list's length in bits, for lists
  //   continued in header flits): tied off unless full path or tree worms.
  //   more: only the minimal path-IR router; mpos (position in a path list): only path
  //   worms, full or minimal (a tree worm's branches pass it on unread).
  logic [NumIn*FlitW-1:0] in_flit;
  always_comb begin
    in_flit = in_flit_i;
    for (int p = 0; p < NumIn; p++) begin
      // idx sits between src and pkt (flit_t).
      in_flit[p*FlitW + wormsim_pkg::FlitSrcLsb + NodeW +: wormsim_pkg::IdxW + wormsim_pkg::PktW] = '0;
      if (Multidest != 2) in_flit[p*FlitW + wormsim_pkg::FlitSrcLsb +: NodeW] = '0;
      if (Multidest == 0 || Multidest == 3)
        in_flit[p*FlitW + wormsim_pkg::FlitDstLsb +: NodeW] = in_flit_i[p*FlitW +: NodeW];
      if (Multidest == 0 || Multidest == 3) in_flit[p*FlitW + wormsim_pkg::FlitMcLsb] = 1'b0;
      if (Multidest == 0 || Multidest == 3)
        in_flit[p*FlitW + wormsim_pkg::FlitHlenLsb +: wormsim_pkg::HlenW] = '0;
      if (Multidest == 0 || Multidest == 2)
        in_flit[p*FlitW + wormsim_pkg::FlitMposLsb +: wormsim_pkg::MposW] = '0;
      if (Multidest != 3) in_flit[p*FlitW + wormsim_pkg::FlitMoreLsb] = 1'b0;
    end
  end

  wormsim_router #(
    .NumNet(NumNet), .NumInj(NumInj), .NumEj(NumEj), .NumVcs(NumVcs), .Depth(Depth),
    .MaxNodes(Side * Side), .HdrW(HdrW), .McPath(Multidest == 1), .McTree(Multidest == 2),
    .McPathMin(Multidest == 3)
  ) u_router (
    .clk_i, .rst_ni,
    .cfg_i(cfg),
    .in_valid_i, .in_flit_i(in_flit), .in_credit_o, .in_credit_vc_o,
    .out_valid_o, .out_flit_o, .out_credit_i, .out_credit_vc_i,
    // State outputs exist for cosimulation only; synthesis drops them.
    /* verilator lint_off PINCONNECTEMPTY */
    .vc_active_o(), .vc_out_port_o(), .vc_out_vc_o(), .vc_count_o(), .owner_valid_o(),
    .owner_o(), .credits_o(), .vc_replicating_o(), .out_src_o()
    /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
