#!/usr/bin/python3
"""Seed 000 Figs. 3.13 and 3.24: message-passing steps of EDN broadcast against recursive
doubling (RD, ceil(log2 N)) and the seed's lower bounds (ceil(log4 N) for 2D three-port
meshes, ceil(log5 N) for 3D four-port meshes), from the patterns the firmware runs
(build/systemc/wormsim_edn_steps: min and max over roots). Writes DIR/edn_fig3_13.png,
DIR/edn_fig3_24.png and DIR/edn_steps.md (the tables).

Usage: scripts/edn_figures.py [--out DIR] [--tool PATH] [--max-side N] [--square-steps FILE]
--square-steps: the output of `wormsim_edn_steps square 1 N` saved earlier (the 2D sweep takes
minutes), instead of running it again.
Default DIR: docs/img (the tables go to docs/edn-steps.md). docs/edn-general.md shows them."""
import argparse
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Seed 000 Table 3.5's networks (Fig. 3.24: "3D meshes of specific sizes up to 5000 nodes").
MESH3D = ["4x4x4", "4x4x5", "4x4x12", "4x4x15", "8x8x4", "8x8x5", "4x4x36", "4x4x45", "8x8x12",
          "8x8x15", "16x16x4", "16x16x5", "4x4x108", "4x4x135", "8x8x36", "8x8x45"]


def ceil_log(n, base):
    if n <= 1:
        return 0
    t, reach = 0, 1
    while reach < n:
        reach *= base
        t += 1
    return t


missing = []  # meshes without a pattern


def run(tool, args, saved=None):
    if saved:
        with open(saved) as f:
            text = f.read()
    else:
        out = subprocess.run([tool] + args, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"edn_figures: {tool} failed: {out.stderr}")
        text = out.stdout
    rows = []
    for line in text.split("\n"):
        if line.strip():
            name, nodes, lo, hi = line.split()
            if lo == "-":
                missing.append(name)
                continue
            rows.append((name, int(nodes), int(lo), int(hi)))
    return rows


def plot(path, title, rows, bound_base, bound_label):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xs = [r[1] for r in rows]
    fig, ax = plt.subplots(figsize=(9, 5.5))
    ax.plot(xs, [ceil_log(n, 2) for n in xs], "-", color="tab:red", label="RD: ceil(log2 N)")
    ax.plot(xs, [r[3] for r in rows], "o-", ms=3, color="tab:blue", label="EDN max over roots")
    ax.plot(xs, [r[2] for r in rows], "s--", ms=3, color="tab:cyan", label="EDN min over roots")
    ax.plot(xs, [ceil_log(n, bound_base) for n in xs], ":", color="black", label=bound_label)
    ax.set_xscale("log")
    ax.set_xlabel("N, nodes")
    ax.set_ylabel("message-passing steps")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"))
    ap.add_argument("--table", default=os.path.join(ROOT, "docs", "edn-steps.md"))
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "systemc", "wormsim_edn_steps"))
    ap.add_argument("--max-side", type=int, default=256)
    ap.add_argument("--square-steps")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sq = run(args.tool, ["square", "1", str(args.max_side)], args.square_steps)
    m3 = run(args.tool, MESH3D)
    plot(os.path.join(args.out, "edn_fig3_13.png"),
         f"EDN broadcast steps in n x n meshes, 1 <= n <= {args.max_side} (seed 000 Fig. 3.13)", sq, 4,
         "lower bound ceil(log4 N)")
    plot(os.path.join(args.out, "edn_fig3_24.png"),
         "EDN broadcast steps in 3D meshes (seed 000 Fig. 3.24, Table 3.5's sizes)", m3, 5,
         "lower bound ceil(log5 N)")
    lines = ["# EDN broadcast steps (generated)", "",
             "Written by `scripts/edn_figures.py` from the firmware's patterns; "
             "docs/edn-general.md explains them.", "",
             "## 2D n x n meshes (seed 000 Fig. 3.13)", "",
             "| n | N | EDN min | EDN max | RD ceil(log2 N) | bound ceil(log4 N) |",
             "|---|---|---|---|---|---|"]
    for name, n, lo, hi in sq:
        lines.append(f"| {name.split('x')[0]} | {n} | {lo} | {hi} | {ceil_log(n, 2)} | {ceil_log(n, 4)} |")
    lines += ["", "## 3D meshes (seed 000 Fig. 3.24, Table 3.5)", "",
              "| mesh | N | EDN min | EDN max | RD ceil(log2 N) | bound ceil(log5 N) |",
              "|---|---|---|---|---|---|"]
    for name, n, lo, hi in m3:
        lines.append(f"| {name} | {n} | {lo} | {hi} | {ceil_log(n, 2)} | {ceil_log(n, 5)} |")
    with open(args.table, "w") as f:
        f.write("\n".join(lines) + "\n")
    # Summary on stdout: how often EDN meets the bounds.
    at_min = sum(1 for r in sq if r[2] == ceil_log(r[1], 4))
    at_max = sum(1 for r in sq if r[3] == ceil_log(r[1], 4))
    worst = max(r[3] - ceil_log(r[1], 4) for r in sq)
    print(f"2D: {len(sq)} sizes; EDN min = bound in {at_min}, EDN max = bound in {at_max}; "
          f"max - bound <= {worst}; EDN max < RD in {sum(1 for r in sq if r[3] < ceil_log(r[1], 2))}")
    if missing:
        print("no pattern: " + " ".join(missing))
    print(f"3D: {len(m3)} sizes; max - ceil(log5 N) <= {max(r[3] - ceil_log(r[1], 5) for r in m3)}; "
          f"RD - EDN max: {sorted(set(ceil_log(r[1], 2) - r[3] for r in m3))}")


if __name__ == "__main__":
    main()
