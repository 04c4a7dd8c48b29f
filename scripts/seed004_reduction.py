#!/usr/bin/python3
"""Seed 004's comparisons (Huang, Huang and McKinley, section 5 and Table 1) on 2D meshes with
intermediate reception, with the DELTA and J-Machine presets (Table 2), from
configs/seed004_reduction.yaml:

- reduction: the N/N global reduction as m_array_allreduce (the M-array along the Hamiltonian
  path, Hamiltonian-path routing), m_mesh_allreduce (M-arrays in every row and column, XY
  routing) and tree_rowcol_allreduce (a binomial tree in each row and column, unicasts, XY);
  64 and 1024 bytes;
- all-to-all broadcast (Table 1's third row): m_array_allgather, m_mesh_allgather (the N/N
  reduction with concatenation on the M-array / M-mesh) and tree_rowcol_allgather (gather and
  broadcast on the row/column binomial trees); 16-byte blocks;
- reduction to a root and the REM-array: m_array_reduce (the N/N schedule, the root
  delivers), rem_array_reduce (the schedule pruned to N - 1 REM-array multicasts) and
  rem_array_allreduce (the N/N schedule over the REM-array's channels), Hamiltonian routing;
  64 bytes, 4 sampled roots.

Writes DIR/seed004-reduction.md (a table per comparison, preset and size: max latency in us,
steps, hops per message, messages, flit-hops, stepwise and depth contention) and
DIR/img/seed004-reduction.png (latency against nodes).

Usage: scripts/seed004_reduction.py [--out DIR] [--wormsim PATH] [--jobs N] [--sides 4,8,...]
Default: --out docs --sides 4,8,16,32 (16 to 1024 nodes); about 4 minutes on 2 cores."""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "configs", "seed004_reduction.yaml")
PRESETS = ["delta", "jmachine"]
# Each comparison: its algorithms with the base routing they run under, the message sizes
# (bytes; per block for the all-to-all broadcast) and extra --set overrides.
COMPARISONS = [
    {"name": "reduction", "title": "N/N global reduction (allreduce, int32 sum)",
     "algs": {"m_array_allreduce": "hamiltonian", "m_mesh_allreduce": "dor",
              "tree_rowcol_allreduce": "dor"},
     "sizes": [64, 1024], "sets": []},
    {"name": "allgather", "title": "All-to-all broadcast (allgather), bytes per node's block",
     "algs": {"m_array_allgather": "hamiltonian", "m_mesh_allgather": "dor",
              "tree_rowcol_allgather": "dor"},
     "sizes": [16], "sets": []},
    {"name": "rem", "title": "Reduction to a root (4 sampled roots; int32 sum) and the "
                            "REM-array's N/N reduction, Hamiltonian-path routing",
     "algs": {"m_array_reduce": "hamiltonian", "rem_array_reduce": "hamiltonian",
              "rem_array_allreduce": "hamiltonian"},
     "sizes": [64], "sets": ["collective.roots=sample", "collective.sample=4"]},
]


def run(wormsim, out, preset, side, comp, alg):
    d = os.path.join(out, f"{preset}_{side}_{alg}")
    cmd = [wormsim, "run", BASE, "--quiet", "--out", d, "--set", f"machine.preset={preset}",
           "--set", f"network.dims=[{side}, {side}]", "--set",
           f"network.routing.algorithm={comp['algs'][alg]}", "--set",
           f"collective.algorithms=[{alg}]", "--set",
           "collective.message_bytes=[" + ", ".join(map(str, comp["sizes"])) + "]"]
    for s in comp["sets"]:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"seed004_reduction: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    with open(os.path.join(d, "results.json")) as f:
        ops = json.load(f)["collective"]["operations"]
    return [(preset, side, alg, o) for o in ops]


def cell(ops):
    """The worst operation over the sampled roots (one operation when there is no root)."""
    for o in ops:
        if o["errors"]:
            sys.exit(f"seed004_reduction: {o['algorithm']}: {o['errors']}")
    o = max(ops, key=lambda o: o["max_latency_us"])
    return (f"{o['max_latency_us']:.1f} us, {o['steps']} st, {o['avg_path_length']:.1f} h, "
            f"{o['messages']} msg, {o['flit_hops'] / 1000:.1f}k fh, "
            f"{sum(x['contention_stepwise'] for x in ops)}/"
            f"{sum(x['contention_depth'] for x in ops)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--runs", default=os.path.join(ROOT, "out", "seed004_reduction"))
    ap.add_argument("--wormsim", default=os.path.join(ROOT, "build", "systemc", "wormsim"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sides", default="4,8,16,32")
    args = ap.parse_args()
    sides = [int(s) for s in args.sides.split(",")]
    # Largest first, so the long runs do not come last.
    jobs = [(p, s, c, a) for s in reversed(sides) for c in COMPARISONS for a in c["algs"]
            for p in PRESETS]
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for r in ex.map(lambda j: run(args.wormsim, args.runs, *j), jobs):
            rows += r
    os.makedirs(args.out, exist_ok=True)
    lines = ["# Seed 004 comparisons (generated by scripts/seed004_reduction.py)", "",
             "n x n meshes, one-port, path worms with intermediate reception; max latency over "
             "the nodes in us (the worst sampled root for the reductions to a root); steps; hops "
             "per message; messages (a worm counts at each of its destinations); flit-hops in "
             "thousands; contention events stepwise/depth (summed over the roots). Config: "
             "configs/seed004_reduction.yaml.", ""]
    for comp in COMPARISONS:
        algs = comp["algs"]
        lines += [f"## {comp['title']}", ""]
        for preset in PRESETS:
            for size in comp["sizes"]:
                lines += [f"### {preset}, {size} bytes", "",
                          "| nodes | " + " | ".join(algs) + " |",
                          "|---:|" + "---:|" * len(algs)]
                for side in sides:
                    cells = [cell([o for p, s, a, o in rows if p == preset and s == side
                                   and a == alg and o["bytes"] == size]) for alg in algs]
                    lines.append(f"| {side * side} | " + " | ".join(cells) + " |")
                lines.append("")
    with open(os.path.join(args.out, "seed004-reduction.md"), "w") as f:
        f.write("\n".join(lines))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    panels = [(c, size) for c in COMPARISONS for size in c["sizes"]]
    fig, axes = plt.subplots(len(panels), len(PRESETS), figsize=(10, 3.6 * len(panels)),
                             squeeze=False)
    for i, (comp, size) in enumerate(panels):
        for j, preset in enumerate(PRESETS):
            ax = axes[i][j]
            for alg in comp["algs"]:
                pts = {}
                for p, s, a, o in rows:
                    if p == preset and a == alg and o["bytes"] == size:
                        pts[s * s] = max(pts.get(s * s, 0), o["max_latency_us"])
                ax.plot(sorted(pts), [pts[x] for x in sorted(pts)], marker="o", label=alg)
            ax.set_xscale("log", base=2)
            ax.set_title(f"{comp['name']}: {preset}, {size} bytes")
            ax.set_xlabel("nodes (n x n mesh)")
            ax.set_ylabel("max latency (us)")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
    fig.suptitle("Seed 004: the M-array, the M-mesh, the REM-array and row/column trees")
    fig.tight_layout()
    os.makedirs(os.path.join(args.out, "img"), exist_ok=True)
    fig.savefig(os.path.join(args.out, "img", "seed004-reduction.png"), dpi=90)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
