// A physical channel between two components (router-router, NI-router injection, or
// router-NI ejection): a flit pipe downstream and a credit pipe upstream. Components are
// identified by their index in the network's activity calendar so that a push can wake the
// receiver exactly at the arrival cycle.
#pragma once

#include "delay_line.h"
#include "flit.h"

namespace wormsim {

struct Endpoint {
  int component = -1;  // calendar index: routers first, then NIs
  int port = -1;       // output port (upstream side) or input port (downstream side)
};

struct Link {
  Link(int flit_latency, int credit_latency) : flits(flit_latency), credits(credit_latency) {}

  // Push a flit downstream / a credit upstream in cycle `now`; returns the arrival cycle and
  // marks the receiving side's watch mask so it only inspects links with something on them.
  Cycle send_flit(Cycle now, const Flit& flit) {
    if (flit_watch != nullptr) *flit_watch |= flit_watch_bit;
    return flits.push(now, flit);
  }
  Cycle send_credit(Cycle now, std::uint8_t vc) {
    if (credit_watch != nullptr) *credit_watch |= credit_watch_bit;
    return credits.push(now, vc);
  }

  DelayLine<Flit> flits;
  DelayLine<std::uint8_t> credits;      // VC index of each returned credit
  std::uint64_t* flit_watch = nullptr;  // receiver of flits: bit set while flits are in flight
  std::uint64_t flit_watch_bit = 0;
  std::uint64_t* credit_watch = nullptr;  // receiver of credits
  std::uint64_t credit_watch_bit = 0;
  Endpoint upstream;
  Endpoint downstream;
  std::uint64_t flits_carried = 0;  // statistics: flits pushed during the measurement window
};

}  // namespace wormsim
