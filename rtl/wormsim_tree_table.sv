// Per-node routing facts a tree worm's branching needs (systemc/routing/multicast_route.cpp, tree
// mode), for every node n < MaxNodes of the network: its coordinates and the output port the
// base routing takes from this router toward it. They depend on the straps only, so one table
// serves all input ports (wormsim_mc_route reads it). The ports come from the router's own
// route compute (one definition of dimension-ordered and e-cube routing).
module wormsim_tree_table #(
  parameter int unsigned NumNet = 4,
  parameter int unsigned MaxNodes = 128,
  localparam int unsigned CoordW = wormsim_pkg::CoordW,
  localparam int unsigned MaxDims = wormsim_pkg::MaxDims,
  localparam int unsigned NodeW = wormsim_pkg::NodeW,
  localparam int unsigned RouteW = wormsim_pkg::RouteW,
  localparam int unsigned PortW = wormsim_pkg::PortW
) (
  input  wormsim_pkg::cfg_t                  cfg_i,
  output logic [MaxNodes*MaxDims*CoordW-1:0] coord_o,  // [node][dim]
  output logic [MaxNodes*PortW-1:0]          port_o,   // [node] first hop from here
  output logic [MaxNodes-1:0]                here_o    // [node] is this router's node
);
  for (genvar n = 0; n < MaxNodes; n++) begin : g_node
    /* verilator lint_off UNUSEDSIGNAL */
    logic [RouteW-1:0] r;  // only the port is used
    /* verilator lint_on UNUSEDSIGNAL */
    wormsim_route_compute #(.NumNet(NumNet)) u_rc (
      .cfg_i,
      .dst_i(NodeW'(n)),
      .in_port_i(PortW'(0)),
      .in_vc_i(5'd0),
      .route_o(r)
    );
    assign port_o[n*PortW +: PortW] = r[wormsim_pkg::RoutePortLoLsb +: PortW];
    assign here_o[n] = 32'(cfg_i.node) == n;
    always_comb begin
      for (int d = 0; d < MaxDims; d++)
        coord_o[(n*MaxDims + d)*CoordW +: CoordW] =
            cfg_i.topo == wormsim_pkg::TopoHypercube
                ? CoordW'((n >> d) & 1)
                : CoordW'((32'(n) / 32'(cfg_i.stride[d*NodeW +: NodeW])) %
                          32'(cfg_i.side[d*CoordW +: CoordW]));
    end
  end
endmodule
