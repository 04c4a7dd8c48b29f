// Per-VC input flit buffer (systemc/router/flit_buffer.h): a FIFO of Depth entries of W bits. Every
// entry counts down the cycles until it may compete for allocation: a flit written in cycle t
// is eligible from cycle t + delay_i (delay_i = pipeline_depth - 1; docs/timing-model.md).
// The front (front_o, valid_o, ready_o) includes a flit pushed this cycle into an empty
// buffer, so with delay_i = 0 a flit can leave in the cycle it arrives, as in the C++ router.
// pop_i removes the front. NumRd read ports see any slot by its position from the front
// (rd_idx_i = 0 is the front; position count_o is a flit pushed this cycle): a replicating
// worm's branches read the flits they have not taken yet (asynchronous replication, seed 003
// section 3; docs/rtl.md). Contracts (asserted): never pushed when holding cap_i entries
// (credit protocol), never popped when empty or before the front is eligible; valid/data
// stability of the front: a front flit that is not popped is still the front, unchanged, in
// the next cycle, and a front that was eligible stays eligible.
// With HasUpd, bits [UpdLsb, W) of one stored slot (upd_slot_i, by its place in the memory,
// wr_slot_o when it was pushed) are rewritten in place (upd_i): a full path or tree router
// writes a head's route into its slot once the header flits it reads are in (docs/rtl.md,
// "Destination lists in header flits"); the front shows the new bits from the next cycle
// (the router bypasses them in the cycle of the update: front_slot_o names the front's slot).
// slot_ready_o: per slot, its entry may compete (its delay is over).
module wormsim_flit_fifo #(
  parameter int unsigned W = 8,
  parameter int unsigned Depth = 4,
  parameter int unsigned NumRd = 1,
  // 0: no branch read ports (rd_* outputs zero, rd_idx_i unread), for routers in which nothing
  // replicates.
  parameter bit HasRd = 1'b1,
  parameter bit HasUpd = 1'b0,
  parameter int unsigned UpdLsb = W - 1,
  localparam int unsigned PtrW = Depth > 1 ? $clog2(Depth) : 1,
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [8:0]      cap_i,    // depth in use (<= Depth)
  input  logic [1:0]      delay_i,  // pipeline_depth - 1
  input  logic            push_i,
  input  logic [W-1:0]    data_i,
  input  logic            pop_i,
  output logic            valid_o,
  output logic            ready_o,
  output logic [W-1:0]    front_o,
  output logic [CntW-1:0] count_o,
  input  logic [NumRd*CntW-1:0] rd_idx_i,    // [port] position from the front
  output logic [NumRd-1:0]      rd_valid_o,  // [port] a flit is at that position
  output logic [NumRd-1:0]      rd_ready_o,  // [port] ... and may compete
  output logic [NumRd*W-1:0]    rd_data_o,   // [port]
  input  logic                  upd_i,
  input  logic [PtrW-1:0]       upd_slot_i,
  input  logic [W-UpdLsb-1:0]   upd_data_i,
  output logic [PtrW-1:0]       wr_slot_o,
  output logic [PtrW-1:0]       front_slot_o,
  output logic [Depth-1:0]      slot_ready_o
);
  logic [Depth*W-1:0] mem_q;   // entry i at [i*W +: W]
  logic [Depth*2-1:0] wait_q;  // cycles until entry i is eligible, at [i*2 +: 2]
  logic [PtrW-1:0]    rd_q, wr_q;
  logic [CntW-1:0]    cnt_q;
  logic               empty, bypass;

  assign empty = cnt_q == '0;
  assign valid_o = !empty || push_i;
  // The front slot through a compare with the read pointer (see the branch read ports below).
  always_comb begin
    front_o = data_i;
    ready_o = push_i && delay_i == 2'd0;
    for (int i = 0; i < Depth; i++)
      if (!empty && 32'(rd_q) == i) begin
        front_o = mem_q[i*W +: W];
        ready_o = wait_q[i*2 +: 2] == 2'd0;
      end
  end
  assign count_o = cnt_q;
  assign wr_slot_o = wr_q;
  assign front_slot_o = rd_q;
  for (genvar i = 0; i < Depth; i++) begin : g_slot_ready
    assign slot_ready_o[i] = wait_q[i*2 +: 2] == 2'd0;
  end
  assign bypass = empty && push_i && pop_i;  // arrives and leaves in the same cycle

  // Slots are read through a compare with each slot number, not an indexed part select at a
  // run-time slot: yosys 0.23 maps that to a shifter over the whole memory vector per port,
  // and the gate-level mapping of a router with five branch read ports per buffer then ran
  // out of memory (over 20 GB; docs/rtl.md, "Wide reads through compares").
  if (HasRd) begin : g_rd
    always_comb begin
      int k, slot;
      for (int r = 0; r < NumRd; r++) begin
        k = 32'(rd_idx_i[r*CntW +: CntW]);
        slot = 32'(rd_q) + k;
        if (slot >= Depth) slot = slot - Depth;  // k <= Depth: one wrap at most
        rd_valid_o[r] = k < 32'(cnt_q) || (k == 32'(cnt_q) && push_i);
        rd_ready_o[r] = k == 32'(cnt_q) && push_i && delay_i == 2'd0;
        rd_data_o[r*W +: W] = data_i;
        for (int i = 0; i < Depth; i++) begin
          if (k < 32'(cnt_q) && slot == i) begin
            rd_ready_o[r] = wait_q[i*2 +: 2] == 2'd0;
            rd_data_o[r*W +: W] = mem_q[i*W +: W];
          end
        end
      end
    end
  end else begin : g_no_rd
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = ^rd_idx_i;
    /* verilator lint_on UNUSEDSIGNAL */
    assign rd_valid_o = '0;
    assign rd_ready_o = '0;
    assign rd_data_o = '0;
  end

  if (!HasUpd) begin : g_no_upd
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_upd;
    assign unused_upd = ^{upd_i, upd_slot_i, upd_data_i};
    /* verilator lint_on UNUSEDSIGNAL */
  end

  function automatic logic [PtrW-1:0] next_ptr(logic [PtrW-1:0] p);
    next_ptr = (32'(p) + 1 >= Depth) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_q <= '0;
      wait_q <= '0;
      rd_q <= '0;
      wr_q <= '0;
      cnt_q <= '0;
    end else begin
      // Slots are written through a compare with the write pointer, not an indexed part
      // select: yosys 0.23 maps a variable-index write to a shifter over the whole vector.
      for (int i = 0; i < Depth; i++) begin
        if (wait_q[i*2 +: 2] != 2'd0) wait_q[i*2 +: 2] <= wait_q[i*2 +: 2] - 2'd1;
        if (push_i && !bypass && 32'(wr_q) == i) begin
          mem_q[i*W +: W] <= data_i;
          wait_q[i*2 +: 2] <= delay_i == 2'd0 ? 2'd0 : delay_i - 2'd1;
        end
        if (HasUpd && upd_i && 32'(upd_slot_i) == i) mem_q[i*W + UpdLsb +: W - UpdLsb] <= upd_data_i;
      end
      if (push_i && !bypass) wr_q <= next_ptr(wr_q);
      if (pop_i && !bypass) rd_q <= next_ptr(rd_q);
      cnt_q <= cnt_q + CntW'(push_i && !bypass) - CntW'(pop_i && !bypass);
    end
  end

`ifndef SYNTHESIS
  // The front as it was offered in the previous cycle, if it was not popped.
  logic         held_q, held_ready_q, held_upd_q;
  logic [W-1:0] held_front_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q <= 1'b0;
      held_ready_q <= 1'b0;
      held_upd_q <= 1'b0;
      held_front_q <= '0;
    end else begin
      held_q <= valid_o && !pop_i;
      held_ready_q <= ready_o;
      held_upd_q <= HasUpd && upd_i;
      held_front_q <= front_o;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (held_q) begin
        // An in-place update (HasUpd) changes the front's upper bits from the next cycle.
        assert (valid_o && (front_o == held_front_q ||
                            (held_upd_q && front_o[UpdLsb-1:0] == held_front_q[UpdLsb-1:0])))
        else $error("flit_fifo: the front flit changed or vanished without a pop");
        assert (!held_ready_q || ready_o)
        else $error("flit_fifo: an eligible front flit became ineligible");
      end
      assert (!(push_i && 32'(cnt_q) >= 32'(cap_i)))
      else $error("flit_fifo: overflow, pushed into a full buffer (credit protocol violated)");
      assert (!(pop_i && !valid_o)) else $error("flit_fifo: underflow, popped an empty buffer");
      assert (!(pop_i && !ready_o)) else $error("flit_fifo: popped a flit still in the pipeline");
    end
  end
`endif
endmodule
