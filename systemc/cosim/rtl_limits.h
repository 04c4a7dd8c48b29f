// What the Verilated RTL router can be asked to run: its structural maxima (cosim/rtl_flit.h,
// docs/rtl.md) checked against a config that sets network.router.implementation: rtl. They
// live here, not in Config::validate(), because they are limits of the optional RTL build,
// not of the model; the application applies them at load time (app/router_backend.h), so
// errors still name the key and its line.
#pragma once

#include "config.h"
#include "rtl_flit.h"

namespace wormsim {

// How this config's multidestination worms carry their destinations into the RTL routers
// (header_encoding, the address width ceil(log2 N), flit_bytes; rtl_flit.h ListFormat).
rtl::ListFormat rtl_list_format(const Config& config);

// Throws ConfigError naming the offending key if `config` asks for RTL routers the builds
// cannot provide. No-op for implementation systemc.
void check_rtl_limits(const Config& config);

}  // namespace wormsim
