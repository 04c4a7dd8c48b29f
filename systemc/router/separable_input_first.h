// The rules of the separable input-first allocators, over state the caller keeps: one
// definition for the Router's allocators (VcAllocator, SwitchAllocator: RoundRobinArbiter
// objects and vectors) and the flat engine's (fabric/flat_routers.cpp: pointers in flat arrays
// of all routers), which must make the same grants with the same pointer moves for the two
// engines to give the same results (testbenches/fabric/flat_routers_test.cpp).
//
// Round-robin pointers are read and moved through the caller's callables, with the rules of
// RoundRobinArbiter: the winner is the first requester at or after the pointer, cyclically, and
// a grant moves the pointer just past its winner. Pointers move only for grants that survive
// both stages (iSLIP-style).
#pragma once

#include <array>
#include <cstdint>

#include "round_robin_arbiter.h"
#include "route_compute.h"

namespace wormsim {

struct VcRequest {
  int input_vc = 0;  // in_port * vcs + vc
  RouteResult route;
};

struct SwitchRequest {
  int in_port = 0;
  int vc = 0;
  int out_port = 0;
};

// The first free output VC among route `r`'s candidates (ports [port_lo, port_hi) x VCs
// [vc_lo, vc_hi), output VC o = port * vcs + vc, free when owner[o] < 0) at or after `from`,
// cyclically, or -1: an input VC's round-robin choice. Candidates are visited in increasing
// output-VC order, so the first one >= from is the winner and, failing that, the first overall.
[[gnu::always_inline]] inline int first_free_output_vc(const RouteResult& r, int vcs,
                                                       const int* owner, int from) {
  int wrapped = -1;
  for (int port = r.port_lo; port < r.port_hi; ++port)
    for (int vc = r.vc_lo; vc < r.vc_hi; ++vc) {
      const int o = port * vcs + vc;
      if (owner[o] >= 0) continue;
      if (o >= from) return o;
      if (wrapped < 0) wrapped = o;
    }
  return wrapped;
}

// Separable input-first VC allocation of `n` requests (a sole request wins its first choice).
// Stage 1: each input VC picks the first free candidate at or
// after its pointer, all against the owners at the start (`first_free(route, from)` -> output VC
// or -1). Stage 2: an output VC chosen by one requester goes to it; one chosen by several goes
// to the first of them at or after the output VC's pointer over the `input_vcs` input VCs.
// Grants are reported in order through `grant(input_vc, output_vc)`; the owners are not read
// after stage 1, so the caller may apply them at once. Scratch: `choice` holds n ints, `mark`
// input_vcs bytes that are 0 on entry and left 0.
template <typename FirstFree, typename InPointer, typename OutPointer, typename UpdateIn,
          typename UpdateOut, typename Grant>
[[gnu::always_inline]] inline void vc_input_first(const VcRequest* requests, int n, int input_vcs,
                                                  FirstFree&& first_free, InPointer&& in_pointer,
                                                  OutPointer&& out_pointer, UpdateIn&& update_in,
                                                  UpdateOut&& update_out, int* choice,
                                                  std::uint8_t* mark, Grant&& grant) {
  if (n == 1) {  // the common case: a sole requester wins its first choice
    const int winner = requests[0].input_vc;
    const int o = first_free(requests[0].route, in_pointer(winner));
    if (o < 0) return;
    update_in(winner, o);
    update_out(o, winner);
    grant(winner, o);
    return;
  }
  for (int i = 0; i < n; ++i)
    choice[i] = first_free(requests[i].route, in_pointer(requests[i].input_vc));
  for (int i = 0; i < n; ++i) {
    const int o = choice[i];
    if (o < 0) continue;
    bool contended = false;
    for (int j = i + 1; j < n && !contended; ++j) contended = choice[j] == o;
    if (!contended) {  // the common case: a sole requester wins whatever the pointer says
      const int winner = requests[i].input_vc;
      update_in(winner, o);
      update_out(o, winner);
      grant(winner, o);
      continue;
    }
    // Mark every requester that chose o, then let o's pointer pick one.
    for (int j = i; j < n; ++j)
      if (choice[j] == o) mark[requests[j].input_vc] = 1;
    const int from = out_pointer(o);
    int winner = -1;
    for (int k = 0; k < input_vcs && winner < 0; ++k) {
      int c = from + k;
      if (c >= input_vcs) c -= input_vcs;
      if (mark[c] != 0) winner = c;
    }
    for (int j = i; j < n; ++j) {
      if (choice[j] != o) continue;
      mark[requests[j].input_vc] = 0;
      if (requests[j].input_vc == winner) update_in(winner, o);
      choice[j] = -1;  // handled
    }
    update_out(o, winner);
    grant(winner, o);
  }
}

// Separable input-first switch allocation of `n` requests (at most one per input VC). Stage 1:
// each input port with requests picks one of its VCs (the first at or after its pointer);
// stage 2: each output port wanted by a picked VC (`out_of(in_port, vc)`) picks one of those
// input ports (the first at or after its pointer). Grants are reported through
// `grant(in_port, vc, out_port)` in the order the output ports were first wanted. Scratch:
// `vc_mask` per input port and `port_mask` per output port, 0 on entry and left 0; `pick` per
// input port; `touched` room for one entry per output port.
template <typename InPointer, typename OutPointer, typename UpdateIn, typename UpdateOut,
          typename OutOf, typename Grant>
[[gnu::always_inline]] inline void switch_input_first(
    const SwitchRequest* requests, int n, InPointer&& in_pointer, OutPointer&& out_pointer,
    UpdateIn&& update_in, UpdateOut&& update_out, OutOf&& out_of, std::uint64_t* vc_mask,
    std::uint64_t* port_mask, int* pick, int* touched, Grant&& grant) {
  for (int i = 0; i < n; ++i) vc_mask[requests[i].in_port] |= std::uint64_t{1} << requests[i].vc;
  int touched_count = 0;
  for (int i = 0; i < n; ++i) {
    const int in = requests[i].in_port;
    std::uint64_t& mask = vc_mask[in];
    if (mask == 0) continue;  // this input port already chose
    const int vc = round_robin_pick_mask(in_pointer(in), mask);
    mask = 0;
    pick[in] = vc;
    const int out = out_of(in, vc);
    if (port_mask[out] == 0) touched[touched_count++] = out;
    port_mask[out] |= std::uint64_t{1} << in;
  }
  for (int k = 0; k < touched_count; ++k) {
    const int out = touched[k];
    const int in = round_robin_pick_mask(out_pointer(out), port_mask[out]);
    port_mask[out] = 0;
    const int vc = pick[in];
    update_out(out, in);
    update_in(in, vc);
    grant(in, vc, out);
  }
}

// The grants of either separable allocator when no two of the `n` requests (in ascending
// input-port order) share an input or an output port: all of them, with the pointer moves
// they would make.
template <typename UpdateIn, typename UpdateOut>
[[gnu::always_inline]] inline void switch_grant_all(const SwitchRequest* requests, int n,
                                                    UpdateIn&& update_in, UpdateOut&& update_out) {
  for (int i = 0; i < n; ++i) {
    update_out(requests[i].out_port, requests[i].in_port);
    update_in(requests[i].in_port, requests[i].vc);
  }
}

// Each of the `n` requests that lost its output port to another request's grant (the
// allocators grant an output port once per cycle; ports < 64), as lost(request, grant), in
// request order: the flits that wait this cycle because another packet took their port.
template <typename Lost>
void for_each_lost_request(const SwitchRequest* requests, int n, const SwitchRequest* grants, int m,
                           Lost&& lost) {
  std::uint64_t granted_out = 0;
  std::array<int, 64> winner;  // per granted output port: its grant's index
  for (int k = 0; k < m; ++k) {
    granted_out |= std::uint64_t{1} << grants[k].out_port;
    winner[static_cast<std::size_t>(grants[k].out_port)] = k;
  }
  for (int i = 0; i < n; ++i) {
    const SwitchRequest& r = requests[i];
    if (((granted_out >> r.out_port) & 1u) == 0) continue;
    const SwitchRequest& g = grants[winner[static_cast<std::size_t>(r.out_port)]];
    if (g.in_port == r.in_port && g.vc == r.vc) continue;
    lost(r, g);
  }
}

}  // namespace wormsim
