// YAML -> Config. The loader is strict: every key is checked against the schema (unknown keys
// and wrong types are errors), `--set` overrides are applied on top of the file, and
// Config::validate() errors are traced back to the YAML line of the offending key. Every
// problem is reported as a ConfigError "source:line: key: message" (docs/config.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.h"

namespace wormsim {

// Parses `yaml_text` (`source` names it in error messages: a file path, or "<built-in default>" as the CLI names the built-in text),
// applies `overrides` of the form "a.b.c=value" in order (value parsed as YAML, e.g. "[4,4]"
// or "torus"; a later override of the same key wins, and every override replaces the file's
// value), converts to Config and calls validate(). An empty or null document means all
// defaults. Throws ConfigError on any problem; errors about an overridden key carry the source
// "--set" and line 0, errors about a key in the text carry `source` and its 1-based line.
//
// `extra_check` (optional) runs after validate() with the same error location: the checks of
// layers above the core, such as the RTL build's limits (app/router_backend.h).
//
// `given` (optional) receives every key the text and the overrides set, in the order given
// (an overridden key once, where its last override put it): what unused_keys() checks.
struct GivenKey {
  std::string key;     // full dotted path, e.g. "traffic.packet_length"
  std::string source;  // the text's source name, or "--set"
  int line = 0;        // 1-based line in the text; 0 for an override
};
using ConfigCheck = std::function<void(const Config&)>;
Config load_config(const std::string& yaml_text, const std::string& source,
                   const std::vector<std::string>& overrides = {},
                   const ConfigCheck& extra_check = {}, std::vector<GivenKey>* given = nullptr);

// Reads the file at `path` (ConfigError with key "<file>" and source `path` if it cannot be
// read, is a directory or is not a regular file, e.g. a named pipe) and loads it as
// load_config(text, path, overrides).
Config load_config_file(const std::string& path, const std::vector<std::string>& overrides = {},
                        const ConfigCheck& extra_check = {},
                        std::vector<GivenKey>* given = nullptr);

// A key that was given but that the run described by the config does not read, e.g.
// traffic.* with workload collective or network.router.ports without port_model k_port.
struct UnusedKey {
  GivenKey where;
  std::string reason;  // why it is unused, naming the key that decides it
};
// The keys of `given` that `config` (loaded from them) does not use, in the order given. The
// CLI warns about each on stderr ("SOURCE:LINE: KEY: not used: REASON", text()).
std::vector<UnusedKey> unused_keys(const Config& config, const std::vector<GivenKey>& given);
std::string text(const UnusedKey& u);

// The built-in default configuration: configs/default.yaml, embedded at build time
// (systemc/CMakeLists.txt). `wormsim run` without a file loads it as "<built-in default>".
const std::string& default_config_yaml();

// The fully resolved config as JSON: every field, enums by name, the same key layout as the
// YAML (so the JSON text is itself a loadable config).
nlohmann::json to_json(const Config& c);

}  // namespace wormsim
