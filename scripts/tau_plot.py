#!/usr/bin/python3
"""The tau-model toolkit (seed 000 chapter 5): latency T = T_s + T_n L, tau = T_n / T_s
(Eq. 5.2), the tau-plot with its regions A-D around a reference point (Fig. 5.2), the crossover
L* = (T_s2 - T_s3) / (T_n3 - T_n2) (Eqs. 5.5-5.7), for the broadcasts of section 5.3 both from
the seed's formulas (Table 5.3) and from simulated runs fitted by least squares (section 5.2).

Usage: scripts/tau_plot.py EXPERIMENT [--out DIR] [--wormsim PATH] [--sides 8,16,...]
                                      [--bytes B,B,...] [--segments K,K,...]
EXPERIMENT:
  table53   Table 5.3 (and the tau columns of Tables 5.4-5.5) at n = 5 for the seed's parameter
            sets, the worked L* of section 5.4.2 (k = 18) and the Fig. 5.13 values, with the
            seed's printed numbers beside ours                               (analytical)
  fig5_8    tau-plot traces, n = 5, alpha = gamma from 0.5 to 1.5, beta = 0.01  (analytical)
  fig5_9    tau-plot traces, n = 5, alpha = gamma = 0.5, beta 0.001 to 0.191     (analytical)
  fig5_10   epsilon(5, k), mu(5, k), omega(5, k) (Eqs. 5.8-5.10) against tau_0 = 0.003
  fig5_11   L*(SC vs FT) against k, n = 5, alpha = gamma = 1.5, beta = 0.009
  fig5_12   latency against L, SC and FT (k = 16, 18, 19, 20), both parameter sets
  fig5_13   L*(EDN vs SC) against n for tau_0 = 0.001, 0.002, 0.003
  fig5_14   L*(EDN vs FT) against k for several tau_0, n = 5
  sim       runs wormsim (configs/tau_broadcast.yaml) for dimensional_broadcast (RD),
            scatter_collect (SC), fibonacci_tree (FT, each --segments) and edn_broadcast
            (all-port) on each --sides mesh over --bytes, fits T_s and T_n per algorithm,
            compares them with Table 5.3 in cycles (alpha = gamma = 167, beta = 1), computes
            L* from the fits and from the sweeps, and draws the simulated tau-plot with the
            regions A-D around EDN (Fig. 5.2)
  all       every analytical experiment (not sim)
Each writes DIR/<experiment>.md (tables) and DIR/<experiment>.png (default DIR: docs/tau).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "configs", "tau_broadcast.yaml")


# ---- the seed's formulas (section 5.3, Table 5.3) -------------------------------------------
def fib_nodes(t, k):
    """N(t, k) = N(t - k, k) + N(t - 1, k) for t >= k, 1 otherwise (section 5.3)."""
    n = []
    for s in range(t + 1):
        n.append(1 if s < k else n[s - k] + n[s - 1])
    return n[t]


def t_pk(p, k):
    """t(P, k): the fewest steps with N(t, k) >= P."""
    t = 0
    while fib_nodes(t, k) < p:
        t += 1
    return t


def table53(alg, n, a, b, g, k=None):
    """(T_s, T_n) of Table 5.3 on a 2^n x 2^n mesh."""
    s = 2 ** n
    if alg == "RD":
        return 2 * n * a + 2 * b * (s - 1) + 2 * n * g, 2 * n * b
    if alg == "SC":
        return 2 * (s - 1 + n) * (a + g) + 6 * (s - 1) * b, 2 * (1 - 1 / s ** 2) * b
    if alg == "FT":
        t = t_pk(s * s, k)
        return t * a + 2 * k * b * (s - 1) + t * g, t * b / k
    if alg == "EDN":
        return 3 * n * a + (n + 1) * g + (s - 1) * b, (n + 1) * b
    raise ValueError(alg)


def crossover(p2, p3):
    """Eq. 5.5 with f(L) = L: L* = (T_s2 - T_s3) / (T_n3 - T_n2); None when the lines are
    parallel."""
    (ts2, tn2), (ts3, tn3) = p2, p3
    return None if tn3 == tn2 else (ts2 - ts3) / (tn3 - tn2)


def omega(n, k):
    return 3 * t_pk(4 ** n, k) - 2 * k * k * (1 - 1 / 4 ** n)


def epsilon(n, k):
    return (2 * (2 ** n - 1 + n) - t_pk(4 ** n, k)) / (2 * (2 ** n - 1) * (k - 3))


def mu(n, k):
    t = t_pk(4 ** n, k)
    return t * (k * (1 - 1 / 4 ** n) - 2 ** n + 1 - n) / ((2 ** n - 1) * omega(n, k))


ALGS = [("RD", None), ("SC", None), ("FT", 2), ("FT", 4), ("FT", 8), ("EDN", None)]


def label(alg, k):
    return f"FT k={k}" if alg == "FT" else alg


def md_table(header, rows):
    out = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n"
    for r in rows:
        out += "| " + " | ".join(str(x) for x in r) + " |\n"
    return out


def write(out, name, text, fig=None):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + ".md"), "w") as f:
        f.write(text)
    if fig is not None:
        fig.savefig(os.path.join(out, name + ".png"), dpi=110, bbox_inches="tight")
        plt.close(fig)
    print(f"wrote {os.path.join(out, name)}.md" + (" and .png" if fig is not None else ""))


def g(x, d=4):
    return f"{x:.{d}g}" if x is not None else "-"


# ---- analytical experiments -----------------------------------------------------------------
def exp_table53(args):
    n = 5
    text = "# Table 5.3 at n = 5 (32 x 32), from the seed's formulas\n\n"
    for a, b in [(1.5, 0.009), (0.5, 0.003), (0.5, 0.01)]:
        rows = []
        for alg, k in ALGS + [("FT", 18)]:
            ts, tn = table53(alg, n, a, b, a, k)
            rows.append([label(alg, k), g(ts, 6), g(tn, 6), g(tn / ts, 4)])
        text += f"alpha = gamma = {a}, beta = {b} (tau_0 = beta / (alpha + gamma) = {b / (2 * a):.4g})\n\n"
        text += md_table(["algorithm", "T_s", "T_n", "tau"], rows) + "\n"
    # Table 5.4's and 5.5's tau columns are T_n / T_s of the same rows.
    a, b = 1.5, 0.009
    s = 32
    t = t_pk(s * s, 18)
    tau_sc = (1 - 1 / s ** 2) * b / ((s - 1 + n) * (2 * a) + 3 * (s - 1) * b)
    tau_ft = t * b / (t * (2 * a) * 18 + 2 * (s - 1) * 18 ** 2 * b)
    tau_edn = (n + 1) * b / (3 * n * a + (n + 1) * a + (s - 1) * b)
    ts, tn = table53("SC", n, a, b, a)
    ts2, tn2 = table53("FT", n, a, b, a, 18)
    ts3, tn3 = table53("EDN", n, a, b, a)
    text += ("Tables 5.4-5.5 tau columns (alpha = gamma = 1.5, beta = 0.009, k = 18) against "
             "T_n / T_s of Table 5.3: "
             f"SC {tau_sc:.6g} vs {tn / ts:.6g}, FT {tau_ft:.6g} vs {tn2 / ts2:.6g}, "
             f"EDN {tau_edn:.6g} vs {tn3 / ts3:.6g}.\n\n")
    # The worked example of section 5.4.2.
    text += "## L* of SC vs FT at k = 18 (section 5.4.2)\n\n"
    rows = []
    for a, b, seed_num, seed_den, seed_l in [(1.5, 0.009, 6.603, 0.0155, 425.5),
                                             (0.5, 0.003, 2.21, 0.0051725, 425.25)]:
        sc, ft = table53("SC", n, a, b, a), table53("FT", n, a, b, a, 18)
        num, den = sc[0] - ft[0], ft[1] - sc[1]
        rows.append([f"({a}, {b}, {a})", t_pk(1024, 18), f"{num:.5g}", f"{den:.6g}",
                     f"{num / den:.2f}", seed_num, seed_den, seed_l,
                     f"{seed_num / seed_den:.2f}"])
    text += md_table(["(alpha, beta, gamma)", "t(P,18)", "numerator", "denominator", "L*",
                      "seed numerator", "seed denominator", "seed L*",
                      "seed numerator / seed denominator"], rows) + "\n"
    text += "## L* of EDN vs SC at n = 5 (Fig. 5.13's quoted values), alpha = gamma\n\n"
    rows = []
    for tau0, seed in [(0.001, "14 Kbytes"), (0.002, "7000"), (0.003, "4200")]:
        a = 1.0
        b = tau0 * 2 * a
        l_full = crossover(table53("EDN", n, a, b, a), table53("SC", n, a, b, a))
        sc, edn = table53("SC", n, a, b, a), table53("EDN", n, a, b, a)
        l_seed_diff = ((2 * 32 - 2 - n) * a + (2 * 32 - 3 + n) * a) / (edn[1] - sc[1])
        rows.append([tau0, f"{l_full:.0f}", f"{l_seed_diff:.0f}", seed])
    text += md_table(["tau_0", "L* (Table 5.5)", "L* (section 5.4.3's T_s difference, "
                      "without its 5(2^n - 1) beta)", "seed"], rows)
    write(args.out, "table53", text)


def traces(args, name, points, xlabel):
    fig, ax = plt.subplots(figsize=(7, 5))
    rows = []
    for alg, k in ALGS:
        taus, tss = [], []
        for a, b in points:
            ts, tn = table53(alg, 5, a, b, a, k)
            taus.append(tn / ts)
            tss.append(ts)
        ax.plot(taus, tss, marker=".", label=label(alg, k))
        rows.append([label(alg, k), g(taus[0]), g(tss[0]), g(taus[-1]), g(tss[-1]), g(max(taus))])
    ax.set_xlabel("tau = T_n / T_s (1/byte)")
    ax.set_ylabel("T_s (time units of alpha)")
    ax.set_title(f"{name}: n = 5, {xlabel}")
    ax.legend()
    ax.grid(alpha=0.3)
    text = f"# {name}: tau-plot traces from Table 5.3 ({xlabel})\n\n"
    text += md_table(["algorithm", "tau (first)", "T_s (first)", "tau (last)", "T_s (last)",
                      "largest tau"], rows)
    return text, fig


def exp_fig5_8(args):
    pts = [(round(0.5 + 0.1 * i, 2), 0.01) for i in range(11)]
    text, fig = traces(args, "fig5_8", pts, "beta = 0.01, alpha = gamma = 0.5 .. 1.5")
    write(args.out, "fig5_8", text, fig)


def exp_fig5_9(args):
    pts = [(0.5, round(0.001 + 0.01 * i, 3)) for i in range(20)]
    text, fig = traces(args, "fig5_9", pts, "alpha = gamma = 0.5, beta = 0.001 .. 0.191")
    write(args.out, "fig5_9", text, fig)


def exp_fig5_10(args):
    ks = list(range(4, 41))
    rows = [[k, t_pk(1024, k), g(omega(5, k)), g(epsilon(5, k)), g(mu(5, k))] for k in ks]
    over = [k for k in ks if 0.003 > epsilon(5, k)]
    fig, ax = plt.subplots(figsize=(7, 5))
    ax.plot(ks, [epsilon(5, k) for k in ks], label="epsilon(5, k)")
    ax.plot(ks, [mu(5, k) for k in ks], label="mu(5, k)")
    ax.axhline(0.003, color="k", ls="--", label="tau_0 = 0.003")
    ax.set_ylim(-0.02, 0.05)
    ax.set_xlabel("k")
    ax.legend()
    ax.grid(alpha=0.3)
    text = ("# fig5_10: Eqs. 5.8-5.10 at n = 5\n\n"
            f"tau_0 = 0.003 > epsilon(5, k) (SC better than FT for every L) for k in {over}\n\n"
            + md_table(["k", "t(1024, k)", "omega", "epsilon", "mu"], rows))
    write(args.out, "fig5_10", text, fig)


def exp_fig5_11(args):
    ks = list(range(4, 41))
    rows, ls = [], []
    for k in ks:
        l = crossover(table53("FT", 5, 1.5, 0.009, 1.5, k), table53("SC", 5, 1.5, 0.009, 1.5))
        ls.append(l)
        rows.append([k, g(l, 5)])
    fig, ax = plt.subplots(figsize=(7, 5))
    ax.plot(ks, ls, marker=".")
    ax.set_xlabel("k")
    ax.set_ylabel("L* (bytes), SC faster above")
    ax.grid(alpha=0.3)
    write(args.out, "fig5_11", "# fig5_11: L*(SC vs FT), n = 5, alpha = gamma = 1.5, "
          "beta = 0.009\n\n" + md_table(["k", "L*"], rows), fig)


def exp_fig5_12(args):
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    text = "# fig5_12: latency against L from Table 5.3, n = 5\n\n"
    L = np.linspace(0, 1500, 301)
    for ax, (a, b) in zip(axes, [(1.5, 0.009), (0.5, 0.003)]):
        sc = table53("SC", 5, a, b, a)
        ax.plot(L, sc[0] + sc[1] * L, label="SC", lw=2)
        rows = []
        for k in (16, 18, 19, 20):
            ft = table53("FT", 5, a, b, a, k)
            ax.plot(L, ft[0] + ft[1] * L, label=f"FT k={k}")
            rows.append([k, g(crossover(ft, sc), 5)])
        ax.set_title(f"alpha = gamma = {a}, beta = {b}")
        ax.set_xlabel("L (bytes)")
        ax.set_ylabel("latency")
        ax.legend()
        ax.grid(alpha=0.3)
        text += f"alpha = gamma = {a}, beta = {b}: L* (SC faster above)\n\n" + md_table(
            ["k", "L*"], rows) + "\n"
    write(args.out, "fig5_12", text, fig)


def exp_fig5_13(args):
    ns = list(range(2, 9))
    fig, ax = plt.subplots(figsize=(7, 5))
    rows = []
    for tau0 in (0.001, 0.002, 0.003):
        ls = [crossover(table53("EDN", n, 1.0, 2 * tau0, 1.0), table53("SC", n, 1.0, 2 * tau0, 1.0))
              for n in ns]
        ax.plot(ns, ls, marker="o", label=f"tau_0 = {tau0}")
        rows.append([tau0] + [f"{x:.0f}" for x in ls])
    ax.set_xlabel("n (mesh 2^n x 2^n)")
    ax.set_ylabel("L* (bytes), SC faster above")
    ax.legend()
    ax.grid(alpha=0.3)
    write(args.out, "fig5_13", "# fig5_13: L*(EDN vs SC) from Table 5.5, alpha = gamma\n\n"
          + md_table(["tau_0"] + [f"n = {n}" for n in ns], rows), fig)


def exp_fig5_14(args):
    ks = list(range(2, 33))
    fig, ax = plt.subplots(figsize=(7, 5))
    rows = []
    for tau0 in (0.001, 0.002, 0.003, 0.005, 0.01):
        ls = [crossover(table53("EDN", 5, 1.0, 2 * tau0, 1.0, None),
                        table53("FT", 5, 1.0, 2 * tau0, 1.0, k)) for k in ks]
        ax.plot(ks, [np.nan if x is None else x for x in ls], marker=".", label=f"tau_0 = {tau0}")
        rows.append([tau0] + [g(ls[i], 5) for i in (0, 1, 2, 6, 14, 30)])
    ax.set_xlabel("k")
    ax.set_ylabel("L* (bytes), FT faster above")
    ax.legend()
    ax.grid(alpha=0.3)
    write(args.out, "fig5_14", "# fig5_14: L*(EDN vs FT), n = 5, alpha = gamma\n\n"
          + md_table(["tau_0", "k = 2", "k = 3", "k = 4", "k = 8", "k = 16", "k = 32"], rows), fig)


# ---- simulation -----------------------------------------------------------------------------
def run_wormsim(args, out, sets):
    cmd = [args.wormsim, "run", BASE, "--quiet", "--out", out]
    for k, v in sets.items():
        cmd += ["--set", f"{k}={v}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout[-2000:]}"
                           f"{proc.stderr[-2000:]}")
    with open(os.path.join(out, "results.json")) as f:
        c = json.load(f)["collective"]
    if c["verification_errors"]:
        raise RuntimeError(f"{' '.join(cmd)}: {c['verification_errors']} verification errors")
    return c["summary"]


def fit(points):
    """Least squares of latency = T_s + T_n L (section 5.2); points: [(L, latency)]."""
    x = np.array([p[0] for p in points], float)
    y = np.array([p[1] for p in points], float)
    tn, ts = np.polyfit(x, y, 1)
    return ts, tn


def sweep_crossover(a, b):
    """The L where the sampled latencies of a and b cross (linear between samples); None if
    they do not cross in the sampled range. a, b: {L: latency}."""
    ls = sorted(set(a) & set(b))
    d = [a[l] - b[l] for l in ls]
    for i in range(1, len(ls)):
        if d[i - 1] == 0:
            return ls[i - 1]
        if d[i - 1] * d[i] < 0:
            return ls[i - 1] + (ls[i] - ls[i - 1]) * d[i - 1] / (d[i - 1] - d[i])
    return None


def exp_sim(args):
    names = {"dimensional_broadcast": "RD", "scatter_collect": "SC", "edn_broadcast": "EDN"}
    alpha = gamma = 167
    text = ("# sim: simulated broadcasts against Table 5.3 (cycles; alpha = gamma = 167, "
            "beta = 1 cycle per byte and per hop; root node 0)\n\n"
            f"Command: `scripts/tau_plot.py sim --sides {','.join(map(str, args.sides))} "
            f"--bytes {','.join(map(str, args.bytes))} "
            f"--segments {','.join(map(str, args.segments))}`\n\n")
    fig, axes = plt.subplots(1, len(args.sides), figsize=(7 * len(args.sides), 5), squeeze=False)
    for ax, side in zip(axes[0], args.sides):
        n = side.bit_length() - 1
        lat = {}
        base = {"network.dims": f"[{side},{side}]",
                "collective.message_bytes": "[" + ",".join(map(str, args.bytes)) + "]"}
        runs = [("one", "[dimensional_broadcast,scatter_collect]", {}),
                ("all", "[edn_broadcast]", {"network.router.port_model": "all_port"})]
        for k in args.segments:
            runs.append((f"ft{k}", "[fibonacci_tree]", {"collective.segments": str(k)}))
        for tag, algs, extra in runs:
            sets = dict(base, **{"collective.algorithms": algs}, **extra)
            out = os.path.join(args.runs, f"sim-{side}-{tag}")
            for row in run_wormsim(args, out, sets):
                name = names.get(row["algorithm"], f"FT k={extra.get('collective.segments')}")
                lat.setdefault(name, {})[row["bytes"]] = row["max_latency_cycles"]
        rows, fits = [], {}
        for name, pts in lat.items():
            ts, tn = fit(sorted(pts.items()))
            fits[name] = (ts, tn)
            key = ("FT", int(name.split("=")[1])) if name.startswith("FT") else (name, None)
            mts, mtn = table53(key[0], n, alpha, 1.0, gamma, key[1])
            rows.append([name, f"{ts:.0f}", f"{mts:.0f}", f"{ts / mts - 1:+.1%}", f"{tn:.4f}",
                         f"{mtn:.4f}", f"{tn / mtn - 1:+.1%}", f"{tn / ts:.3g}", f"{mtn / mts:.3g}"])
        text += f"## {side} x {side} (n = {n})\n\n" + md_table(
            ["algorithm", "T_s fit", "T_s Table 5.3", "diff", "T_n fit", "T_n Table 5.3", "diff",
             "tau fit", "tau Table 5.3"], rows) + "\n"
        rows = []
        order = list(lat)
        for i, p in enumerate(order):
            for q in order[i + 1:]:
                kp = ("FT", int(p.split("=")[1])) if p.startswith("FT") else (p, None)
                kq = ("FT", int(q.split("=")[1])) if q.startswith("FT") else (q, None)
                model = crossover(table53(*kp[:1], n, alpha, 1.0, gamma, kp[1]),
                                  table53(*kq[:1], n, alpha, 1.0, gamma, kq[1]))
                rows.append([f"{p} / {q}", g(crossover(fits[p], fits[q]), 5),
                             g(sweep_crossover(lat[p], lat[q]), 5), g(model, 5)])
        text += md_table(["pair", "L* from the fits", "L* from the sweep", "L* Table 5.3"],
                         rows) + "\n"
        text += md_table(["algorithm"] + [f"{b} B" for b in args.bytes],
                         [[nm] + [f"{lat[nm][b]:.0f}" for b in args.bytes] for nm in lat]) + "\n"
        # Simulated tau-plot with the regions of Fig. 5.2 around EDN.
        for name, (ts, tn) in fits.items():
            ax.plot(tn / ts, ts, "o")
            ax.annotate(name, (tn / ts, ts), textcoords="offset points", xytext=(4, 4))
        if "EDN" in fits:
            ts, tn = fits["EDN"]
            ax.axhline(ts, color="grey", lw=0.8)
            ax.axvline(tn / ts, color="grey", lw=0.8)
            xl, yl = ax.get_xlim(), ax.get_ylim()
            for txt, x, y in [("A", 0.25, 0.25), ("B", 0.75, 0.75), ("C", 0.25, 0.75),
                              ("D", 0.75, 0.25)]:
                ax.text(x, y, txt, transform=ax.transAxes, fontsize=16, color="grey")
            ax.set_xlim(xl)
            ax.set_ylim(yl)
        ax.set_xlabel("tau = T_n / T_s (1/byte)")
        ax.set_ylabel("T_s (cycles)")
        ax.set_title(f"simulated {side} x {side}: regions A-D around EDN (Fig. 5.2)")
        ax.grid(alpha=0.3)
    write(args.out, "sim", text, fig)


EXPERIMENTS = {"table53": exp_table53, "fig5_8": exp_fig5_8, "fig5_9": exp_fig5_9,
               "fig5_10": exp_fig5_10, "fig5_11": exp_fig5_11, "fig5_12": exp_fig5_12,
               "fig5_13": exp_fig5_13, "fig5_14": exp_fig5_14, "sim": exp_sim}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("experiment", choices=list(EXPERIMENTS) + ["all"])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "tau"))
    ap.add_argument("--wormsim", default=os.path.join(ROOT, "build", "systemc", "wormsim"))
    ap.add_argument("--runs", default=os.path.join(tempfile.gettempdir(), "tau_plot-runs"),
                    help="where sim keeps the wormsim runs (results.json per run)")
    ap.add_argument("--sides", default="8", help="mesh sides for sim (powers of two)")
    ap.add_argument("--bytes", default="256,1024,2048,4096,8192")
    ap.add_argument("--segments", default="2,4,8")
    args = ap.parse_args()
    args.sides = [int(s) for s in args.sides.split(",")]
    args.bytes = [int(s) for s in args.bytes.split(",")]
    args.segments = [int(s) for s in args.segments.split(",")]
    if args.experiment == "sim" and not os.access(args.wormsim, os.X_OK):
        sys.exit(f"tau_plot: no wormsim binary at {args.wormsim} (build it, or pass --wormsim)")
    todo = [e for e in EXPERIMENTS if e != "sim"] if args.experiment == "all" else [args.experiment]
    for e in todo:
        EXPERIMENTS[e](args)


if __name__ == "__main__":
    main()
