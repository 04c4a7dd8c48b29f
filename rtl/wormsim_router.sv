// Input-queued virtual-channel wormhole router, cycle-equivalent to the C++ router
// (systemc/router.cpp, DESIGN.md section 4, docs/rtl.md). Per cycle: flits and credits that
// arrive this cycle are written/counted first; heads at the front of an idle VC compete for
// an output VC (VA) with the route computed when they were written; VCs holding an output VC
// and a credit compete for the switch (SA) in the same cycle; winners cross the crossbar onto
// the output links and free their slot with a credit upstream. A flit may compete from
// pipeline_depth - 1 cycles after it arrived. An output VC is held from its head's VA grant
// until its tail leaves.
//
// Ports: inputs [0, NumNet) from neighbours, then NumInj injection channels; outputs
// [0, NumNet) to neighbours, then NumEj ejection channels. The straps cfg_i may use fewer
// ports, VCs and buffer slots than these maxima. Arrays are flat, [port][vc] order
// (rtl/wormsim_pkg.sv).
//
// Contracts (asserted): flits arrive on VCs in use; a VC with no packet in progress sees a
// head at its front; a flit leaves on an output VC held by its own input VC, which keeps it
// until its tail; buffers and credit counters stay within bounds (in the blocks).
module wormsim_router #(
  parameter int unsigned NumNet = 4,
  parameter int unsigned NumInj = 4,
  parameter int unsigned NumEj = 4,
  parameter int unsigned NumVcs = 4,
  parameter int unsigned Depth = 8,
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
  localparam int unsigned VcW = wormsim_pkg::VcW
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
  output logic [NumInVc*4-1:0]           vc_out_port_o,   // [in][vc]
  output logic [NumInVc*VcIdxW-1:0]      vc_out_vc_o,     // [in][vc]
  output logic [NumInVc*CntW-1:0]        vc_count_o,      // [in][vc]
  output logic [NumOutVc-1:0]            owner_valid_o,   // [out][vc]
  output logic [NumOutVc*InVcW-1:0]      owner_o,         // [out][vc] -> input VC
  output logic [NumOutVc*9-1:0]          credits_o        // [out][vc]
);
  localparam int unsigned EntryW = RouteW + FlitW;  // {route, flit} per buffer slot

  // ---- route compute at buffer write (one per input port) -------------------------------
  logic [NumIn*RouteW-1:0] in_route;
  for (genvar p = 0; p < NumIn; p++) begin : g_rc
    wormsim_route_compute #(.NumNet(NumNet)) u_rc (
      .cfg_i,
      .dst_i(in_flit_i[p*FlitW + wormsim_pkg::FlitDstLsb +: wormsim_pkg::NodeW]),
      .in_port_i(4'(p)),
      .in_vc_i(5'(in_flit_i[p*FlitW + wormsim_pkg::FlitVcLsb +: VcW])),
      .route_o(in_route[p*RouteW +: RouteW])
    );
  end

  // ---- input VC buffers ------------------------------------------------------------------
  logic [NumInVc-1:0]        push, pop, front_valid, front_ready;
  logic [NumInVc*EntryW-1:0] front;
  for (genvar p = 0; p < NumIn; p++) begin : g_in
    for (genvar v = 0; v < NumVcs; v++) begin : g_vc
      assign push[p*NumVcs + v] =
          in_valid_i[p] && 32'(in_flit_i[p*FlitW + wormsim_pkg::FlitVcLsb +: VcW]) == v;
      wormsim_flit_fifo #(.W(EntryW), .Depth(Depth)) u_fifo (
        .clk_i, .rst_ni,
        .cap_i(cfg_i.depth),
        .delay_i(2'(cfg_i.pipeline - 3'd1)),
        .push_i(push[p*NumVcs + v]),
        .data_i({in_route[p*RouteW +: RouteW], in_flit_i[p*FlitW +: FlitW]}),
        .pop_i(pop[p*NumVcs + v]),
        .valid_o(front_valid[p*NumVcs + v]),
        .ready_o(front_ready[p*NumVcs + v]),
        .front_o(front[(p*NumVcs + v)*EntryW +: EntryW]),
        .count_o(vc_count_o[(p*NumVcs + v)*CntW +: CntW])
      );
    end
  end


  // ---- input VC state and output VC ownership ---------------------------------------------
  logic [NumInVc-1:0]          active_q, active_d;
  logic [NumInVc*4-1:0]        out_port_q, out_port_d;
  logic [NumInVc*VcIdxW-1:0]   out_vc_q, out_vc_d;
  logic [NumOutVc-1:0]         own_q, own_d;
  logic [NumOutVc*InVcW-1:0]   owner_q, owner_d;

  // ---- VC allocation ---------------------------------------------------------------------
  logic [NumInVc-1:0]          va_req, va_gnt;
  logic [NumInVc*NumOutVc-1:0] va_cand;  // [in VC][out VC]
  logic [NumInVc*OutVcW-1:0]   va_gnt_out;

  always_comb begin
    logic [RouteW-1:0] r;
    for (int i = 0; i < NumInVc; i++) begin
      r = front[i*EntryW + FlitW +: RouteW];
      va_req[i] = front_valid[i] && front_ready[i] && !active_q[i];
      for (int op = 0; op < NumOut; op++)
        for (int ov = 0; ov < NumVcs; ov++)
          va_cand[i*NumOutVc + op*NumVcs + ov] =
              32'(op) >= 32'(r[wormsim_pkg::RoutePortLoLsb +: 4]) &&
              32'(op) < 32'(r[wormsim_pkg::RoutePortHiLsb +: 4]) &&
              32'(ov) >= 32'(r[wormsim_pkg::RouteVcLoLsb +: 5]) &&
              32'(ov) < 32'(r[wormsim_pkg::RouteVcHiLsb +: 5]);
    end
  end

  wormsim_vc_alloc #(.NumIn(NumInVc), .NumOut(NumOutVc)) u_vc_alloc (
    .clk_i, .rst_ni,
    .kind_i(cfg_i.alloc),
    .req_i(va_req),
    .cand_i(va_cand),
    .free_i(~own_q),
    .gnt_o(va_gnt),
    .gnt_out_o(va_gnt_out)
  );

  // The output VC each input VC holds this cycle, including grants made this cycle.
  logic [NumInVc-1:0]        hold;
  logic [NumInVc*4-1:0]      hold_port;
  logic [NumInVc*VcIdxW-1:0] hold_vc;
  always_comb begin
    for (int i = 0; i < NumInVc; i++) begin
      hold[i] = active_q[i] || va_gnt[i];
      hold_port[i*4 +: 4] = active_q[i] ? out_port_q[i*4 +: 4]
                                        : 4'(32'(va_gnt_out[i*OutVcW +: OutVcW]) / NumVcs);
      hold_vc[i*VcIdxW +: VcIdxW] = active_q[i] ? out_vc_q[i*VcIdxW +: VcIdxW]
                                    : VcIdxW'(32'(va_gnt_out[i*OutVcW +: OutVcW]) % NumVcs);
    end
  end

  // ---- credits -----------------------------------------------------------------------------
  logic [NumOutVc-1:0] cr_give, cr_take, cr_avail;
  for (genvar o = 0; o < NumOut; o++) begin : g_out
    for (genvar v = 0; v < NumVcs; v++) begin : g_vc
      assign cr_give[o*NumVcs + v] = out_credit_i[o] && 32'(out_credit_vc_i[o*VcW +: VcW]) == v;
      wormsim_credit_counter #(.W(9)) u_credits (
        .clk_i, .rst_ni,
        .cap_i(cfg_i.depth),
        .unlimited_i(o >= NumNet),  // the NI always accepts on its ejection channels
        .give_i(cr_give[o*NumVcs + v]),
        .take_i(cr_take[o*NumVcs + v]),
        .avail_o(cr_avail[o*NumVcs + v]),
        .count_o(credits_o[(o*NumVcs + v)*9 +: 9])
      );
    end
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
      sa_want[i*OutW +: OutW] = OutW'(hold_port[i*4 +: 4]);
      sa_req[i] = hold[i] && front_valid[i] && front_ready[i] &&
                  cr_avail[32'(hold_port[i*4 +: 4])*NumVcs + 32'(hold_vc[i*VcIdxW +: VcIdxW])];
    end
  end

  wormsim_sw_alloc #(.NumIn(NumIn), .NumOut(NumOut), .NumVcs(NumVcs)) u_sw_alloc (
    .clk_i, .rst_ni,
    .kind_i(cfg_i.alloc),
    .req_i(sa_req),
    .want_i(sa_want),
    .gnt_o(sa_gnt),
    .gnt_vc_o(sa_gnt_vc),
    .sel_valid_o(sa_sel_valid),
    .sel_o(sa_sel)
  );

  // ---- switch traversal ----------------------------------------------------------------------
  // Input VC index (port * NumVcs + vc) of the flit input port p sends this cycle.
  function automatic int granted_vc(logic [NumIn*VcIdxW-1:0] g, int p);
    granted_vc = p * NumVcs + 32'(g[p*VcIdxW +: VcIdxW]);
  endfunction

  logic [NumIn*FlitW-1:0] xbar_in;
  always_comb begin
    int i;
    pop = '0;
    for (int p = 0; p < NumIn; p++) begin
      i = granted_vc(sa_gnt_vc, p);
      xbar_in[p*FlitW +: FlitW] = front[i*EntryW +: FlitW];
      xbar_in[p*FlitW + wormsim_pkg::FlitVcLsb +: VcW] = VcW'(hold_vc[i*VcIdxW +: VcIdxW]);
      in_credit_o[p] = sa_gnt[p];
      in_credit_vc_o[p*VcW +: VcW] = VcW'(sa_gnt_vc[p*VcIdxW +: VcIdxW]);
      pop[i] = sa_gnt[p];
    end
  end

  wormsim_crossbar #(.NumIn(NumIn), .NumOut(NumOut), .W(FlitW)) u_xbar (
    .clk_i, .rst_ni,
    .data_i(xbar_in),
    .sel_valid_i(sa_sel_valid),
    .sel_i(sa_sel),
    .valid_o(out_valid_o),
    .data_o(out_flit_o)
  );

  always_comb begin
    for (int o = 0; o < NumOut; o++)
      for (int v = 0; v < NumVcs; v++)
        cr_take[o*NumVcs + v] =
            sa_sel_valid[o] && 32'(out_flit_o[o*FlitW + wormsim_pkg::FlitVcLsb +: VcW]) == v;
  end

  // ---- next state ----------------------------------------------------------------------------
  always_comb begin
    int o, i;
    active_d = active_q;
    out_port_d = out_port_q;
    out_vc_d = out_vc_q;
    own_d = own_q;
    owner_d = owner_q;
    for (int j = 0; j < NumInVc; j++)
      if (va_gnt[j]) begin
        o = 32'(hold_port[j*4 +: 4]) * NumVcs + 32'(hold_vc[j*VcIdxW +: VcIdxW]);
        active_d[j] = 1'b1;
        out_port_d[j*4 +: 4] = hold_port[j*4 +: 4];
        out_vc_d[j*VcIdxW +: VcIdxW] = hold_vc[j*VcIdxW +: VcIdxW];
        own_d[o] = 1'b1;
        owner_d[o*InVcW +: InVcW] = InVcW'(j);
      end
    // A tail leaving releases its input VC and its output VC.
    for (int p = 0; p < NumIn; p++) begin
      i = granted_vc(sa_gnt_vc, p);
      o = 32'(hold_port[i*4 +: 4]) * NumVcs + 32'(hold_vc[i*VcIdxW +: VcIdxW]);
      if (sa_gnt[p] && wormsim_pkg::is_tail(front[i*EntryW + wormsim_pkg::FlitTypLsb +: 2])) begin
        active_d[i] = 1'b0;
        own_d[o] = 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= '0;
      out_port_q <= '0;
      out_vc_q <= '0;
      own_q <= '0;
      owner_q <= '0;
    end else begin
      active_q <= active_d;
      out_port_q <= out_port_d;
      out_vc_q <= out_vc_d;
      own_q <= own_d;
      owner_q <= owner_d;
    end
  end

  assign vc_active_o = active_q;
  assign vc_out_port_o = out_port_q;
  assign vc_out_vc_o = out_vc_q;
  assign owner_valid_o = own_q;
  assign owner_o = owner_q;

`ifndef SYNTHESIS
  // Per-port views of the flat flit vectors for waveforms (Verilator --trace-structs shows
  // their fields; traces/*.gtkw display them).
  /* verilator lint_off UNUSEDSIGNAL */
  for (genvar p = 0; p < NumIn; p++) begin : g_wave_in
    wormsim_pkg::flit_t flit;
    assign flit = in_flit_i[p*FlitW +: FlitW];
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
        f = in_flit_i[p*FlitW +: FlitW];
        if (in_valid_i[p])
          assert (32'(f.vc) < 32'(cfg_i.vcs))
          else $error("router %0d: input %0d: flit on VC %0d, only %0d in use", cfg_i.node, p,
                      f.vc, cfg_i.vcs);
      end
      for (int j = 0; j < NumInVc; j++) begin
        f = front[j*EntryW +: FlitW];
        if (front_valid[j] && !active_q[j])
          assert (wormsim_pkg::is_head(f.typ))
          else $error("router %0d: input VC %0d: flit %0d of packet %0d with no packet in progress",
                      cfg_i.node, j, f.idx, f.pkt);
      end
      for (int p = 0; p < NumIn; p++) begin
        i = granted_vc(sa_gnt_vc, p);
        o = 32'(hold_port[i*4 +: 4]) * NumVcs + 32'(hold_vc[i*VcIdxW +: VcIdxW]);
        if (sa_gnt[p])
          assert ((own_q[o] && 32'(owner_q[o*InVcW +: InVcW]) == i) || (!own_q[o] && va_gnt[i]))
          else $error("router %0d: input VC %0d sends on output VC %0d it does not hold",
                      cfg_i.node, i, o);
      end
    end
  end
`endif
endmodule
