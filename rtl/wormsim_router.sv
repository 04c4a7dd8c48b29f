// Input-queued virtual-channel wormhole router, cycle-equivalent to the C++ router
// (systemc/router/router.cpp, DESIGN.md section 4, docs/rtl.md). Per cycle: flits and credits that
// arrive this cycle are written/counted first; heads at the front of an idle VC compete for
// an output VC (VA) with the route computed when they were written; VCs holding an output VC
// and a credit compete for the switch (SA) in the same cycle; winners cross the crossbar onto
// the output links and free their slot with a credit upstream. A flit may compete from
// pipeline_depth - 1 cycles after it arrived. An output VC is held from its head's VA grant
// until its tail leaves.
//
// Multidestination worms (network.router.multidest): a head absorbed and forwarded (path) or
// replicated (tree) here gets branches when it is written (wormsim_mc_route), or, when its
// list continues in header flits, once the header flits it reads are in (header assembly,
// g_hdr; docs/rtl.md, "Destination lists in header flits"); its VC holds
// an output VC per branch, all granted at once, and each branch sends the worm's flits with
// its own header (wormsim_replica_alloc). A buffer slot is freed when every branch has taken
// its flit: at once (synchronous replication) or branch by branch, a branch running ahead
// by up to the buffer's contents (asynchronous).
//
// Minimal path-IR router (McPathMin, strap multidest McPathMin; docs/multidestination.md, "The
// minimal path-IR router"; seed 004 introduction: intermediate reception as "a relatively
// minor modification to existing MPC routers"): a path worm carries one address per header
// flit. The head at the front of an idle VC is routed from its dst like a unicast head; a
// head addressed to this node with `more` set is stripped (dropped and credited upstream, one
// per input port per cycle, and that port sends nothing then) and its VC absorbs the worm:
// the next flit, promoted to head, gets two branches, ejection and its own dst. Buffer
// entries are the flit alone; nothing is stored per flit.
//
// Ports: inputs [0, NumNet) from neighbours, then NumInj injection channels; outputs
// [0, NumNet) to neighbours, then NumEj ejection channels. The straps cfg_i may use fewer
// ports, VCs and buffer slots than these maxima. Arrays are flat, [port][vc] order
// (rtl/wormsim_pkg.sv).
//
// Contracts (asserted): flits arrive on VCs in use; a VC with no packet in progress sees a
// head at its front; a flit leaves on an output VC held by its own input VC, which keeps it
// until its tail, and a replicating branch likewise; buffers and credit counters stay within
// bounds and a waiting front flit stays unchanged (in the blocks); a replicated flit's slot is
// freed only after all branches took it; a synchronous worm's live branches
// send together; no output is driven by two inputs.
module wormsim_router #(
  parameter int unsigned NumNet = 4,
  parameter int unsigned NumInj = 4,
  parameter int unsigned NumEj = 4,
  parameter int unsigned NumVcs = 4,
  parameter int unsigned Depth = 8,
  parameter int unsigned MaxNodes = 64,  // tree worms: nodes a destination set holds (<= ListW)
  // List bits a full path or tree router collects from a head and its header flits (at least
  // DataW; the synthesis wrapper sizes it to its configuration's longest list).
  parameter int unsigned HdrW = wormsim_pkg::HdrW,
  // Hardware for path worms / tree worms (the cfg_i.multidest strap picks among what is
  // built; the synthesis wrapper builds only the configuration's mode).
  parameter bit McPath = 1'b1,
  parameter bit McTree = 1'b1,
  // Hardware for the minimal path-IR router instead (McPath and McTree are then ignored):
  // two branch slots per input VC, routing at the buffer head.
  parameter bit McPathMin = 1'b0,
  // Simulation builds only (rtl/CMakeLists.txt; the synthesis wrapper leaves it 0): the
  // inputs and straps are registered at the clock edge and the state outputs show the next
  // state, so one evaluation per clock edge computes a whole cycle (docs/rtl.md,
  // "Registered inputs").
  parameter bit RegIn = 1'b0,
  // Simulation builds only: 0 leaves out the speculative switch allocator, for networks whose
  // straps select no speculative pipeline (asserted; docs/rtl.md, "Lean flits and
  // build shapes"). Synthesis keeps 1: yosys removes the allocator when the straps do not use it.
  parameter bit SpecAlloc = 1'b1,
  localparam int unsigned NumIn = NumNet + NumInj,
  localparam int unsigned NumOut = NumNet + NumEj,
  localparam int unsigned NumInVc = NumIn * NumVcs,
  localparam int unsigned NumOutVc = NumOut * NumVcs,
  localparam int unsigned InW = $clog2(NumIn),
  localparam int unsigned OutW = $clog2(NumOut),
  localparam int unsigned VcIdxW = NumVcs > 1 ? $clog2(NumVcs) : 1,
  localparam int unsigned InVcW = $clog2(NumInVc),
  localparam int unsigned OutVcW = $clog2(NumOutVc),
  localparam int unsigned CntW = $clog2(Depth + 1),
  localparam int unsigned FlitW = wormsim_pkg::FlitW,
  localparam int unsigned RouteW = wormsim_pkg::RouteW,
  localparam int unsigned VcW = wormsim_pkg::VcW,
  localparam int unsigned PortW = wormsim_pkg::PortW,
  // Branch slots per input VC: one per network port, then ejection. Without multidestination
  // hardware nothing replicates: one slot, never used, so the buffer entries and the branch
  // read ports do not grow with the port count (docs/rtl.md, "Unicast-only builds").
  // Minimal path-IR router: slot 0 the next hop, slot 1 the ejection channel.
  localparam bit Full = (McPath || McTree) && !McPathMin,
  localparam int unsigned NumBr = Full ? NumNet + 1 : McPathMin ? 2 : 1
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  wormsim_pkg::cfg_t              cfg_i,
  // Links from upstream: a flit per input port per cycle; credits go back upstream.
  input  logic [NumIn-1:0]               in_valid_i,
  input  logic [NumIn*FlitW-1:0]         in_flit_i,       // [in] wormsim_pkg::flit_t
  output logic [NumIn-1:0]               in_credit_o,
  output logic [NumIn*VcW-1:0]           in_credit_vc_o,  // [in]
  // Links downstream: a flit per output port per cycle; credits come back.
  output logic [NumOut-1:0]              out_valid_o,
  output logic [NumOut*FlitW-1:0]        out_flit_o,      // [out] wormsim_pkg::flit_t
  input  logic [NumOut-1:0]              out_credit_i,
  input  logic [NumOut*VcW-1:0]          out_credit_vc_i, // [out]
  // Registered state, for waveforms and deadlock reports.
  output logic [NumInVc-1:0]             vc_active_o,     // [in][vc]
  output logic [NumInVc*PortW-1:0]           vc_out_port_o,   // [in][vc]
  output logic [NumInVc*VcIdxW-1:0]      vc_out_vc_o,     // [in][vc]
  output logic [NumInVc*CntW-1:0]        vc_count_o,      // [in][vc]
  output logic [NumOutVc-1:0]            owner_valid_o,   // [out][vc]
  output logic [NumOutVc*InVcW-1:0]      owner_o,         // [out][vc] -> input VC
  output logic [NumOutVc*9-1:0]          credits_o,       // [out][vc]
  output logic [NumInVc-1:0]             vc_replicating_o,  // [in][vc] holds branches
  output logic [NumOut*InVcW-1:0]        out_src_o        // [out] input VC of its flit
);
  localparam int unsigned NodeW = wormsim_pkg::NodeW;
  localparam int unsigned MposW = wormsim_pkg::MposW;
  localparam int unsigned BrW = 1 + RouteW + NodeW + MposW;  // {valid, route, dst, mpos}
  localparam int unsigned BrMposLsb = 0;
  localparam int unsigned BrDstLsb = MposW;
  localparam int unsigned BrRouteLsb = MposW + NodeW;
  localparam int unsigned BrValidLsb = MposW + NodeW + RouteW;
  // The flit as buffers, crossbar and ST register hold it (docs/rtl.md, "Lean flits and build
  // shapes"): whole (flit_t) with the full path/tree hardware, whose tree route reads the
  // source and which stamps each branch's target; lean_flit_t (no source or mc) in the unicast
  // and minimal path-IR routers, which never read them. S*Lsb: its fields' offsets.
  localparam int unsigned SW = Full ? FlitW : wormsim_pkg::LeanFlitW;
  localparam int unsigned STypLsb = Full ? wormsim_pkg::FlitTypLsb : wormsim_pkg::LeanFlitTypLsb;
  localparam int unsigned SVcLsb = Full ? wormsim_pkg::FlitVcLsb : wormsim_pkg::LeanFlitVcLsb;
  localparam int unsigned SMoreLsb = Full ? wormsim_pkg::FlitMoreLsb : wormsim_pkg::LeanFlitMoreLsb;
  localparam int unsigned SMposLsb = Full ? wormsim_pkg::FlitMposLsb : wormsim_pkg::LeanFlitMposLsb;
  localparam int unsigned SPktLsb = Full ? wormsim_pkg::FlitPktLsb : wormsim_pkg::LeanFlitPktLsb;
  localparam int unsigned SIdxLsb = Full ? wormsim_pkg::FlitIdxLsb : wormsim_pkg::LeanFlitIdxLsb;
  localparam int unsigned SDstLsb = Full ? wormsim_pkg::FlitDstLsb : wormsim_pkg::LeanFlitDstLsb;
  // Buffer slot: {hslot, hlast, hwait, branches, multi, route, flit} with the full hardware;
  // {route, flit} in the unicast router (nothing replicates); the flit alone in the minimal
  // path-IR router (routed at the buffer head). hwait: a head whose list continues in header
  // flits not all in yet (its route fields are written when they are); hlast: its route read
  // header flits up to the one in slot hslot, which must be eligible before the head competes
  // (docs/rtl.md, "Destination lists in header flits").
  localparam int unsigned PtrW = Depth > 1 ? $clog2(Depth) : 1;
  localparam int unsigned RouteLsb = SW;
  localparam int unsigned MultiLsb = SW + RouteW;
  localparam int unsigned BrLsb = SW + RouteW + 1;
  localparam int unsigned HwaitLsb = BrLsb + NumBr * BrW;
  localparam int unsigned HlastLsb = HwaitLsb + 1;
  localparam int unsigned HslotLsb = HlastLsb + 1;
  localparam int unsigned EntryW = McPathMin ? SW : Full ? HslotLsb + PtrW : SW + RouteW;
  // The bits a header update writes (Full: [SW, EntryW)); one unused bit in other routers.
  localparam int unsigned UpdW = Full ? EntryW - SW : 1;
  localparam int unsigned HlenW = wormsim_pkg::HlenW;

  // ---- inputs: the ports, or (RegIn) the ports as they were at the last clock edge -------
  // With RegIn a cycle's inputs are set before its clock edge and the cycle's combinational
  // outputs are read after it: the flops the edge updates are the previous cycle's (the
  // state registers take the next state computed from the registered inputs), so the
  // outputs after the edge are those of this cycle's inputs and state. Verilator then
  // evaluates the combinational logic once per cycle instead of at every eval() (ports
  // feed only flops).
  wormsim_pkg::cfg_t      cfg;
  logic [NumIn-1:0]       in_valid;
  logic [NumIn*FlitW-1:0] in_flit;
  logic [NumOut-1:0]      out_credit;
  logic [NumOut*VcW-1:0]  out_credit_vc;
  if (RegIn) begin : g_reg_in
    always_ff @(posedge clk_i or negedge rst_ni) begin
      // The straps load at reset too (they are constant during a run).
      cfg <= cfg_i;
      if (!rst_ni) begin
        in_valid <= '0;
        in_flit <= '0;
        out_credit <= '0;
        out_credit_vc <= '0;
      end else begin
        in_valid <= in_valid_i;
        in_flit <= in_flit_i;
        out_credit <= out_credit_i;
        out_credit_vc <= out_credit_vc_i;
      end
    end
  end else begin : g_direct_in
    assign cfg = cfg_i;
    assign in_valid = in_valid_i;
    assign in_flit = in_flit_i;
    assign out_credit = out_credit_i;
    assign out_credit_vc = out_credit_vc_i;
  end

  // ---- pipeline model (cfg.stages; docs/rtl.md, "Staged pipelines") ----------------------
  // staged: flits are eligible from their buffer write and cross the switch in the cycle after
  // SA (the ST register below); rc_stage: a head spends a cycle in RC before VA (not with
  // lookahead routing); va_sa_gap: SA a cycle after the VA grant (not when combined);
  // speculative: heads bid for the switch during VA, in an allocator of their own.
  logic staged, rc_stage, va_sa_gap, speculative;
  assign staged = cfg.stages != wormsim_pkg::PipeDelay;
  assign rc_stage = cfg.stages == wormsim_pkg::PipeClassic ||
                    cfg.stages == wormsim_pkg::PipeSpeculative ||
                    cfg.stages == wormsim_pkg::PipeCombined;
  assign va_sa_gap = staged && cfg.stages != wormsim_pkg::PipeCombined &&
                     cfg.stages != wormsim_pkg::PipeLookaheadCombined;
  assign speculative = cfg.stages == wormsim_pkg::PipeSpeculative ||
                       cfg.stages == wormsim_pkg::PipeLookaheadSpeculative;

  // ---- routing at buffer write (one per input port) ---------------------------------------
  logic [MaxNodes*wormsim_pkg::MaxDims*wormsim_pkg::CoordW-1:0] node_coord;
  logic [MaxNodes*PortW-1:0]   node_port;
  logic [MaxNodes-1:0]     node_here;
  if (McTree && Full) begin : g_tree_table
    wormsim_tree_table #(.NumNet(NumNet), .MaxNodes(MaxNodes)) u_tree_table (
      .cfg_i(cfg), .coord_o(node_coord), .port_o(node_port), .here_o(node_here)
    );
  end else begin : g_no_tree_table
    assign node_coord = '0;
    assign node_port = '0;
    assign node_here = '0;
  end

  // The arriving flits as the buffers keep them (SW bits each, see above).
  logic [NumIn*SW-1:0] in_kept;
  if (Full) begin : g_keep_whole
    assign in_kept = in_flit;
  end else begin : g_keep_lean
    for (genvar p = 0; p < NumIn; p++) begin : g_port
      // lean_flit_t's fields, in its order, from flit_t's (yosys 0.23 reads no struct fields
      // of variables declared in generate blocks).
      assign in_kept[p*SW +: SW] = {
          in_flit[p*FlitW + wormsim_pkg::FlitTypLsb +: 2],
          in_flit[p*FlitW + wormsim_pkg::FlitVcLsb +: VcW],
          in_flit[p*FlitW + wormsim_pkg::FlitMoreLsb],
          in_flit[p*FlitW + wormsim_pkg::FlitMposLsb +: wormsim_pkg::MposW],
          in_flit[p*FlitW + wormsim_pkg::FlitPktLsb +: wormsim_pkg::PktW],
          in_flit[p*FlitW + wormsim_pkg::FlitIdxLsb +: wormsim_pkg::IdxW],
          in_flit[p*FlitW + wormsim_pkg::FlitDstLsb +: wormsim_pkg::NodeW],
          in_flit[p*FlitW +: wormsim_pkg::DataW]};
    end
  end

  logic [NumIn-1:0]        in_lost;
  logic [NumIn-1:0]        in_start;  // a head whose list continues in header flits
  logic [NumIn*EntryW-1:0] in_entry;  // what a buffer stores of an arriving flit
  // Header updates (full path/tree router): per input VC, the head's route is written into
  // its slot this cycle (hdr_upd, slot hdr_upd_slot, bits hdr_upd_data); per input VC, the
  // buffer's write slot and its slots' eligibility.
  logic [NumInVc-1:0]        hdr_upd;
  logic [NumInVc*PtrW-1:0]   hdr_upd_slot;
  logic [NumInVc*UpdW-1:0]   hdr_upd_data;
  logic [NumInVc*PtrW-1:0]   wr_slot, front_slot;
  logic [NumInVc*Depth-1:0]  slot_ready;
  if (!McPathMin) begin : g_rc_write
    logic [NumIn*RouteW-1:0]    in_route;
    logic [NumIn-1:0]           in_multi;
    logic [NumIn*NumBr*BrW-1:0] in_br;
    // The flit and list each port's route compute reads: the arriving flit and its data, or,
    // when the arriving flit completes its VC's list, that VC's collected head and list.
    logic [NumIn*FlitW-1:0]     rc_flit;
    logic [NumIn*HdrW-1:0]      rc_list;
    if (Full) begin : g_hdr
      // Header assembly per input VC (docs/rtl.md, "Destination lists in header flits"):
      // a multidestination head whose route reads more list bits than the head flit holds
      // (8 x flit_bytes, cfg.flit_bits) is buffered unrouted (hwait); the data bits of the
      // flits behind it are appended to its list, and when the bits it reads are in, its route
      // is computed from the collected list and written into its slot. What it reads
      // (MulticastRoute::header_flits_read): a tree worm the whole list (hlen bits); a path
      // worm at its current target with another after it, up to entry mpos + 1; otherwise the
      // head alone.
      logic [NumInVc-1:0]         asm_q, asm_d;
      logic [NumInVc*FlitW-1:0]   asm_head_q, asm_head_d;
      logic [NumInVc*HdrW-1:0]    asm_list_q, asm_list_d;
      logic [NumInVc*HlenW-1:0]   asm_bits_q, asm_bits_d, asm_need_q, asm_need_d;
      logic [NumInVc*PtrW-1:0]    asm_slot_q, asm_slot_d;
      logic [NumIn-1:0]           in_cont, in_done;
      logic [NumIn*HlenW-1:0]     in_need, in_bits;
      logic [NumIn*HdrW-1:0]      in_list, in_data;
      always_comb begin
        logic [FlitW-1:0] f;
        logic [HdrW-1:0] data, list;
        logic [63:0] mask;
        logic [31:0] at;
        logic [HlenW-1:0] bits, need;
        logic [FlitW-1:0] head;
        logic collecting;
        for (int p = 0; p < NumIn; p++) begin
          f = in_flit[p*FlitW +: FlitW];
          // The arriving VC's assembly state, selected through compares (yosys 0.23 maps an
          // indexed part select at a run-time index to a shifter over the whole vector).
          collecting = 1'b0;
          bits = '0;
          need = '0;
          list = '0;
          head = '0;
          for (int v = 0; v < NumVcs; v++)
            if (32'(f[wormsim_pkg::FlitVcLsb +: VcW]) == v) begin
              collecting = asm_q[p*NumVcs + v];
              bits = asm_bits_q[(p*NumVcs + v)*HlenW +: HlenW];
              need = asm_need_q[(p*NumVcs + v)*HlenW +: HlenW];
              list = asm_list_q[(p*NumVcs + v)*HdrW +: HdrW];
              head = asm_head_q[(p*NumVcs + v)*FlitW +: FlitW];
            end
          // This flit's list bits: the low flit_bits of its data.
          mask = (64'd1 << cfg.flit_bits) - 64'd1;
          mask = f[0 +: wormsim_pkg::DataW] & mask;
          data = HdrW'(mask);
          in_data[p*HdrW +: HdrW] = data;
          at = (32'(f[wormsim_pkg::FlitMposLsb +: MposW]) + 2) * 32'(cfg.list_addr_w);
          in_need[p*HlenW +: HlenW] = '0;
          if (cfg.multidest == wormsim_pkg::McTree)
            in_need[p*HlenW +: HlenW] = f[wormsim_pkg::FlitHlenLsb +: HlenW];
          else if (f[wormsim_pkg::FlitDstLsb +: NodeW] == cfg.node &&
                   32'(f[wormsim_pkg::FlitMposLsb +: MposW]) + 1 < wormsim_pkg::MaxPath &&
                   at <= 32'(f[wormsim_pkg::FlitHlenLsb +: HlenW]))
            in_need[p*HlenW +: HlenW] = HlenW'(at);
          in_start[p] = in_valid[p] && f[wormsim_pkg::FlitMcLsb] &&
                        wormsim_pkg::is_head(f[wormsim_pkg::FlitTypLsb +: 2]) &&
                        32'(in_need[p*HlenW +: HlenW]) > 32'(cfg.flit_bits);
          in_cont[p] = in_valid[p] && collecting;
          in_bits[p*HlenW +: HlenW] = bits + HlenW'(cfg.flit_bits);
          in_done[p] = in_cont[p] && in_bits[p*HlenW +: HlenW] >= need;
          in_list[p*HdrW +: HdrW] = list | (data << bits);
          rc_flit[p*FlitW +: FlitW] = in_done[p] ? head : f;
          rc_list[p*HdrW +: HdrW] = in_done[p] ? in_list[p*HdrW +: HdrW] : data;
        end
      end
      always_comb begin
        int p;
        logic [VcW-1:0] v;
        asm_d = asm_q;
        asm_head_d = asm_head_q;
        asm_list_d = asm_list_q;
        asm_bits_d = asm_bits_q;
        asm_need_d = asm_need_q;
        asm_slot_d = asm_slot_q;
        hdr_upd = '0;
        hdr_upd_slot = asm_slot_q;
        hdr_upd_data = '0;
        for (int i = 0; i < NumInVc; i++) begin
          p = i / NumVcs;
          v = in_flit[p*FlitW + wormsim_pkg::FlitVcLsb +: VcW];
          if (32'(v) == i % NumVcs) begin
            if (in_start[p]) begin
              asm_d[i] = 1'b1;
              asm_head_d[i*FlitW +: FlitW] = in_flit[p*FlitW +: FlitW];
              asm_list_d[i*HdrW +: HdrW] = in_data[p*HdrW +: HdrW];
              asm_bits_d[i*HlenW +: HlenW] = HlenW'(cfg.flit_bits);
              asm_need_d[i*HlenW +: HlenW] = in_need[p*HlenW +: HlenW];
              asm_slot_d[i*PtrW +: PtrW] = wr_slot[i*PtrW +: PtrW];
            end else if (in_cont[p]) begin
              asm_list_d[i*HdrW +: HdrW] = in_list[p*HdrW +: HdrW];
              asm_bits_d[i*HlenW +: HlenW] = in_bits[p*HlenW +: HlenW];
              if (in_done[p]) begin
                asm_d[i] = 1'b0;
                hdr_upd[i] = 1'b1;
                // The head's slot gets its route, and the slot of this flit, the last it reads.
                hdr_upd_data[i*UpdW +: UpdW] = {wr_slot[i*PtrW +: PtrW], 1'b1, 1'b0,
                                                in_br[p*NumBr*BrW +: NumBr*BrW], in_multi[p],
                                                in_route[p*RouteW +: RouteW]};
              end
            end
          end
        end
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          asm_q <= '0;
          asm_head_q <= '0;
          asm_list_q <= '0;
          asm_bits_q <= '0;
          asm_need_q <= '0;
          asm_slot_q <= '0;
        end else begin
          asm_q <= asm_d;
          asm_head_q <= asm_head_d;
          asm_list_q <= asm_list_d;
          asm_bits_q <= asm_bits_d;
          asm_need_q <= asm_need_d;
          asm_slot_q <= asm_slot_d;
        end
      end
`ifndef SYNTHESIS
      always_ff @(posedge clk_i) begin
        if (rst_ni)
          for (int p = 0; p < NumIn; p++)
            assert (!(in_cont[p] && wormsim_pkg::is_head(in_flit[p*FlitW + wormsim_pkg::FlitTypLsb +: 2])))
            else $error("router %0d: input %0d: a head arrived on a VC collecting a worm's list",
                        cfg.node, p);
      end
`endif
    end else begin : g_no_hdr
      assign rc_flit = in_flit;
      always_comb
        for (int p = 0; p < NumIn; p++)
          rc_list[p*HdrW +: HdrW] = HdrW'(in_flit[p*FlitW +: wormsim_pkg::DataW]);
      assign in_start = '0;
      assign hdr_upd = '0;
      assign hdr_upd_slot = '0;
      assign hdr_upd_data = '0;
    end
    for (genvar p = 0; p < NumIn; p++) begin : g_rc
      wormsim_mc_route #(.NumNet(NumNet), .MaxNodes(MaxNodes), .HdrW(HdrW), .Path(McPath),
                         .Tree(McTree)) u_route (
        .cfg_i(cfg),
        .flit_i(rc_flit[p*FlitW +: FlitW]),
        .list_i(rc_list[p*HdrW +: HdrW]),
        .in_port_i(PortW'(p)),
        .coord_i(node_coord), .port_i(node_port), .here_i(node_here),
        .route_o(in_route[p*RouteW +: RouteW]),
        .multi_o(in_multi[p]),
        .br_o(in_br[p*NumBr*BrW +: NumBr*BrW]),
        .lost_o(in_lost[p])
      );
      if (Full) begin : g_full
        // A head that starts collecting its list is stored unrouted (hwait).
        assign in_entry[p*EntryW +: EntryW] = {PtrW'(0), 1'b0, in_start[p],
                                               in_start[p] ? '0 : in_br[p*NumBr*BrW +: NumBr*BrW],
                                               in_multi[p] && !in_start[p],
                                               in_start[p] ? '0 : in_route[p*RouteW +: RouteW],
                                               in_kept[p*SW +: SW]};
      end else begin : g_unicast
        // Nothing replicates: the route alone (in_multi and in_br stay zero).
        assign in_entry[p*EntryW +: EntryW] = {in_route[p*RouteW +: RouteW], in_kept[p*SW +: SW]};
      end
    end
    if (!Full) begin : g_unused_br
      /* verilator lint_off UNUSEDSIGNAL */
      logic unused;
      assign unused = ^{in_multi, in_br};
      /* verilator lint_on UNUSEDSIGNAL */
    end
  end else begin : g_no_rc_write
    // Minimal path-IR router: routed at the buffer head (below).
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = ^{node_coord, node_port, node_here};
    /* verilator lint_on UNUSEDSIGNAL */
    assign in_lost = '0;
    assign in_start = '0;
    assign in_entry = in_kept;
    assign hdr_upd = '0;
    assign hdr_upd_slot = '0;
    assign hdr_upd_data = '0;
  end

  // ---- input VC buffers ------------------------------------------------------------------
  // The cycles a flit waits in its buffer before it may compete: pipeline - 1 in the delay
  // model, none in the staged ones.
  logic [1:0] pipe_less_one, fifo_delay;
  assign pipe_less_one = 2'(cfg.pipeline - 3'd1);
  assign fifo_delay = staged ? 2'd0 : pipe_less_one;
  logic [NumInVc-1:0]        push, pop, front_valid, front_ready;
  logic [NumInVc*EntryW-1:0] front;
  logic [NumInVc*NumBr*CntW-1:0] rd_idx;    // [in VC][slot] the branch's next flit
  logic [NumInVc*NumBr-1:0]      rd_valid, rd_ready;
  logic [NumInVc*NumBr*EntryW-1:0] rd_data;
  for (genvar p = 0; p < NumIn; p++) begin : g_in
    for (genvar v = 0; v < NumVcs; v++) begin : g_vc
      assign push[p*NumVcs + v] =
          in_valid[p] && 32'(in_flit[p*FlitW + wormsim_pkg::FlitVcLsb +: VcW]) == v;
      // The branch read ports serve replicating worms only.
      wormsim_flit_fifo #(.W(EntryW), .Depth(Depth), .NumRd(NumBr), .HasRd(Full || McPathMin),
                          .HasUpd(Full), .UpdLsb(EntryW - UpdW)) u_fifo (
        .clk_i, .rst_ni,
        .cap_i(cfg.depth),
        .delay_i(fifo_delay),
        .push_i(push[p*NumVcs + v]),
        .data_i(in_entry[p*EntryW +: EntryW]),
        .pop_i(pop[p*NumVcs + v]),
        .valid_o(front_valid[p*NumVcs + v]),
        .ready_o(front_ready[p*NumVcs + v]),
        .front_o(front[(p*NumVcs + v)*EntryW +: EntryW]),
        .count_o(vc_count_o[(p*NumVcs + v)*CntW +: CntW]),
        .rd_idx_i(rd_idx[(p*NumVcs + v)*NumBr*CntW +: NumBr*CntW]),
        .rd_valid_o(rd_valid[(p*NumVcs + v)*NumBr +: NumBr]),
        .rd_ready_o(rd_ready[(p*NumVcs + v)*NumBr +: NumBr]),
        .rd_data_o(rd_data[(p*NumVcs + v)*NumBr*EntryW +: NumBr*EntryW]),
        .upd_i(hdr_upd[p*NumVcs + v]),
        .upd_slot_i(hdr_upd_slot[(p*NumVcs + v)*PtrW +: PtrW]),
        .upd_data_i(hdr_upd_data[(p*NumVcs + v)*UpdW +: UpdW]),
        .wr_slot_o(wr_slot[(p*NumVcs + v)*PtrW +: PtrW]),
        .front_slot_o(front_slot[(p*NumVcs + v)*PtrW +: PtrW]),
        .slot_ready_o(slot_ready[(p*NumVcs + v)*Depth +: Depth])
      );
    end
  end


  // The head at each VC's front has its route, and the last header flit it read (if the list
  // continued beyond the head flit) is eligible, as under the C++ router's buffered header
  // decode (Router::allocate_vcs): only then does it start RC (or VA).
  // front_hd: the front's bits above the flit (route, branches, header state), with an
  // update of the front's slot made this cycle.
  logic [NumInVc-1:0] hdr_ok;
  logic [NumInVc*UpdW-1:0] front_hd;
  if (Full) begin : g_hdr_ok
    always_comb begin
      logic [PtrW-1:0] slot;
      for (int i = 0; i < NumInVc; i++) begin
        front_hd[i*UpdW +: UpdW] = front[i*EntryW + SW +: UpdW];
        if (hdr_upd[i] && hdr_upd_slot[i*PtrW +: PtrW] == front_slot[i*PtrW +: PtrW] && vc_count_o[i*CntW +: CntW] != '0)
          front_hd[i*UpdW +: UpdW] = hdr_upd_data[i*UpdW +: UpdW];
        slot = front_hd[i*UpdW + HslotLsb - SW +: PtrW];
        hdr_ok[i] = !front_hd[i*UpdW + HwaitLsb - SW];
        if (front_hd[i*UpdW + HlastLsb - SW]) begin
          if (push[i] && slot == wr_slot[i*PtrW +: PtrW]) hdr_ok[i] = hdr_ok[i] && fifo_delay == 2'd0;
          else hdr_ok[i] = hdr_ok[i] && slot_ready[i*Depth + 32'(slot)];
        end
      end
    end
  end else begin : g_no_hdr_ok
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign front_hd = '0;
    assign unused = ^{wr_slot, front_slot, slot_ready, front_hd};
    /* verilator lint_on UNUSEDSIGNAL */
    assign hdr_ok = '1;
  end

  // ---- the head at each VC's front: its route, or its branches ------------------------------
  // hd_multi: the head has branches (hd_br, slots as in_br) instead of one route (hd_route).
  logic [NumInVc*RouteW-1:0]     hd_route;
  logic [NumInVc-1:0]            hd_multi;
  logic [NumInVc*NumBr*BrW-1:0]  hd_br;
  // Minimal path-IR router: per input VC, the head at the front is stripped this cycle
  // (strip), would be (strip_want: a head addressed here with more addresses behind it), the
  // VC absorbs its worm (abs_q: it stripped the worm's address flit, and the next flit is the
  // head of the two-branch worm until its VCs are granted), and the path position that head
  // carries on (abs_mpos_q, one past the stripped flit's, as the C++ router sets it).
  logic [NumInVc-1:0]       strip, strip_want, abs_q;
  logic [NumIn-1:0]         strip_port;
  logic [NumInVc*MposW-1:0] abs_mpos_q;
  // ---- input VC state and output VC ownership ---------------------------------------------
  logic [NumInVc-1:0]          active_q, active_d;
  logic [NumInVc*PortW-1:0]        out_port_q, out_port_d;
  logic [NumInVc*VcIdxW-1:0]   out_vc_q, out_vc_d;
  logic [NumOutVc-1:0]         own_q, own_d;
  logic [NumOutVc*InVcW-1:0]   owner_q, owner_d;
  // Staged pipelines with an RC stage: the head at the front of this idle VC has had its RC
  // cycle (it may bid for VA). Set in the cycle an idle VC shows a head, cleared by its VA grant.
  logic [NumInVc-1:0]          routed_q, routed_d;
  // Replicating worms: per input VC, and per branch slot [in VC][slot].
  logic [NumInVc-1:0]             rep_q, rep_d;
  logic [NumInVc*NumBr-1:0]       br_exist_q, br_exist_d, br_live_q, br_live_d;
  logic [NumInVc*NumBr*PortW-1:0]     br_port_q, br_port_d;
  logic [NumInVc*NumBr*VcIdxW-1:0] br_vc_q, br_vc_d;
  logic [NumInVc*NumBr*CntW-1:0]  br_ahead_q, br_ahead_d;  // flits taken and not yet freed
  logic [NumInVc*NumBr*NodeW-1:0] br_dst_q, br_dst_d;
  logic [NumInVc*NumBr*MposW-1:0] br_mpos_q, br_mpos_d;
  logic [NumInVc*NumBr-1:0]       br_first_q, br_first_d;  // the branch has not sent yet

  // ---- VC allocation: replicating heads first ----------------------------------------------
  logic [NumInVc-1:0]              rva_req, rva_gnt;
  logic [NumInVc*NumBr-1:0]        rva_br;
  logic [NumInVc*NumBr*RouteW-1:0] rva_route;
  logic [NumInVc*NumBr*PortW-1:0]      rva_port;
  logic [NumInVc*NumBr*VcIdxW-1:0] rva_vc;
  logic [NumOutVc-1:0]             rva_taken;
  always_comb begin
    for (int i = 0; i < NumInVc; i++) begin
      // A head promoted by a strip (minimal path-IR router) was a body flit upstream: it has
      // an RC cycle here under every staged model, lookahead ones included.
      rva_req[i] = front_valid[i] && front_ready[i] && !active_q[i] && hd_multi[i] && hdr_ok[i] &&
                   (!(rc_stage || (staged && abs_q[i])) || routed_q[i]);
      for (int b = 0; b < NumBr; b++) begin
        rva_br[i*NumBr + b] = hd_br[(i*NumBr + b)*BrW + BrValidLsb];
        rva_route[(i*NumBr + b)*RouteW +: RouteW] = hd_br[(i*NumBr + b)*BrW + BrRouteLsb +: RouteW];
      end
    end
  end

  // Replica switch requests and slot readiness are computed below (after credits).
  logic [NumInVc-1:0]       rsa_req;
  logic [NumInVc*NumBr-1:0] rsa_live, rsa_ok, rsa_gnt;
  logic [NumInVc*NumBr*PortW-1:0] rsa_port;
  logic [NumIn-1:0]         r_in_taken;
  logic [NumOut-1:0]        r_out_taken;
  if (Full || McPathMin) begin : g_replica
    wormsim_replica_alloc #(.NumIn(NumIn), .NumOut(NumOut), .NumVcs(NumVcs), .NumBr(NumBr)) u_replica (
      .clk_i, .rst_ni,
      .sync_i(cfg.sync_replication),
      .va_req_i(rva_req), .va_br_i(rva_br), .va_route_i(rva_route), .own_i(own_q),
      .va_gnt_o(rva_gnt), .va_port_o(rva_port), .va_vc_o(rva_vc), .va_taken_o(rva_taken),
      .sa_req_i(rsa_req), .sa_live_i(rsa_live), .sa_ok_i(rsa_ok), .sa_port_i(rsa_port),
      .sa_gnt_o(rsa_gnt), .in_taken_o(r_in_taken), .out_taken_o(r_out_taken)
    );
  end else begin : g_no_replica
    // Unicast only: nothing replicates.
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = ^{rva_req, rva_br, rva_route, rsa_req, rsa_live, rsa_ok, rsa_port};
    /* verilator lint_on UNUSEDSIGNAL */
    assign rva_gnt = '0;
    assign rva_port = '0;
    assign rva_vc = '0;
    assign rva_taken = '0;
    assign rsa_gnt = '0;
    assign r_in_taken = '0;
    assign r_out_taken = '0;
  end

  // ---- the head at each VC's front (declared above) ----------------------------------------
  if (!McPathMin) begin : g_hd_stored
    // Computed at buffer write (full router: or once its header flits are in) and stored
    // with the flit.
    for (genvar i = 0; i < NumInVc; i++) begin : g_vc
      if (Full) begin : g_br
        assign hd_route[i*RouteW +: RouteW] = front_hd[i*UpdW + RouteLsb - SW +: RouteW];
        assign hd_multi[i] = front_hd[i*UpdW + MultiLsb - SW];
        assign hd_br[i*NumBr*BrW +: NumBr*BrW] = front_hd[i*UpdW + BrLsb - SW +: NumBr*BrW];
      end else begin : g_no_br
        assign hd_route[i*RouteW +: RouteW] = front[i*EntryW + RouteLsb +: RouteW];
        assign hd_multi[i] = 1'b0;
        assign hd_br[i*NumBr*BrW +: NumBr*BrW] = '0;
      end
    end
    assign strip = '0;
    assign strip_want = '0;
    assign strip_port = '0;
    assign abs_q = '0;
    assign abs_mpos_q = '0;
  end else begin : g_hd_min
    // Routed at the buffer head from the flit's dst with the unicast route compute: one per
    // input VC (its route depends on the VC under dateline classes), and the ejection route
    // of each input port for the absorbing worm's second branch.
    logic [NumInVc-1:0]       abs_d;
    logic [NumInVc*MposW-1:0] abs_mpos_d;
    logic [NumIn*RouteW-1:0] ej_route;
    logic [NumInVc*RouteW-1:0] fwd_route;
    for (genvar p = 0; p < NumIn; p++) begin : g_port
      wormsim_route_compute #(.NumNet(NumNet)) u_rc_ej (
        .cfg_i(cfg), .dst_i(cfg.node), .in_port_i(PortW'(p)), .in_vc_i(5'd0),
        .route_o(ej_route[p*RouteW +: RouteW])
      );
      for (genvar v = 0; v < NumVcs; v++) begin : g_vc
        localparam int unsigned I = p * NumVcs + v;
        wormsim_route_compute #(.NumNet(NumNet)) u_rc (
          .cfg_i(cfg), .dst_i(front[I*EntryW + SDstLsb +: NodeW]),
          .in_port_i(PortW'(p)), .in_vc_i(5'(v)), .route_o(fwd_route[I*RouteW +: RouteW])
        );
        assign hd_route[I*RouteW +: RouteW] = fwd_route[I*RouteW +: RouteW];
        assign hd_multi[I] = abs_q[I];
        // The branches stamp nothing (BrDst/BrMpos zero): the worm keeps its addresses.
        assign hd_br[I*NumBr*BrW +: NumBr*BrW] =
            {1'b1, ej_route[p*RouteW +: RouteW], NodeW'(0), MposW'(0),
             1'b1, fwd_route[I*RouteW +: RouteW], NodeW'(0), MposW'(0)};
        assign strip_want[I] =
            cfg.multidest == wormsim_pkg::McPathMin && front_valid[I] && front_ready[I] &&
            !active_q[I] && !abs_q[I] &&
            wormsim_pkg::is_head(front[I*EntryW + STypLsb +: 2]) &&
            front[I*EntryW + SMoreLsb] &&
            front[I*EntryW + SDstLsb +: NodeW] == cfg.node;
      end
    end
    // One strip per input port and cycle, the lowest VC first (Router::allocate_vcs).
    always_comb begin
      logic taken;
      taken = 1'b0;
      strip = '0;
      for (int p = 0; p < NumIn; p++) begin
        taken = 1'b0;
        for (int v = 0; v < NumVcs; v++)
          if (strip_want[p*NumVcs + v] && !taken) begin
            strip[p*NumVcs + v] = 1'b1;
            taken = 1'b1;
          end
        strip_port[p] = taken;
      end
    end
    always_comb begin
      abs_d = abs_q;
      abs_mpos_d = abs_mpos_q;
      for (int i = 0; i < NumInVc; i++) begin
        if (rva_gnt[i]) abs_d[i] = 1'b0;
        if (strip[i]) begin
          abs_d[i] = 1'b1;
          abs_mpos_d[i*MposW +: MposW] = front[i*EntryW + SMposLsb +: MposW] + 1'b1;
        end
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        abs_q <= '0;
        abs_mpos_q <= '0;
      end else begin
        abs_q <= abs_d;
        abs_mpos_q <= abs_mpos_d;
      end
    end
  end

  // ---- VC allocation: single-output heads, on the output VCs left ------------------------
  logic [NumInVc-1:0]          va_req, va_gnt;
  logic [NumInVc*NumOutVc-1:0] va_cand;  // [in VC][out VC]
  logic [NumInVc*OutVcW-1:0]   va_gnt_out;

  // Candidates as words: output VCs [port_lo * NumVcs, port_hi * NumVcs) of the VCs
  // [vc_lo, vc_hi) of each port; only requesting rows are used (wormsim_vc_alloc), so only
  // those are computed (docs/rtl.md, "Word-level allocators").
  always_comb begin
    logic [RouteW-1:0] r;
    logic [NumVcs-1:0] vcs;
    logic [NumOutVc-1:0] one, port_hi, port_lo;
    // Masks below a bit position as (1 << n) - 1 on vectors of the right width (yosys 0.23
    // rejects size casts to some parameter widths: no N'(...) here).
    one = '0;
    one[0] = 1'b1;
    vcs = '0;
    port_hi = '0;
    port_lo = '0;
    va_cand = '0;
    for (int i = 0; i < NumInVc; i++) begin
      r = hd_route[i*RouteW +: RouteW];
      va_req[i] = front_valid[i] && front_ready[i] && !active_q[i] && !hd_multi[i] &&
                  hdr_ok[i] && !strip_want[i] && (!rc_stage || routed_q[i]);
      if (va_req[i]) begin
        for (int v = 0; v < NumVcs; v++)
          vcs[v] = 32'(v) >= 32'(r[wormsim_pkg::RouteVcLoLsb +: 5]) &&
                   32'(v) < 32'(r[wormsim_pkg::RouteVcHiLsb +: 5]);
        port_hi = (one << (NumVcs * 32'(r[wormsim_pkg::RoutePortHiLsb +: PortW]))) - one;
        port_lo = (one << (NumVcs * 32'(r[wormsim_pkg::RoutePortLoLsb +: PortW]))) - one;
        va_cand[i*NumOutVc +: NumOutVc] = port_hi & ~port_lo & {NumOut{vcs}};
      end
    end
  end

  wormsim_vc_alloc #(.NumIn(NumInVc), .NumOut(NumOutVc)) u_vc_alloc (
    .clk_i, .rst_ni,
    .kind_i(cfg.alloc),
    .req_i(va_req),
    .cand_i(va_cand),
    .free_i(~(own_q | rva_taken)),
    .gnt_o(va_gnt),
    .gnt_out_o(va_gnt_out)
  );

  // The output VC each input VC holds this cycle, including grants made this cycle.
  logic [NumInVc*PortW-1:0]      hold_port;
  logic [NumInVc*VcIdxW-1:0] hold_vc;
  always_comb begin
    for (int i = 0; i < NumInVc; i++) begin
      hold_port[i*PortW +: PortW] = active_q[i] ? out_port_q[i*PortW +: PortW]
                                        : PortW'(32'(va_gnt_out[i*OutVcW +: OutVcW]) / NumVcs);
      hold_vc[i*VcIdxW +: VcIdxW] = active_q[i] ? out_vc_q[i*VcIdxW +: VcIdxW]
                                    : VcIdxW'(32'(va_gnt_out[i*OutVcW +: OutVcW]) % NumVcs);
    end
  end

  // ---- credits -----------------------------------------------------------------------------
  logic [NumOutVc-1:0] cr_give, cr_take, cr_avail;
  for (genvar o = 0; o < NumOut; o++) begin : g_out
    for (genvar v = 0; v < NumVcs; v++) begin : g_vc
      assign cr_give[o*NumVcs + v] = out_credit[o] && 32'(out_credit_vc[o*VcW +: VcW]) == v;
      wormsim_credit_counter #(.W(9)) u_credits (
        .clk_i, .rst_ni,
        .cap_i(cfg.depth),
        .unlimited_i(o >= NumNet),  // the NI always accepts on its ejection channels
        .give_i(cr_give[o*NumVcs + v]),
        .take_i(cr_take[o*NumVcs + v]),
        .avail_o(cr_avail[o*NumVcs + v]),
        .count_o(credits_o[(o*NumVcs + v)*9 +: 9])
      );
    end
  end

  // ---- replicating worms this cycle (including VC grants made this cycle) ----------------
  logic [NumInVc-1:0]              rep_now;
  logic [NumInVc*NumBr-1:0]        exist_now, live_now;
  logic [NumInVc*NumBr*PortW-1:0]      port_now;
  logic [NumInVc*NumBr*VcIdxW-1:0] vc_now;
  logic [NumInVc*NumBr*CntW-1:0]   ahead_now;
  logic [NumInVc*NumBr*NodeW-1:0]  dst_now;
  logic [NumInVc*NumBr*MposW-1:0]  mpos_now;
  logic [NumInVc*NumBr-1:0]        first_now;  // the branch has not sent yet
  always_comb begin
    first_now = '0;
    rep_now = '0;
    rsa_req = '0;
    exist_now = '0;
    live_now = '0;
    port_now = '0;
    vc_now = '0;
    ahead_now = '0;
    dst_now = '0;
    mpos_now = '0;
    for (int i = 0; i < NumInVc; i++) begin
      rep_now[i] = rep_q[i] || rva_gnt[i];
      rsa_req[i] = rep_now[i] && !strip_port[i / NumVcs];  // a stripping port sends nothing
      for (int b = 0; b < NumBr; b++) begin
        exist_now[(i*NumBr + b)] = rep_q[i] ? br_exist_q[(i*NumBr + b)] : rva_gnt[i] && rva_br[(i*NumBr + b)];
        live_now[(i*NumBr + b)] = rep_q[i] ? br_live_q[(i*NumBr + b)] : rva_gnt[i] && rva_br[(i*NumBr + b)];
        port_now[(i*NumBr + b)*PortW +: PortW] = rep_q[i] ? br_port_q[(i*NumBr + b)*PortW +: PortW] : rva_port[(i*NumBr + b)*PortW +: PortW];
        vc_now[(i*NumBr + b)*VcIdxW +: VcIdxW] = rep_q[i] ? br_vc_q[(i*NumBr + b)*VcIdxW +: VcIdxW] : rva_vc[(i*NumBr + b)*VcIdxW +: VcIdxW];
        ahead_now[(i*NumBr + b)*CntW +: CntW] = rep_q[i] ? br_ahead_q[(i*NumBr + b)*CntW +: CntW] : '0;
        first_now[(i*NumBr + b)] = rep_q[i] ? br_first_q[(i*NumBr + b)] : rva_gnt[i];
        dst_now[(i*NumBr + b)*NodeW +: NodeW] = rep_q[i] ? br_dst_q[(i*NumBr + b)*NodeW +: NodeW]
                                             : hd_br[(i*NumBr + b)*BrW + BrDstLsb +: NodeW];
        mpos_now[(i*NumBr + b)*MposW +: MposW] = rep_q[i] ? br_mpos_q[(i*NumBr + b)*MposW +: MposW]
                                              : hd_br[(i*NumBr + b)*BrW + BrMposLsb +: MposW];
      end
    end
  end

  // A live branch's flit can go when it is present, eligible and has a credit.
  always_comb begin
    for (int j = 0; j < NumInVc*NumBr; j++) begin
      rsa_live[j] = live_now[j];
      rsa_port[j*PortW +: PortW] = port_now[j*PortW +: PortW];
      // With a VA-to-SA gap a worm granted its VCs this cycle sends from the next.
      rsa_ok[j] = live_now[j] && rd_valid[j] && rd_ready[j] && (rep_q[j / NumBr] || !va_sa_gap) &&
                  cr_avail[32'(port_now[j*PortW +: PortW])*NumVcs + 32'(vc_now[j*VcIdxW +: VcIdxW])];
    end
  end

  // The flit each branch sends next. Synchronous replication: every branch sends the front.
  always_comb begin
    for (int j = 0; j < NumInVc*NumBr; j++)
      rd_idx[j*CntW +: CntW] = cfg.sync_replication || !(Full || McPathMin)
                               ? '0 : ahead_now[j*CntW +: CntW];
  end

  // ---- switch allocation -------------------------------------------------------------------
  logic [NumInVc-1:0]        sa_req;
  logic [NumInVc*OutW-1:0]   sa_want;
  logic [NumIn-1:0]          sa_gnt;
  logic [NumIn*VcIdxW-1:0]   sa_gnt_vc;
  logic [NumOut-1:0]         sa_sel_valid;
  logic [NumOut*InW-1:0]     sa_sel;
  always_comb begin
    for (int i = 0; i < NumInVc; i++) begin
      sa_want[i*OutW +: OutW] = OutW'(hold_port[i*PortW +: PortW]);
      // Single-output flits compete for the input and output ports the replicas left free.
      sa_req[i] = (active_q[i] || (va_gnt[i] && !va_sa_gap)) && !rep_now[i] && front_valid[i] &&
                  front_ready[i] &&
                  cr_avail[32'(hold_port[i*PortW +: PortW])*NumVcs + 32'(hold_vc[i*VcIdxW +: VcIdxW])] &&
                  !r_in_taken[i / NumVcs] && !r_out_taken[OutW'(hold_port[i*PortW +: PortW])] &&
                  !strip_port[i / NumVcs];
    end
  end

  logic [NumIn-1:0]          ns_gnt;
  logic [NumIn*VcIdxW-1:0]   ns_gnt_vc;
  logic [NumOut-1:0]         ns_sel_valid;
  logic [NumOut*InW-1:0]     ns_sel;
  wormsim_sw_alloc #(.NumIn(NumIn), .NumOut(NumOut), .NumVcs(NumVcs)) u_sw_alloc (
    .clk_i, .rst_ni,
    .kind_i(cfg.alloc),
    .req_i(sa_req),
    .want_i(sa_want),
    .gnt_o(ns_gnt),
    .gnt_vc_o(ns_gnt_vc),
    .sel_valid_o(ns_sel_valid),
    .sel_o(ns_sel)
  );

  // ---- speculative switch allocation (speculative pipelines) -----------------------------
  // Every head bidding for VA bids for the switch too, for the lowest port of its route with
  // a VC of its route that nobody held at the start of the cycle (systemc/router/router.cpp
  // collect_speculative_request), in a second allocator with round-robin state of its own.
  // Its grants stand only on input and output ports that neither the allocator above nor a
  // replicating worm granted, and only if VA gave the head an output VC on that port with a
  // credit (Router::grant_speculative).
  logic [NumInVc-1:0]        spec_req;
  logic [NumInVc*OutW-1:0]   spec_want;
  always_comb begin
    logic [NumOutVc-1:0] free;
    free = '0;
    spec_req = '0;
    spec_want = '0;
    for (int i = 0; i < NumInVc; i++)
      if (speculative && va_req[i]) begin
        free = va_cand[i*NumOutVc +: NumOutVc] & ~own_q;
        spec_req[i] = free != '0;
        for (int o = NumOut - 1; o >= 0; o--)
          if (free[o*NumVcs +: NumVcs] != '0) spec_want[i*OutW +: OutW] = OutW'(o);
      end
  end

  logic [NumIn-1:0]          spec_gnt, spec_ok;
  logic [NumIn*VcIdxW-1:0]   spec_gnt_vc;
  logic [NumOut-1:0]         spec_sel_valid;
  logic [NumOut*InW-1:0]     spec_sel;
  if (SpecAlloc) begin : g_spec_alloc
    wormsim_sw_alloc #(.NumIn(NumIn), .NumOut(NumOut), .NumVcs(NumVcs)) u_spec_alloc (
      .clk_i, .rst_ni,
      .kind_i(cfg.alloc),
      .req_i(spec_req),
      .want_i(spec_want),
      .gnt_o(spec_gnt),
      .gnt_vc_o(spec_gnt_vc),
      .sel_valid_o(spec_sel_valid),
      .sel_o(spec_sel)
    );
  end else begin : g_no_spec_alloc
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = ^{spec_req, spec_want};
    /* verilator lint_on UNUSEDSIGNAL */
    assign spec_gnt = '0;
    assign spec_gnt_vc = '0;
    assign spec_sel_valid = '0;
    assign spec_sel = '0;
`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (rst_ni)
        assert (!speculative)
        else $error("router %0d: speculative pipeline, no speculative allocator built", cfg.node);
    end
`endif
  end

  // The input VC and output port of each speculative grant, by compares (see the crossbar
  // input selection below), and whether it stands.
  always_comb begin
    int i;
    int o;
    i = 0;
    o = 0;
    spec_ok = '0;
    for (int p = 0; p < NumIn; p++)
      for (int v = 0; v < NumVcs; v++)
        if (spec_gnt[p] && 32'(spec_gnt_vc[p*VcIdxW +: VcIdxW]) == v) begin
          i = p * NumVcs + v;
          o = 32'(spec_want[i*OutW +: OutW]);
          spec_ok[p] = !ns_gnt[p] && !r_in_taken[p] && !strip_port[p] && va_gnt[i] &&
                       32'(hold_port[i*PortW +: PortW]) == o && !ns_sel_valid[o] &&
                       !r_out_taken[o] && cr_avail[o*NumVcs + 32'(hold_vc[i*VcIdxW +: VcIdxW])];
        end
  end

  // The grants: the allocator's, then the speculative ones that stand.
  always_comb begin
    for (int p = 0; p < NumIn; p++) begin
      sa_gnt[p] = ns_gnt[p] || spec_ok[p];
      sa_gnt_vc[p*VcIdxW +: VcIdxW] = ns_gnt[p] ? ns_gnt_vc[p*VcIdxW +: VcIdxW]
                                                : spec_gnt_vc[p*VcIdxW +: VcIdxW];
    end
    for (int o = 0; o < NumOut; o++) begin
      sa_sel_valid[o] = ns_sel_valid[o];
      sa_sel[o*InW +: InW] = ns_sel[o*InW +: InW];
      if (!ns_sel_valid[o] && spec_sel_valid[o])
        for (int p = 0; p < NumIn; p++)
          if (32'(spec_sel[o*InW +: InW]) == p && spec_ok[p]) begin
            sa_sel_valid[o] = 1'b1;
            sa_sel[o*InW +: InW] = spec_sel[o*InW +: InW];
          end
    end
  end

  // ---- switch traversal ----------------------------------------------------------------------
  // Input VC index (port * NumVcs + vc) of the flit input port p sends this cycle.
  function automatic int granted_vc(logic [NumIn*VcIdxW-1:0] g, int p);
    granted_vc = p * NumVcs + 32'(g[p*VcIdxW +: VcIdxW]);
  endfunction

  // A replicating VC frees its front slot when every branch has taken that flit (each
  // branch's count of flits taken and not yet freed is then at least one).
  logic [NumInVc-1:0] rpop;
  always_comb begin
    logic any, all;
    for (int i = 0; i < NumInVc; i++) begin
      any = 1'b0;
      all = 1'b1;
      for (int b = 0; b < NumBr; b++) begin
        any = any || rsa_gnt[(i*NumBr + b)];
        if (exist_now[(i*NumBr + b)] && ahead_now[(i*NumBr + b)*CntW +: CntW] == '0 && !rsa_gnt[(i*NumBr + b)]) all = 1'b0;
      end
      rpop[i] = rep_now[i] && any && all;
    end
  end

  // The VC an input port sends from is selected by comparing the grant with each of the port's
  // VCs, not by a part select at a run-time index: yosys 0.23 maps that to a shifter over
  // all buffer fronts per port (docs/rtl.md, "Wide reads through compares").
  logic [NumIn*SW-1:0] xbar_in;
  logic [NumIn-1:0]       sw_credit;     // [in] the slot freed this cycle ...
  logic [NumIn*VcW-1:0]   sw_credit_vc;  // [in] ... on this VC
  always_comb begin
    int i;
    i = 0;
    pop = '0;
    xbar_in = '0;
    for (int p = 0; p < NumIn; p++) begin
      for (int v = 0; v < NumVcs; v++)
        if (32'(sa_gnt_vc[p*VcIdxW +: VcIdxW]) == v) begin
          i = p * NumVcs + v;
          xbar_in[p*SW +: SW] = front[i*EntryW +: SW];
          xbar_in[p*SW + SVcLsb +: VcW] = VcW'(hold_vc[i*VcIdxW +: VcIdxW]);
          if (sa_gnt[p]) pop[i] = 1'b1;
        end
      sw_credit[p] = sa_gnt[p];
      sw_credit_vc[p*VcW +: VcW] = VcW'(sa_gnt_vc[p*VcIdxW +: VcIdxW]);
      // A replicating VC's freed slot, or (minimal path-IR router) a stripped address flit.
      for (int v = 0; v < NumVcs; v++)
        if (rpop[p*NumVcs + v] || strip[p*NumVcs + v]) begin
          sw_credit[p] = 1'b1;
          sw_credit_vc[p*VcW +: VcW] = VcW'(v);
          pop[p*NumVcs + v] = 1'b1;
        end
    end
  end

  logic [NumOut-1:0]       xbar_valid;
  logic [NumOut*SW-1:0] xbar_out;
  wormsim_crossbar #(.NumIn(NumIn), .NumOut(NumOut), .W(SW)) u_xbar (
    .clk_i, .rst_ni,
    .data_i(xbar_in),
    .sel_valid_i(sa_sel_valid),
    .sel_i(sa_sel),
    .valid_o(xbar_valid),
    .data_o(xbar_out)
  );

  // Replicated flits bypass the unicast crossbar: output o takes the flit of the branch
  // granted on it, with that branch's VC and header.
  logic [NumOut-1:0]       rep_valid;
  logic [NumOut*SW-1:0] rep_flit;
  logic [NumOut*InVcW-1:0] rep_src;
  always_comb begin
    rep_valid = '0;
    rep_flit = '0;
    rep_src = '0;
    for (int o = 0; o < NumOut; o++)
      for (int j = 0; j < NumInVc*NumBr; j++)
        if (rsa_gnt[j] && 32'(port_now[j*PortW +: PortW]) == o) begin
          rep_valid[o] = 1'b1;
          rep_src[o*InVcW +: InVcW] = InVcW'(j / NumBr);
          rep_flit[o*SW +: SW] = rd_data[j*EntryW +: SW];
          rep_flit[o*SW + SVcLsb +: VcW] = VcW'(vc_now[j*VcIdxW +: VcIdxW]);
          if (Full) begin
            rep_flit[o*SW + SDstLsb +: NodeW] = dst_now[j*NodeW +: NodeW];
            rep_flit[o*SW + SMposLsb +: MposW] = mpos_now[j*MposW +: MposW];
          end
          // Minimal path-IR router: a branch's first flit is the promoted head; the worm's
          // addresses are never rewritten.
          if (McPathMin && first_now[j]) begin
            rep_flit[o*SW + STypLsb +: 2] =
                wormsim_pkg::is_tail(rd_data[j*EntryW + STypLsb +: 2])
                ? wormsim_pkg::FlitHeadTail : wormsim_pkg::FlitHead;
            for (int k = 0; k < NumInVc; k++)
              if (k == j / NumBr)
                rep_flit[o*SW + SMposLsb +: MposW] = abs_mpos_q[k*MposW +: MposW];
          end
        end
  end

  // The flits that cross the switch (delay model) or enter the ST register (staged) this
  // cycle; they take their output VC's credit now.
  logic [NumOut-1:0]       sw_valid;
  logic [NumOut*SW-1:0] sw_flit;
  logic [NumOut*InVcW-1:0] sw_src;
  always_comb begin
    for (int o = 0; o < NumOut; o++) begin
      sw_valid[o] = xbar_valid[o] || rep_valid[o];
      sw_flit[o*SW +: SW] = rep_valid[o] ? rep_flit[o*SW +: SW]
                                               : xbar_out[o*SW +: SW];
      sw_src[o*InVcW +: InVcW] =
          rep_valid[o] ? rep_src[o*InVcW +: InVcW]
                       : InVcW'(granted_vc(sa_gnt_vc, 32'(sa_sel[o*InW +: InW])));
    end
  end

  always_comb begin
    for (int o = 0; o < NumOut; o++)
      for (int v = 0; v < NumVcs; v++)
        cr_take[o*NumVcs + v] =
            sw_valid[o] && 32'(sw_flit[o*SW + SVcLsb +: VcW]) == v;
  end

  // ---- the ST pipeline register (staged pipelines) --------------------------------------
  // The flits granted the switch in cycle s leave on their links, and the credits of the
  // slots they freed go upstream, in cycle s + 1 (Router::switch_traversal). The delay model
  // sends them in cycle s (the register is then unused and not loaded).
  logic [NumOut-1:0]       st_valid_q;
  logic [NumOut*SW-1:0] st_flit_q;
  logic [NumOut*InVcW-1:0] st_src_q;
  logic [NumIn-1:0]        st_credit_q;
  logic [NumIn*VcW-1:0]    st_credit_vc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_valid_q <= '0;
      st_flit_q <= '0;
      st_src_q <= '0;
      st_credit_q <= '0;
      st_credit_vc_q <= '0;
    end else if (staged) begin
      st_valid_q <= sw_valid;
      st_flit_q <= sw_flit;
      st_src_q <= sw_src;
      st_credit_q <= sw_credit;
      st_credit_vc_q <= sw_credit_vc;
    end
  end
  logic [NumOut*SW-1:0] out_kept;
  assign out_valid_o = staged ? st_valid_q : sw_valid;
  assign out_kept = staged ? st_flit_q : sw_flit;
  // The output links carry flit_t; a lean flit's source, mc and hlen are zero.
  if (Full) begin : g_out_whole
    assign out_flit_o = out_kept;
  end else begin : g_out_lean
    for (genvar o = 0; o < NumOut; o++) begin : g_port
      // flit_t's fields, in its order: typ, vc, mc, hlen, more, mpos, pkt, idx, src, dst, data.
      assign out_flit_o[o*FlitW +: FlitW] = {
          out_kept[o*SW + STypLsb +: 2],
          out_kept[o*SW + SVcLsb +: VcW],
          1'b0,
          {HlenW{1'b0}},
          out_kept[o*SW + SMoreLsb],
          out_kept[o*SW + SMposLsb +: MposW],
          out_kept[o*SW + SPktLsb +: wormsim_pkg::PktW],
          out_kept[o*SW + SIdxLsb +: wormsim_pkg::IdxW],
          {NodeW{1'b0}},
          out_kept[o*SW + SDstLsb +: NodeW],
          out_kept[o*SW +: wormsim_pkg::DataW]};
    end
  end
  assign out_src_o = staged ? st_src_q : sw_src;
  assign in_credit_o = staged ? st_credit_q : sw_credit;
  assign in_credit_vc_o = staged ? st_credit_vc_q : sw_credit_vc;

  // ---- next state ----------------------------------------------------------------------------
  always_comb begin
    int o, i;
    logic all_done, live;
    logic [CntW-1:0] ahead;
    all_done = 1'b0;
    live = 1'b0;
    ahead = '0;
    active_d = active_q;
    out_port_d = out_port_q;
    out_vc_d = out_vc_q;
    own_d = own_q;
    owner_d = owner_q;
    for (int j = 0; j < NumInVc; j++)
      if (va_gnt[j]) begin
        o = 32'(hold_port[j*PortW +: PortW]) * NumVcs + 32'(hold_vc[j*VcIdxW +: VcIdxW]);
        active_d[j] = 1'b1;
        out_port_d[j*PortW +: PortW] = hold_port[j*PortW +: PortW];
        out_vc_d[j*VcIdxW +: VcIdxW] = hold_vc[j*VcIdxW +: VcIdxW];
        for (int k = 0; k < NumOut*NumVcs; k++)
          if (k == o) begin
            own_d[k] = 1'b1;
            owner_d[k*InVcW +: InVcW] = InVcW'(j);
          end
      end
    // A tail leaving releases its input VC and its output VC.
    for (int p = 0; p < NumIn; p++)
      for (int v = 0; v < NumVcs; v++) begin
        i = p * NumVcs + v;
        o = 32'(hold_port[i*PortW +: PortW]) * NumVcs + 32'(hold_vc[i*VcIdxW +: VcIdxW]);
        if (sa_gnt[p] && 32'(sa_gnt_vc[p*VcIdxW +: VcIdxW]) == v &&
            wormsim_pkg::is_tail(front[i*EntryW + STypLsb +: 2])) begin
          active_d[i] = 1'b0;
          for (int k = 0; k < NumOut*NumVcs; k++)
            if (k == o) own_d[k] = 1'b0;
        end
      end
    // Replicating worms: branches granted their output VCs, flits sent and freed, a branch
    // done (and its output VC released) after its tail, the worm done after all branches.
    rep_d = rep_q;
    br_exist_d = br_exist_q;
    br_live_d = br_live_q;
    br_port_d = br_port_q;
    br_vc_d = br_vc_q;
    br_ahead_d = br_ahead_q;
    br_dst_d = br_dst_q;
    br_mpos_d = br_mpos_q;
    br_first_d = br_first_q;
    for (int r = 0; r < NumInVc; r++)
      if (rep_now[r]) begin
        all_done = 1'b1;
        for (int b = 0; b < NumBr; b++) begin
          o = 32'(port_now[(r*NumBr + b)*PortW +: PortW]) * NumVcs + 32'(vc_now[(r*NumBr + b)*VcIdxW +: VcIdxW]);
          live = live_now[(r*NumBr + b)];
          ahead = ahead_now[(r*NumBr + b)*CntW +: CntW];
          if (rva_gnt[r] && exist_now[(r*NumBr + b)]) begin
            for (int k = 0; k < NumOut*NumVcs; k++)
              if (k == o) begin
                own_d[k] = 1'b1;
                owner_d[k*InVcW +: InVcW] = InVcW'(r);
              end
          end
          if (rsa_gnt[(r*NumBr + b)]) begin
            ahead = ahead + 1'b1;
            if (wormsim_pkg::is_tail(rd_data[(r*NumBr + b)*EntryW + STypLsb +: 2])) begin
              live = 1'b0;
              for (int k = 0; k < NumOut*NumVcs; k++)
                if (k == o) own_d[k] = 1'b0;
            end
          end
          if (rpop[r] && exist_now[(r*NumBr + b)]) ahead = ahead - 1'b1;
          if (live) all_done = 1'b0;
          br_exist_d[(r*NumBr + b)] = exist_now[(r*NumBr + b)];
          br_live_d[(r*NumBr + b)] = live;
          br_port_d[(r*NumBr + b)*PortW +: PortW] = port_now[(r*NumBr + b)*PortW +: PortW];
          br_vc_d[(r*NumBr + b)*VcIdxW +: VcIdxW] = vc_now[(r*NumBr + b)*VcIdxW +: VcIdxW];
          br_ahead_d[(r*NumBr + b)*CntW +: CntW] = ahead;
          br_dst_d[(r*NumBr + b)*NodeW +: NodeW] = dst_now[(r*NumBr + b)*NodeW +: NodeW];
          br_mpos_d[(r*NumBr + b)*MposW +: MposW] = mpos_now[(r*NumBr + b)*MposW +: MposW];
          br_first_d[(r*NumBr + b)] = McPathMin && first_now[(r*NumBr + b)] && !rsa_gnt[(r*NumBr + b)];
        end
        rep_d[r] = !all_done;
        active_d[r] = !all_done;
        if (all_done) br_exist_d[r*NumBr +: NumBr] = '0;
      end
  end

  // An idle VC showing a head without a VA grant has had its RC cycle by the next.
  always_comb begin
    for (int i = 0; i < NumInVc; i++)
      routed_d[i] = (rc_stage || (staged && abs_q[i])) && front_valid[i] && !active_q[i] &&
                    hdr_ok[i] && !va_gnt[i] && !rva_gnt[i] && !strip_want[i];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      routed_q <= '0;
      active_q <= '0;
      out_port_q <= '0;
      out_vc_q <= '0;
      own_q <= '0;
      owner_q <= '0;
      rep_q <= '0;
      br_exist_q <= '0;
      br_live_q <= '0;
      br_port_q <= '0;
      br_vc_q <= '0;
      br_ahead_q <= '0;
      br_dst_q <= '0;
      br_mpos_q <= '0;
      br_first_q <= '0;
    end else begin
      routed_q <= routed_d;
      active_q <= active_d;
      out_port_q <= out_port_d;
      out_vc_q <= out_vc_d;
      own_q <= own_d;
      owner_q <= owner_d;
      rep_q <= rep_d;
      br_exist_q <= br_exist_d;
      br_live_q <= br_live_d;
      br_port_q <= br_port_d;
      br_vc_q <= br_vc_d;
      br_ahead_q <= br_ahead_d;
      br_dst_q <= br_dst_d;
      br_mpos_q <= br_mpos_d;
      br_first_q <= br_first_d;
    end
  end

  // With RegIn the state after this cycle (the flops take it at the next edge).
  assign vc_active_o = RegIn ? active_d : active_q;
  assign vc_out_port_o = RegIn ? out_port_d : out_port_q;
  assign vc_out_vc_o = RegIn ? out_vc_d : out_vc_q;
  assign owner_valid_o = RegIn ? own_d : own_q;
  assign owner_o = RegIn ? owner_d : owner_q;
  assign vc_replicating_o = RegIn ? rep_d : rep_q;

`ifndef SYNTHESIS
  // Per-port views of the flat flit vectors for waveforms (Verilator --trace-structs shows
  // their fields; traces/*.gtkw display them).
  /* verilator lint_off UNUSEDSIGNAL */
  for (genvar p = 0; p < NumIn; p++) begin : g_wave_in
    wormsim_pkg::flit_t flit;
    assign flit = in_flit[p*FlitW +: FlitW];
  end
  for (genvar o = 0; o < NumOut; o++) begin : g_wave_out
    wormsim_pkg::flit_t flit;
    assign flit = out_flit_o[o*FlitW +: FlitW];
  end
  /* verilator lint_on UNUSEDSIGNAL */

  always_ff @(posedge clk_i) begin
    wormsim_pkg::flit_t f;
    int o, i;
    if (rst_ni) begin
      for (int p = 0; p < NumIn; p++) begin
        f = in_flit[p*FlitW +: FlitW];
        if (in_valid[p])
          assert (32'(f.vc) < 32'(cfg.vcs))
          else $error("router %0d: input %0d: flit on VC %0d, only %0d in use", cfg.node, p,
                      f.vc, cfg.vcs);
      end
      for (int j = 0; j < NumInVc; j++)
        if (front_valid[j] && !active_q[j] && !abs_q[j])
          assert (wormsim_pkg::is_head(front[j*EntryW + STypLsb +: 2]))
          else $error("router %0d: input VC %0d: flit %0d of packet %0d with no packet in progress",
                      cfg.node, j, front[j*EntryW + SIdxLsb +: wormsim_pkg::IdxW],
                      front[j*EntryW + SPktLsb +: wormsim_pkg::PktW]);
      for (int p = 0; p < NumIn; p++)
        if (in_valid[p] && !in_start[p])
          assert (!in_lost[p])
          else $error("router %0d: input %0d: tree worm %0d leads to none of its destinations",
                      cfg.node, p, in_flit[p*FlitW + wormsim_pkg::FlitPktLsb +: wormsim_pkg::PktW]);
      for (int o2 = 0; o2 < NumOut; o2++)
        assert (!(xbar_valid[o2] && rep_valid[o2]))
        else $error("router %0d: output %0d driven by a unicast and a replicated flit", cfg.node, o2);
      for (int j = 0; j < NumInVc; j++) begin
        for (int b = 0; b < NumBr; b++) begin
          // A replicated flit's slot is freed only after all branches took it, and no
          // branch runs beyond the buffer's contents.
          if (pop[j] && rep_now[j] && exist_now[j*NumBr + b])
            assert (ahead_now[(j*NumBr + b)*CntW +: CntW] != '0 || rsa_gnt[j*NumBr + b])
            else $error("router %0d: input VC %0d freed a flit branch %0d has not taken",
                        cfg.node, j, b);
          if (exist_now[j*NumBr + b])
            assert (32'(ahead_now[(j*NumBr + b)*CntW +: CntW]) <= 32'(vc_count_o[j*CntW +: CntW]))
            else $error("router %0d: input VC %0d branch %0d is ahead of its buffer", cfg.node, j, b);
          // Synchronous replication: live branches send together.
          if (cfg.sync_replication && live_now[j*NumBr + b] && |rsa_gnt[j*NumBr +: NumBr])
            assert (rsa_gnt[j*NumBr + b])
            else $error("router %0d: input VC %0d: synchronous worm sent without branch %0d",
                        cfg.node, j, b);
        end
      end
      // A replicating branch sends only on an output VC its input VC holds (granted now or
      // held since its grant, until the branch's tail).
      for (int j = 0; j < NumInVc; j++)
        for (int b = 0; b < NumBr; b++) begin
          o = 32'(port_now[(j*NumBr + b)*PortW +: PortW]) * NumVcs +
              32'(vc_now[(j*NumBr + b)*VcIdxW +: VcIdxW]);
          if (rsa_gnt[j*NumBr + b])
            assert ((own_q[o] && 32'(owner_q[o*InVcW +: InVcW]) == j) || (!own_q[o] && rva_gnt[j]))
            else $error("router %0d: input VC %0d branch %0d sends on output VC %0d it does not hold",
                        cfg.node, j, b, o);
        end
      for (int p = 0; p < NumIn; p++) begin
        i = granted_vc(sa_gnt_vc, p);
        o = 32'(hold_port[i*PortW +: PortW]) * NumVcs + 32'(hold_vc[i*VcIdxW +: VcIdxW]);
        if (sa_gnt[p])
          assert ((own_q[o] && 32'(owner_q[o*InVcW +: InVcW]) == i) || (!own_q[o] && va_gnt[i]))
          else $error("router %0d: input VC %0d sends on output VC %0d it does not hold",
                      cfg.node, i, o);
      end
    end
  end
`endif
endmodule
