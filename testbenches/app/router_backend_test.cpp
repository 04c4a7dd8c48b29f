// Which router model a run gets (app/router_backend.h): a build without the Verilated RTL
// router rejects `network.router.implementation: rtl` at load time with one error naming the
// key and how to enable the RTL build, and the CLI exits 2 with it; a build with it checks the
// config against the RTL build's limits instead. Both halves are compiled into every build;
// the one that does not apply to this build is skipped, so each CI pass checks its half.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cli_test_util.h"
#include "config_loader.h"
#include "router_backend.h"

namespace wormsim::router_backend_test {
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
  ASSERT_NE(std::getenv("WORMSIM_BIN"), nullptr) << "WORMSIM_BIN is set by CTest";
  // The built-in default with RTL routers: the load fails before anything runs or is written.
  const testing::CliRun r = testing::run_wormsim(
      "run --quiet --out /nonexistent/wormsim-out --set network.router.implementation=rtl");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("network.router.implementation"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("WORMSIM_RTL=ON"), std::string::npos) << r.out;
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
}  // namespace wormsim::router_backend_test
