// Shared by the tests that run the `wormsim` executable (cli_test, background_load_test,
// threads_test, router_backend_test): which binary, running it, reading what it wrote.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace wormsim::testing {

// What a run of the executable printed and its exit code (-1: it did not exit normally or
// could not be started).
struct CliRun {
  int code = -1;
  std::string out;
};

// The executable under test: $WORMSIM_BIN (CTest sets it) or `wormsim` on the PATH.
inline std::string wormsim_binary() {
  const char* bin = std::getenv("WORMSIM_BIN");
  return bin != nullptr ? bin : "wormsim";
}

// Runs `wormsim ARGS` through the shell; `out` is its stdout, with stderr interleaved unless
// `with_stderr` is false (stderr then discarded).
inline CliRun run_wormsim(const std::string& args, bool with_stderr = true) {
  const std::string cmd = wormsim_binary() + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  CliRun r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) r.out += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace wormsim::testing
