// Which router model a run gets (app/router_backend.h): a build without the Verilated RTL
// router rejects `network.router.implementation: rtl` at load time with one error naming the
// key and how to enable the RTL build, and the CLI exits 2 with it; a build with it checks the
// config against the RTL build's limits instead. Both halves are compiled into every build;
// the one that does not apply to this build is skipped, so each CI pass checks its half.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "config_loader.h"
#include "router_backend.h"

namespace wormsim {
namespace {

const char* kRtlConfig = "network:\n  dims: [4, 4]\n  router:\n    implementation: rtl\n";

TEST(RouterBackend, RtlWithoutTheRtlBuildIsAConfigErrorNamingKeyAndLine) {
  if (rtl_available()) GTEST_SKIP() << "this build has the RTL router";
  try {
    load_config(kRtlConfig, "rtl.yaml", {}, check_router_implementation);
    FAIL() << "accepted implementation rtl without the RTL build";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "network.router.implementation");
    EXPECT_EQ(e.line(), 4);
    EXPECT_NE(std::string(e.what()).find("-DWORMSIM_RTL=ON"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(
      load_config("network:\n  dims: [4, 4]\n", "c.yaml", {}, check_router_implementation));
}

TEST(RouterBackend, CliExitsTwoForRtlWithoutTheRtlBuild) {
  if (rtl_available()) GTEST_SKIP() << "this build has the RTL router";
  const char* bin = std::getenv("WORMSIM_BIN");
  ASSERT_NE(bin, nullptr) << "WORMSIM_BIN is set by CTest";
  // The built-in default with RTL routers: the load fails before anything runs or is written.
  const std::string cmd = std::string(bin) +
                          " run --quiet --out /nonexistent/wormsim-out"
                          " --set network.router.implementation=rtl 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int status = pclose(p);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2) << out;
  EXPECT_NE(out.find("network.router.implementation"), std::string::npos) << out;
  EXPECT_NE(out.find("WORMSIM_RTL=ON"), std::string::npos) << out;
}

TEST(RouterBackend, RtlBuildChecksItsLimitsAtLoadTime) {
  if (!rtl_available()) GTEST_SKIP() << "this build has no RTL router";
  EXPECT_NO_THROW(load_config(kRtlConfig, "rtl.yaml", {}, check_router_implementation));
  try {
    load_config(std::string(kRtlConfig) + "    vcs: 16\n", "rtl.yaml", {},
                check_router_implementation);
    FAIL() << "accepted 16 VCs on the RTL router";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "network.router.implementation");
    EXPECT_NE(std::string(e.what()).find("at most 4 VCs"), std::string::npos) << e.what();
  }
  EXPECT_NE(make_router_factory(load_config(kRtlConfig, "rtl.yaml")), nullptr);
}

TEST(RouterBackend, SystemcNeedsNoFactory) {
  EXPECT_EQ(make_router_factory(load_config("network:\n  dims: [4, 4]\n", "c.yaml")), nullptr);
}

}  // namespace
}  // namespace wormsim
