// FlitEventWriter (systemc/observe/router_observer.h): `--flit-log` lines in canonical order,
// one cycle at a time, whatever order the routers of a cycle report in.
#include "router_observer.h"

#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace wormsim::router_observer_test {
namespace {

TEST(FlitEventWriter, WritesEachCycleByRouterKeepingEachRoutersOrder) {
  std::ostringstream out;
  FlitEventWriter writer(&out);
  writer.on_departure({5, 9, 1, 0, 40, 0});
  writer.on_departure({5, 2, 3, 0, 41, 0});
  writer.on_departure({5, 9, 0, 1, 42, 2});
  EXPECT_EQ(out.str(), "");  // cycle 5 may still have events to come
  writer.on_departure({6, 1, 0, 0, 44, 0});
  EXPECT_EQ(out.str(),
            "cycle 5 router 2 port 3 vc 0 packet 41 flit 0\n"
            "cycle 5 router 9 port 1 vc 0 packet 40 flit 0\n"
            "cycle 5 router 9 port 0 vc 1 packet 42 flit 2\n");
  writer.on_departure({6, 0, 2, 0, 45, 0});
  writer.flush();
  const std::string all = out.str();
  EXPECT_EQ(all.substr(all.find("cycle 6")),
            "cycle 6 router 0 port 2 vc 0 packet 45 flit 0\n"
            "cycle 6 router 1 port 0 vc 0 packet 44 flit 0\n");
  writer.flush();  // nothing left to write
  EXPECT_EQ(out.str(), all);
}

}  // namespace
}  // namespace wormsim::router_observer_test
