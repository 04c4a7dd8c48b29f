#include "scatter_collect.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormsim::fw {

namespace {

int ceil_log2(int m) {
  int s = 0;
  while ((1 << s) < m) ++s;
  return s;
}

void halve(int lo, int hi, int holder, int step, std::vector<LineScatterSend>& out) {
  if (hi - lo <= 1) return;
  const int mid = lo + (hi - lo + 1) / 2;
  if (holder < mid) {
    out.push_back({step, holder, mid, mid, hi});
    halve(lo, mid, holder, step + 1, out);
    halve(mid, hi, mid, step + 1, out);
  } else {
    out.push_back({step, holder, mid - 1, lo, mid});
    halve(mid, hi, holder, step + 1, out);
    halve(lo, mid, mid - 1, step + 1, out);
  }
}

}  // namespace

std::vector<LineScatterSend> line_scatter(int m, int holder) {
  if (m < 1 || holder < 0 || holder >= m)
    throw std::invalid_argument("line_scatter: holder " + std::to_string(holder) +
                                " outside a line of " + std::to_string(m));
  std::vector<LineScatterSend> out;
  halve(0, m, holder, 1, out);
  std::stable_sort(out.begin(), out.end(), [](const LineScatterSend& a, const LineScatterSend& b) {
    return a.step < b.step;
  });
  return out;
}

std::vector<int> folded_ring(int m) {
  std::vector<int> ring;
  for (int p = 0; p < m; p += 2) ring.push_back(p);
  for (int p = (m % 2 == 0) ? m - 1 : m - 2; p >= 1; p -= 2) ring.push_back(p);
  return ring;
}

ScatterCollect::ScatterCollect(int cols, int rows, int root_x, int root_y, std::uint64_t bytes)
    : cols_(cols), rows_(rows), root_x_(root_x), root_y_(root_y), bytes_(bytes) {
  if (cols < 1 || rows < 1 || root_x < 0 || root_x >= cols || root_y < 0 || root_y >= rows)
    throw std::invalid_argument("ScatterCollect: root outside the mesh");
  row_scatter_ = line_scatter(cols, root_x);
  column_scatter_ = line_scatter(rows, root_y);
  row_ring_ = folded_ring(cols);
  column_ring_ = folded_ring(rows);
}

int ScatterCollect::phase_steps(int phase) const {
  switch (phase) {
    case 1: return ceil_log2(cols_);
    case 2: return ceil_log2(rows_);
    case 3: return cols_ - 1;
    case 4: return rows_ - 1;
    default: throw std::invalid_argument("ScatterCollect: phases are 1..4");
  }
}

int ScatterCollect::total_steps() const {
  return phase_steps(1) + phase_steps(2) + phase_steps(3) + phase_steps(4);
}

std::uint32_t ScatterCollect::tag(int phase, int step) const {
  int base = 0;
  for (int p = 1; p < phase; ++p) base += phase_steps(p);
  return static_cast<std::uint32_t>(base + step);
}

std::uint64_t ScatterCollect::phase_messages(int phase) const {
  const std::uint64_t c = static_cast<std::uint64_t>(cols_), r = static_cast<std::uint64_t>(rows_);
  switch (phase) {
    case 1: return row_scatter_.size();
    case 2: return c * column_scatter_.size();
    case 3: return r * c * (c - 1);
    case 4: return c * r * (r - 1);
    default: throw std::invalid_argument("ScatterCollect: phases are 1..4");
  }
}

std::uint64_t ScatterCollect::segment_begin(int x) const {
  return bytes_ * static_cast<std::uint64_t>(x) / static_cast<std::uint64_t>(cols_);
}

std::uint64_t ScatterCollect::piece_begin(int x, int y) const {
  const std::uint64_t b = segment_begin(x), len = segment_begin(x + 1) - b;
  return b + len * static_cast<std::uint64_t>(y) / static_cast<std::uint64_t>(rows_);
}

}  // namespace wormsim::fw
