// Multicast virtual topologies (seed 004 Definitions 1 and 4, section 4); see m_array.h.
#include "m_array.h"

#include <algorithm>
#include <stdexcept>

namespace wormsim::fw {

int array_levels(std::size_t length) {
  int n = 0;
  while ((std::size_t{1} << n) < length) ++n;
  return n;
}

std::vector<std::uint32_t> sibling_block(std::size_t length, std::uint32_t x, int level) {
  if (level < 0 || level >= 31) throw std::logic_error("sibling_block: level out of range");
  const std::uint32_t size = std::uint32_t{1} << level;
  const std::uint32_t parent = (x >> (level + 1)) << (level + 1);
  const std::uint32_t start = (x & size) != 0 ? parent : parent + size;
  std::vector<std::uint32_t> out;
  for (std::uint32_t p = start; p < start + size && p < length; ++p) out.push_back(p);
  return out;
}

std::uint32_t boundary_node(std::uint32_t x, int level) {
  const std::uint32_t size = std::uint32_t{1} << level;
  const std::uint32_t start = (x >> level) << level;
  return (x & size) != 0 ? start : start + size - 1;
}

bool has_channel(ArrayTopology t, std::size_t length, std::uint32_t x, int level) {
  if (x >= length || sibling_block(length, x, level).empty()) return false;
  return t == ArrayTopology::kMArray || boundary_node(x, level) == x;
}

std::vector<ArraySend> array_broadcast(ArrayTopology t, std::size_t length, std::uint32_t root) {
  if (root >= length) throw std::logic_error("array_broadcast: root outside the array");
  const int n = array_levels(length);
  std::vector<ArraySend> out;
  for (int s = 1; s <= n; ++s) {
    const int level = t == ArrayTopology::kMArray ? n - s : s - 1;
    std::vector<std::uint32_t> to = sibling_block(length, root, level);
    if (to.empty()) continue;
    const std::uint32_t from = t == ArrayTopology::kMArray ? root : boundary_node(root, level);
    out.push_back({static_cast<int>(out.size()) + 1, level, from, std::move(to)});
  }
  return out;
}

std::vector<ArraySend> array_reduction(std::size_t length) {
  const int n = array_levels(length);
  std::vector<ArraySend> out;
  for (int level = 0; level < n; ++level) {
    const std::uint32_t size = std::uint32_t{1} << level;
    for (std::uint32_t start = 0; start < length; start += size) {
      std::vector<std::uint32_t> to = sibling_block(length, start, level);
      if (to.empty()) continue;
      out.push_back({level + 1, level, boundary_node(start, level), std::move(to)});
    }
  }
  return out;
}

namespace {

// The sends of rem_array_reduce inside the level-`level` block starting at `start` whose result
// must reach `target`.
void add_pruned(std::vector<ArraySend>& out, std::size_t length, std::uint32_t start, int level,
                std::uint32_t target) {
  if (level == 0) return;
  const std::uint32_t half = std::uint32_t{1} << (level - 1);
  const std::uint32_t other = (target & half) != 0 ? start : start + half;
  if (other < length) {
    const std::uint32_t holder = boundary_node(other, level - 1);
    out.push_back({level, level - 1, holder, sibling_block(length, holder, level - 1)});
    add_pruned(out, length, other, level - 1, holder);
  }
  add_pruned(out, length, other == start ? start + half : start, level - 1, target);
}

}  // namespace

std::vector<ArraySend> rem_array_reduce(std::size_t length, std::uint32_t root) {
  if (root >= length) throw std::logic_error("rem_array_reduce: root outside the array");
  std::vector<ArraySend> out;
  add_pruned(out, length, 0, array_levels(length), root);
  std::stable_sort(out.begin(), out.end(), [](const ArraySend& a, const ArraySend& b) {
    return a.step != b.step ? a.step < b.step : a.from < b.from;
  });
  return out;
}

namespace {

// The sends of an array schedule on one line of the grid: position p is node base + p * stride.
void add_line(std::vector<MeshSend>& out, const std::vector<ArraySend>& sends, int dim,
              int step_offset, std::uint32_t base, std::uint32_t stride) {
  for (const ArraySend& a : sends) {
    MeshSend m{a.step + step_offset, dim, a.level, base + a.from * stride, {}};
    for (std::uint32_t p : a.to) m.to.push_back(base + p * stride);
    out.push_back(std::move(m));
  }
}

void check_grid(int cols, int rows) {
  if (cols < 1 || rows < 1) throw std::logic_error("m_mesh: the grid needs at least one node");
}

}  // namespace

std::vector<MeshSend> m_mesh_broadcast(int cols, int rows, std::uint32_t root) {
  check_grid(cols, rows);
  const auto c = static_cast<std::uint32_t>(cols);
  if (root >= c * static_cast<std::uint32_t>(rows))
    throw std::logic_error("m_mesh_broadcast: root outside the grid");
  const std::uint32_t rx = root % c, ry = root / c;
  std::vector<MeshSend> out;
  const std::vector<ArraySend> row = array_broadcast(ArrayTopology::kMArray, c, rx);
  add_line(out, row, 0, 0, ry * c, 1);
  const int row_steps = static_cast<int>(row.size());
  for (std::uint32_t x = 0; x < c; ++x)
    add_line(out, array_broadcast(ArrayTopology::kMArray, static_cast<std::size_t>(rows), ry), 1,
             row_steps, x, c);
  return out;
}

std::vector<MeshSend> m_mesh_reduction(int cols, int rows) {
  check_grid(cols, rows);
  const auto c = static_cast<std::uint32_t>(cols);
  std::vector<MeshSend> out;
  const std::vector<ArraySend> row = array_reduction(c);
  for (std::uint32_t y = 0; y < static_cast<std::uint32_t>(rows); ++y)
    add_line(out, row, 0, 0, y * c, 1);
  const std::vector<ArraySend> column = array_reduction(static_cast<std::size_t>(rows));
  for (std::uint32_t x = 0; x < c; ++x) add_line(out, column, 1, array_levels(c), x, c);
  return out;
}

std::vector<std::uint32_t> m_mesh_gathered(int cols, int rows, std::uint32_t p, int step) {
  check_grid(cols, rows);
  const auto c = static_cast<std::uint32_t>(cols);
  const auto r = static_cast<std::uint32_t>(rows);
  if (p >= c * r || step < 0) throw std::logic_error("m_mesh_gathered: outside the grid");
  const int row_levels = array_levels(c);
  // The level-`level` block of position v on a line of `length`: [first, last).
  const auto block = [](std::uint32_t v, int level, std::uint32_t length) {
    const int l = std::min(level, 31);
    const std::uint32_t first = (v >> l) << l;
    const std::uint64_t last = std::uint64_t{first} + (std::uint64_t{1} << l);
    return std::make_pair(first, static_cast<std::uint32_t>(std::min<std::uint64_t>(last, length)));
  };
  std::vector<std::uint32_t> out;
  if (step <= row_levels) {
    const auto [first, last] = block(p % c, step, c);
    for (std::uint32_t x = first; x < last; ++x) out.push_back(p / c * c + x);
    return out;
  }
  const auto [first, last] = block(p / c, step - row_levels, r);
  for (std::uint32_t y = first; y < last; ++y)
    for (std::uint32_t x = 0; x < c; ++x) out.push_back(y * c + x);
  return out;
}

}  // namespace wormsim::fw
