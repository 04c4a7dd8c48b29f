#!/usr/bin/python3
"""Latency-versus-offered-load sweep: runs `wormsim run` once per injection rate (one
simulation per process), collects results.json, writes sweep.csv and latency_load.png.

Example (the curve in docs/results-latency-load.md):
  scripts/latency_load.py --out out/sweep --set traffic.packet_length=1 \
      --set network.router.buffer_depth=8 --rates 0.05,0.1,0.2,0.3,0.35,0.4,0.42,0.45,0.5
"""
import argparse
import csv
import json
import os
import subprocess
import sys


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wormsim", default=os.path.join(here, "..", "build", "systemc", "wormsim"))
    ap.add_argument("--config", default=None, help="YAML config (default: built-in)")
    ap.add_argument("--set", action="append", default=[], help="override passed to wormsim run")
    ap.add_argument("--rates", default="0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    rows = []
    for rate in [float(r) for r in args.rates.split(",")]:
        run_dir = os.path.join(args.out, f"rate_{rate:.3f}")
        cmd = [args.wormsim, "run", "--quiet", "--out", run_dir]
        if args.config:
            cmd.insert(2, args.config)
        for s in args.set + [f"traffic.injection_rate={rate}"]:
            cmd += ["--set", s]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode not in (0, 4):  # 4 = drain incomplete: deep saturation, still a point
            sys.stderr.write(proc.stdout + proc.stderr)
            sys.stderr.write(f"latency_load: {' '.join(cmd)} exited with {proc.returncode}\n")
            return proc.returncode
        with open(os.path.join(run_dir, "results.json")) as f:
            res = json.load(f)
        row = {
            "offered": res["throughput"]["offered_flits_per_node_cycle"],
            "accepted": res["throughput"]["accepted_flits_per_node_cycle"],
            "latency_mean": res["latency"]["mean"],
            "latency_p99": res["latency"]["p99"],
            "network_latency_mean": res["network_latency"]["mean"],
            "outcome": res["outcome"],
            "config_rate": rate,
        }
        rows.append(row)
        print(f"offered {row['offered']:.3f}  accepted {row['accepted']:.3f}  "
              f"latency {row['latency_mean']:.1f} (p99 {row['latency_p99']})  {row['outcome']}")

    with open(os.path.join(args.out, "sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    off = [r["offered"] for r in rows]
    a1.plot(off, [r["latency_mean"] for r in rows], "o-", label="packet latency (mean)")
    a1.plot(off, [r["network_latency_mean"] for r in rows], "s--", label="network latency (mean)")
    a1.set_xlabel("offered load (flits/node/cycle)")
    a1.set_ylabel("latency (cycles)")
    a1.set_yscale("log")
    a1.grid(True, alpha=0.3)
    a1.legend()
    a2.plot(off, [r["accepted"] for r in rows], "o-", label="accepted")
    a2.plot(off, off, ":", color="gray", label="offered = accepted")
    a2.set_xlabel("offered load (flits/node/cycle)")
    a2.set_ylabel("accepted throughput (flits/node/cycle)")
    a2.grid(True, alpha=0.3)
    a2.legend()
    fig.suptitle("wormsim latency vs load" + (" (" + ", ".join(args.set) + ")" if args.set else ""),
                 fontsize=9)
    fig.tight_layout()
    png = os.path.join(args.out, "latency_load.png")
    fig.savefig(png, dpi=110)
    print(f"plot: {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
