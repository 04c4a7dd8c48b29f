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
    title = args.title or "{} {} mesh, {}, preset {}".format(
        "x".join(str(d) for d in cfg["network"]["dims"]), cfg["network"]["topology"],
        cfg["network"]["router"]["port_model"], cfg["machine"]["preset"])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for alg in algs:
        mine = sorted((r for r in rows if r["algorithm"] == alg), key=lambda r: r["bytes"])
        x = [r["bytes"] for r in mine]
        ax.plot(x, [r["max_latency_us"] for r in mine], "o-", label=alg + " max")
        ax.plot(x, [r["avg_latency_us"] for r in mine], "s--", label=alg + " avg")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("broadcast latency (us)")
    ax.set_xscale("log", base=2)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.png, dpi=120)
    print("plot:", args.png)


if __name__ == "__main__":
    main()
