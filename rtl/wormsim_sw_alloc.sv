// Switch allocator (systemc/router/switch_allocator.cpp): each cycle matches input VCs holding a
// ready flit with an output VC and a credit (req_i, wanted output port want_i) to output
// ports, so that an input port sends at most one flit and an output port takes at most one.
// Separable with round-robin arbiters, chosen by kind_i:
//  - input-first: each input port picks one requesting VC, each output port one of the
//    input ports whose chosen VC wants it;
//  - output-first: each output port picks one input port with a VC that wants it, each input
//    port one VC among those whose output picked this port.
// Pointers move only for grants that survive both stages. Contract (asserted): at most one
// grant per input port and per output port, and only for requests.
module wormsim_sw_alloc #(
  parameter int unsigned NumIn = 4,   // input ports
  parameter int unsigned NumOut = 4,  // output ports
  parameter int unsigned NumVcs = 2,
  localparam int unsigned InW = NumIn > 1 ? $clog2(NumIn) : 1,
  localparam int unsigned OutW = NumOut > 1 ? $clog2(NumOut) : 1,
  localparam int unsigned VcIdxW = NumVcs > 1 ? $clog2(NumVcs) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  wormsim_pkg::alloc_e           kind_i,
  input  logic [NumIn*NumVcs-1:0]       req_i,        // [in][vc]
  input  logic [NumIn*NumVcs*OutW-1:0]  want_i,       // [in][vc]
  output logic [NumIn-1:0]              gnt_o,        // [in]
  output logic [NumIn*VcIdxW-1:0]       gnt_vc_o,     // [in]
  output logic [NumOut-1:0]             sel_valid_o,  // [out]
  output logic [NumOut*InW-1:0]         sel_o         // [out]
);
  logic input_first;
  assign input_first = kind_i == wormsim_pkg::AllocInputFirst;

  function automatic logic [OutW-1:0] want(logic [NumIn*NumVcs*OutW-1:0] w, int i, int v);
    want = w[(i*NumVcs + v)*OutW +: OutW];
  endfunction

  // Input-first set.
  logic [NumIn*NumVcs-1:0]  if_in_req;
  logic [NumIn-1:0]         if_in_valid;
  logic [NumIn*VcIdxW-1:0]  if_in_pick;
  logic [NumOut*NumIn-1:0]  if_out_req;   // [out][in]
  logic [NumOut-1:0]        if_out_valid;
  logic [NumOut*InW-1:0]    if_out_pick;
  logic [NumIn-1:0]         if_in_upd;
  // Output-first set.
  logic [NumOut*NumIn-1:0]  of_out_req;   // [out][in]
  logic [NumOut-1:0]        of_out_valid;
  logic [NumOut*InW-1:0]    of_out_pick;
  logic [NumIn*NumVcs-1:0]  of_in_req;
  logic [NumIn-1:0]         of_in_valid;
  logic [NumIn*VcIdxW-1:0]  of_in_pick;
  logic [NumOut-1:0]        of_out_upd;
  logic [NumOut*InW-1:0]    of_out_upd_idx;

  assign if_in_req = input_first ? req_i : '0;

  // The request matrices, visiting only requesting inputs (an allocator without requests,
  // such as the speculative one outside speculative pipelines, costs little to evaluate).
  always_comb begin
    if_out_req = '0;
    for (int i = 0; i < NumIn; i++)
      if (if_in_valid[i])
        for (int o = 0; o < NumOut; o++)
          if (32'(want(want_i, i, 32'(if_in_pick[i*VcIdxW +: VcIdxW]))) == 32'(o))
            if_out_req[o*NumIn + i] = 1'b1;
  end

  always_comb begin
    of_out_req = '0;
    for (int i = 0; i < NumIn; i++)
      for (int v = 0; v < NumVcs; v++)
        if (!input_first && req_i[i*NumVcs + v])
          for (int o = 0; o < NumOut; o++)
            if (32'(want(want_i, i, v)) == 32'(o)) of_out_req[o*NumIn + i] = 1'b1;
  end

  always_comb begin
    for (int i = 0; i < NumIn; i++)
      for (int v = 0; v < NumVcs; v++)
        of_in_req[i*NumVcs + v] = req_i[i*NumVcs + v] && of_out_valid[want(want_i, i, v)] &&
                                  32'(of_out_pick[want(want_i, i, v)*InW +: InW]) == 32'(i);
  end

  always_comb begin
    logic [OutW-1:0] o;
    gnt_o = '0;
    gnt_vc_o = '0;
    sel_valid_o = '0;
    sel_o = '0;
    if_in_upd = '0;
    of_out_upd = '0;
    of_out_upd_idx = '0;
    o = '0;
    // Grants are written through compares with the picked index, not indexed part selects
    // (yosys 0.23 maps a variable-index write to a shifter over the whole vector).
    for (int q = 0; q < NumOut; q++) begin
      if (if_out_valid[q]) begin
        sel_valid_o[q] = 1'b1;
        sel_o[q*InW +: InW] = if_out_pick[q*InW +: InW];
      end
      for (int i = 0; i < NumIn; i++)
        if (if_out_valid[q] && 32'(if_out_pick[q*InW +: InW]) == i) begin
          gnt_o[i] = 1'b1;
          gnt_vc_o[i*VcIdxW +: VcIdxW] = if_in_pick[i*VcIdxW +: VcIdxW];
          if_in_upd[i] = 1'b1;
        end
    end
    for (int i = 0; i < NumIn; i++)
      if (of_in_valid[i]) begin
        o = want(want_i, i, 32'(of_in_pick[i*VcIdxW +: VcIdxW]));
        gnt_o[i] = 1'b1;
        gnt_vc_o[i*VcIdxW +: VcIdxW] = of_in_pick[i*VcIdxW +: VcIdxW];
        for (int q = 0; q < NumOut; q++)
          if (32'(o) == q) begin
            sel_valid_o[q] = 1'b1;
            sel_o[q*InW +: InW] = InW'(i);
            of_out_upd[q] = 1'b1;
            of_out_upd_idx[q*InW +: InW] = InW'(i);
          end
      end
  end

  for (genvar i = 0; i < NumIn; i++) begin : g_in_arb
    wormsim_rr_arbiter #(.N(NumVcs)) u_if (
      .clk_i, .rst_ni,
      .req_i(if_in_req[i*NumVcs +: NumVcs]),
      .gnt_valid_o(if_in_valid[i]), .gnt_idx_o(if_in_pick[i*VcIdxW +: VcIdxW]),
      .upd_i(if_in_upd[i]), .upd_idx_i(if_in_pick[i*VcIdxW +: VcIdxW])
    );
    wormsim_rr_arbiter #(.N(NumVcs)) u_of (
      .clk_i, .rst_ni,
      .req_i(of_in_req[i*NumVcs +: NumVcs]),
      .gnt_valid_o(of_in_valid[i]), .gnt_idx_o(of_in_pick[i*VcIdxW +: VcIdxW]),
      .upd_i(of_in_valid[i]), .upd_idx_i(of_in_pick[i*VcIdxW +: VcIdxW])
    );
  end

  for (genvar o = 0; o < NumOut; o++) begin : g_out_arb
    wormsim_rr_arbiter #(.N(NumIn)) u_if (
      .clk_i, .rst_ni,
      .req_i(if_out_req[o*NumIn +: NumIn]),
      .gnt_valid_o(if_out_valid[o]), .gnt_idx_o(if_out_pick[o*InW +: InW]),
      .upd_i(if_out_valid[o]), .upd_idx_i(if_out_pick[o*InW +: InW])
    );
    wormsim_rr_arbiter #(.N(NumIn)) u_of (
      .clk_i, .rst_ni,
      .req_i(of_out_req[o*NumIn +: NumIn]),
      .gnt_valid_o(of_out_valid[o]), .gnt_idx_o(of_out_pick[o*InW +: InW]),
      .upd_i(of_out_upd[o]), .upd_idx_i(of_out_upd_idx[o*InW +: InW])
    );
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int i = 0; i < NumIn; i++)
        if (gnt_o[i])
          assert (req_i[i*NumVcs + 32'(gnt_vc_o[i*VcIdxW +: VcIdxW])])
          else $error("sw_alloc: input port %0d granted VC %0d without a request", i,
                      gnt_vc_o[i*VcIdxW +: VcIdxW]);
      for (int o = 0; o < NumOut; o++)
        if (sel_valid_o[o])
          for (int q = o + 1; q < NumOut; q++)
            assert (!(sel_valid_o[q] && sel_o[q*InW +: InW] == sel_o[o*InW +: InW]))
            else $error("sw_alloc: input port %0d granted outputs %0d and %0d",
                        sel_o[o*InW +: InW], o, q);
    end
  end
`endif
endmodule
