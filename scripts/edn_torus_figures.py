#!/usr/bin/python3
"""Seed 000 chapter 4's figures (EDN broadcast vs U-torus on all-port tori; docs/edn-torus.md),
regenerated from `wormsim run`s described by one committed config per figure:

  steps     Fig. 4.13: message-passing steps against network size: edn_broadcast and u_torus
            as the simulator counts them (message tags), and the lower bound
            ceil(log_{2n+1} N) of section 4.4.1, for 2^d x 2^d x z tori up to `max_nodes`;
  latency   Figs. 4.14-4.15: max latency (us; mean over sampled roots) against message size,
            one panel per parameter set;
  analysis  Fig. 4.16: simulation against Eqs. 4.1 (EDN) and 4.2 (U-torus) of section 4.4.2.

Writes OUT/<figure>.json (every run's numbers and the equations') and OUT/<figure>.png, and
prints a table. Usage:
  scripts/edn_torus_figures.py CONFIG.yaml [--wormsim PATH] [--out DIR] [--jobs N] [--replot]
OUT defaults to docs/img."""
import argparse
import concurrent.futures
import json
import math
import os
import sys
import tempfile

import yaml

import wormsim_run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(wormsim, sets):
    """One `wormsim run` with --set overrides; returns its results.json."""
    with tempfile.TemporaryDirectory() as out:
        try:
            return wormsim_run.run(wormsim, out, sets)
        except wormsim_run.RunFailed as e:
            sys.exit(f"edn_torus_figures: {e}")


def lower_bound(n_nodes, dims):
    """Section 4.4.1: ceil(log_{2n+1} N) for an n-dimensional all-port torus."""
    base = 2 * dims + 1
    s, reach = 0, 1
    while reach < n_nodes:
        s += 1
        reach *= base
    return s


def eq41(d, alpha, gamma, beta, L):
    """Eq. 4.1: EDN on a 2^d x 2^d torus."""
    return 3 * d * alpha + d * gamma + d * L * beta + 2 * (2 ** (d + 1) - 2 + d % 2) / 3 * beta


def eq42(d, alpha, gamma, beta, L):
    """Eq. 4.2: U-torus on a 2^d x 2^d torus."""
    return 2 * d * alpha + 2 * d * gamma + 2 * d * L * beta + 2 * (2 ** d - 1) * beta


def steps_figure(spec, args):
    sizes = []
    for side in spec["sides"]:
        for z in spec["z"]:
            n = side * side * z
            if n <= spec["max_nodes"]:
                sizes.append((side, z))
    common = spec.get("set") or {}

    def one(size):
        side, z = size
        dims = [side, side] if z == 1 else [side, side, z]
        sets = dict(common)
        sets.update({"network.topology": "torus", "network.dims": dims,
                     "network.router.port_model": "all_port",
                     "collective.algorithms": ["edn_broadcast", "u_torus"],
                     "collective.roots": "one", "collective.message_bytes": [1],
                     "trace.enabled": False, "trace.timeline": False})
        res = run(args.wormsim, sets)
        row = {"dims": dims, "nodes": side * side * z,
               "lower_bound": lower_bound(side * side * z, len(dims))}
        for op in res["collective"]["operations"]:
            row[op["algorithm"]] = op["steps"]
            row[op["algorithm"] + "_stepwise"] = op["contention_stepwise"]
        return row

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(one, sizes))
    rows.sort(key=lambda r: (r["nodes"], r["dims"]))
    return rows


def latency_figure(spec, args):
    common = spec.get("set") or {}
    jobs = []
    for panel in spec["panels"]:
        for dims in spec["networks"]:
            sets = dict(common)
            sets.update(panel.get("set") or {})
            sets.update({"network.topology": "torus", "network.dims": dims,
                         "network.router.port_model": "all_port",
                         "collective.algorithms": ["edn_broadcast", "u_torus"],
                         "collective.message_bytes": spec["message_bytes"],
                         "trace.enabled": False, "trace.timeline": False})
            jobs.append((panel["name"], dims, sets))

    def one(job):
        name, dims, sets = job
        res = run(args.wormsim, sets)
        out = []
        cycle_us = res["collective"]["cycle_us"]
        node = res["config"]["node"]
        alpha, gamma = node["alpha_cycles"] * cycle_us, node["gamma_cycles"] * cycle_us
        beta = cycle_us / res["config"]["network"]["flit_bytes"]
        for s in res["collective"]["summary"]:
            d = round(math.log2(dims[0]))
            L = s["bytes"]
            eq = eq41 if s["algorithm"] == "edn_broadcast" else eq42
            out.append({"panel": name, "dims": dims, "algorithm": s["algorithm"],
                        "bytes": s["bytes"], "roots": s["roots"],
                        "max_latency_us": s["max_latency_us"], "avg_latency_us": s["avg_latency_us"],
                        "steps": s["max_steps"], "contention_stepwise": s["contention_stepwise"],
                        "contention_depth": s["contention_depth"],
                        "equation_us": eq(d, alpha, gamma, beta, L) if len(dims) == 2 else None,
                        "alpha_us": alpha, "gamma_us": gamma, "beta_us_per_byte": beta})
        return out

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for part in pool.map(one, jobs):
            rows += part
    rows.sort(key=lambda r: (r["panel"], r["dims"], r["bytes"], r["algorithm"]))
    return rows


LABEL = {"edn_broadcast": "EDN", "u_torus": "U-torus"}


def plot(spec, rows, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kind = spec["kind"]
    if kind == "steps":
        panels = spec["panels"]
        fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
        for ax, panel in zip(axes[0], panels):
            sub = [r for r in rows if r["nodes"] <= panel["max_nodes"]]
            n = [r["nodes"] for r in sub]
            ax.plot(n, [r["u_torus"] for r in sub], "s", mfc="none", label="U-torus")
            ax.plot(n, [r["edn_broadcast"] for r in sub], "o", label="EDN")
            ax.plot(n, [r["lower_bound"] for r in sub], "_", ms=12, color="k",
                    label="lower bound ceil(log_{2n+1} N)")
            ax.set_xscale("log")
            ax.set_xlabel("nodes N (2^d x 2^d x z tori)")
            ax.set_ylabel("message-passing steps")
            ax.set_title(f"({panel['name']}) N <= {panel['max_nodes']}")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
    else:
        keys = [(p["name"], tuple(d)) for p in spec["panels"] for d in spec["networks"]]
        fig, axes = plt.subplots(1, len(keys), figsize=(5.5 * len(keys), 4.5), squeeze=False)
        for ax, (pname, dims) in zip(axes[0], keys):
            title = next(p["title"] for p in spec["panels"] if p["name"] == pname)
            for alg, marker in (("edn_broadcast", "o"), ("u_torus", "s")):
                sub = [r for r in rows if r["panel"] == pname and tuple(r["dims"]) == dims
                       and r["algorithm"] == alg]
                x = [r["bytes"] for r in sub]
                ax.plot(x, [r["max_latency_us"] for r in sub], marker + "-",
                        label=f"{LABEL[alg]} (simulation)")
                if kind == "analysis":
                    ax.plot(x, [r["equation_us"] for r in sub], marker + "--", mfc="none",
                            label=f"{LABEL[alg]} (Eq. {'4.1' if alg == 'edn_broadcast' else '4.2'})")
            ax.set_xlabel("message size (bytes)")
            ax.set_ylabel("max latency (us)")
            ax.set_title(f"{'x'.join(map(str, dims))} torus, {title}", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
    fig.suptitle(spec["title"], fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def table(spec, rows):
    if spec["kind"] == "steps":
        print(f"{'dims':<14} {'N':>6} {'bound':>5} {'EDN':>4} {'U-torus':>7} {'EDN stepwise':>12}")
        for r in rows:
            print(f"{'x'.join(map(str, r['dims'])):<14} {r['nodes']:>6} {r['lower_bound']:>5} "
                  f"{r['edn_broadcast']:>4} {r['u_torus']:>7} {r['edn_broadcast_stepwise']:>12}")
        return
    print(f"{'panel':<6} {'dims':<7} {'algorithm':<14} {'bytes':>5} {'roots':>5} {'max_us':>10} "
          f"{'eq_us':>10} {'sim/eq':>6} {'steps':>5} {'contention':>10}")
    for r in rows:
        eq = r["equation_us"]
        eq_text = f"{eq:.1f}" if eq is not None else "-"
        ratio = f"{r['max_latency_us'] / eq:.3f}" if eq else "-"
        print(f"{r['panel']:<6} {'x'.join(map(str, r['dims'])):<7} {r['algorithm']:<14} {r['bytes']:>5} "
              f"{r['roots']:>5} {r['max_latency_us']:>10.1f} {eq_text:>10} {ratio:>6} {r['steps']:>5} "
              f"{r['contention_stepwise']:>4.1f}/{r['contention_depth']:<5.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config")
    ap.add_argument("--wormsim", default=os.path.join(ROOT, "build", "systemc", "wormsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--replot", action="store_true", help="redraw OUT/<figure>.png from OUT/<figure>.json")
    args = ap.parse_args()
    with open(args.config) as f:
        spec = yaml.safe_load(f)
    base = os.path.join(args.out, spec["figure"])
    if args.replot:
        with open(base + ".json") as f:
            rows = json.load(f)["rows"]
    else:
        rows = steps_figure(spec, args) if spec["kind"] == "steps" else latency_figure(spec, args)
        os.makedirs(args.out, exist_ok=True)
        with open(base + ".json", "w") as f:
            json.dump({"config": os.path.relpath(args.config, ROOT), "title": spec["title"],
                       "rows": rows}, f, indent=1)
    print(f"# {spec['title']} ({args.config})")
    table(spec, rows)
    plot(spec, rows, base + ".png")
    print(f"results: {base}.json, plot: {base}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
