// `wormsim study STUDY --out DIR [...]`: the design-study runner (docs/study.md). The runner
// is scripts/study (Python: it starts one `wormsim run` per point, locally or as a Slurm job
// array, and draws the report's plots with matplotlib); this hands it the arguments and the
// path of this binary, so every point runs the wormsim that was asked for the study.
#pragma once

#include <string>
#include <vector>

namespace wormsim {

// Replaces the process with `python3 SCRIPT --wormsim SELF ARGS...`. Returns only on failure,
// with exit code 2 after a message naming what is missing (the script, python3, this binary).
int study_command(const std::string& script, const std::vector<std::string>& args);

}  // namespace wormsim
