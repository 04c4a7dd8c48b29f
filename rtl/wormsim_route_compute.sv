// Route computation for one head flit (systemc/routing/route_compute.cpp, DESIGN.md section 5):
// dimension-ordered routing on meshes and tori (order from cfg), e-cube on hypercubes
// (high-to-low or low-to-high), Hamiltonian-path routing on 2D meshes (seed 004 section 2.2,
// Fig. 1(c)), and Dally-Seitz dateline VC classes on tori: class 0 = [0, ceil(V/2)), class 1
// = [ceil(V/2), V); a head moves to class 1 on the wrap-around link of its dimension and
// back to class 0 when it turns. A head at its destination gets the ejection channels:
// all of them, or (all-port) the one of its arrival direction.
// Ports are RTL port numbers: network ports [0, NumNet), ejection ports from NumNet.
module wormsim_route_compute #(
  parameter int unsigned NumNet = 4,
  localparam int unsigned PortW = wormsim_pkg::PortW
) (
  /* verilator lint_off UNUSEDSIGNAL */
  input  wormsim_pkg::cfg_t             cfg_i,  // reads the topology and routing straps only
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [wormsim_pkg::NodeW-1:0] dst_i,
  input  logic [PortW-1:0]              in_port_i,
  input  logic [4:0]                    in_vc_i,
  output wormsim_pkg::route_t           route_o
);
  localparam int unsigned NodeW = wormsim_pkg::NodeW;
  localparam int unsigned CoordW = wormsim_pkg::CoordW;
  localparam int unsigned MaxDims = wormsim_pkg::MaxDims;

  // Coordinate d of node n (node id = x + X*(y + Y*z); a hypercube's address bits); zero in
  // dimensions the topology does not have (`used` clear), which nothing reads. The divisions
  // a stride of 1 and unused dimensions do not need are skipped: the straps are constants in
  // hardware, but a simulation model would otherwise divide on every evaluation.
  function automatic logic [CoordW-1:0] coord(logic [NodeW-1:0] n, logic cube,
                                              logic [NodeW-1:0] stride, logic [CoordW-1:0] side,
                                              logic bit_d, logic used);
    if (cube) coord = CoordW'(bit_d);
    else if (!used) coord = '0;
    else if (stride == NodeW'(1)) coord = CoordW'(n % side);
    else coord = CoordW'((n / stride) % side);
  endfunction

  // Position on the boustrophedon path of a w-wide mesh: row y left to right when y is even.
  function automatic logic [NodeW-1:0] label(logic [CoordW-1:0] w, logic [CoordW-1:0] x,
                                             logic [CoordW-1:0] y);
    label = NodeW'(y * w + (y[0] ? w - 1'b1 - x : x));
  endfunction

  logic                        cube;
  logic [MaxDims*CoordW-1:0]   here_c, dst_c;  // coordinates, dimension d at [d*CoordW +: CoordW]
  always_comb begin
    cube = cfg_i.topo == wormsim_pkg::TopoHypercube;
    for (int d = 0; d < MaxDims; d++) begin
      here_c[d*CoordW +: CoordW] = coord(cfg_i.node, cube, cfg_i.stride[d*NodeW +: NodeW],
                                         cfg_i.side[d*CoordW +: CoordW], cfg_i.node[d],
                                         32'(d) < 32'(cfg_i.dims));
      dst_c[d*CoordW +: CoordW] = coord(dst_i, cube, cfg_i.stride[d*NodeW +: NodeW],
                                        cfg_i.side[d*CoordW +: CoordW], dst_i[d],
                                        32'(d) < 32'(cfg_i.dims));
    end
  end

  logic        arrived;
  logic [PortW-1:0] port;

  always_comb begin
    logic [CoordW-1:0] x, y, w, c, t, k, fwd;
    logic [NodeW-1:0] here, target, best, nl, diff;
    logic up, found, exists;
    int d;
    arrived = 1'b1;
    port = '0;
    x = here_c[0 +: CoordW];
    y = here_c[CoordW +: CoordW];
    w = cfg_i.side[0 +: CoordW];
    here = label(w, x, y);
    target = label(w, dst_c[0 +: CoordW], dst_c[CoordW +: CoordW]);
    up = target > here;
    found = 1'b0;
    best = '0;
    nl = '0;
    exists = 1'b0;
    diff = cfg_i.node ^ dst_i;
    c = '0;
    t = '0;
    k = '0;
    fwd = '0;
    d = 0;
    if (cfg_i.hamiltonian) begin
      // The usable neighbour whose label is closest to the destination's.
      for (int p = 0; p < 4; p++) begin
        case (p)
          0: begin exists = x + 1'b1 < w;                        nl = label(w, x + 1'b1, y); end
          1: begin exists = x != '0;                             nl = label(w, x - 1'b1, y); end
          2: begin exists = y + 1'b1 < cfg_i.side[CoordW +: CoordW]; nl = label(w, x, y + 1'b1); end
          default: begin exists = y != '0;                       nl = label(w, x, y - 1'b1); end
        endcase
        if (target != here && exists &&
            (up ? (nl > here && nl <= target) : (nl < here && nl >= target)) &&
            (!found || (up ? nl > best : nl < best))) begin
          found = 1'b1;
          best = nl;
          port = PortW'(p);
        end
      end
      arrived = !found;
    end else if (cube) begin
      // High-to-low takes the highest differing address bit, low-to-high the lowest; an
      // n-cube has n network ports, so n <= NumNet.
      for (int j = 0; j < NumNet; j++) begin
        d = cfg_i.ecube_high_to_low ? NumNet - 1 - j : j;
        if (arrived && 32'(d) < 32'(cfg_i.dims) && diff[d]) begin
          arrived = 1'b0;
          port = PortW'(d);
        end
      end
    end else begin
      for (int i = 0; i < MaxDims; i++) begin
        d = 32'(cfg_i.order[i*2 +: 2]);
        c = here_c[d*CoordW +: CoordW];
        t = dst_c[d*CoordW +: CoordW];
        k = cfg_i.side[d*CoordW +: CoordW];
        fwd = t >= c ? t - c : t + k - c;
        if (arrived && 32'(i) < 32'(cfg_i.dims) && c != t) begin
          arrived = 1'b0;
          if (cfg_i.topo == wormsim_pkg::TopoMesh) port = PortW'(2 * d) + (t > c ? PortW'(0) : PortW'(1));
          else port = PortW'(2 * d) + (fwd <= k - fwd ? PortW'(0) : PortW'(1));  // ties go the + way
        end
      end
    end
  end

  always_comb begin
    logic class1, wrap, same_dim;
    logic [CoordW-1:0] c, k;
    logic [PortW-1:0] lo;
    logic [4:0] split;
    // Coordinate and side of the dimension of `port` (a hypercube's port may lie beyond
    // MaxDims; its wrap is never used).
    c = '0;
    k = '0;
    for (int d = 0; d < MaxDims; d++)
      if (32'(port) / 2 == d) begin
        c = here_c[d*CoordW +: CoordW];
        k = cfg_i.side[d*CoordW +: CoordW];
      end
    wrap = port[0] == 1'b0 ? c == k - 1'b1 : c == '0;
    same_dim = 32'(in_port_i) < NumNet && in_port_i[PortW-1:1] == port[PortW-1:1];
    split = (cfg_i.vcs + 5'd1) >> 1;
    class1 = wrap || (same_dim && in_vc_i >= split);
    lo = PortW'(NumNet);
    if (cfg_i.eject_by_direction)
      lo = lo + (32'(in_port_i) < NumNet ? in_port_i : in_port_i - PortW'(NumNet));
    route_o = '0;
    if (arrived) begin
      route_o.port_lo = lo;
      route_o.port_hi = lo + (cfg_i.eject_by_direction ? PortW'(1) : cfg_i.ejection);
      route_o.vc_lo = '0;
      route_o.vc_hi = cfg_i.vcs;
    end else begin
      route_o.port_lo = port;
      route_o.port_hi = port + PortW'(1);
      route_o.vc_lo = '0;
      route_o.vc_hi = cfg_i.vcs;
      if (cfg_i.topo == wormsim_pkg::TopoTorus && cfg_i.dateline) begin
        route_o.vc_lo = class1 ? split : '0;
        route_o.vc_hi = class1 ? cfg_i.vcs : split;
      end
    end
  end
endmodule
