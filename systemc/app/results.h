// Run results: results.json (schema in docs/results.md) and the human summary on stdout.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "network.h"
#include "synthetic_network.h"

namespace wormsim {

struct RunInfo {
  double wall_seconds = 0;
  std::string config_source;  // file path or "<built-in default>"
  std::string version;        // wormsim's version (CMake project VERSION)
  std::string git_commit;     // `git describe --always --dirty` at build time, or "unknown"
  std::vector<std::string> command_line;  // the full argv of the run
};

nlohmann::json results_json(const Network& network, const RunInfo& info);
std::string summary_text(const Network& network, const RunInfo& info);
// Synthetic runs: the same, plus the software multicast operations ("software_multicast", and a
// summary line) when the run has any (network.router.multidest none with
// traffic.multicast_fraction > 0, or scripted multicasts).
nlohmann::json results_json(const SyntheticNetwork& network, const RunInfo& info);
std::string summary_text(const SyntheticNetwork& network, const RunInfo& info);

}  // namespace wormsim
