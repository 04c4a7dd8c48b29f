#!/usr/bin/python3
"""Plot a collective run's results.json: maximum and average latency (us) against message
size per algorithm (seed 000 Figs. 3.14-3.17 layout), one PNG.

Usage: scripts/plot_collective.py RESULTS_JSON OUT_PNG [--title TEXT]
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


# Operation kinds (results.json "kind") whose sizes are per block, and those without a root.
PER_BLOCK = {"scatter", "gather", "alltoall", "allgather", "transpose"}
ROOTLESS = {"alltoall", "barrier", "allreduce", "allgather", "transpose"}


def operation(cfg, kinds):
    """What the operations were: broadcast, multicast, scatter, ping-pong or the other kinds."""
    col = cfg["collective"]
    if kinds == {"ping_pong"}:
        return "ping-pong (one-way)"
    if not kinds <= {"broadcast", "scatter"}:
        return " / ".join(sorted(kinds))
    kind = "scatter" if kinds == {"scatter"} else "broadcast"
    if col["random_destinations"] > 0:
        return f"{'scatter' if kind == 'scatter' else 'multicast'} to {col['random_destinations']} random nodes"
    if col["destinations"]:
        return f"{'scatter' if kind == 'scatter' else 'multicast'} to {len(col['destinations'])} nodes"
    return kind


def describe(cfg, algs, rows, kinds):
    """Title: the algorithms, the operation, the network and the roots, from results.json."""
    net = cfg["network"]
    if net["topology"] == "hypercube":
        shape = f"{net['hypercube_dimension']}-cube"
    else:
        shape = "x".join(str(d) for d in net["dims"]) + " " + net["topology"]
    router = net["router"]
    parts = [shape, router["port_model"]]
    if router["multidest"] != "none":
        parts.append(f"multidest {router['multidest']}")
    if net["routing"]["algorithm"] != "dor":
        parts.append(net["routing"]["algorithm"] + " routing")
    preset = cfg["machine"]["preset"]
    parts.append(f"preset {preset}" if preset != "none" else f"clock {net['clock_period_ns']:g} ns")
    col = cfg["collective"]
    roots = max((r["roots"] for r in rows), default=0)
    who = {"one": f"root {col['root']}", "all": f"all {roots} roots",
           "sample": f"{roots} random roots (mean over roots)"}[col["roots"]]
    if kinds <= ROOTLESS:
        who = "no root"
    return f"{' vs '.join(algs)}: {operation(cfg, kinds)}\n{', '.join(parts)}; {who}"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("results")
    ap.add_argument("png")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    with open(args.results) as f:
        res = json.load(f)
    rows = res["collective"]["summary"]
    algs = []
    for r in rows:
        if r["algorithm"] not in algs:
            algs.append(r["algorithm"])
    cfg = res["config"]
    kinds = {r["kind"] for r in rows}
    title = args.title or describe(cfg, algs, rows, kinds)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, alg in enumerate(algs):
        mine = sorted((r for r in rows if r["algorithm"] == alg), key=lambda r: r["bytes"])
        x = [r["bytes"] for r in mine]
        # One colour per algorithm: solid = max over the receivers, dashed = their average.
        ax.plot(x, [r["max_latency_us"] for r in mine], "o-", color=f"C{i}", label=alg + " max")
        ax.plot(x, [r["avg_latency_us"] for r in mine], "s--", color=f"C{i}", label=alg + " avg")
    unit = " per block" if kinds <= PER_BLOCK else " per vector" if kinds <= {"reduce", "allreduce"} else ""
    ax.set_xlabel("message size (bytes)" + unit)
    ax.set_ylabel("latency (us), over the receivers")
    ax.set_xscale("log", base=2)
    ax.set_title(title, fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.png, dpi=120)
    print("plot:", args.png)


if __name__ == "__main__":
    main()
