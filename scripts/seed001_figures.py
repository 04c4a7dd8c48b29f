#!/usr/bin/python3
"""Seed 001's experiments (Robinson, Judd, McKinley and Cheng, "Efficient Collective Data
Distribution in All-Port Wormhole-Routed Hypercubes", section 5): u_cube, maxport, combine and
w_sort multicasting from random sources to random destination sets on all-port n-cubes, run by
wormsim on configs/seed001_hypercube.yaml. For each figure it writes DIR/<figure>.md (a table per
destination count) and DIR/<figure>.png.

Usage: scripts/seed001_figures.py [FIGURE ...] [--out DIR] [--wormsim PATH] [--jobs N]
                                  [--sets N] [--counts M,M,...]
FIGURE: fig9 (average over sets of the max steps, 6-cube, 100 sets per count), fig10 (the same
on a 10-cube), fig11_12 (average and max delay over the destinations, 4096 bytes, nCUBE-2
parameters, 5-cube, 20 sets per count), fig13_14 (the same on a 10-cube: 100 sets per count in
the seed, 10 here unless --sets, since each 10-cube operation of 4096 bytes takes about a second
of simulation); default: all of them. --sets and --counts apply to every figure named.
Steps do not depend on the message size or the start-ups (the firmware tags every message with its
step), so fig9 and fig10 run 1-byte messages with 1-cycle start-ups to be quick.
docs/hypercube-multicast.md shows the results and compares them with the seed's claims."""
import argparse
import concurrent.futures
import os
import sys

import wormsim_run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "configs", "seed001_hypercube.yaml")
ALGS = ["u_cube", "maxport", "combine", "w_sort"]
QUICK = {"machine.preset": "none", "node.alpha_cycles": "1", "node.gamma_cycles": "1",
         "collective.message_bytes": "[1]"}
# name: (dimension, default sets per count, default destination counts, metric, quick runs)
FIGURES = {
    "fig9": (6, 100, list(range(1, 64)), "steps", True),
    "fig10": (10, 100, [1, 8, 16, 32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 896, 1023],
              "steps", True),
    "fig11_12": (5, 20, list(range(1, 32)), "delay", False),
    "fig13_14": (10, 10, [16, 64, 128, 256, 512, 768, 1023], "delay", False),
}


def run(wormsim, out, sets):
    return wormsim_run.run_collective(wormsim, out, [f"{k}={v}" for k, v in sets.items()],
                                      BASE)["operations"]


def figure_runs(n, sets, counts, quick):
    """One run per (count, chunk): a chunk samples at most 2^n distinct sources, each with its own
    random set of `count` destinations (collective.random_destinations), and a chunk's
    collective.seed differs from the others', so every set is drawn independently."""
    nodes = 1 << n
    jobs = {}
    for m in counts:
        left, chunk = sets, 0
        while left > 0:
            k = min(left, nodes)
            sets_ = {"network.hypercube_dimension": str(n), "collective.random_destinations": str(m),
                     "collective.sample": str(k), "collective.seed": str(1 + chunk)}
            if quick:
                sets_.update(QUICK)
            jobs[(m, chunk)] = sets_
            left -= k
            chunk += 1
    return jobs


def collect(args, name, n, sets, counts, quick):
    jobs = figure_runs(n, sets, counts, quick)
    ops = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run, args.wormsim, os.path.join(args.out, "runs", f"{name}-m{m}-c{c}"), s): m
                   for (m, c), s in jobs.items()}
        for fut in concurrent.futures.as_completed(futures):
            ops.setdefault(futures[fut], []).extend(fut.result())
    print(f"  done: {name}", file=sys.stderr)
    return ops


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def series(ops, key, scale=1.0):
    """{alg: [(count, mean over the sets of op[key])]}"""
    out = {a: [] for a in ALGS}
    for m in sorted(ops):
        for a in ALGS:
            vals = [o[key] * scale for o in ops[m] if o["algorithm"] == a]
            if vals:
                out[a].append((m, mean(vals)))
    return out


def plot(path, title, ylabel, data):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for a, pts in data.items():
        if pts:
            xs, ys = zip(*pts)
            ax.plot(xs, ys, ".-" if len(xs) > 20 else "o-", label=a)
    ax.set_xlabel("destinations")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def table(title, command, columns):
    """columns: [(label, {alg: [(count, value)]}, fmt)]"""
    counts = sorted({m for _, d, _ in columns for pts in d.values() for m, _ in pts})
    head = "| destinations | " + " | ".join(f"{lab} {a}" for lab, _, _ in columns for a in ALGS) + " |"
    lines = [f"### {title}", "", f"`{command}`", "", head, "|---|" + "---|" * (len(columns) * len(ALGS))]
    for m in counts:
        cells = []
        for _, d, f in columns:
            for a in ALGS:
                v = dict(d[a]).get(m)
                cells.append("-" if v is None else f.format(v))
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    # The mean over the counts, per metric and algorithm: who wins, in one number.
    cells = []
    for _, d, f in columns:
        for a in ALGS:
            cells.append(f.format(mean([v for _, v in d[a]])))
    lines.append("| mean over the counts | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("figures", nargs="*", default=[], help=", ".join(FIGURES))
    ap.add_argument("--out", default="seed001_figures")
    ap.add_argument("--wormsim", default=os.path.join(ROOT, "build", "systemc", "wormsim"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sets", type=int, default=0, help="sets per destination count (default: the figure's)")
    ap.add_argument("--counts", default="", help="destination counts, comma-separated (default: the figure's)")
    args = ap.parse_args()
    if not os.access(args.wormsim, os.X_OK):
        sys.exit(f"seed001_figures: no wormsim binary at {args.wormsim} (build it, or pass --wormsim)")
    unknown = [f for f in args.figures if f not in FIGURES]
    if unknown:
        sys.exit(f"seed001_figures: unknown figure {', '.join(unknown)} (known: {', '.join(FIGURES)})")
    os.makedirs(args.out, exist_ok=True)
    for name in args.figures or list(FIGURES):
        n, sets, counts, metric, quick = FIGURES[name]
        sets = args.sets or sets
        if args.counts:
            counts = sorted({int(x) for x in args.counts.split(",")})
        bad = [m for m in counts if not 1 <= m < (1 << n)]
        if bad:
            sys.exit(f"seed001_figures: --counts {bad} outside 1..{(1 << n) - 1} for the {n}-cube of {name}")
        ops = collect(args, name, n, sets, counts, quick)
        command = "scripts/seed001_figures.py " + name + (f" --sets {args.sets}" if args.sets else "") + \
            (f" --counts {args.counts}" if args.counts else "")
        if metric == "steps":
            steps = series(ops, "steps")
            title = f"{name}: average of the max steps, {n}-cube, {sets} random sets per count"
            md = table(title, command, [("steps", steps, "{:.2f}")])
            plot(os.path.join(args.out, f"{name}.png"), title, "steps (mean over sets of the max)", steps)
        else:
            avg = series(ops, "avg_latency_us", 1e-3)
            mx = series(ops, "max_latency_us", 1e-3)
            title = f"{name}: delay of a 4096-byte multicast, {n}-cube, nCUBE-2, {sets} random sets per count"
            md = table(title, command, [("avg ms", avg, "{:.2f}"), ("max ms", mx, "{:.2f}")])
            plot(os.path.join(args.out, f"{name}_avg.png"), title.replace("delay", "average delay"),
                 "average delay over the destinations, ms", avg)
            plot(os.path.join(args.out, f"{name}_max.png"), title.replace("delay", "maximum delay"),
                 "maximum delay over the destinations, ms", mx)
        # Theorems 3 and 6 over every set the figure ran: the simulator's contention counters
        # (the step figures' 1-byte worms are too short to meet, so only the delay figures).
        if metric == "delay":
            md += "\n| contention over all operations | " + " | ".join(ALGS) + " |\n|---|" + "---|" * len(ALGS) + "\n"
        for key in ("contention_stepwise", "contention_depth") if metric == "delay" else ():
            cells = []
            for a in ALGS:
                mine = [o for m in ops for o in ops[m] if o["algorithm"] == a]
                hit = sum(1 for o in mine if o[key])
                cells.append(f"{sum(o[key] for o in mine)} events in {hit} of {len(mine)} operations")
            md += f"| {key.split('_')[1]} | " + " | ".join(cells) + " |\n"
        with open(os.path.join(args.out, f"{name}.md"), "w") as f:
            f.write(md + "\n")
        print(f"{name}: {os.path.join(args.out, name)}.md", file=sys.stderr)


if __name__ == "__main__":
    main()
