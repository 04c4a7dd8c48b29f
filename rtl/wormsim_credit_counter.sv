// Credit counter of one output VC (systemc/router/credit_counter.h): the free slots of the downstream
// VC buffer, cap_i minus the flits sent and not yet credited back (kept as that difference so
// the reset value is a constant). take_i sends a flit, give_i returns a credit; a credit
// arriving this cycle can be spent this cycle (avail_o). An unlimited counter models a
// consumer that always accepts (the NI's ejection side).
// Contracts (asserted): never sent without a credit, never more credits than cap_i.
module wormsim_credit_counter #(
  parameter int unsigned W = 9
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [W-1:0] cap_i,
  input  logic         unlimited_i,
  input  logic         give_i,
  input  logic         take_i,
  output logic         avail_o,
  output logic [W-1:0] count_o
);
  logic [W-1:0] used_q, used_d, after_give;

  assign after_give = used_q - {{(W - 1) {1'b0}}, give_i};
  assign avail_o = unlimited_i || after_give < cap_i;
  assign count_o = unlimited_i ? cap_i : cap_i - used_q;

  always_comb begin
    used_d = after_give + {{(W - 1) {1'b0}}, take_i};
    if (unlimited_i) used_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) used_q <= '0;
    else used_q <= used_d;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && !unlimited_i) begin
      assert (!(take_i && !avail_o))
      else $error("credit_counter: underflow, flit sent without a credit");
      assert (!(give_i && used_q == '0))
      else $error("credit_counter: overflow, credit returned beyond capacity %0d", cap_i);
    end
  end
`endif
endmodule
