// wormsim_edn_steps: message-passing steps of EDN broadcast (seed 000 Figs. 3.13, 3.24) on
// given meshes, from the patterns the firmware runs (fw::EdnPattern on 2^k x 2^k, fw::EdnMesh
// otherwise), one line per mesh: "dims nodes min_steps max_steps" over roots (every root for
// EdnMesh; for EdnPattern the tops, corners, centre and every 97th node: Table 3.1 says every
// root takes k + 1, edn_pattern_test checks it).
//
// Usage: wormsim_edn_steps square FROM TO   (n x n for n = FROM..TO)
//        wormsim_edn_steps WxH[xD] ...
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "edn_mesh.h"
#include "edn_pattern.h"

namespace {

using wormsim::NodeId;

template <typename Children>
int walk(int nodes, NodeId root, Children children) {
  std::vector<int> step(static_cast<std::size_t>(nodes), -1);
  step[root] = 0;
  std::vector<NodeId> frontier{root};
  int last = 0;
  while (!frontier.empty()) {
    std::vector<NodeId> next;
    for (NodeId u : frontier) {
      const auto groups = children(u);
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (NodeId c : groups[g]) {
          step[c] = step[u] + 1 + static_cast<int>(g);
          last = std::max(last, step[c]);
          next.push_back(c);
        }
    }
    frontier = std::move(next);
  }
  return last;
}

std::string name(const std::vector<int>& dims) {
  std::string out;
  for (std::size_t d = 0; d < dims.size(); ++d) out += (d ? "x" : "") + std::to_string(dims[d]);
  return out;
}

// No pattern (fw::EdnMesh throws): "dims nodes - -".
void report(const std::vector<int>& dims) {
  int nodes = 1;
  for (int d : dims) nodes *= d;
  int lo = 1 << 30, hi = 0;
  const int side = dims[0];
  if (dims.size() == 2 && dims[0] == dims[1] && side >= 4 && (side & (side - 1)) == 0) {
    int k = 0;
    while ((1 << k) < side) ++k;
    const wormsim::fw::EdnPattern p(k);
    std::vector<NodeId> roots{0, static_cast<NodeId>(side - 1), static_cast<NodeId>(nodes - 1),
                              static_cast<NodeId>(nodes - side),
                              static_cast<NodeId>(nodes / 2 + side / 2)};
    for (NodeId t : p.tops()) roots.push_back(t);
    for (int n = 0; n < nodes; n += 97) roots.push_back(static_cast<NodeId>(n));
    for (NodeId r : roots) {
      const int s = walk(nodes, r, [&](NodeId u) { return p.children(r, u); });
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
  } else {
    std::unique_ptr<wormsim::fw::EdnMesh> pattern;
    try {
      pattern = std::make_unique<wormsim::fw::EdnMesh>(dims);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      std::printf("%s %d - -\n", name(dims).c_str(), nodes);
      std::fflush(stdout);
      return;
    }
    const wormsim::fw::EdnMesh& p = *pattern;
    for (int n = 0; n < nodes; ++n) {
      const int s = nodes == 1 ? 0 : p.startup_steps(static_cast<NodeId>(n)) + p.height();
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
  }
  std::printf("%s %d %d %d\n", name(dims).c_str(), nodes, lo, hi);
  std::fflush(stdout);
}

}  // namespace

// libsystemc.so, which the firmware layer links, refers to sc_main; this tool never starts a
// simulation (the sanitizer build links the library where the Release build drops it).
extern "C" int sc_main(int argc, char* argv[]);
extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) { return 0; }

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 3 && args[0] == "square") {
    for (int n = std::stoi(args[1]); n <= std::stoi(args[2]); ++n) report({n, n});
    return 0;
  }
  if (args.empty()) {
    std::fprintf(stderr, "usage: wormsim_edn_steps square FROM TO | WxH[xD] ...\n");
    return 2;
  }
  for (const std::string& a : args) {
    std::vector<int> dims;
    std::stringstream ss(a);
    std::string part;
    while (std::getline(ss, part, 'x')) dims.push_back(std::stoi(part));
    if (dims.size() < 2 || dims.size() > 3) {
      std::fprintf(stderr, "wormsim_edn_steps: %s is not WxH or WxHxD\n", a.c_str());
      return 2;
    }
    report(dims);
  }
  return 0;
}
