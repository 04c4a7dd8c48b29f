# Writes OUTPUT, a C++ file defining wormsim::build_git_commit(): `git describe --always
# --dirty` of SOURCE_DIR, or "unknown" outside a git checkout (or without git). Run at every
# build by the wormsim_build_info target (CMakeLists.txt here); the file is rewritten only
# when the text changes, so an unchanged tree neither recompiles nor relinks.
#   cmake -DSOURCE_DIR=<tree> -DOUTPUT=<file.cpp> -P build_info.cmake
set(commit unknown)
find_program(WORMSIM_GIT git)
if(WORMSIM_GIT)
  # --no-optional-locks: --dirty refreshes the index, and must not take its lock while
  # someone else commits in the same checkout.
  execute_process(COMMAND ${WORMSIM_GIT} --no-optional-locks -C ${SOURCE_DIR} describe --always --dirty
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0 AND NOT out STREQUAL "")
    set(commit "${out}")
  endif()
endif()
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT [[// Generated at build time by systemc/app/build_info.cmake; do not edit.
namespace wormsim {
const char* build_git_commit() { return "@commit@"; }
}  // namespace wormsim
]] @ONLY)
