// Scatter-Collect broadcast (SC) on a 2D mesh, seed 000 section 5.3, Fig. 5.6, Table 5.2
// (Barnett et al. [17]), as a pure function of (cols, rows, root, bytes).
//
// The message of L bytes is cut into cols row segments (segment x: bytes [L x / cols,
// L (x + 1) / cols)), each cut into rows pieces; piece (x, y) is the one node (x, y) ends up
// responsible for. Four phases, each a fixed number of message-passing steps:
//   1. scatter in the root's row: recursive halving (a binomial tree) along the row; node
//      (x, y0) receives segment x; ceil(log2 cols) steps, cols - 1 messages;
//   2. scatter in every column: node (x, y0) scatters segment x down column x the same way;
//      node (x, y) receives piece (x, y); ceil(log2 rows) steps, cols (rows - 1) messages;
//   3. collect in every row: the nodes of a row form a logical ring and pass pieces around
//      it, cols - 1 steps, every node sending one piece per step: rows cols (cols - 1)
//      messages;
//   4. collect in every column: the same ring in every column, each message one row's
//      pieces (L / rows bytes); rows - 1 steps, cols rows (rows - 1) messages.
// On 2^n x 2^n: 2n + 2(2^n - 1) steps, the start-up count of seed 000 Table 5.3's
// T_s[SC] = 2(2^n - 1 + n)(alpha + gamma) + 6(2^n - 1) beta.
//
// Reconstructed (the seed names only "a logical ring"): the ring on a line of m nodes is the
// folded ring 0, 2, 4, ..., then the odd positions descending, so ring neighbours are at most
// 2 hops apart and one step's messages use every directed link of the line at most once
// under dimension-ordered routing; 2 hops per collect step is what Table 5.3's 6(2^n - 1) beta
// needs (Table 5.2 writes one beta per collect step, which would give 4(2^n - 1) beta).
// The row ring carries L / (rows cols)-byte pieces and the column ring L / rows-byte row
// bundles (the text's order of phases; Table 5.2 writes the two sizes the other way round,
// which gives the same T_n).
#pragma once

#include <cstdint>
#include <vector>

namespace wormsim::fw {

// One message of a line scatter: in `step` (1-based), position `from` sends position `to`
// the segments of positions [lo, hi).
struct LineScatterSend {
  int step = 0;
  int from = 0;
  int to = 0;
  int lo = 0;
  int hi = 0;
};
// Recursive halving on a line of m positions from `holder`: the holder of a range sends the
// half without itself to that half's position nearest to it. m - 1 sends, ceil(log2 m) steps,
// every position but the holder receives once; sorted by step.
std::vector<LineScatterSend> line_scatter(int m, int holder);

// The folded ring on a line of m positions (see above): ring order of the positions.
std::vector<int> folded_ring(int m);

// Phase sizes and the byte layout of one SC broadcast.
class ScatterCollect {
 public:
  ScatterCollect(int cols, int rows, int root_x, int root_y, std::uint64_t bytes);

  int cols() const { return cols_; }
  int rows() const { return rows_; }
  int root_x() const { return root_x_; }
  int root_y() const { return root_y_; }
  // Steps of each phase (1..4) and the tag of a phase's step s: steps of earlier phases + s.
  int phase_steps(int phase) const;
  int total_steps() const;
  std::uint32_t tag(int phase, int step) const;
  // Messages each phase sends in all.
  std::uint64_t phase_messages(int phase) const;

  // Byte offset of segment x's start (x = cols: L) and of piece (x, y)'s (y = rows: the end
  // of segment x).
  std::uint64_t segment_begin(int x) const;
  std::uint64_t piece_begin(int x, int y) const;
  std::uint64_t piece_bytes(int x, int y) const {
    return piece_begin(x, y + 1) - piece_begin(x, y);
  }

  const std::vector<LineScatterSend>& row_scatter() const { return row_scatter_; }
  const std::vector<LineScatterSend>& column_scatter() const { return column_scatter_; }
  const std::vector<int>& row_ring() const { return row_ring_; }        // positions x
  const std::vector<int>& column_ring() const { return column_ring_; }  // positions y

 private:
  int cols_, rows_, root_x_, root_y_;
  std::uint64_t bytes_;
  std::vector<LineScatterSend> row_scatter_, column_scatter_;
  std::vector<int> row_ring_, column_ring_;
};

}  // namespace wormsim::fw
