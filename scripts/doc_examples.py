#!/usr/bin/python3
"""Runs every command shown in README.md and docs/*.md, as written, and checks its exit code.

What counts as a command: each line of a fenced code block, and each inline code span, that
starts with one of COMMANDS below (backslash continuations joined, a trailing `# comment`
dropped). A trailing comment saying "exits N" makes N the expected exit code; otherwise it is 0.
Commands run from the repository root (the docs write paths relative to it) with the build's
`wormsim` first on PATH, each with a time limit.

Markers (HTML comments, invisible when the Markdown is rendered) say where a command runs in a
shorter form or not at all; a marker anywhere in README.md or docs/ applies to every place the
command appears:
    <!-- doc-test: COMMAND => SHORT VARIANT -->
    <!-- doc-test: COMMAND => skip: REASON -->
    <!-- doc-test: COMMAND => rtl -->          (runs only in a build with the RTL router)
    <!-- doc-test: COMMAND => exits N -->      (runs as written, expecting exit code N)
Short variants see the build directory as $WORMSIM_BUILD.
COMMAND is the command exactly as the docs show it (after joining and dropping the comment).

Usage: scripts/doc_examples.py --build BUILD_DIR [--list] [--filter REGEX] [--timeout S]
Exit status: 0 when every command behaved as documented, 1 otherwise (each failure printed with
its file, line, command, exit code and the tail of its output).
"""
import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("wormsim ", "build/systemc/wormsim", "build/testbenches/", "scripts/",
            "/usr/bin/python3 scripts/",
            "gtkwave ", "xvfb-run ", "cmake ", "ctest ", "CI=true ")
MARKER = re.compile(r"<!--\s*doc-test:\s*(.+?)\s*=>\s*(.+?)\s*-->")
EXITS = re.compile(r"\bexits? (\d)\b")


def strip_comment(line):
    """Splits `cmd  # comment` outside quotes into (cmd, comment)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def is_command(text):
    return text.startswith(COMMANDS)


def extract(path):
    """Yields (line number, command, comment) for every command in one Markdown file."""
    lines = path.read_text().splitlines()
    fenced = False
    i = 0
    while i < len(lines):
        raw = lines[i]
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            i += 1
            continue
        if fenced:
            start = i
            text = raw.strip()
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1].rstrip() + " " + lines[i].strip()
            command, comment = strip_comment(text)
            if is_command(command):
                yield start + 1, command, comment
        else:
            for span in re.findall(r"`([^`]+)`", raw):
                command, comment = strip_comment(span.strip())
                if is_command(command) and " " in command:
                    yield i + 1, command, comment
        i += 1


def markers(path):
    return {m.group(1).strip(): m.group(2).strip() for m in MARKER.finditer(path.read_text())}


def rtl_built(build):
    cache = build / "CMakeCache.txt"
    return cache.exists() and (build / "rtl").is_dir()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, type=Path)
    ap.add_argument("--list", action="store_true", help="only list the commands")
    ap.add_argument("--filter", default="", help="only commands matching this regex")
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    build = args.build.resolve()
    files = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    env = dict(os.environ)
    env["PATH"] = f"{build / 'systemc'}:{env['PATH']}"
    env.setdefault("CI", "true")
    env["WORMSIM_BUILD"] = str(build)
    has_rtl = rtl_built(build)
    failures, ran, seen = [], 0, set()
    marks = {}
    for path in files:
        marks.update(markers(path))
    for path in files:
        rel = path.relative_to(ROOT)
        for line, command, comment in extract(path):
            if not re.search(args.filter, command):
                continue
            how = marks.get(command, "")
            if how.startswith("skip:"):
                print(f"skip  {rel}:{line}: {command}  ({how[5:].strip()})")
                continue
            if how == "rtl" and not has_rtl:
                print(f"skip  {rel}:{line}: {command}  (needs the RTL build)")
                continue
            exits = re.fullmatch(r"exits (\d)", how)
            run = how if how and how != "rtl" and not exits else command
            if exits:
                expected = int(exits.group(1))
            else:
                expected = int(EXITS.search(comment).group(1)) if EXITS.search(comment) else 0
            if (run, expected) in seen:
                continue
            seen.add((run, expected))
            if args.list:
                print(f"{rel}:{line}: {run}  (exit {expected})")
                continue
            start = time.monotonic()
            try:
                p = subprocess.run(["bash", "-c", run], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                   capture_output=True, text=True, timeout=args.timeout)
                code, out = p.returncode, (p.stdout + p.stderr)
            except subprocess.TimeoutExpired as e:
                code = "timeout"
                out = ((e.stdout or b"") + (e.stderr or b"")).decode(errors="replace") \
                    if isinstance(e.stdout, bytes) else str(e.stdout or "") + str(e.stderr or "")
            ran += 1
            secs = time.monotonic() - start
            ok = code == expected
            print(f"{'ok  ' if ok else 'FAIL'}  {rel}:{line}: {run}  (exit {code}, {secs:.1f} s)")
            if not ok:
                tail = "\n".join(out.strip().splitlines()[-15:])
                failures.append(f"{rel}:{line}: `{run}` exited {code}, documented {expected}\n{tail}")
    if failures:
        print("\n" + "\n\n".join(failures), file=sys.stderr)
        print(f"\ndoc_examples: {len(failures)} of {ran} commands failed", file=sys.stderr)
        return 1
    if not args.list:
        print(f"doc_examples: {ran} commands ran as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
