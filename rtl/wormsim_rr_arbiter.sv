// Round-robin arbiter over N requesters (systemc/router/round_robin_arbiter.h): the grant goes to
// the first requester at or after the priority pointer, wrapping; `upd_i` moves the pointer
// just past `upd_idx_i`. Separable allocators update only for grants that survive both
// stages, so the winner to record is an input, not necessarily this arbiter's own pick.
// Contract: a requester that keeps requesting is granted within N updates that pass it.
module wormsim_rr_arbiter #(
  parameter int unsigned N = 4,
  localparam int unsigned IdxW = N > 1 ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  output logic            gnt_valid_o,
  output logic [IdxW-1:0] gnt_idx_o,
  input  logic            upd_i,
  input  logic [IdxW-1:0] upd_idx_i
);
  logic [IdxW-1:0] ptr_q, ptr_d;
  logic            found_after;
  logic [IdxW-1:0] idx_after, idx_first;

  // Lowest requester at or after the pointer, and lowest overall.
  always_comb begin
    found_after = 1'b0;
    idx_after = '0;
    idx_first = '0;
    for (int k = N - 1; k >= 0; k--) begin
      if (req_i[k]) idx_first = IdxW'(k);
      if (req_i[k] && 32'(k) >= 32'(ptr_q)) begin
        found_after = 1'b1;
        idx_after = IdxW'(k);
      end
    end
  end

  assign gnt_valid_o = req_i != '0;
  assign gnt_idx_o = found_after ? idx_after : idx_first;

  always_comb begin
    ptr_d = ptr_q;
    if (upd_i) ptr_d = (32'(upd_idx_i) + 1 >= N) ? '0 : upd_idx_i + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= '0;
    else ptr_q <= ptr_d;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && upd_i) begin
      assert (32'(upd_idx_i) < N)
      else $error("rr_arbiter: update index %0d out of range %0d", upd_idx_i, N);
    end
  end
`endif
endmodule
