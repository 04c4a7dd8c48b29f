#!/usr/bin/python3
"""The C++ and CMake view of rtl/wormsim_pkg.sv, generated from the package itself.

rtl/wormsim_pkg.sv is the one definition of the RTL's bit layouts (flit_t, route_t, cfg_t), of
its enums and of the structural maxima of the Verilated builds. This script parses its
parameters, enums and packed structs and writes

  --header FILE   a C++17 header, namespace wormsim::rtl::pkg: every parameter as
                  k<Name>, every enum as an enum class with its width, and for every packed
                  struct <x>_t the width k<X>W and each field's k<X><Field>Lsb and
                  k<X><Field>W, the offsets computed from the declaration order (the last
                  field at bit 0), as SystemVerilog packs them;
  --cmake FILE    the parameters as CMake variables WORMSIM_PKG_<Name>.

Strict: anything in the package it does not understand is an error naming the file and line
(exit 1), so a package it would misread cannot build. It also checks the package against
itself: a parameter <X><Field>Lsb or <X>W that restates a struct's layout must equal the
computed value, and a field comment that starts with its bit range ("// [282:281]") must
give that field's bits. docs/rtl.md, "One definition of the bit layouts".
"""

import argparse
import os
import re
import sys


class LayoutError(Exception):
    """A problem in the package, reported as file:line: message."""

    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}")


# ---- expressions --------------------------------------------------------------------------

TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+'[bdh][0-9a-fA-F_]+|\d+)|(?P<fill>'[01])|(?P<id>\$?[A-Za-z_]\w*)"
    r"|(?P<op><<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()?:<>]))"
)
BINARY = {  # operator: (precedence, function)
    "||": (1, lambda a, b: int(bool(a) or bool(b))),
    "&&": (2, lambda a, b: int(bool(a) and bool(b))),
    "==": (3, lambda a, b: int(a == b)),
    "!=": (3, lambda a, b: int(a != b)),
    "<": (4, lambda a, b: int(a < b)),
    "<=": (4, lambda a, b: int(a <= b)),
    ">": (4, lambda a, b: int(a > b)),
    ">=": (4, lambda a, b: int(a >= b)),
    "<<": (5, lambda a, b: a << b),
    ">>": (5, lambda a, b: a >> b),
    "+": (6, lambda a, b: a + b),
    "-": (6, lambda a, b: a - b),
    "*": (7, lambda a, b: a * b),
    "/": (7, lambda a, b: a // b),
    "%": (7, lambda a, b: a % b),
}


def clog2(n):
    return 0 if n <= 1 else (n - 1).bit_length()


class Expr:
    """Integer constant expressions of the package: literals (sized or not, '0 / '1 fills),
    parameter names, + - * / % << >>, comparisons, && ||, ?: and $clog2(). `fill_width` is the
    width a '1 fill takes (the declared width of the parameter it initializes)."""

    def __init__(self, text, values, where, fill_width=None):
        self.where = where
        self.values = values
        self.fill_width = fill_width
        self.tokens = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                self.fail(f"cannot read the expression '{text}' at '{text[pos:]}'")
            self.tokens.append((m.lastgroup, m.group(m.lastgroup)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i = 0

    def fail(self, message):
        raise LayoutError(*self.where, message)

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self, value=None):
        kind, tok = self.peek()
        if tok is None or (value is not None and tok != value):
            self.fail(f"expected '{value or 'an operand'}' in the expression")
        self.i += 1
        return kind, tok

    def value(self):
        v = self.ternary()
        if self.i != len(self.tokens):
            self.fail(f"unexpected '{self.peek()[1]}' in the expression")
        return v

    def ternary(self):
        cond = self.binary(1)
        if self.peek()[1] == "?":
            self.take("?")
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return a if cond else b
        return cond

    def binary(self, level):
        left = self.unary()
        while True:
            op = self.peek()[1]
            if op not in BINARY or BINARY[op][0] < level:
                return left
            self.take()
            right = self.binary(BINARY[op][0] + 1)
            if op in ("/", "%") and right == 0:
                self.fail("division by zero in the expression")
            left = BINARY[op][1](left, right)

    def unary(self):
        kind, tok = self.take()
        if tok == "(":
            v = self.ternary()
            self.take(")")
            return v
        if tok == "-":
            return -self.unary()
        if kind == "num":
            if "'" not in tok:
                return int(tok)
            size, rest = tok.split("'")
            base = {"b": 2, "d": 10, "h": 16}[rest[0]]
            v = int(rest[1:].replace("_", ""), base)
            if v >= 1 << int(size):
                self.fail(f"the literal {tok} does not fit {size} bits")
            return v
        if kind == "fill":
            if tok == "'0":
                return 0
            if self.fill_width is None:
                self.fail("a '1 fill needs a declared width")
            return (1 << self.fill_width) - 1
        if tok == "$clog2":
            self.take("(")
            v = self.ternary()
            self.take(")")
            return clog2(v)
        if kind == "id" and tok in self.values:
            return self.values[tok]
        self.fail(f"unknown name '{tok}' in the expression")


# ---- the package --------------------------------------------------------------------------


def strip_comments(text):
    """The text with comments blanked (newlines kept, so offsets map to the same lines), and
    the line comments by line number (1-based)."""
    out = []
    comments = {}
    i = 0
    line = 1
    while i < len(text):
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            comments[line] = text[i + 2 : end].strip()
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise LayoutError(None, line, "unterminated /* comment")
            chunk = text[i : end + 2]
            out.append(re.sub(r"[^\n]", " ", chunk))
            line += chunk.count("\n")
            i = end + 2
        else:
            if text[i] == "\n":
                line += 1
            out.append(text[i])
            i += 1
    return "".join(out), comments


def camel(name):
    """port_lo -> PortLo, flit_type -> FlitType."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


class Package:
    def __init__(self, path):
        self.path = path
        self.name = None
        self.params = {}  # name -> value, in declaration order
        self.param_lines = {}
        self.enums = {}  # typedef name -> (width, [(member, value)])
        self.structs = {}  # typedef name -> (width, [(field, width, lsb)])
        self.parse()

    def fail(self, line, message):
        raise LayoutError(self.path, line, message)

    def width_of_range(self, rng, line):
        """Width of a packed range "[hi:lo]" (None: one bit)."""
        if rng is None:
            return 1
        hi, lo = rng.split(":")
        h = Expr(hi, self.params, (self.path, line)).value()
        lo_v = Expr(lo, self.params, (self.path, line)).value()
        if lo_v != 0 or h < 0:
            self.fail(line, f"packed range [{rng}] must be [N-1:0]")
        return h + 1

    def type_width(self, typ, line):
        m = re.fullmatch(r"(?:logic|bit)\s*(?:\[([^\]]+)\])?", typ.strip())
        if m:
            return self.width_of_range(m.group(1), line)
        if typ.strip() in self.enums:
            return self.enums[typ.strip()][0]
        if typ.strip() in self.structs:
            return self.structs[typ.strip()][0]
        self.fail(line, f"unknown type '{typ.strip()}'")

    def parse(self):
        with open(self.path, encoding="utf-8") as f:
            raw = f.read()
        try:
            text, self.comments = strip_comments(raw)
        except LayoutError as e:
            raise LayoutError(self.path, str(e).split(":")[1], "unterminated /* comment") from e
        pos = 0
        line_of = lambda p: text.count("\n", 0, p) + 1  # noqa: E731
        statement = re.compile(r"\s*([^;]*?;|endpackage\b)", re.S)
        ended = False
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text):
                break
            start = pos
            line = line_of(start)
            if ended:
                self.fail(line, "text after endpackage")
            if text.startswith("function", pos):
                end = text.find("endfunction", pos)
                if end < 0:
                    self.fail(line, "function without endfunction")
                pos = end + len("endfunction")
                continue
            if text.startswith("typedef", pos):
                brace = text.find("{", pos)
                close = text.find("}", pos)
                semi = text.find(";", pos)
                if 0 <= brace < semi:
                    if close < 0:
                        self.fail(line, "typedef without a closing brace")
                    semi = text.find(";", close)
                    self.typedef(text[start : semi + 1], start, line_of)
                    pos = semi + 1
                    continue
                self.fail(line, "typedef of a form this generator does not read")
            m = statement.match(text, pos)
            if not m:
                self.fail(line, "statement without a terminating ';'")
            stmt = " ".join(m.group(1).split())
            pos = m.end()
            if stmt == "endpackage":
                if self.name is None:
                    self.fail(line, "endpackage without package")
                ended = True
                continue
            pm = re.fullmatch(r"package (\w+);", stmt)
            if pm:
                if self.name is not None:
                    self.fail(line, "a second package")
                self.name = pm.group(1)
                continue
            if self.name is None:
                self.fail(line, "a statement before 'package'")
            self.parameter(stmt, line)
        if self.name is None or not ended:
            self.fail(line_of(len(text)), "no complete package ... endpackage")

    def parameter(self, stmt, line):
        m = re.fullmatch(
            r"(?:parameter|localparam) (int unsigned|int|(?:logic|bit)(?: ?\[([^\]]+)\])?) "
            r"(\w+) = (.+);",
            stmt,
        )
        if not m:
            self.fail(line, f"cannot read '{stmt}' (expected a parameter, typedef or function)")
        typ, rng, name, expr = m.groups()
        width = 32 if typ.startswith("int") else self.width_of_range(rng, line)
        value = Expr(expr, self.params, (self.path, line), fill_width=width).value()
        if value < 0 and typ != "int":
            self.fail(line, f"{name} = {value} is negative")
        if value >= 1 << width:
            self.fail(line, f"{name} = {value} does not fit its {width} bits")
        if name in self.params:
            self.fail(line, f"{name} defined twice")
        self.params[name] = value
        self.param_lines[name] = line

    def typedef(self, stmt, start, line_of):
        line = line_of(start)
        m = re.fullmatch(
            r"\s*typedef\s+(enum\s+(?:logic|bit)\s*(?:\[([^\]]+)\])?|struct\s+packed)\s*\{(.*)\}\s*(\w+)\s*;",
            stmt,
            re.S,
        )
        if not m:
            self.fail(line, "cannot read this typedef (expected an enum or a packed struct)")
        kind, rng, body, name = m.groups()
        if name in self.enums or name in self.structs or name in self.params:
            self.fail(line, f"{name} defined twice")
        body_start = start + stmt.index("{") + 1
        if kind.startswith("enum"):
            width = self.width_of_range(rng, line)
            members = []
            for item in body.split(","):
                if not item.strip():
                    self.fail(line, f"empty member in enum {name}")
                im = re.fullmatch(r"\s*(\w+)\s*=\s*(.+?)\s*", item, re.S)
                if not im:
                    self.fail(line, f"enum {name}: every member needs an explicit value ('{item.strip()}')")
                v = Expr(im.group(2), self.params, (self.path, line)).value()
                if v >= 1 << width:
                    self.fail(line, f"enum {name}: {im.group(1)} = {v} does not fit {width} bits")
                if any(v == mv for _, mv in members):
                    self.fail(line, f"enum {name}: value {v} given twice")
                members.append((im.group(1), v))
            self.enums[name] = (width, members)
            return
        fields = []
        pos = 0
        for fm in re.finditer(r"([^;]*);", body):
            decl = " ".join(fm.group(1).split())
            fline = line_of(body_start + fm.start(1) + (len(fm.group(1)) - len(fm.group(1).lstrip())))
            dm = re.fullmatch(r"((?:logic|bit)(?: ?\[[^\]]+\])?|\w+) (\w+)", decl)
            if not dm:
                self.fail(fline, f"struct {name}: cannot read the field '{decl}'")
            fields.append((dm.group(2), self.type_width(dm.group(1), fline), fline))
            pos = fm.end()
        if body[pos:].strip():
            self.fail(line, f"struct {name}: text after the last field")
        if not fields:
            self.fail(line, f"struct {name} has no fields")
        total = sum(w for _, w, _ in fields)
        out = []
        lsb = total
        for fname, w, fline in fields:
            lsb -= w
            out.append((fname, w, lsb))
            comment = self.comments.get(fline, "")
            cm = re.match(r"\[(\d+)(?::(\d+))?\]", comment)
            if cm:
                hi = int(cm.group(1))
                lo = int(cm.group(2)) if cm.group(2) is not None else hi
                if (hi, lo) != (lsb + w - 1, lsb):
                    self.fail(fline, f"struct {name}: the comment says {fname} is [{cm.group(0)[1:-1]}], "
                              f"its declaration order puts it at [{lsb + w - 1}:{lsb}]")
            if any(fname == f for f, _, _ in out[:-1]):
                self.fail(fline, f"struct {name}: field {fname} declared twice")
        self.structs[name] = (total, out)

    def check_restated(self):
        """Parameters that restate a struct's layout (<X>W, <X><Field>Lsb) must agree with it."""
        for sname, (width, fields) in self.structs.items():
            prefix = camel(re.sub(r"_t$", "", sname))
            checks = {f"{prefix}W": width}
            for fname, _, lsb in fields:
                checks[f"{prefix}{camel(fname)}Lsb"] = lsb
            wrong = [(self.param_lines[p], p, want) for p, want in checks.items()
                     if p in self.params and self.params[p] != want]
            if wrong:
                line, pname, want = min(wrong)  # the first in the file
                self.fail(line, f"{pname} = {self.params[pname]}, but {sname} as declared gives {want}")


def prefix_of(typedef):
    return camel(re.sub(r"_(t|e)$", "", typedef))


def header_text(pkg, source_name):
    lines = [
        f"// Generated from {source_name} by scripts/rtl_layout.py at build time; do not edit.",
        "// The package's parameters, enums and packed-struct layouts (docs/rtl.md, \"One definition",
        "// of the bit layouts\").",
        "#pragma once",
        "",
        "namespace wormsim::rtl::pkg {",
        "",
        "// Parameters.",
    ]
    derived = set()
    for sname, (width, fields) in pkg.structs.items():
        p = prefix_of(sname)
        derived.add(f"{p}W")
        derived.update(f"{p}{camel(f)}Lsb" for f, _, _ in fields)
    for name, value in pkg.params.items():
        if name not in derived:
            lines.append(f"inline constexpr unsigned k{name} = {value}u;")
    for ename, (width, members) in pkg.enums.items():
        p = prefix_of(ename)
        lines += ["", f"// {ename}.", f"inline constexpr unsigned k{p}W = {width}u;",
                  f"enum class {p} : unsigned {{"]
        lines += [f"  k{m} = {v}u," for m, v in members]
        lines.append("};")
    for sname, (width, fields) in pkg.structs.items():
        p = prefix_of(sname)
        lines += ["", f"// {sname}, most significant field first.", f"inline constexpr unsigned k{p}W = {width}u;"]
        for fname, w, lsb in fields:
            lines.append(f"inline constexpr unsigned k{p}{camel(fname)}Lsb = {lsb}u, k{p}{camel(fname)}W = {w}u;")
    lines += ["", "}  // namespace wormsim::rtl::pkg", ""]
    return "\n".join(lines)


def cmake_text(pkg, source_name):
    lines = [f"# Generated from {source_name} by scripts/rtl_layout.py; do not edit."]
    lines += [f"set(WORMSIM_PKG_{name} {value})" for name, value in pkg.params.items()]
    return "\n".join(lines) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("package", help="rtl/wormsim_pkg.sv")
    ap.add_argument("--header", help="C++ header to write")
    ap.add_argument("--cmake", help="CMake file to write")
    args = ap.parse_args(argv)
    try:
        pkg = Package(args.package)
        pkg.check_restated()
    except LayoutError as e:
        print(f"rtl_layout: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"rtl_layout: {e}", file=sys.stderr)
        return 1
    name = os.path.basename(args.package)
    if args.header:
        write_if_changed(args.header, header_text(pkg, name))
    if args.cmake:
        write_if_changed(args.cmake, cmake_text(pkg, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
