// sc_main for GoogleTest binaries: libsystemc.so owns main() and calls sc_main.
#include <systemc>

#include <cstdlib>

#include <gtest/gtest.h>

// SystemC prints its banner on stdout before sc_main runs unless this variable is set;
// stdout is for results, so set it during static initialisation (before libsystemc's main).
[[maybe_unused]] static const bool kQuietSystemC =
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
