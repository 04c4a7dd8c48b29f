#!/usr/bin/python3
"""Seed 002's experiments (Hambrusch, Hameed and Khokhar, "Communication Operations on
Coarse-Grained Mesh Architectures") on the simulated Touchstone Delta: runs wormsim on
configs/seed002_delta.yaml with the figure's algorithms and sizes, and writes, for each figure,
DIR/<figure>.md (simulated against the seed's table, where it has one) and DIR/<figure>.png.

Usage: scripts/seed002_figures.py [FIGURE ...] [--out DIR] [--wormsim PATH] [--jobs N]
                                  [--set KEY=VALUE]...
FIGURE: fig2 (one-to-all), fig5 (fig2's times against set-ups), fig6 (all-to-one), fig9
(all-to-all, L <= 1024 unless --full), fig11 (all-to-all, p^2 L = 2 MB), gamma (the
logp-lev-rec gamma sweeps of sections 3.2 and 4.1); default: all of them.
Times are the operations' max latency (the last receiver's data is the application's) in ms.
docs/seed002-delta.md shows the results and compares them with the seed's claims."""
import argparse
import concurrent.futures
import os
import sys

import wormsim_run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "configs", "seed002_delta.yaml")
SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]

# The seed's tables (Figs. 2, 6 and 9; 256 processors, P_0 as source / destination, ms).
# None: the seed has no value ("--" / "-").
FIG2 = {
    "o2a_1_lev_dir": [26.04, 26.45, 26.05, 28.58, 29.50, 37.61, 52.80, 75.22, 130.80, 226.21, 420.82],
    "o2a_1_lev_sys_br": [13.13, 27.43, 53.65, 110.68, 219.30, 442.78, 887.07, 1773.89, None, None, None],
    "o2a_1_lev_our_br": [6.78, 11.29, 19.90, 36.73, 70.67, 138.88, 275.79, 549.12, 1096.23, 2193.51, 4377.44],
    "o2a_2_lev_rec": [3.77, 4.45, 5.06, 6.91, 9.79, 16.25, 28.90, 53.61, 103.79, 203.38, 400.03],
    "o2a_3_lev_sq": [4.17, 4.99, 5.52, 7.56, 10.57, 16.87, 29.46, 54.25, 104.60, 203.30, 402.60],
    "o2a_logp_lev_sq": [2.80, 3.43, 4.48, 6.79, 11.21, 19.62, 36.62, 70.63, 138.30, 274.02, 545.37],
    "o2a_logp_lev_rec": [3.02, 3.29, 4.35, 5.80, 9.10, 15.13, 27.14, 51.35, 100.35, 198.13, 393.44],
}
FIG6 = {
    "a2o_1_lev_dir": [16.70, 16.76, 16.37, 20.06, 22.76, 40.26, 66.65, 118.24, 230.57, 540.16, 1451.35],
    "a2o_2_lev_rec": [2.54, 3.14, 4.01, 5.99, 9.40, 17.07, 31.75, 95.32, 145.79, 287.27, 564.30],
    "a2o_3_lev_sq": [2.65, 3.13, 4.22, 6.41, 10.91, 18.98, 37.79, 67.60, 140.16, 300.63, 610.34],
    "a2o_logp_lev_sq": [2.85, 3.42, 4.73, 6.78, 11.18, 19.75, 37.10, 71.04, 139.49, 276.10, 548.38],
    "a2o_logp_lev_rec": [2.91, 3.25, 4.35, 6.30, 10.70, 18.93, 35.17, 67.53, 128.98, 255.51, 508.84],
}
FIG9 = {
    "a2a_1_lev_dir": [69.75, 68.11, 70.28, 73.21, 82.84, 169.48, 316.78, 598.82, 1494.48, 3115.27, 6860.21],
    "a2a_1_lev_lin": [66.55, 63.03, 67.66, 71.12, 94.48, 182.18, 330.90, 639.83, 1294.39, 2661.56, 5476.28],
    "a2a_1_lev_xor": [61.40, 59.21, 59.51, 63.75, 78.20, 147.98, 273.28, 536.01, 1081.05, 2231.60, 4608.85],
    "a2a_1_lev_bal": [61.11, 64.47, 72.83, 77.83, 77.43, 144.25, 305.24, 619.62, 1221.90, 2492.90, 4988.76],
    "a2a_2_lev_sq": [18.69, 24.18, 34.43, 60.03, 99.75, 201.35, 401.09, 809.42, 1633.19, 3260.92, 6561.45],
    "a2a_2_lev_c_r": [11.74, 14.48, 23.46, 39.49, 78.58, 163.02, 330.50, 665.28, 1319.53, 2659.75, 5632.29],
    "a2a_2_lev_c_r_int": [75.96, 78.81, 82.76, 91.23, 113.30, 168.85, 284.23, 543.55, 1086.08, 2232.63, 4613.42],
    "a2a_logp_lev_bfly": [31.84, 43.09, 74.03, 97.10, 163.34, 298.10, 569.08, 1112.07, 2206.67, None, None],
}
# Fig. 5: the set-ups the seed counts for each one-to-all algorithm on 256 processors.
FIG5_SETUPS = {"o2a_logp_lev_sq": 8, "o2a_logp_lev_rec": 15, "o2a_3_lev_sq": 21,
               "o2a_2_lev_rec": 30, "o2a_1_lev_dir": 255}
# Fig. 11: p^2 L = 2 MB; an r x c mesh is network.dims [c, r] (row-major ids as the seed's).
FIG11_MACHINES = [("4x4", [4, 4], 8192), ("4x8", [8, 4], 2048), ("8x8", [8, 8], 512),
                  ("8x16", [16, 8], 128), ("16x16", [16, 16], 32)]
FIG11_ALGS = ["a2a_1_lev_dir", "a2a_1_lev_xor", "a2a_2_lev_c_r", "a2a_2_lev_c_r_int", "a2a_2_lev_sq"]


def run(wormsim, out, sets, extra):
    """One wormsim run on the base config; returns its summary rows."""
    return wormsim_run.run_collective(
        wormsim, out, list(extra) + [f"{k}={v}" for k, v in sets.items()], BASE)["summary"]


def run_all(args, jobs):
    """jobs: {name: sets}; returns {name: summary rows}."""
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run, args.wormsim, os.path.join(args.out, "runs", name), sets, args.set): name
                   for name, sets in jobs.items()}
        for fut in concurrent.futures.as_completed(futures):
            name = futures[fut]
            results[name] = fut.result()
            print(f"  done: {name}", file=sys.stderr)
    return results


def yaml_list(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def by_size(rows):
    return {r["bytes"]: r for r in rows}


def fmt(v):
    return "-" if v is None else f"{v:.2f}"


def table_vs_seed(title, algs, sizes, sim, seed, command):
    """Markdown: one row per algorithm, sim / seed per size (ms)."""
    lines = [f"### {title}", "", f"`{command}`", "",
             "Simulated max latency / the seed's time, ms (ratio sim / seed):", "",
             "| algorithm | " + " | ".join(str(s) for s in sizes) + " |",
             "|---|" + "---|" * len(sizes)]
    for a in algs:
        cells = []
        for i, s in enumerate(sizes):
            row = sim.get(a, {}).get(s)
            ms = None if row is None else row["max_latency_us"] / 1000
            ref = seed.get(a, [None] * len(SIZES))[SIZES.index(s)] if seed else None
            cell = fmt(ms)
            if ref is not None:
                cell += f" / {ref:.2f}"
                if ms is not None:
                    cell += f" ({ms / ref:.2f})"
            cells.append(cell)
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines.append("")
    # Who is best at each size, simulated and in the seed.
    lines.append("| best | " + " | ".join(str(s) for s in sizes) + " |")
    lines.append("|---|" + "---|" * len(sizes))
    for label, get in (("simulated", lambda a, s: (sim.get(a, {}).get(s) or {}).get("max_latency_us")),
                       ("seed", lambda a, s: seed.get(a, [None] * len(SIZES))[SIZES.index(s)] if seed else None)):
        cells = []
        for s in sizes:
            vals = [(get(a, s), a) for a in algs if get(a, s) is not None]
            cells.append(min(vals)[1] if vals else "-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def plot_lines(path, title, xlabel, series, seed=None, logx=True, logy=True):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 6))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (name, pts) in enumerate(series.items()):
        c = colors[i % len(colors)]
        if pts:
            xs, ys = zip(*sorted(pts))
            ax.plot(xs, ys, "o-", color=c, label=f"{name} (simulated)")
        if seed and name in seed and seed[name]:
            xs, ys = zip(*sorted(seed[name]))
            ax.plot(xs, ys, "x--", color=c, alpha=0.6, label=f"{name} (seed)")
    if logx:
        ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("max latency, ms" if logy else "time relative to 1-lev-dir")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def seed_points(table, algs):
    return {a: [(s, v) for s, v in zip(SIZES, table[a]) if v is not None] for a in algs}


def sim_points(sim, algs):
    return {a: [(s, r["max_latency_us"] / 1000) for s, r in sim.get(a, {}).items()] for a in algs}


def figure_sizes(args, table_name):
    return SIZES if (args.full or table_name != "fig9") else [16, 64, 256, 1024]


def do_table(args, name, table, title, cmd):
    sizes = figure_sizes(args, name)
    algs = list(table)
    # Sizes the seed did not run ("--" in its table, e.g. sys-br from 4 KB) are not run either.
    ran = {a: [s for s in sizes if table[a][SIZES.index(s)] is not None] for a in algs}
    rows = run_all(args, {f"{name}-{a}": {"collective.algorithms": f"[{a}]",
                                          "collective.message_bytes": yaml_list(ran[a]),
                                          **({"collective.split_gamma": "0.60"} if a == "a2o_logp_lev_rec" else {})}
                          for a in algs})
    sim = {a: by_size(rows[f"{name}-{a}"]) for a in algs}
    md = table_vs_seed(title, algs, sizes, sim, table, cmd)
    plot_lines(os.path.join(args.out, f"{name}.png"), title, "L, bytes per processor pair",
               sim_points(sim, algs), seed_points(table, algs))
    return sim, md


def do_fig5(args, fig2_sim, cmd):
    sizes = [16, 64, 256, 1024, 4096, 16384]
    lines = ["### Fig. 5: time relative to 1-lev-dir against set-ups (16x16)", "", f"`{cmd}`", "",
             "| algorithm | set-ups (simulated / seed) | " + " | ".join(f"L={s} sim / seed" for s in sizes) + " |",
             "|---|---|" + "---|" * len(sizes)]
    series, seed_series = {}, {}
    for a, setups in FIG5_SETUPS.items():
        sim_setups = fig2_sim[a][sizes[0]]["max_sends"]
        cells = []
        for s in sizes:
            rel = fig2_sim[a][s]["max_latency_us"] / fig2_sim["o2a_1_lev_dir"][s]["max_latency_us"]
            ref = FIG2[a][SIZES.index(s)] / FIG2["o2a_1_lev_dir"][SIZES.index(s)]
            cells.append(f"{rel:.3f} / {ref:.3f}")
            series.setdefault(f"L={s}", []).append((sim_setups, rel))
            seed_series.setdefault(f"L={s}", []).append((setups, ref))
        lines.append(f"| {a} | {sim_setups} / {setups} | " + " | ".join(cells) + " |")
    lines.append("")
    plot_lines(os.path.join(args.out, "fig5.png"), "Fig. 5: one-to-all on 16x16, time / 1-lev-dir",
               "message set-ups at the source", series, seed_series, logx=True, logy=False)
    return "\n".join(lines)


def do_fig11(args, cmd):
    jobs = {}
    for m, dims, L in FIG11_MACHINES:
        for a in FIG11_ALGS:
            jobs[f"fig11-{a}-{m}"] = {"collective.algorithms": f"[{a}]", "network.dims": yaml_list(dims),
                                      "collective.message_bytes": f"[{L}]"}
    rows = run_all(args, jobs)
    lines = ["### Fig. 11: all-to-all with p^2 L = 2 MB", "", f"`{cmd}`", "",
             "Simulated max latency, ms (the seed gives no numbers for this figure):", "",
             "| algorithm | " + " | ".join(f"{m} (L={L})" for m, _, L in FIG11_MACHINES) + " |",
             "|---|" + "---|" * len(FIG11_MACHINES)]
    series = {}
    for a in FIG11_ALGS:
        cells = []
        for m, dims, L in FIG11_MACHINES:
            ms = rows[f"fig11-{a}-{m}"][0]["max_latency_us"] / 1000
            cells.append(f"{ms:.2f}")
            series.setdefault(a, []).append((dims[0] * dims[1], ms))
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines.append("")
    plot_lines(os.path.join(args.out, "fig11.png"), "Fig. 11: all-to-all, p^2 L = 2 MB", "processors p",
               series)
    return "\n".join(lines)


def do_gamma(args, cmd):
    gammas = {"o2a_logp_lev_rec": [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95],
              "a2o_logp_lev_rec": [0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9]}
    sizes = [256, 2048, 4096]
    jobs = {f"gamma-{a}-{g}": {"collective.algorithms": f"[{a}]", "collective.split_gamma": str(g),
                               "collective.message_bytes": yaml_list(sizes)}
            for a, gs in gammas.items() for g in gs}
    rows = run_all(args, jobs)
    lines = ["### logp-lev-rec(gamma) sweeps (16x16; seed 002 sections 3.2 and 4.1)", "", f"`{cmd}`", ""]
    series = {}
    for a, gs in gammas.items():
        lines += [f"{a}: simulated max latency, ms", "",
                  "| gamma | " + " | ".join(f"L={s}" for s in sizes) + " |", "|---|" + "---|" * len(sizes)]
        best = {s: None for s in sizes}
        for g in gs:
            r = by_size(rows[f"gamma-{a}-{g}"])
            cells = []
            for s in sizes:
                ms = r[s]["max_latency_us"] / 1000
                cells.append(f"{ms:.2f}")
                series.setdefault(f"{a} L={s}", []).append((g, ms))
                if best[s] is None or ms < best[s][0]:
                    best[s] = (ms, g)
            lines.append(f"| {g} | " + " | ".join(cells) + " |")
        lines += ["", "best gamma: " + ", ".join(f"L={s}: {best[s][1]}" for s in sizes), ""]
    plot_lines(os.path.join(args.out, "gamma.png"), "logp-lev-rec(gamma), 16x16", "gamma", series,
               logx=False, logy=True)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("figures", nargs="*", default=["fig2", "fig5", "fig6", "fig9", "fig11", "gamma"])
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "seed002"))
    ap.add_argument("--wormsim", default=os.path.join(ROOT, "build", "systemc", "wormsim"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--full", action="store_true", help="fig9 for every size up to 16384 (hours)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a config override for every run (e.g. node.receive_packet_cycles=0)")
    args = ap.parse_args()
    known = {"fig2", "fig5", "fig6", "fig9", "fig11", "gamma"}
    for f in args.figures:
        if f not in known:
            sys.stderr.write(f"seed002_figures: unknown figure '{f}'; known: {', '.join(sorted(known))}\n")
            sys.exit(2)
    if not os.access(args.wormsim, os.X_OK):
        sys.stderr.write(f"seed002_figures: no wormsim binary at {args.wormsim} (build it, or give --wormsim)\n")
        sys.exit(2)
    os.makedirs(args.out, exist_ok=True)
    cmd = ("scripts/seed002_figures.py " + " ".join(args.figures) + (" --full" if args.full else "") +
           "".join(f" --set {kv}" for kv in args.set))
    fig2_sim = None
    for f in args.figures:
        print(f"{f} ...", file=sys.stderr)
        if f == "fig2" or (f == "fig5" and fig2_sim is None):
            fig2_sim, md = do_table(args, "fig2", FIG2, "Fig. 2: one-to-all (scatter) from P_0, 16x16", cmd)
            if f == "fig2":
                write(args, "fig2", md)
        if f == "fig5":
            write(args, "fig5", do_fig5(args, fig2_sim, cmd))
        elif f == "fig6":
            write(args, "fig6", do_table(args, "fig6", FIG6, "Fig. 6: all-to-one (gather) to P_0, 16x16", cmd)[1])
        elif f == "fig9":
            write(args, "fig9", do_table(args, "fig9", FIG9, "Fig. 9: all-to-all, 16x16", cmd)[1])
        elif f == "fig11":
            write(args, "fig11", do_fig11(args, cmd))
        elif f == "gamma":
            write(args, "gamma", do_gamma(args, cmd))


def write(args, name, md):
    path = os.path.join(args.out, f"{name}.md")
    with open(path, "w") as f:
        f.write(md + "\n")
    print(md)
    print(f"wrote {path} and {os.path.join(args.out, name + '.png')}", file=sys.stderr)


if __name__ == "__main__":
    main()
