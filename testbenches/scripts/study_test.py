#!/usr/bin/python3
"""Tests of the design-study runner, scripts/study (`wormsim study`, docs/study.md): results
independent of the worker count, resume after an interruption, bad study configs, failing and
deadlocked points, and the `wormsim study` entry point.

Usage: study_test.py --wormsim PATH [unittest options]"""
import argparse
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUDY = os.path.join(ROOT, "scripts", "study")
WORMSIM = None

# A small study: 2 variants x (3 synthetic loads + 1 collective point) x 2 seeds = 14 points
# of a 4x4 mesh, each well under a second.
TINY = """
title: tiny
set:
  network.dims: [4, 4]
  network.router.vcs: 2
variants:
  - name: path/async
    set: {network.router.multidest: path}
  - name: tree/sync
    set: {network.router.multidest: tree, network.router.replication: synchronous}
workloads:
  - name: mix
    set: {traffic.multicast_fraction: 0.2, traffic.multicast_destinations: 3,
          traffic.packet_length: 8, simulation.warmup_cycles: 200,
          simulation.measure_cycles: 1500}
    loads: [0.05, 0.2, 0.4]
  - name: bcast
    kind: collective
    set: {collective.algorithms: [path_multicast], collective.message_bytes: [64],
          collective.roots: one, trace.enabled: false, trace.timeline: false}
    loads: [0]
    variants: [path/async]
    load_key: collective.peer
    seed_key: collective.root
seeds: [2, 3]
"""


def run_study(args, **kw):
    return subprocess.run(["/usr/bin/python3", STUDY, "--wormsim", WORMSIM] + args,
                          capture_output=True, text=True, **kw)


def read(path):
    with open(path) as f:
        return f.read()


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


class StudyTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="study_test_")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def test_results_do_not_depend_on_the_worker_count(self):
        study = self.write("tiny.yaml", TINY)
        one = run_study([study, "--out", os.path.join(self.dir, "j1"), "--jobs", "1"])
        self.assertEqual(one.returncode, 0, one.stderr)
        two = run_study([study, "--out", os.path.join(self.dir, "j2"), "--jobs", "2"])
        self.assertEqual(two.returncode, 0, two.stderr)
        self.assertEqual(read(os.path.join(self.dir, "j1", "results.csv")),
                         read(os.path.join(self.dir, "j2", "results.csv")))
        rows = read_csv(os.path.join(self.dir, "j1", "results.csv"))
        # Every point of the study, in study order, each with its metrics.
        self.assertEqual(len(rows), 2 * 3 * 2 + 1 * 1 * 2)
        self.assertEqual([(r["workload"], r["variant"], r["load"], r["seed"]) for r in rows[:4]],
                         [("mix", "path/async", "0.05", "2"), ("mix", "path/async", "0.05", "3"),
                          ("mix", "path/async", "0.2", "2"), ("mix", "path/async", "0.2", "3")])
        for r in rows:
            self.assertEqual(r["outcome"], "completed", r)
            self.assertNotEqual(r["latency_mean"], "", r)
        # The class split comes from each point's own results.json.
        for r in rows[:12]:
            pid = f"mix__{r['variant'].replace('/', '_')}__load{r['load']}__seed{r['seed']}"
            with open(os.path.join(self.dir, "j1", "points", pid, "results.json")) as f:
                res = json.load(f)
            self.assertAlmostEqual(float(r["multicast_latency_mean"]), res["classes"]["multicast"]["mean"])
            self.assertAlmostEqual(float(r["unicast_latency_mean"]), res["classes"]["unicast"]["mean"])
            self.assertEqual(int(r["multicast_packets"]), res["classes"]["multicast"]["count"])
            self.assertEqual(int(r["unicast_packets"]), res["classes"]["unicast"]["count"])
            for k in ("blocked_per_packet", "header_overhead", "consumption_occupancy_mean"):
                self.assertNotEqual(r[k], "", (k, r))
        for r in rows[:12]:  # offered load tracks the swept injection rate
            self.assertAlmostEqual(float(r["offered"]), float(r["load"]), delta=0.04 + 0.2 * float(r["load"]))
        report = read(os.path.join(self.dir, "j1", "report.md"))
        for text in ("## Summary", "## Workload mix", "latency_load_mix.png", "deadlock_map.png",
                     "## Hardware cost", "Zero load"):
            self.assertIn(text, report)
        for png in ("latency_load_mix.png", "deadlock_map.png"):
            with open(os.path.join(self.dir, "j1", png), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_an_interrupted_study_resumes_with_only_the_missing_points(self):
        # Points long enough (8x8, 30k cycles) that the interrupt lands mid-study.
        study = self.write("slow.yaml", """
            title: slow
            set: {network.router.vcs: 2, simulation.warmup_cycles: 1000,
                  simulation.measure_cycles: 30000}
            variants:
              - {name: dor, set: {}}
            workloads:
              - {name: uniform, loads: [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]}
            """)
        out = os.path.join(self.dir, "out")
        proc = subprocess.Popen(["/usr/bin/python3", STUDY, "--wormsim", WORMSIM, study, "--out", out,
                                 "--jobs", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        points = os.path.join(out, "points")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            done = [d for d in (os.listdir(points) if os.path.isdir(points) else [])
                    if os.path.exists(os.path.join(points, d, "status.json"))]
            if len(done) >= 2:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("the same command resumes", err)
        finished = {d: os.stat(os.path.join(points, d, "status.json")).st_mtime_ns
                    for d in os.listdir(points) if os.path.exists(os.path.join(points, d, "status.json"))}
        self.assertGreaterEqual(len(finished), 2)
        self.assertLess(len(finished), 6, "the interrupt came after the last point")
        again = run_study([study, "--out", out, "--jobs", "1"])
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn(f"6 points, {len(finished)} already finished, running {6 - len(finished)}",
                      again.stderr)
        for d, mtime in finished.items():  # finished points were not run again
            self.assertEqual(os.stat(os.path.join(points, d, "status.json")).st_mtime_ns, mtime)
        rows = read_csv(os.path.join(out, "results.csv"))
        self.assertEqual([r["outcome"] for r in rows], ["completed"] * 6)
        # A third run has nothing left to do.
        third = run_study([study, "--out", out])
        self.assertIn("6 points, 6 already finished, running 0", third.stderr)

    def test_a_changed_point_runs_again(self):
        study = self.write("a.yaml", TINY)
        out = os.path.join(self.dir, "out")
        self.assertEqual(run_study([study, "--out", out]).returncode, 0)
        # A new load adds 4 points; a changed workload setting invalidates that workload's 12.
        self.write("a.yaml", TINY.replace("loads: [0.05, 0.2, 0.4]", "loads: [0.05, 0.2, 0.4, 0.3]"))
        p = run_study([study, "--out", out])
        self.assertIn("18 points, 14 already finished, running 4", p.stderr)
        self.write("a.yaml", TINY.replace("traffic.packet_length: 8", "traffic.packet_length: 6"))
        p = run_study([study, "--out", out])
        self.assertIn("14 points, 2 already finished, running 12", p.stderr)

    def test_bad_study_configs_exit_2_naming_the_key(self):
        cases = {
            "variants: []\nworkloads: [{name: a, loads: [0.1]}]\n": "variants: must be a non-empty list",
            "variants: [{name: v}]\nworkloads: [{name: a, loads: []}]\n": "workloads[0].loads: must be a non-empty list",
            "variants: [{name: v}]\nworkloads: [{name: a, loads: [0.1, x]}]\n": "workloads[0].loads[1]: 'x' is not a number",
            "variants: [{name: v}, {name: v}]\nworkloads: [{name: a, loads: [0.1]}]\n": "variants[1].name: 'v' is used twice",
            "variants: [{name: v}]\nworkloads: [{name: a, kind: bogus, loads: [0.1]}]\n": "workloads[0].kind: 'bogus' is not one of",
            "variants: [{name: v}]\nworkloads: [{name: a, loads: [0.1], variants: [w]}]\n": "workloads[0].variants[0]: no variant is named 'w'",
            "variants: [{name: v, sett: {}}]\nworkloads: [{name: a, loads: [0.1]}]\n": "variants[0].sett: unknown key",
            "variantz: []\n": "variantz: unknown key",
            "variants: [{name: v}]\nworkloads: [{name: a, loads: [0.1]}]\nseeds: [-1]\n": "seeds[0]: -1 is not a non-negative integer",
            "variants: [{name: v, set: [1]}]\nworkloads: [{name: a, loads: [0.1]}]\n": "variants[0].set: must be a map",
            # A key wormsim does not know, and a value it refuses: wormsim's own message, with the point.
            "variants: [{name: v, set: {network.router.vcz: 2}}]\nworkloads: [{name: a, loads: [0.1]}]\n": "network.router.vcz: unknown key",
            "variants: [{name: v}]\nworkloads: [{name: a, loads: [0.1], set: {traffic.packet_length: 0}}]\n": "traffic.packet_length",
            "base: nothere.yaml\nvariants: [{name: v}]\nworkloads: [{name: a, loads: [0.1]}]\n": "base: ",
            "[1, 2]\n": "(file): must be a YAML map",
            "variants: [\n": "(file): not valid YAML",
        }
        for i, (text, message) in enumerate(cases.items()):
            with self.subTest(config=text):
                path = self.write("bad.yaml", text)
                p = run_study([path, "--out", os.path.join(self.dir, f"bad{i}")])
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(message, p.stderr)
                self.assertIn("bad.yaml", p.stderr)
                self.assertFalse(os.path.exists(os.path.join(self.dir, f"bad{i}", "points")),
                                 "no point runs before the whole study is valid")
        p = run_study([os.path.join(self.dir, "missing.yaml"), "--out", os.path.join(self.dir, "bad")])
        self.assertEqual(p.returncode, 2)
        self.assertIn("missing.yaml: (file): cannot read", p.stderr)

    def test_a_failing_point_is_reported_and_the_study_goes_on(self):
        # A wormsim that fails one point at run time (after validation), as a crash would.
        fake = self.write("fake_wormsim", f"""\
            #!/bin/sh
            case "$*" in
              run*traffic.injection_rate=0.2*traffic.seed=3*)
                echo "wormsim: error: injected failure" >&2; exit 1;;
              run*traffic.injection_rate=0.4*traffic.seed=2*)
                kill -ABRT $$;;
            esac
            exec {WORMSIM} "$@"
            """)
        os.chmod(fake, 0o755)
        study = self.write("tiny.yaml", TINY)
        out = os.path.join(self.dir, "out")
        p = subprocess.run(["/usr/bin/python3", STUDY, "--wormsim", fake, study, "--out", out],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("4 points failed", p.stderr)
        rows = read_csv(os.path.join(out, "results.csv"))
        failed = [r for r in rows if r["outcome"] == "failed"]
        # Both variants' (0.2, seed 3) points exit 1; their (0.4, seed 2) points crash.
        self.assertEqual(len(failed), 4)
        self.assertEqual({(r["load"], r["seed"], r["exit"]) for r in failed},
                         {("0.2", "3", "1"), ("0.4", "2", "-6")})
        self.assertEqual({r["error"] for r in failed},
                         {"wormsim: error: injected failure", "killed by signal 6 (SIGABRT)"})
        self.assertEqual(sum(r["outcome"] == "completed" for r in rows), len(rows) - 4)
        report = read(os.path.join(out, "report.md"))
        self.assertIn("## Failed points", report)
        self.assertIn("injected failure", report)
        # A failed point is finished: a rerun does not retry it (delete its directory to retry).
        again = subprocess.run(["/usr/bin/python3", STUDY, "--wormsim", fake, study, "--out", out],
                               capture_output=True, text=True)
        self.assertIn("14 already finished, running 0", again.stderr)

    def test_deadlocked_points_keep_their_watchdog_report(self):
        # A 4x4 torus without datelines deadlocks under load (configs/deadlock_torus.yaml).
        study = self.write("dl.yaml", """
            title: deadlock
            set: {network.topology: torus, network.dims: [4, 4], network.router.vcs: 1,
                  network.router.buffer_depth: 2, traffic.packet_length: 8,
                  simulation.watchdog_cycles: 500, simulation.measure_cycles: 3000}
            variants:
              - {name: no-dateline, set: {network.routing.dateline: false}}
              - {name: dateline, set: {network.router.vcs: 2}}
            workloads:
              - {name: uniform, loads: [0.02, 0.6]}
            """)
        out = os.path.join(self.dir, "out")
        p = run_study([study, "--out", out])
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = {(r["variant"], r["load"]): r for r in read_csv(os.path.join(out, "results.csv"))}
        self.assertEqual(rows[("no-dateline", "0.6")]["outcome"], "deadlock")
        self.assertEqual(rows[("no-dateline", "0.6")]["exit"], "3")
        self.assertNotEqual(rows[("no-dateline", "0.6")]["deadlock_detected_at"], "")
        self.assertEqual(rows[("dateline", "0.6")]["outcome"], "saturated" if rows[("dateline", "0.6")]["exit"] == "4" else "completed")
        with open(os.path.join(out, "results.json")) as f:
            points = {(q["variant"], q["load"]): q for q in json.load(f)["points"]}
        summary = points[("no-dateline", 0.6)]["deadlock"]
        self.assertEqual(summary["kind"], "routing")  # a unicast ring without datelines
        self.assertGreater(len(summary["cycle"]), 1)
        # The point's own results.json keeps the whole report; the study's holds its cycle.
        pid = "uniform__no-dateline__load0.6__seed1"
        with open(os.path.join(out, "points", pid, "results.json")) as f:
            full = json.load(f)["deadlock"]
        self.assertEqual(summary["detected_at"], full["detected_at"])
        self.assertEqual(summary["waiting_vcs"], len(full["waiting"]))
        self.assertEqual([(w["router"], w["vc"]) for w in summary["cycle"]],
                         [(full["waiting"][i]["router"], full["waiting"][i]["vc"]) for i in full["cycle"]])
        text = read(os.path.join(out, "report.md"))
        self.assertIn("| uniform | no-dateline | 0.6 (1) | routing |", text)
        self.assertNotIn("| uniform | dateline |", text)

    def test_shipped_studies_are_valid(self):
        # Every configs/study_*.yaml, and every point of it, is a valid config (docs/study.md).
        studies = sorted(f for f in os.listdir(os.path.join(ROOT, "configs")) if f.startswith("study_"))
        self.assertTrue(studies)
        for name in studies:
            with self.subTest(study=name):
                p = run_study([os.path.join(ROOT, "configs", name), "--check"])
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("valid", p.stderr)
                self.assertNotIn("warning", p.stderr)

    def test_wormsim_study_runs_the_runner_with_this_wormsim(self):
        study = self.write("tiny.yaml", TINY)
        out = os.path.join(self.dir, "out")
        p = subprocess.run([WORMSIM, "study", study, "--out", out, "--list"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), 14)
        self.assertIn("mix__path_async__load0.05__seed2", p.stdout)
        p = subprocess.run([WORMSIM, "study", "--help"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0)
        self.assertIn("--slurm", p.stdout)
        p = subprocess.run([WORMSIM, "study", study], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--out", p.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormsim", required=True)
    args, rest = ap.parse_known_args()
    WORMSIM = os.path.abspath(args.wormsim)
    unittest.main(argv=[sys.argv[0]] + rest)
