// libFuzzer target: the config loader (systemc/core/config_loader.h) on arbitrary YAML text and
// --set overrides. The input is the YAML text up to the first NUL byte; each further
// NUL-separated piece is one override "a.b=c". A ConfigError is the loader's answer to bad
// input (exit 2 in the CLI); any other exception, a crash, a sanitizer report or a hang is a
// finding. An accepted config must also serialise (to_json) and load back to the same JSON.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "config_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> pieces;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= input.size(); ++i)
    if (i == input.size() || input[i] == '\0') {
      pieces.push_back(input.substr(start, i - start));
      start = i + 1;
    }
  const std::vector<std::string> overrides(pieces.begin() + 1, pieces.end());
  try {
    const wormsim::Config c = wormsim::load_config(pieces.front(), "<fuzz>", overrides);
    const nlohmann::json j = wormsim::to_json(c);
    const wormsim::Config again = wormsim::load_config(j.dump(), "<fuzz:json>");
    if (wormsim::to_json(again) != j) __builtin_trap();  // the resolved config must load back
  } catch (const wormsim::ConfigError&) {
  }
  return 0;
}
