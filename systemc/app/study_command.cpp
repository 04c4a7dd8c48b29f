#include "study_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

namespace wormsim {

namespace {

constexpr const char* kPython = "/usr/bin/python3";

}  // namespace

int study_command(const std::string& script, const std::vector<std::string>& args) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "wormsim: study: cannot find this program's path (/proc/self/exe: " << ec.message()
              << ")\n";
    return 2;
  }
  if (!std::filesystem::is_regular_file(script, ec)) {
    std::cerr << "wormsim: study: the study runner " << script
              << " is missing (it lives in the source tree's scripts/; run wormsim from a build "
                 "of a complete checkout)\n";
    return 2;
  }
  std::vector<std::string> words{kPython, script, "--wormsim", self.string()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  argv.reserve(words.size() + 1);
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  execv(kPython, argv.data());
  std::cerr << "wormsim: study: cannot start " << kPython << ": " << std::strerror(errno)
            << " (scripts/install-deps installs python3 with yaml and matplotlib)\n";
  return 2;
}

}  // namespace wormsim
