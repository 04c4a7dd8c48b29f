// Input port of a router: V virtual channels, each a flit buffer plus the state of the packet
// at its front. A VC is held by one packet from head to tail: Idle -> Routed (route computed,
// waiting for an output VC) -> Active (output VC held) -> Idle when the tail leaves.
#pragma once

#include <vector>

#include "flit_buffer.h"
#include "link.h"
#include "multicast_route.h"
#include "route_compute.h"

namespace wormsim {

enum class VcState : std::uint8_t { kIdle, kRouted, kActive };
const char* to_string(VcState s);

// One output branch of a replicating worm (multidestination, docs/multidestination.md).
struct ReplicaBranch {
  MulticastBranch target;
  int out_port = -1;
  int out_vc = -1;
  int ahead = 0;      // asynchronous replication: flits of the buffer this branch has sent
  bool done = false;  // sent the tail
};

struct InputVc {
  explicit InputVc(int depth) : buffer(depth) {}
  FlitBuffer buffer;
  VcState state = VcState::kIdle;
  RouteResult route;
  int out_port = -1;
  int out_vc = -1;
  PacketId packet = 0;  // the packet holding this VC (valid unless idle)
  Cycle head_at = 0;    // when that packet's head reached the front (blocking statistics)
  // Staged pipelines (PipelineModel other than kDelay): the first cycle the head may perform
  // its next stage: VA while Routed, SA once Active. Always 0 under the delay model.
  Cycle next_at = 0;
  // A worm replicated here (two or more branches); empty for a worm with one output, which
  // uses route/out_port/out_vc above. A replicating worm gets all its output VCs at once.
  std::vector<ReplicaBranch> branches;
  // Replicating worm under cut-through replication: the free slots each branch's downstream VC
  // must have before the worm takes it (the worm's length); 0 under wormhole replication.
  int room_needed = 0;
  // Minimal path-IR router: this router stripped the worm's head address flit (its address
  // was this node), so the next flit of `packet` to reach the front becomes the head, with
  // target position `absorbed_mpos`, and the worm is absorbed here and forwarded.
  bool absorbed = false;
  std::uint16_t absorbed_mpos = 0;
  // Buffered header decode: the header flits the idle head at the front waits for before it
  // is routed (MulticastRoute::header_flits_read), 0 when it is not waiting. Reports only.
  int header_reads = 0;
  // The cycle from which the front flit has waited: its arrival in an empty buffer (its
  // eligibility cycle) or the last pop. The network's stuck-flit watchdog reads it.
  Cycle front_since = 0;
};

struct InputPort {
  InputPort(int vc_count, int depth) : vcs(static_cast<std::size_t>(vc_count), InputVc(depth)) {}
  Link* link = nullptr;  // flits in, credits back upstream; null at a mesh boundary
  std::vector<InputVc> vcs;
};

}  // namespace wormsim
