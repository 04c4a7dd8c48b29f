// What the Verilated RTL router can be asked to run: its structural maxima (cosim/rtl_flit.h,
// docs/rtl.md) checked against a config that sets network.router.implementation: rtl. They
// live here, not in Config::validate(), because they are limits of the optional RTL build,
// not of the model; the application applies them at load time (app/router_backend.h), so
// errors still name the key and its line.
#pragma once

#include "config.h"

namespace wormsim {

// Throws ConfigError naming the offending key if `config` asks for RTL routers the builds
// cannot provide. No-op for implementation systemc.
void check_rtl_limits(const Config& config);

}  // namespace wormsim
