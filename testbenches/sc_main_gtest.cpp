// sc_main for GoogleTest binaries: libsystemc.so owns main() and calls sc_main.
//
// SystemC 2.3 allows one elaboration and simulation per process and has no kernel reset, so
// ctest runs every TEST in its own process (gtest_discover_tests). Run by hand with a filter
// that selects several tests, a test that simulates would leave the kernel stopped and the next
// one would crash inside SystemC; the listener below ends the run with a message instead, as
// soon as a test starts after one that ran the simulation. Tests that never call sc_start() (the
// pure unit tests) still run together in one process.
#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

// SystemC prints its banner on stdout before sc_main runs unless this variable is set;
// stdout is for results, so set it during static initialisation (before libsystemc's main).
[[maybe_unused]] static const bool kQuietSystemC =
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;

namespace {

class OneSimulationPerProcess : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo& info) override {
    if (!simulated_by_.empty()) {
      std::fprintf(stderr,
                   "\nwormsim tests: %s.%s cannot run after %s in the same process: SystemC "
                   "allows one simulation per process. Run one TEST per process (ctest does), "
                   "e.g. --gtest_filter=%s.%s\n",
                   info.test_suite_name(), info.name(), simulated_by_.c_str(),
                   info.test_suite_name(), info.name());
      std::fflush(stderr);
      std::_Exit(1);
    }
  }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    const sc_core::sc_status status = sc_core::sc_get_status();
    if (status != sc_core::SC_UNITIALIZED && status != sc_core::SC_ELABORATION)
      simulated_by_ = std::string(info.test_suite_name()) + "." + info.name();
  }

 private:
  std::string simulated_by_;  // the test that ran the simulation, if any
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new OneSimulationPerProcess);
  return RUN_ALL_TESTS();
}
