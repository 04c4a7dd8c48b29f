"""One `wormsim run` from a Python script: the module the figure and sweep scripts share
(scripts/latency_load.py, edn_torus_figures.py, seed001_figures.py, seed002_figures.py,
seed004_reduction.py). They import it from their own directory (Python puts a script's
directory first on sys.path)."""
import json
import os
import subprocess


class RunFailed(RuntimeError):
    """A `wormsim run` exited with a code its caller does not accept, or a collective run had
    verification errors; the message has the command and the tail of its output."""


def set_args(sets):
    """--set options from "key=value" strings or a {key: value} dict (lists and booleans
    written as YAML)."""
    def yaml_value(v):
        if isinstance(v, list):
            return "[" + ", ".join(yaml_value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        return str(v)

    items = [f"{k}={yaml_value(v)}" for k, v in sets.items()] if isinstance(sets, dict) else sets
    args = []
    for kv in items:
        args += ["--set", kv]
    return args


def run(wormsim, out, sets=(), config=None, ok=(0,)):
    """Runs `wormsim run [CONFIG] --quiet --out OUT --set ...` and returns its results.json.
    Raises RunFailed when the exit code is not in `ok` (e.g. (0, 4) to accept a saturated
    synthetic run, docs/cli.md)."""
    cmd = [wormsim, "run"] + ([config] if config else []) + ["--quiet", "--out", out]
    cmd += set_args(sets)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in ok:
        raise RunFailed(f"{' '.join(cmd)} exited {proc.returncode}:\n"
                        f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)


def run_collective(wormsim, out, sets=(), config=None):
    """run() for a collective workload: returns results.json's "collective" section, and
    raises RunFailed when any delivery failed verification."""
    c = run(wormsim, out, sets, config)["collective"]
    if c["verification_errors"]:
        raise RunFailed(f"{wormsim} run {config or ''} {' '.join(set_args(sets))}: "
                        f"{c['verification_errors']} verification errors")
    return c
