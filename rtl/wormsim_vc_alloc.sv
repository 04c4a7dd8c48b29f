// Virtual-channel allocator (systemc/router/vc_allocator.cpp): matches input VCs whose head waits
// for an output VC (req_i, candidates cand_i from route compute) to free output VCs (free_i).
// Separable with round-robin arbiters on both stages, chosen by kind_i:
//  - input-first: each requester picks its first free candidate at or after its pointer,
//    then each output VC picks one of the requesters that chose it;
//  - output-first: each free, requested output VC offers itself to one candidate requester,
//    then each requester accepts one of its offers.
// Pointers move only for grants (iSLIP-style). Contract (asserted): a grant is a free
// candidate, no output VC is granted twice.
module wormsim_vc_alloc #(
  parameter int unsigned NumIn = 8,   // input VCs
  parameter int unsigned NumOut = 8,  // output VCs
  localparam int unsigned InW = NumIn > 1 ? $clog2(NumIn) : 1,
  localparam int unsigned OutW = NumOut > 1 ? $clog2(NumOut) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  wormsim_pkg::alloc_e      kind_i,
  input  logic [NumIn-1:0]         req_i,
  input  logic [NumIn*NumOut-1:0]  cand_i,    // [in][out]
  input  logic [NumOut-1:0]        free_i,
  output logic [NumIn-1:0]         gnt_o,
  output logic [NumIn*OutW-1:0]    gnt_out_o  // [in]
);
  // One arbiter set per allocator kind (kind_i is a strap, so one set is idle; two sets keep
  // both stage orders free of combinational loops). Input side: per input VC over output
  // VCs; output side: per output VC over input VCs.
  logic [NumIn*NumOut-1:0] if_in_req, of_in_req;     // [in][out]
  logic [NumOut*NumIn-1:0] if_out_req, of_out_req;   // [out][in]
  logic [NumIn-1:0]        if_in_valid, of_in_valid;
  logic [NumIn*OutW-1:0]   if_in_pick, of_in_pick;
  logic [NumOut-1:0]       if_out_valid, of_out_valid;
  logic [NumOut*InW-1:0]   if_out_pick, of_out_pick;
  logic [NumIn-1:0]        if_in_upd, of_in_upd;
  logic [NumOut-1:0]       if_out_upd, of_out_upd;
  logic [NumOut*InW-1:0]   of_out_upd_idx;
  logic                    input_first;

  assign input_first = kind_i == wormsim_pkg::AllocInputFirst;

  // Requests are built row by row from whole words, and only for input VCs that request
  // (or whose stage-1 pick is valid): with no head waiting, the allocator does next to no work
  // in simulation (docs/rtl.md, "Word-level allocators"). Rows of the [out][in] matrices
  // are written through compares with the picked index (yosys 0.23 maps a variable-index
  // write to a shifter over the whole vector).
  // Input-first: stage 1 over free candidates, stage 2 over the stage-1 choices.
  always_comb begin
    if_in_req = '0;
    for (int i = 0; i < NumIn; i++)
      if (input_first && req_i[i]) if_in_req[i*NumOut +: NumOut] = cand_i[i*NumOut +: NumOut] & free_i;
  end
  always_comb begin
    if_out_req = '0;
    for (int i = 0; i < NumIn; i++)
      if (if_in_valid[i])
        for (int o = 0; o < NumOut; o++)
          if (32'(if_in_pick[i*OutW +: OutW]) == 32'(o)) if_out_req[o*NumIn + i] = 1'b1;
  end
  // Output-first: stage 1 over candidate requesters, stage 2 over the offers.
  always_comb begin
    logic [NumOut-1:0] row;
    row = '0;
    of_out_req = '0;
    for (int i = 0; i < NumIn; i++)
      if (!input_first && req_i[i]) begin
        row = cand_i[i*NumOut +: NumOut] & free_i;
        for (int o = 0; o < NumOut; o++) of_out_req[o*NumIn + i] = row[o];
      end
  end
  always_comb begin
    of_in_req = '0;
    for (int o = 0; o < NumOut; o++)
      if (of_out_valid[o])
        for (int i = 0; i < NumIn; i++)
          if (32'(of_out_pick[o*InW +: InW]) == 32'(i)) of_in_req[i*NumOut + o] = cand_i[i*NumOut + o];
  end

  always_comb begin
    gnt_o = '0;
    gnt_out_o = '0;
    if_in_upd = '0;
    of_in_upd = '0;
    of_out_upd = '0;
    of_out_upd_idx = '0;
    // Grants are written through compares with the picked index, not indexed part selects
    // (yosys 0.23 maps a variable-index write to a shifter over the whole vector).
    for (int o = 0; o < NumOut; o++)
      if (if_out_valid[o])
        for (int i = 0; i < NumIn; i++)
          if (32'(if_out_pick[o*InW +: InW]) == i) begin
            gnt_o[i] = 1'b1;
            gnt_out_o[i*OutW +: OutW] = OutW'(o);
            if_in_upd[i] = 1'b1;
          end
    for (int i = 0; i < NumIn; i++)
      if (of_in_valid[i]) begin
        gnt_o[i] = 1'b1;
        gnt_out_o[i*OutW +: OutW] = of_in_pick[i*OutW +: OutW];
        of_in_upd[i] = 1'b1;
        for (int o = 0; o < NumOut; o++)
          if (32'(of_in_pick[i*OutW +: OutW]) == o) begin
            of_out_upd[o] = 1'b1;
            of_out_upd_idx[o*InW +: InW] = InW'(i);
          end
      end
  end
  assign if_out_upd = if_out_valid;

  for (genvar i = 0; i < NumIn; i++) begin : g_in_arb
    wormsim_rr_arbiter #(.N(NumOut)) u_if (
      .clk_i, .rst_ni,
      .req_i(if_in_req[i*NumOut +: NumOut]),
      .gnt_valid_o(if_in_valid[i]), .gnt_idx_o(if_in_pick[i*OutW +: OutW]),
      .upd_i(if_in_upd[i]), .upd_idx_i(if_in_pick[i*OutW +: OutW])
    );
    wormsim_rr_arbiter #(.N(NumOut)) u_of (
      .clk_i, .rst_ni,
      .req_i(of_in_req[i*NumOut +: NumOut]),
      .gnt_valid_o(of_in_valid[i]), .gnt_idx_o(of_in_pick[i*OutW +: OutW]),
      .upd_i(of_in_upd[i]), .upd_idx_i(of_in_pick[i*OutW +: OutW])
    );
  end

  for (genvar o = 0; o < NumOut; o++) begin : g_out_arb
    wormsim_rr_arbiter #(.N(NumIn)) u_if (
      .clk_i, .rst_ni,
      .req_i(if_out_req[o*NumIn +: NumIn]),
      .gnt_valid_o(if_out_valid[o]), .gnt_idx_o(if_out_pick[o*InW +: InW]),
      .upd_i(if_out_upd[o]), .upd_idx_i(if_out_pick[o*InW +: InW])
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
      for (int i = 0; i < NumIn; i++) begin
        if (gnt_o[i]) begin
          assert (req_i[i] && cand_i[i*NumOut + 32'(gnt_out_o[i*OutW +: OutW])] &&
                  free_i[gnt_out_o[i*OutW +: OutW]])
          else $error("vc_alloc: input VC %0d granted output VC %0d it cannot take", i,
                      gnt_out_o[i*OutW +: OutW]);
          for (int j = i + 1; j < NumIn; j++)
            assert (!(gnt_o[j] && gnt_out_o[j*OutW +: OutW] == gnt_out_o[i*OutW +: OutW]))
            else $error("vc_alloc: output VC %0d granted to input VCs %0d and %0d",
                        gnt_out_o[i*OutW +: OutW], i, j);
        end
      end
    end
  end
`endif
endmodule
