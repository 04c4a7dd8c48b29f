#!/usr/bin/python3
"""Latency-versus-offered-load sweep: runs `wormsim run` once per injection rate (one
simulation per process) on a synthetic-traffic config, collects results.json, writes
sweep.csv and latency_load.png.

The base config is configs/synthetic_sweep.yaml (8x8 mesh, XY routing, 4 VCs x 4 flits,
uniform random 5-flit packets, no waveforms) unless --config names another; it must have
`workload: synthetic` (a collective config has no offered load). Each point adds
--set traffic.injection_rate=RATE after the --set options given here.

Example (the curve in docs/results-latency-load.md):
  scripts/latency_load.py --out out/sweep --set traffic.packet_length=1 \\
      --set network.router.buffer_depth=8 --rates 0.05,0.1,0.2,0.3,0.35,0.4,0.42,0.45,0.5
"""
import argparse
import csv
import json
import os
import subprocess
import sys

import wormsim_run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CONFIG = os.path.join(ROOT, "configs", "synthetic_sweep.yaml")


def describe(cfg):
    """One line saying what ran, from results.json's resolved config."""
    net, r, t = cfg["network"], cfg["network"]["router"], cfg["traffic"]
    if net["topology"] == "hypercube":
        shape = f"{net['hypercube_dimension']}-cube"
    else:
        shape = "x".join(str(d) for d in net["dims"]) + " " + net["topology"]
    routing = net["routing"]["algorithm"]
    if routing == "dor":
        order = net["routing"]["order"] or list(range(len(net["dims"])))
        routing = "DOR " + "".join("xyz"[d] for d in order).upper()
    text = (f"{shape}, {routing}, {r['vcs']} VCs x {r['buffer_depth']} flits, "
            f"{t['pattern']} traffic, {t['packet_length']}-flit packets")
    if r["port_model"] != "one_port":
        text += f", {r['port_model']}"
    if r["pipeline_depth"] != 1:
        text += f", {r['pipeline_depth']}-stage pipeline"
    if t.get("multicast_fraction"):
        text += f", {t['multicast_fraction']:g} multicast ({r['multidest']})"
    if cfg["machine"]["preset"] != "none":
        text += f", preset {cfg['machine']['preset']}"
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wormsim", default=os.path.join(ROOT, "build", "systemc", "wormsim"))
    ap.add_argument("--config", default=DEFAULT_CONFIG,
                    help="YAML config with workload: synthetic (default: configs/synthetic_sweep.yaml)")
    ap.add_argument("--set", action="append", default=[], help="override passed to wormsim run")
    ap.add_argument("--rates", default="0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    # Resolve the config first (wormsim validate prints it as JSON): a config error or a
    # collective workload stops the sweep before any run.
    sets = []
    for s in args.set:
        sets += ["--set", s]
    proc = subprocess.run([args.wormsim, "validate", args.config] + sets, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        return proc.returncode
    if json.loads(proc.stdout)["workload"] != "synthetic":
        sys.stderr.write(f"latency_load: {args.config} runs workload {json.loads(proc.stdout)['workload']}; "
                         "a latency-load sweep needs workload: synthetic (traffic.* sets the load)\n")
        return 2
    for line in proc.stderr.splitlines():  # e.g. keys the run does not use
        if "warning:" in line:
            sys.stderr.write(line + "\n")

    os.makedirs(args.out, exist_ok=True)
    rows = []
    config = None
    for rate in [float(r) for r in args.rates.split(",")]:
        run_dir = os.path.join(args.out, f"rate_{rate:.3f}")
        try:  # exit 4 = drain incomplete: deep saturation, still a point
            res = wormsim_run.run(args.wormsim, run_dir, args.set + [f"traffic.injection_rate={rate}"],
                                  args.config, ok=(0, 4))
        except wormsim_run.RunFailed as e:
            sys.stderr.write(f"latency_load: {e}\n")
            return 1
        config = res["config"]
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
    sim = config["simulation"]
    config_path = os.path.abspath(args.config)
    config_name = (os.path.relpath(config_path, ROOT) if config_path.startswith(ROOT + os.sep)
                   else args.config)
    fig.suptitle(f"latency vs load: {describe(config)}\n"
                 f"{config_name}; {sim['warmup_cycles']} warm-up + "
                 f"{sim['measure_cycles']} measured cycles per point, traffic.seed "
                 f"{config['traffic']['seed']}", fontsize=9)
    fig.tight_layout()
    png = os.path.join(args.out, "latency_load.png")
    fig.savefig(png, dpi=110)
    print(f"plot: {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
