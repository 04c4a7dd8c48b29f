// A deliberate wrong-way include (testbenches/CMakeLists.txt, layering_wrong_way_include): a
// file of the core layer naming the router layer above it. It must not compile.
#include "router.h"
