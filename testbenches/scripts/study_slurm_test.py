#!/usr/bin/python3
"""The design-study runner on a real Slurm (docs/study.md, "On a Slurm cluster"): starts a
single-node Slurm from Debian's slurm-wlm and munge, configured in a temporary directory
(munged, slurmctld and slurmd in the foreground, on free local ports, as the current user),
submits a small study with `wormsim study --slurm --wait`, and checks that its results.csv is
the one a local run of the same study writes.

Exits 77 (CTest: skipped) with a message when Slurm or munge is not installed
(scripts/install-deps --slurm installs them) or when not run as root (slurmd starts job steps
as their user, which needs root).

Usage: study_slurm_test.py --wormsim PATH"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUDY = os.path.join(ROOT, "scripts", "study")
SKIP = 77
TOOLS = ["munged", "mungekey", "slurmctld", "slurmd", "sbatch", "sinfo"]

STUDY_TEXT = """
title: slurm smoke study
set: {network.dims: [4, 4], network.router.vcs: 2, simulation.warmup_cycles: 200,
      simulation.measure_cycles: 2000}
variants:
  - {name: path, set: {network.router.multidest: path}}
  - {name: tree, set: {network.router.multidest: tree}}
workloads:
  - name: mix
    set: {traffic.multicast_fraction: 0.2, traffic.multicast_destinations: 3}
    loads: [0.05, 0.3]
seeds: [1, 2]
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find(tool):
    return shutil.which(tool) or next((p for p in (f"/usr/sbin/{tool}", f"/sbin/{tool}")
                                       if os.access(p, os.X_OK)), None)


class LocalSlurm:
    """munged + slurmctld + slurmd for one node named localhost, all state under `tmp`."""

    def __init__(self, tmp):
        self.tmp, self.procs = tmp, []
        self.conf = os.path.join(tmp, "slurm.conf")

    def start(self):
        t = self.tmp
        for d in ("munge", "state", "spool"):
            os.makedirs(os.path.join(t, d))
        key, sock = os.path.join(t, "munge", "munge.key"), os.path.join(t, "munge", "sock")
        subprocess.run([find("mungekey"), "--create", f"--keyfile={key}"], check=True,
                       capture_output=True)
        os.chmod(key, 0o600)
        self.procs.append(subprocess.Popen(
            [find("munged"), "--foreground", "--force", f"--socket={sock}", f"--key-file={key}",
             f"--pid-file={t}/munge/pid", f"--log-file={t}/munge/log", f"--seed-file={t}/munge/seed"],
            stdout=subprocess.DEVNULL, stderr=open(f"{t}/munged.err", "w")))
        user = os.environ.get("USER") or "root"
        cpus = os.cpu_count() or 1
        with open(self.conf, "w") as f:
            f.write(textwrap.dedent(f"""\
                ClusterName=wormsimtest
                SlurmctldHost=localhost(127.0.0.1)
                SlurmUser={user}
                SlurmdUser={user}
                SlurmctldPort={free_port()}
                SlurmdPort={free_port()}
                AuthType=auth/munge
                AuthInfo=socket={sock}
                CredType=cred/munge
                StateSaveLocation={t}/state
                SlurmdSpoolDir={t}/spool
                SlurmctldPidFile={t}/slurmctld.pid
                SlurmdPidFile={t}/slurmd.pid
                SlurmctldLogFile={t}/slurmctld.log
                SlurmdLogFile={t}/slurmd.log
                ProctrackType=proctrack/linuxproc
                TaskPlugin=task/none
                JobAcctGatherType=jobacct_gather/none
                AccountingStorageType=accounting_storage/none
                JobCompType=jobcomp/none
                SelectType=select/cons_tres
                SelectTypeParameters=CR_Core
                SchedulerType=sched/backfill
                SchedulerParameters=sched_interval=1
                ReturnToService=2
                MpiDefault=none
                SwitchType=switch/none
                NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
                PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
                """))
        env = self.env()
        time.sleep(0.5)  # munged's socket
        self.procs.append(subprocess.Popen([find("slurmctld"), "-D", "-f", self.conf], env=env,
                                           stdout=subprocess.DEVNULL,
                                           stderr=open(f"{t}/slurmctld.err", "w")))
        self.procs.append(subprocess.Popen([find("slurmd"), "-D", "-N", "localhost", "-f", self.conf],
                                           env=env, stdout=subprocess.DEVNULL,
                                           stderr=open(f"{t}/slurmd.err", "w")))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            p = subprocess.run([find("sinfo"), "-h", "-o", "%T"], env=env, capture_output=True, text=True)
            if p.returncode == 0 and p.stdout.strip() == "idle":
                return
            time.sleep(0.5)
        raise RuntimeError("the local Slurm did not come up in 60 s:\n" + self.logs())

    def env(self):
        return dict(os.environ, SLURM_CONF=self.conf)

    def logs(self):
        out = []
        for name in ("munged.err", "slurmctld.err", "slurmd.err", "slurmctld.log", "slurmd.log"):
            path = os.path.join(self.tmp, name)
            if os.path.exists(path):
                with open(path) as f:
                    out.append(f"--- {name}\n" + "".join(f.readlines()[-15:]))
        return "\n".join(out)

    def stop(self):
        for p in reversed(self.procs):
            p.terminate()
        for p in reversed(self.procs):
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormsim", required=True)
    args = ap.parse_args()
    missing = [t for t in TOOLS if find(t) is None]
    if missing:
        print(f"SKIPPED: Slurm/munge not installed ({', '.join(missing)} missing); "
              "scripts/install-deps --slurm installs them")
        return SKIP
    if os.geteuid() != 0:
        print("SKIPPED: the local single-node Slurm needs root (slurmd starts job steps as their user)")
        return SKIP
    wormsim = os.path.abspath(args.wormsim)
    with tempfile.TemporaryDirectory(prefix="study_slurm_") as tmp:
        study = os.path.join(tmp, "study.yaml")
        with open(study, "w") as f:
            f.write(STUDY_TEXT)
        slurm = LocalSlurm(os.path.join(tmp, "slurm"))
        try:
            slurm.start()
            t0 = time.monotonic()
            p = subprocess.run(["/usr/bin/python3", STUDY, "--wormsim", wormsim, study, "--out",
                                os.path.join(tmp, "viaslurm"), "--slurm", "--wait"],
                               env=slurm.env(), capture_output=True, text=True, timeout=600)
            print(p.stderr, end="")
            if p.returncode != 0:
                print(f"FAILED: wormsim study --slurm --wait exited {p.returncode}\n{slurm.logs()}")
                return 1
            print(f"slurm study finished in {time.monotonic() - t0:.1f} s")
        finally:
            slurm.stop()
        sbatch = open(os.path.join(tmp, "viaslurm", "slurm", "study.sbatch")).read()
        if "#SBATCH --array=0,1,2,3,4,5,6,7\n" not in sbatch:
            print(f"FAILED: the array does not list the 8 points:\n{sbatch}")
            return 1
        logs = [f for f in os.listdir(os.path.join(tmp, "viaslurm", "slurm")) if f.endswith(".out")]
        if len(logs) != 8:
            print(f"FAILED: expected 8 array task logs, found {sorted(logs)}")
            return 1
        local = subprocess.run(["/usr/bin/python3", STUDY, "--wormsim", wormsim, study, "--out",
                                os.path.join(tmp, "local")], capture_output=True, text=True)
        if local.returncode != 0:
            print(f"FAILED: the local run exited {local.returncode}: {local.stderr}")
            return 1
        a = open(os.path.join(tmp, "viaslurm", "results.csv")).read()
        b = open(os.path.join(tmp, "local", "results.csv")).read()
        if a != b:
            print(f"FAILED: results.csv differs between Slurm and local runs:\n{a}\n---\n{b}")
            return 1
        rows = a.strip().splitlines()[1:]
        if len(rows) != 8 or any(",completed," not in r for r in rows):
            print(f"FAILED: expected 8 completed points:\n{a}")
            return 1
        print(f"PASSED: 8 points through a Slurm job array, results.csv identical to a local run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
