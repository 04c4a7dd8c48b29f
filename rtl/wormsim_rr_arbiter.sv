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
  // Bit b of index i, for every i: IdxMask[b*N +: N] has bit i set when bit b of i is.
  function automatic logic [IdxW*N-1:0] idx_masks();
    idx_masks = '0;
    for (int b = 0; b < IdxW; b++)
      for (int n = 0; n < N; n++)
        if (((n >> b) & 1) != 0) idx_masks[b*N + n] = 1'b1;
  endfunction
  localparam logic [IdxW*N-1:0] IdxMask = idx_masks();

  logic [IdxW-1:0] ptr_q, ptr_d;
  logic [N-1:0]    one, after, pick, lowest;

  // Word-level: the requesters at or after the pointer if there are any, else all; the
  // lowest of them as a one-hot word, encoded through the constant index masks (no per-bit
  // loop over the requesters: docs/rtl.md, "Word-level arbiters").
  always_comb begin
    one = '0;
    one[0] = 1'b1;
    after = req_i & ~((one << ptr_q) - one);
    pick = after != '0 ? after : req_i;
    lowest = pick & (~pick + one);
    for (int b = 0; b < IdxW; b++) gnt_idx_o[b] = |(lowest & IdxMask[b*N +: N]);
  end

  assign gnt_valid_o = req_i != '0;

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
