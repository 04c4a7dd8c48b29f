// Tests of the crossbar: connect, a port used twice in one cycle throws, release.
#include "crossbar.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace wormsim::crossbar_test {
namespace {

TEST(Crossbar, StartsUnconnected) {
  Crossbar x(5, 6);
  for (int out = 0; out < 6; ++out) EXPECT_EQ(x.driver_of(out), -1);
}

TEST(Crossbar, ConnectRecordsDriver) {
  Crossbar x(5, 6);
  x.connect(0, 3);
  x.connect(4, 0);
  x.connect(2, 5);
  EXPECT_EQ(x.driver_of(3), 0);
  EXPECT_EQ(x.driver_of(0), 4);
  EXPECT_EQ(x.driver_of(5), 2);
  EXPECT_EQ(x.driver_of(1), -1);
  EXPECT_EQ(x.driver_of(2), -1);
  EXPECT_EQ(x.driver_of(4), -1);
}

TEST(Crossbar, SameInputTwiceThrows) {
  Crossbar x(3, 3);
  x.connect(1, 0);
  EXPECT_THROW(x.connect(1, 2), std::logic_error);
  EXPECT_EQ(x.driver_of(0), 1);
  EXPECT_EQ(x.driver_of(2), -1);
}

TEST(Crossbar, SameOutputTwiceThrows) {
  Crossbar x(3, 3);
  x.connect(1, 2);
  EXPECT_THROW(x.connect(0, 2), std::logic_error);
  EXPECT_EQ(x.driver_of(2), 1);
  // Input 0 is still free: it can drive another output.
  EXPECT_NO_THROW(x.connect(0, 1));
  EXPECT_EQ(x.driver_of(1), 0);
}

TEST(Crossbar, IdenticalConnectionTwiceThrows) {
  Crossbar x(2, 2);
  x.connect(0, 0);
  EXPECT_THROW(x.connect(0, 0), std::logic_error);
}

TEST(Crossbar, ReleaseClearsAllConnections) {
  Crossbar x(4, 4);
  x.connect(0, 1);
  x.connect(1, 2);
  x.connect(2, 3);
  x.connect(3, 0);
  x.release();
  for (int out = 0; out < 4; ++out) EXPECT_EQ(x.driver_of(out), -1);
  // Every port may be used again in the next cycle, in a different pattern.
  x.connect(0, 0);
  x.connect(1, 3);
  x.connect(3, 1);
  x.connect(2, 2);
  EXPECT_EQ(x.driver_of(0), 0);
  EXPECT_EQ(x.driver_of(3), 1);
  EXPECT_EQ(x.driver_of(1), 3);
  EXPECT_EQ(x.driver_of(2), 2);
}

TEST(Crossbar, ReleaseWithoutConnectionsIsHarmless) {
  Crossbar x(2, 2);
  x.release();
  x.release();
  x.connect(1, 1);
  EXPECT_EQ(x.driver_of(1), 1);
}

TEST(Crossbar, ManyCycles) {
  const int n = 5;
  Crossbar x(n, n);
  for (int cycle = 0; cycle < 20; ++cycle) {
    for (int in = 0; in < n; ++in) x.connect(in, (in + cycle) % n);
    for (int out = 0; out < n; ++out) EXPECT_EQ(x.driver_of(out), ((out - cycle) % n + n) % n);
    EXPECT_THROW(x.connect(0, 0), std::logic_error);  // all ports busy
    x.release();
  }
}

// Replication (multidestination worms): one input drives several outputs in a cycle and then
// nothing else; each of those outputs still has one driver.
TEST(Crossbar, ReplicaInputDrivesSeveralOutputsAndNothingElse) {
  Crossbar x(4, 4);
  x.connect_replica(1, 0);
  x.connect_replica(1, 2);
  EXPECT_EQ(x.driver_of(0), 1);
  EXPECT_EQ(x.driver_of(2), 1);
  EXPECT_EQ(x.driver_of(1), -1);
  EXPECT_THROW(x.connect(1, 3), std::logic_error);          // a replicating input
  EXPECT_THROW(x.connect_replica(3, 2), std::logic_error);  // an output already driven
  EXPECT_THROW(x.connect(0, 0), std::logic_error);
  x.connect(0, 3);
  EXPECT_THROW(x.connect_replica(0, 1), std::logic_error);  // a plainly connected input
  EXPECT_EQ(x.driver_of(3), 0);
  x.release();
  for (int out = 0; out < 4; ++out) EXPECT_EQ(x.driver_of(out), -1);
  x.connect(1, 2);  // released: the former replicating input connects plainly
  EXPECT_EQ(x.driver_of(2), 1);
}

TEST(Crossbar, MoreThan64PortsIsRejected) {
  EXPECT_THROW(Crossbar(65, 4), std::logic_error);
  EXPECT_THROW(Crossbar(4, 65), std::logic_error);
  Crossbar x(64, 64);
  x.connect(63, 63);
  EXPECT_EQ(x.driver_of(63), 63);
}

}  // namespace
}  // namespace wormsim::crossbar_test
