// Testbench-only (testbenches/cosim/rtl_flit_test.cpp): the package's flit_t taken apart and put
// together, so that the C++ packing (systemc/cosim/rtl_flit.h) can be checked against the layout
// SystemVerilog gives the struct. flit_i comes out field by field (and through the package's
// bit offsets and helper functions); the separate fields *_i come back as one flit_o.
// Written in the style of rtl/ (wormsim_pkg.sv): no `import`, package items by full name.
module wormsim_flit_loopback (
  // Disassembler.
  input  wormsim_pkg::flit_t                 flit_i,
  output logic [1:0]                         typ_o,
  output logic [wormsim_pkg::VcW-1:0]        vc_o,
  output logic [wormsim_pkg::PktW-1:0]       pkt_o,
  output logic [wormsim_pkg::IdxW-1:0]       idx_o,
  output logic [wormsim_pkg::NodeW-1:0]      src_o,
  output logic [wormsim_pkg::NodeW-1:0]      dst_o,
  output logic [wormsim_pkg::DataW-1:0]      data_o,
  output logic                               mc_o,
  output logic [wormsim_pkg::HlenW-1:0]      hlen_o,
  output logic                               more_o,
  output logic [wormsim_pkg::MposW-1:0]      mpos_o,
  output logic                               is_head_o,
  output logic                               is_tail_o,
  // The same fields through the package's offsets into the flat flit (as rtl/ slices them).
  output logic [1:0]                         typ_at_lsb_o,
  output logic [wormsim_pkg::VcW-1:0]        vc_at_lsb_o,
  output logic [wormsim_pkg::NodeW-1:0]      dst_at_lsb_o,
  output logic [wormsim_pkg::NodeW-1:0]      src_at_lsb_o,
  output logic [wormsim_pkg::PktW-1:0]       pkt_at_lsb_o,
  output logic [wormsim_pkg::MposW-1:0]      mpos_at_lsb_o,
  output logic                               mc_at_lsb_o,
  output logic [wormsim_pkg::HlenW-1:0]      hlen_at_lsb_o,
  output logic                               more_at_lsb_o,
  output logic [31:0]                        flit_w_o,
  // Assembler.
  input  logic [1:0]                         typ_i,
  input  logic [wormsim_pkg::VcW-1:0]        vc_i,
  input  logic [wormsim_pkg::PktW-1:0]       pkt_i,
  input  logic [wormsim_pkg::IdxW-1:0]       idx_i,
  input  logic [wormsim_pkg::NodeW-1:0]      src_i,
  input  logic [wormsim_pkg::NodeW-1:0]      dst_i,
  input  logic [wormsim_pkg::DataW-1:0]      data_i,
  input  logic                               mc_i,
  input  logic [wormsim_pkg::HlenW-1:0]      hlen_i,
  input  logic                               more_i,
  input  logic [wormsim_pkg::MposW-1:0]      mpos_i,
  output wormsim_pkg::flit_t                 flit_o
);
  assign typ_o = flit_i.typ;
  assign vc_o = flit_i.vc;
  assign pkt_o = flit_i.pkt;
  assign idx_o = flit_i.idx;
  assign src_o = flit_i.src;
  assign dst_o = flit_i.dst;
  assign data_o = flit_i.data;
  assign mc_o = flit_i.mc;
  assign hlen_o = flit_i.hlen;
  assign more_o = flit_i.more;
  assign mpos_o = flit_i.mpos;
  assign is_head_o = wormsim_pkg::is_head(flit_i.typ);
  assign is_tail_o = wormsim_pkg::is_tail(flit_i.typ);

  assign typ_at_lsb_o = flit_i[wormsim_pkg::FlitTypLsb +: 2];
  assign vc_at_lsb_o = flit_i[wormsim_pkg::FlitVcLsb +: wormsim_pkg::VcW];
  assign dst_at_lsb_o = flit_i[wormsim_pkg::FlitDstLsb +: wormsim_pkg::NodeW];
  assign src_at_lsb_o = flit_i[wormsim_pkg::FlitSrcLsb +: wormsim_pkg::NodeW];
  assign pkt_at_lsb_o = flit_i[wormsim_pkg::FlitPktLsb +: wormsim_pkg::PktW];
  assign mpos_at_lsb_o = flit_i[wormsim_pkg::FlitMposLsb +: wormsim_pkg::MposW];
  assign mc_at_lsb_o = flit_i[wormsim_pkg::FlitMcLsb];
  assign hlen_at_lsb_o = flit_i[wormsim_pkg::FlitHlenLsb +: wormsim_pkg::HlenW];
  assign more_at_lsb_o = flit_i[wormsim_pkg::FlitMoreLsb];
  assign flit_w_o = 32'(wormsim_pkg::FlitW);

  always_comb begin
    flit_o = '0;
    flit_o.typ = wormsim_pkg::flit_type_e'(typ_i);
    flit_o.vc = vc_i;
    flit_o.pkt = pkt_i;
    flit_o.idx = idx_i;
    flit_o.src = src_i;
    flit_o.dst = dst_i;
    flit_o.data = data_i;
    flit_o.mc = mc_i;
    flit_o.hlen = hlen_i;
    flit_o.more = more_i;
    flit_o.mpos = mpos_i;
  end
endmodule
