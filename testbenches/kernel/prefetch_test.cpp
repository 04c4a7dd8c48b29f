// Tests of the cache hints (kernel/prefetch.h): they survive the compiler. g++ 12 at -O2
// deleted the `__builtin_prefetch` calls of the range helpers as dead code, so the hints of
// large networks silently did nothing (docs/performance.md, "Hints the compiler deleted").
// This test disassembles its own binary and counts the prefetch instructions of functions that
// only give hints; it is built with the flags of the tree under test (Release in CI).
#include "prefetch.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "delay_line.h"
#include "flit.h"

// Functions that do nothing but hint; external and not inlined, so each has its own symbol.
extern "C" {
void wormsim_hint_bytes(const char* p);
void wormsim_hint_between(const wormsim::Flit* f);
void wormsim_hint_delay_line(const wormsim::DelayLine<wormsim::Flit>* d);
}

extern "C" __attribute__((noinline)) void wormsim_hint_bytes(const char* p) {
  wormsim::prefetch_bytes(p, 200);
}
extern "C" __attribute__((noinline)) void wormsim_hint_between(const wormsim::Flit* f) {
  wormsim::prefetch_between(f, f + 1);
}
extern "C" __attribute__((noinline)) void wormsim_hint_delay_line(
    const wormsim::DelayLine<wormsim::Flit>* d) {
  d->prefetch();
}

namespace wormsim::prefetch_test {
namespace {

// Prefetch instructions in the disassembly of `symbol` in this executable, or -1 where the
// target or the tools do not allow counting them.
int prefetches_in(const std::string& symbol) {
#if defined(__x86_64__) || defined(__i386__)
  const std::string mnemonic = "\tprefetch";  // objdump puts a tab before the mnemonic
#elif defined(__aarch64__)
  const std::string mnemonic = "\tprfm";
#else
  return -1;
#endif
  // This executable's path (/proc/self in the shell below would be objdump's own).
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return -1;
  const std::string cmd = "objdump -d --no-show-raw-insn --disassemble=" + symbol + " '" +
                          self.string() + "' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) return -1;
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe.get()) != nullptr) out += buf;
  if (out.find("<" + symbol + ">:") == std::string::npos) return -1;  // no objdump or symbol
  int n = 0;
  for (std::size_t at = out.find(mnemonic); at != std::string::npos;
       at = out.find(mnemonic, at + 1))
    ++n;
  return n;
}

TEST(PrefetchHints, RangeHelpersEmitPrefetchInstructions) {
  for (const char* symbol :
       {"wormsim_hint_bytes", "wormsim_hint_between", "wormsim_hint_delay_line"}) {
    const int n = prefetches_in(symbol);
    if (n < 0) GTEST_SKIP() << "cannot disassemble " << symbol << " (objdump or target)";
    EXPECT_GE(n, 1) << symbol << " gives no cache hint in the compiled code";
  }
}

TEST(PrefetchHints, AnyAddressIsAllowed) {
  // A hint never dereferences and never faults: null, unaligned and empty ranges are fine.
  const auto bytes = std::make_unique<std::array<char, 256>>();
  wormsim_hint_bytes(bytes->data() + 1);
  prefetch_line(nullptr);
  prefetch_bytes(bytes->data(), 0);
  prefetch_between(bytes->data() + 3, bytes->data());  // an empty range: nothing
  const auto line = std::make_unique<DelayLine<Flit>>(1);
  wormsim_hint_delay_line(line.get());
  const auto flit = std::make_unique<Flit>();
  wormsim_hint_between(flit.get());
  EXPECT_TRUE(line->empty());
}

}  // namespace
}  // namespace wormsim::prefetch_test
