// Crossbar (systemc/router/crossbar.h): output o carries the flit of input sel_i[o] when
// sel_valid_i[o]. Contract (asserted): an input drives at most one output per cycle (unicast
// routers; a replicating router would allow one input on several outputs).
module wormsim_crossbar #(
  parameter int unsigned NumIn = 4,
  parameter int unsigned NumOut = 4,
  parameter int unsigned W = 8,
  localparam int unsigned SelW = NumIn > 1 ? $clog2(NumIn) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [NumIn*W-1:0]     data_i,       // [in]
  input  logic [NumOut-1:0]      sel_valid_i,  // [out]
  input  logic [NumOut*SelW-1:0] sel_i,        // [out]
  output logic [NumOut-1:0]      valid_o,
  output logic [NumOut*W-1:0]    data_o        // [out]
);
  always_comb begin
    for (int o = 0; o < NumOut; o++) begin
      valid_o[o] = sel_valid_i[o];
      // A compare per input, not a part select at a run-time index (a shifter in yosys).
      data_o[o*W +: W] = '0;
      for (int i = 0; i < NumIn; i++)
        if (sel_valid_i[o] && 32'(sel_i[o*SelW +: SelW]) == i) data_o[o*W +: W] = data_i[i*W +: W];
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int o = 0; o < NumOut; o++) begin
        if (sel_valid_i[o]) begin
          assert (32'(sel_i[o*SelW +: SelW]) < NumIn)
          else $error("crossbar: output %0d selects input %0d", o, sel_i[o*SelW +: SelW]);
          for (int q = o + 1; q < NumOut; q++)
            assert (!(sel_valid_i[q] && sel_i[q*SelW +: SelW] == sel_i[o*SelW +: SelW]))
            else $error("crossbar: input %0d drives outputs %0d and %0d", sel_i[o*SelW +: SelW], o, q);
        end
      end
    end
  end
`endif
endmodule
