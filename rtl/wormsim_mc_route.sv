// Routing of one flit written into an input buffer (systemc/router/router.cpp allocate_vcs,
// systemc/routing/multicast_route.cpp; DESIGN.md section 4). A unicast head, and a multidestination
// head with one output here, get one route (route_o). A multidestination head that is
// absorbed and forwarded or replicated here gets branches (multi_o): slot p < NumNet is the
// branch on network port p, slot NumNet the branch into the node (ejection); each carries
// its route and the header it stamps on its flits (current target, path position).
//  - path (intermediate reception, seed 003 section 1, seed 004 section 2.2): the worm heads
//    for its current target (dst); at the target it is ejected and, unless the target was
//    the last in its list, forwarded toward the next one, read from the list (an
//    address_list in path order; entry mpos + 1 exists when the head's hlen covers it).
//  - tree: branches to every port the dimension-ordered routes from the source to its
//    destinations take from here, each branch stamped with the first such destination, plus
//    the ejection channel when this node is a destination; the destination set is the list
//    (a bit_string, or an address_list decoded into one).
// The list (list_i, wormsim_pkg HdrW) is the head flit's data bits, or, for a list longer
// than the head flit, the header flits' data bits collected by wormsim_router (docs/rtl.md,
// "Destination lists in header flits"); the head's other fields come from flit_i.
// Ports are RTL port numbers (network [0, NumNet), ejection from NumNet).
module wormsim_mc_route #(
  parameter int unsigned NumNet = 4,
  parameter int unsigned MaxNodes = 64,  // tree worms: nodes a destination set holds (<= ListW)
  parameter int unsigned HdrW = wormsim_pkg::HdrW,  // list bits (list_i)
  parameter bit Path = 1'b1,              // hardware for path worms
  parameter bit Tree = 1'b1,              // hardware for tree worms
  // Branch slots: NumNet + 1 with multidestination hardware, else one constant slot (as
  // wormsim_router's NumBr).
  localparam int unsigned NumBr = (Path || Tree) ? NumNet + 1 : 1,
  localparam int unsigned NodeW = wormsim_pkg::NodeW,
  localparam int unsigned CoordW = wormsim_pkg::CoordW,
  localparam int unsigned MaxDims = wormsim_pkg::MaxDims,
  localparam int unsigned RouteW = wormsim_pkg::RouteW,
  localparam int unsigned MposW = wormsim_pkg::MposW,
  localparam int unsigned FlitW = wormsim_pkg::FlitW,
  localparam int unsigned PortW = wormsim_pkg::PortW,
  localparam int unsigned BrW = 1 + RouteW + NodeW + MposW
) (
  input  wormsim_pkg::cfg_t                  cfg_i,
  input  logic [FlitW-1:0]                   flit_i,   // wormsim_pkg::flit_t
  input  logic [HdrW-1:0]                    list_i,   // its destination list
  input  logic [PortW-1:0]                   in_port_i,
  // wormsim_tree_table of this router (unused without Tree)
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [MaxNodes*MaxDims*CoordW-1:0] coord_i,
  input  logic [MaxNodes*PortW-1:0]          port_i,
  input  logic [MaxNodes-1:0]                here_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [RouteW-1:0]                  route_o,  // wormsim_pkg::route_t
  output logic                               multi_o,
  // [slot] {valid, route, dst, mpos}, see wormsim_router's Br*Lsb
  output logic [NumBr*BrW-1:0]               br_o,
  output logic                               lost_o    // tree head that leads nowhere
);
  localparam int unsigned SrcW = MaxNodes > 1 ? $clog2(MaxNodes) : 1;

  logic [NodeW-1:0] dst, next, aux_dst, addr_mask;
  logic [MposW-1:0] mpos;
  logic [HdrW-1:0]  list;
  logic [wormsim_pkg::HlenW-1:0] hlen;
  logic [4:0]       in_vc;
  logic             mc, path, tree;
  assign dst = flit_i[wormsim_pkg::FlitDstLsb +: NodeW];
  assign mpos = flit_i[wormsim_pkg::FlitMposLsb +: MposW];
  assign list = list_i;
  assign hlen = flit_i[wormsim_pkg::FlitHlenLsb +: wormsim_pkg::HlenW];
  assign addr_mask = NodeW'((32'd1 << cfg_i.list_addr_w) - 1);
  assign in_vc = 5'(flit_i[wormsim_pkg::FlitVcLsb +: wormsim_pkg::VcW]);
  assign mc = flit_i[wormsim_pkg::FlitMcLsb] && wormsim_pkg::is_head(flit_i[wormsim_pkg::FlitTypLsb +: 2]);
  assign path = Path && mc && cfg_i.multidest == wormsim_pkg::McPath;
  assign tree = Tree && mc && cfg_i.multidest == wormsim_pkg::McTree;

  // Path: the next target after dst, if listed: entry mpos + 1 of the address list, when the
  // list's length (hlen bits) covers it.
  logic has_next;
  always_comb begin
    logic [31:0] at;
    at = (32'(mpos) + 1) * 32'(cfg_i.list_addr_w);
    next = NodeW'(list >> at) & addr_mask;
    has_next = 32'(mpos) + 1 < wormsim_pkg::MaxPath && at + 32'(cfg_i.list_addr_w) <= 32'(hlen);
    if (!has_next) next = '0;
  end
  // Second route: the path's next target, or (tree) this node, for the ejection route.
  assign aux_dst = tree ? cfg_i.node : next;

  logic [RouteW-1:0] route0, route_aux;
  wormsim_route_compute #(.NumNet(NumNet)) u_rc0 (
    .cfg_i, .dst_i(dst), .in_port_i, .in_vc_i(in_vc), .route_o(route0)
  );
  if (Path || Tree) begin : g_rc_aux
    wormsim_route_compute #(.NumNet(NumNet)) u_rc_aux (
      .cfg_i, .dst_i(aux_dst), .in_port_i, .in_vc_i(in_vc), .route_o(route_aux)
    );
  end else begin : g_no_rc_aux
    // Unicast only: no second route (a simulation model would evaluate it every cycle).
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = ^aux_dst;
    /* verilator lint_on UNUSEDSIGNAL */
    assign route_aux = '0;
  end

  // Tree: destinations whose base route from the source passes here, by first-hop port.
  logic [NumNet-1:0]        tree_valid;
  logic [NumNet*NodeW-1:0]  tree_dst;
  logic                     tree_eject;
  logic [NumNet*RouteW-1:0] tree_route;
  if (Tree) begin : g_tree
    logic [NodeW-1:0] src;
    assign src = flit_i[wormsim_pkg::FlitSrcLsb +: NodeW];
    // The worm's destination set: the bit-string, or the address list's entries (up to
    // MaxPath, as many as its hlen bits hold).
    logic [MaxNodes-1:0] members;
    always_comb begin
      logic [NodeW-1:0] a;
      a = '0;
      members = '0;
      if (cfg_i.list_bit_string) begin
        members = list[MaxNodes-1:0];
      end else begin
        for (int k = 0; k < wormsim_pkg::MaxPath; k++) begin
          a = NodeW'(list >> (32'(k) * 32'(cfg_i.list_addr_w))) & addr_mask;
          if ((32'(k) + 1) * 32'(cfg_i.list_addr_w) <= 32'(hlen) && 32'(a) < MaxNodes)
            members[SrcW'(a)] = 1'b1;
        end
      end
    end
    logic [MaxNodes-1:0]      on_route;
    always_comb begin
      logic [MaxDims*CoordW-1:0] sc, hc, dc;
      logic [CoordW-1:0] s, h, t, k, fwd_st, fwd_sh, bwd_st, bwd_sh;
      logic [NodeW-1:0] x, diff, mask;
      logic ok, hit;
      int dj;
      x = '0; diff = '0; mask = '0; ok = 1'b0; dj = 0;
      s = '0; h = '0; t = '0; k = '0; fwd_st = '0; fwd_sh = '0; bwd_st = '0; bwd_sh = '0;
      on_route = '0;
      sc = coord_i[32'(SrcW'(src))*MaxDims*CoordW +: MaxDims*CoordW];
      hc = coord_i[32'(SrcW'(cfg_i.node))*MaxDims*CoordW +: MaxDims*CoordW];
      for (int n = 0; n < MaxNodes; n++) begin
        dc = coord_i[n*MaxDims*CoordW +: MaxDims*CoordW];
        hit = 1'b0;
        if (cfg_i.topo == wormsim_pkg::TopoHypercube) begin
          // e-cube: here differs from the source in a prefix (in resolution order) of the
          // address bits in which the destination differs.
          x = cfg_i.node ^ src;
          diff = src ^ NodeW'(n);
          for (int b = 0; b <= NumNet; b++) begin
            mask = NodeW'((32'd1 << b) - 1);
            if (cfg_i.ecube_high_to_low) mask = ~mask;
            if (x == (diff & mask)) hit = 1'b1;
          end
        end else begin
          // Dimension order: in some phase, the dimensions resolved before it hold the
          // destination's coordinates, those after it the source's, and this dimension's
          // coordinate lies on the source-to-destination segment taken.
          for (int ph = 0; ph < MaxDims; ph++) begin
            ok = 32'(ph) < 32'(cfg_i.dims);
            for (int j = 0; j < MaxDims; j++) begin
              dj = 32'(cfg_i.order[j*2 +: 2]);
              s = sc[dj*CoordW +: CoordW];
              h = hc[dj*CoordW +: CoordW];
              t = dc[dj*CoordW +: CoordW];
              k = cfg_i.side[dj*CoordW +: CoordW];
              fwd_st = t >= s ? t - s : t + k - s;
              fwd_sh = h >= s ? h - s : h + k - s;
              bwd_st = s >= t ? s - t : s + k - t;
              bwd_sh = s >= h ? s - h : s + k - h;
              if (32'(j) < 32'(cfg_i.dims)) begin
                if (j < ph) ok = ok && h == t;
                else if (j > ph) ok = ok && h == s;
                else if (cfg_i.topo == wormsim_pkg::TopoTorus)
                  ok = ok && (fwd_st <= k - fwd_st ? fwd_sh <= fwd_st : bwd_sh <= bwd_st);
                else
                  ok = ok && (s <= t ? (s <= h && h <= t) : (t <= h && h <= s));
              end
            end
            if (ok) hit = 1'b1;
          end
        end
        on_route[n] = hit;
      end
    end

    always_comb begin
      tree_valid = '0;
      tree_dst = '0;
      tree_eject = 32'(cfg_i.node) < MaxNodes && members[SrcW'(cfg_i.node)];
      // Highest node first, so the lowest-numbered destination of each port wins (the C++
      // header lists tree destinations in ascending order).
      for (int n = MaxNodes - 1; n >= 0; n--)
        if (members[n] && on_route[n] && !here_i[n] && 32'(port_i[n*PortW +: PortW]) < NumNet) begin
          for (int p = 0; p < NumNet; p++)
            if (32'(port_i[n*PortW +: PortW]) == p) begin
              tree_valid[p] = 1'b1;
              tree_dst[p*NodeW +: NodeW] = NodeW'(n);
            end
        end
    end

    for (genvar p = 0; p < NumNet; p++) begin : g_tree_rc
      wormsim_route_compute #(.NumNet(NumNet)) u_rc (
        .cfg_i, .dst_i(tree_dst[p*NodeW +: NodeW]), .in_port_i, .in_vc_i(in_vc),
        .route_o(tree_route[p*RouteW +: RouteW])
      );
    end
  end else begin : g_no_tree
    assign tree_valid = '0;
    assign tree_dst = '0;
    assign tree_eject = 1'b0;
    assign tree_route = '0;
  end

  function automatic logic [BrW-1:0] branch(logic v, logic [RouteW-1:0] r, logic [NodeW-1:0] d,
                                            logic [MposW-1:0] m);
    branch = {v, r, d, m};
  endfunction

  // Every slot, [network port p, then ejection]; br_o is all of them when branches are built.
  logic [(NumNet+1)*BrW-1:0] br_all;
  always_comb begin
    int count;
    route_o = route0;
    multi_o = 1'b0;
    br_all = '0;
    lost_o = 1'b0;
    count = 0;
    if (path && has_next && 32'(route0[wormsim_pkg::RoutePortLoLsb +: PortW]) >= NumNet) begin
      // Absorb and forward.
      multi_o = 1'b1;
      br_all[NumNet*BrW +: BrW] = branch(1'b1, route0, cfg_i.node, mpos);
      for (int p = 0; p < NumNet; p++)
        if (32'(route_aux[wormsim_pkg::RoutePortLoLsb +: PortW]) == p)
          br_all[p*BrW +: BrW] = branch(1'b1, route_aux, next, mpos + 1'b1);
    end else if (tree) begin
      count = 32'(tree_eject);
      for (int p = 0; p < NumNet; p++) count += 32'(tree_valid[p]);
      lost_o = count == 0;
      if (count == 1) begin
        route_o = route_aux;
        for (int p = 0; p < NumNet; p++)
          if (tree_valid[p]) route_o = tree_route[p*RouteW +: RouteW];
      end else begin
        multi_o = count > 1;
        br_all[NumNet*BrW +: BrW] = branch(tree_eject, route_aux, cfg_i.node, '0);
        for (int p = 0; p < NumNet; p++)
          br_all[p*BrW +: BrW] = branch(tree_valid[p], tree_route[p*RouteW +: RouteW],
                                        tree_dst[p*NodeW +: NodeW], '0);
      end
    end
  end

  if (Path || Tree) begin : g_br
    assign br_o = br_all;
  end else begin : g_no_br
    // Unicast only: br_all is constant zero and the router keeps one unused slot.
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = ^br_all;
    /* verilator lint_on UNUSEDSIGNAL */
    assign br_o = '0;
  end
endmodule
