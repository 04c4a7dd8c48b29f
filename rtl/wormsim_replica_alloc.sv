// Allocation for replicating worms (systemc/router/router.cpp allocate_replica_vcs and
// allocate_replica_switch; docs/multidestination.md). Runs before the single-output
// allocators, which get what it leaves.
//  - VCs: a replicating head takes an output VC on every branch at once or none, each the
//    first free VC of its branch's candidates (port-major), so two worms never hold parts of
//    each other's branches at one router.
//  - Switch: a replicating worm claims its input port and the output ports of its branches
//    that send. Asynchronous replication: every branch whose next flit is present, eligible
//    and has a credit sends it. Synchronous: the front flit goes to all live branches in the
//    same cycle or to none (seed 003 section 3, both replication handshakes).
// Requesters are served in round-robin order of their input VCs, from a pointer per
// allocation that moves past the first one served in a cycle with a grant.
module wormsim_replica_alloc #(
  parameter int unsigned NumIn = 8,   // input ports
  parameter int unsigned NumOut = 8,  // output ports
  parameter int unsigned NumVcs = 4,
  parameter int unsigned NumBr = 5,   // branch slots per input VC
  localparam int unsigned NumInVc = NumIn * NumVcs,
  localparam int unsigned NumOutVc = NumOut * NumVcs,
  localparam int unsigned PtrW = $clog2(NumInVc + 1),
  localparam int unsigned InW = NumIn > 1 ? $clog2(NumIn) : 1,
  localparam int unsigned OutW = NumOut > 1 ? $clog2(NumOut) : 1,
  localparam int unsigned VcIdxW = NumVcs > 1 ? $clog2(NumVcs) : 1,
  localparam int unsigned RouteW = wormsim_pkg::RouteW,
  localparam int unsigned PortW = wormsim_pkg::PortW
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            sync_i,
  // VC allocation
  input  logic [NumInVc-1:0]              va_req_i,    // [in VC] replicating head waits
  input  logic [NumInVc*NumBr-1:0]        va_br_i,     // [in VC][slot] branch exists
  input  logic [NumInVc*NumBr*RouteW-1:0] va_route_i,  // [in VC][slot] its candidates
  input  logic [NumOutVc-1:0]             own_i,       // [out VC] held
  output logic [NumInVc-1:0]              va_gnt_o,
  output logic [NumInVc*NumBr*PortW-1:0]      va_port_o,   // [in VC][slot] output port granted
  output logic [NumInVc*NumBr*VcIdxW-1:0] va_vc_o,     // [in VC][slot] output VC granted
  output logic [NumOutVc-1:0]             va_taken_o,  // [out VC] granted here
  // Switch allocation
  input  logic [NumInVc-1:0]              sa_req_i,    // [in VC] replicating worm
  input  logic [NumInVc*NumBr-1:0]        sa_live_i,   // [in VC][slot] branch not done
  input  logic [NumInVc*NumBr-1:0]        sa_ok_i,     // [in VC][slot] its flit can go
  input  logic [NumInVc*NumBr*PortW-1:0]      sa_port_i,   // [in VC][slot] its output port
  output logic [NumInVc*NumBr-1:0]        sa_gnt_o,    // [in VC][slot] sends this cycle
  output logic [NumIn-1:0]                in_taken_o,
  output logic [NumOut-1:0]               out_taken_o
);
  logic [PtrW-1:0] va_ptr_q, va_ptr_d, sa_ptr_q, sa_ptr_d;

  // VC allocation, requesters at or after the pointer first (k < NumInVc), then the rest.
  always_comb begin
    logic [NumOutVc-1:0] taken;
    logic [NumBr*PortW-1:0] port;
    logic [NumBr*VcIdxW-1:0] vc;
    logic [RouteW-1:0] r;
    logic all, found, first;
    int i;
    taken = own_i;
    port = '0;
    vc = '0;
    r = '0;
    all = 1'b0;
    found = 1'b0;
    i = 0;
    va_gnt_o = '0;
    va_port_o = '0;
    va_vc_o = '0;
    va_ptr_d = va_ptr_q;
    first = 1'b1;
    for (int k = 0; k < 2 * NumInVc; k++) begin
      i = k % NumInVc;
      if (va_req_i[i] && ((k < NumInVc) == (32'(va_ptr_q) <= i))) begin
        all = 1'b1;
        port = '0;
        vc = '0;
        for (int b = 0; b < NumBr; b++) begin
          r = va_route_i[(i*NumBr + b)*RouteW +: RouteW];
          found = 1'b0;
          for (int o = 0; o < NumOut; o++)
            for (int v = 0; v < NumVcs; v++)
              if (!found && !taken[o*NumVcs + v] &&
                  32'(o) >= 32'(r[wormsim_pkg::RoutePortLoLsb +: PortW]) &&
                  32'(o) < 32'(r[wormsim_pkg::RoutePortHiLsb +: PortW]) &&
                  32'(v) >= 32'(r[wormsim_pkg::RouteVcLoLsb +: 5]) &&
                  32'(v) < 32'(r[wormsim_pkg::RouteVcHiLsb +: 5])) begin
                found = 1'b1;
                port[b*PortW +: PortW] = PortW'(o);
                vc[b*VcIdxW +: VcIdxW] = VcIdxW'(v);
              end
          if (va_br_i[i*NumBr + b] && !found) all = 1'b0;
        end
        if (all) begin
          va_gnt_o[i] = 1'b1;
          va_port_o[i*NumBr*PortW +: NumBr*PortW] = port;
          va_vc_o[i*NumBr*VcIdxW +: NumBr*VcIdxW] = vc;
          for (int b = 0; b < NumBr; b++)
            if (va_br_i[i*NumBr + b])
              taken[32'(port[b*PortW +: PortW])*NumVcs + 32'(vc[b*VcIdxW +: VcIdxW])] = 1'b1;
          if (first) va_ptr_d = PtrW'(i + 1);
          first = 1'b0;
        end
      end
    end
    va_taken_o = taken & ~own_i;
  end

  // Switch allocation, same order.
  always_comb begin
    logic [NumBr-1:0] granted;
    logic [NumOut-1:0] outs;
    logic all, ok, first;
    int i;
    logic [InW-1:0] p;
    granted = '0;
    outs = '0;
    all = 1'b0;
    ok = 1'b0;
    i = 0;
    p = 0;
    sa_gnt_o = '0;
    in_taken_o = '0;
    out_taken_o = '0;
    sa_ptr_d = sa_ptr_q;
    first = 1'b1;
    for (int k = 0; k < 2 * NumInVc; k++) begin
      i = k % NumInVc;
      p = InW'(i / NumVcs);
      if (sa_req_i[i] && ((k < NumInVc) == (32'(sa_ptr_q) <= i)) && !in_taken_o[p]) begin
        granted = '0;
        outs = '0;
        all = 1'b1;
        for (int b = 0; b < NumBr; b++)
          if (sa_live_i[i*NumBr + b]) begin
            ok = sa_ok_i[i*NumBr + b] &&
                 !out_taken_o[OutW'(sa_port_i[(i*NumBr + b)*PortW +: PortW])];
            if (ok) begin
              granted[b] = 1'b1;
              outs[OutW'(sa_port_i[(i*NumBr + b)*PortW +: PortW])] = 1'b1;
            end else begin
              all = 1'b0;
            end
          end
        if (granted != '0 && (!sync_i || all)) begin
          sa_gnt_o[i*NumBr +: NumBr] = granted;
          in_taken_o[p] = 1'b1;
          out_taken_o = out_taken_o | outs;
          if (first) sa_ptr_d = PtrW'(i + 1);
          first = 1'b0;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      va_ptr_q <= '0;
      sa_ptr_q <= '0;
    end else begin
      va_ptr_q <= va_ptr_d;
      sa_ptr_q <= sa_ptr_d;
    end
  end

`ifndef SYNTHESIS
  // Contracts: a grant gives every branch an output VC nobody held; branches granted the
  // switch in one cycle use distinct output ports.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int i = 0; i < NumInVc; i++)
        for (int b = 0; b < NumBr; b++)
          if (va_gnt_o[i] && va_br_i[i*NumBr + b])
            assert (!own_i[32'(va_port_o[(i*NumBr + b)*PortW +: PortW])*NumVcs +
                           32'(va_vc_o[(i*NumBr + b)*VcIdxW +: VcIdxW])])
            else $error("replica_alloc: input VC %0d branch %0d granted a held output VC", i, b);
    end
  end
`endif
endmodule
