// Dominating sets of a w x h 2D mesh after Cockayne's diagonal construction (seed 000 section
// 3.2.1, Fig. 3.2; its reference [41]), shared by the SLD broadcast (fw::SldPattern) and the
// basic blocks of the general EDN pattern (fw::EdnMesh).
//
// Definition 1 of the seed: every node is in the set or a neighbour of a node in it. The
// construction is the seed's "frame moved over the background pattern": the infinite grid's
// perfect dominating set {(x, y): a x + b y = s (mod 5)}, (a, b) in {(2, 1), (1, 2)} (Fig.
// 3.2(a)-(b)), framed by the mesh; every node left undominated (its dominator lies outside the
// frame) gets a dominator moved onto it (Fig. 3.2(c)); then dominators whose removal leaves
// every node dominated are dropped, first in scan order (y, then x). RECONSTRUCTED: the seed
// defers the adjustment's details to [41]; this rule is ours (docs/edn-general.md).
#pragma once

#include <array>
#include <vector>

namespace wormsim::fw {

// The distinct sets the ten framings give, each as (x, y) in scan order, smallest first
// (stable: (2, 1) before (1, 2), offsets s = 2, 0, 1, 3, 4). For 4 x 4 the first is
// {(1,0), (0,2), (3,1), (2,3)}: Fig. 3.3's four dominating nodes (pattern B of Fig. 3.6).
// Throws std::invalid_argument unless w, h >= 1.
std::vector<std::vector<std::array<int, 2>>> cockayne_dominating_sets(int w, int h);

}  // namespace wormsim::fw
