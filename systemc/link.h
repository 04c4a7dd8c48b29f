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

  DelayLine<Flit> flits;
  DelayLine<std::uint8_t> credits;  // VC index of each returned credit
  Endpoint upstream;
  Endpoint downstream;
  std::uint64_t flits_carried = 0;  // statistics: flits pushed during the measurement window
};

}  // namespace wormsim
