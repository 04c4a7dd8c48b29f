// Decoded view of the flit crossing a port in the current cycle, for waveform tracing
// (sc_trace needs stable addresses of plain values). When no flit crossed, valid and every
// field read 0, so a waveform never shows a stale head/tail bit or packet id.
#pragma once

#include <systemc>

#include "flit.h"

namespace wormsim {

struct FlitProbe {
  bool valid = false;
  unsigned vc = 0;
  bool head = false;
  bool tail = false;
  sc_dt::uint64 packet = 0;
  unsigned src = 0;
  unsigned dst = 0;
  unsigned index = 0;

  void show(const Flit& f) {
    valid = true;
    vc = f.vc;
    head = f.head();
    tail = f.tail();
    packet = f.packet_id;
    src = f.src;
    dst = f.dst;
    index = f.index;
  }
  void clear() { *this = FlitProbe{}; }
};

}  // namespace wormsim
