#include "dominating_set.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace wormsim::fw {

std::vector<std::vector<std::array<int, 2>>> cockayne_dominating_sets(int w, int h) {
  if (w < 1 || h < 1) throw std::invalid_argument("cockayne_dominating_sets: sides must be >= 1");
  const auto at = [w](int x, int y) { return static_cast<std::size_t>(x + w * y); };
  const int nb[5][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  std::vector<std::vector<std::array<int, 2>>> out;
  for (const auto& [a, b] : {std::array<int, 2>{2, 1}, std::array<int, 2>{1, 2}})
    for (int s : {2, 0, 1, 3, 4}) {
      std::vector<char> dom(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) dom[at(x, y)] = ((a * x + b * y) % 5 == s);
      const auto covered = [&](int x, int y) {
        for (const auto& d : nb) {
          const int u = x + d[0], v = y + d[1];
          if (u >= 0 && u < w && v >= 0 && v < h && dom[at(u, v)]) return true;
        }
        return false;
      };
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          if (!covered(x, y)) dom[at(x, y)] = 1;
      // Dropping a dominator can only undominate its closed neighbourhood; every node is
      // dominated before each drop.
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          if (!dom[at(x, y)]) continue;
          dom[at(x, y)] = 0;
          bool ok = true;
          for (const auto& d : nb) {
            const int u = x + d[0], v = y + d[1];
            if (u >= 0 && u < w && v >= 0 && v < h && !covered(u, v)) ok = false;
          }
          if (!ok) dom[at(x, y)] = 1;
        }
      std::vector<std::array<int, 2>> set;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          if (dom[at(x, y)]) set.push_back({x, y});
      if (std::find(out.begin(), out.end(), set) == out.end()) out.push_back(set);
    }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& p, const auto& q) { return p.size() < q.size(); });
  return out;
}

}  // namespace wormsim::fw
