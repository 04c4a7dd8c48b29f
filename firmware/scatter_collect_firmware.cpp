// Scatter-Collect broadcast (seed 000 section 5.3, Fig. 5.6, Table 5.2) on a 2D mesh: the
// phases of fw::ScatterCollect (scatter_collect.h) run by every node. "Row" is a line in the
// first resolved dimension. Each message's tag is its phase step (ScatterCollect::tag); a
// node starts a phase as soon as it holds what the phase sends (no barrier between phases),
// so messages of a later phase may arrive early and wait in the mailbox.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "collective.h"
#include "mailbox.h"
#include "scatter_collect.h"

namespace wormsim::fw {

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes slice(const Bytes& msg, std::uint64_t begin, std::uint64_t end) {
  return {msg.begin() + static_cast<std::ptrdiff_t>(begin),
          msg.begin() + static_cast<std::ptrdiff_t>(end)};
}

void place(Bytes& msg, std::uint64_t begin, const Bytes& part) {
  if (begin + part.size() > msg.size())
    throw std::logic_error("scatter_collect: a part of " + std::to_string(part.size()) +
                           " bytes at " + std::to_string(begin) + " overruns the message");
  std::copy(part.begin(), part.end(), msg.begin() + static_cast<std::ptrdiff_t>(begin));
}

int ring_index(const std::vector<int>& ring, int pos) {
  return static_cast<int>(std::find(ring.begin(), ring.end(), pos) - ring.begin());
}

}  // namespace

void run_scatter_collect(Runtime& rt, const Operation& op, const Bytes& data,
                         const Deliver& deliver, const FirmwareTables& tables) {
  const Topology& topo = rt.topology();
  const int dx = tables.resolution_order.at(0), dy = tables.resolution_order.at(1);
  const NodeId self = rt.id();
  const int x = rt.coordinate(self, dx), y = rt.coordinate(self, dy);
  const ScatterCollect sc(topo.side(dx), topo.side(dy), rt.coordinate(op.root, dx),
                          rt.coordinate(op.root, dy), op.bytes);
  const auto node = [&](int cx, int cy) {
    std::vector<int> c(2);
    c[static_cast<std::size_t>(dx)] = cx;
    c[static_cast<std::size_t>(dy)] = cy;
    return topo.node_at(c);
  };
  Mailbox mb(rt);
  Bytes msg = self == op.root ? data : Bytes(op.bytes);

  // Phases 1 and 2: scatter along the root's row, then down every column.
  const auto scatter = [&](int phase, const std::vector<LineScatterSend>& sends, int me,
                           const auto& at, const auto& range_begin) {
    for (const LineScatterSend& s : sends)
      if (s.to == me) {
        Message m = mb.take(at(s.from), sc.tag(phase, s.step));
        place(msg, range_begin(s.lo), m.data);
      }
    for (const LineScatterSend& s : sends)
      if (s.from == me)
        rt.send(at(s.to), slice(msg, range_begin(s.lo), range_begin(s.hi)), sc.tag(phase, s.step));
  };
  if (y == sc.root_y())
    scatter(
        1, sc.row_scatter(), x, [&](int p) { return node(p, y); },
        [&](int p) { return sc.segment_begin(p); });
  scatter(
      2, sc.column_scatter(), y, [&](int p) { return node(x, p); },
      [&](int p) { return sc.piece_begin(x, p); });

  // Phase 3: row ring; in step j a node passes on the piece it got in step j - 1 (its own in
  // step 1).
  const std::vector<int>& rr = sc.row_ring();
  const int c = sc.cols(), q = ring_index(rr, x);
  for (int j = 1; j < c; ++j) {
    const int out = rr[static_cast<std::size_t>(((q - j + 1) % c + c) % c)];
    const int in = rr[static_cast<std::size_t>(((q - j) % c + c) % c)];
    rt.send(node(rr[static_cast<std::size_t>((q + 1) % c)], y),
            slice(msg, sc.piece_begin(out, y), sc.piece_begin(out, y + 1)), sc.tag(3, j));
    Message m = mb.take(node(rr[static_cast<std::size_t>((q + c - 1) % c)], y), sc.tag(3, j));
    place(msg, sc.piece_begin(in, y), m.data);
  }

  // Phase 4: column ring of row bundles (row y's pieces of every segment, in x order).
  const std::vector<int>& cr = sc.column_ring();
  const int r = sc.rows(), qy = ring_index(cr, y);
  for (int j = 1; j < r; ++j) {
    const int out = cr[static_cast<std::size_t>(((qy - j + 1) % r + r) % r)];
    const int in = cr[static_cast<std::size_t>(((qy - j) % r + r) % r)];
    Bytes bundle;
    for (int px = 0; px < c; ++px) {
      const Bytes part = slice(msg, sc.piece_begin(px, out), sc.piece_begin(px, out + 1));
      bundle.insert(bundle.end(), part.begin(), part.end());
    }
    rt.send(node(x, cr[static_cast<std::size_t>((qy + 1) % r)]), bundle, sc.tag(4, j));
    Message m = mb.take(node(x, cr[static_cast<std::size_t>((qy + r - 1) % r)]), sc.tag(4, j));
    std::uint64_t off = 0;
    for (int px = 0; px < c; ++px) {
      const std::uint64_t n = sc.piece_bytes(px, in);
      place(msg, sc.piece_begin(px, in), slice(m.data, off, off + n));
      off += n;
    }
  }
  if (self != op.root) deliver(msg);
}

}  // namespace wormsim::fw
