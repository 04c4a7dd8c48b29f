// Output port of a router: the link it drives and one credit counter per downstream VC.
// Which input VC holds each output VC lives in the router's output-VC table (owner), which
// the VC allocator reads as one flat [port][vc] array.
#pragma once

#include <vector>

#include "credit_counter.h"
#include "link.h"

namespace wormsim {

struct OutputPort {
  // downstream_depth = CreditCounter::kUnlimited for a consumer that always accepts.
  OutputPort(int vcs, int downstream_depth)
      : credits(static_cast<std::size_t>(vcs), CreditCounter(downstream_depth)) {}
  Link* link = nullptr;  // null at a mesh boundary
  std::vector<CreditCounter> credits;
};

}  // namespace wormsim
