#!/usr/bin/python3
"""Tests of scripts/rtl_layout.py, the generator of the C++ and CMake view of rtl/wormsim_pkg.sv
(docs/rtl.md, "One definition of the bit layouts"): the layouts it computes from the real
package satisfy the packing rules of SystemVerilog (a packed struct's fields are contiguous,
the first declared is the most significant, the width is their sum), offsets follow the
declaration order and not the comments, and every malformed package is an error naming the
file and line. The C++ side checks the generated header against FlitBits with static_asserts
(systemc/cosim/rtl_flit.h), and rtl_flit_test round-trips flits through a Verilated module
built from the same package."""

import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "rtl_layout.py")
PKG = os.path.join(ROOT, "rtl", "wormsim_pkg.sv")

spec = importlib.util.spec_from_file_location("rtl_layout", SCRIPT)
rtl_layout = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rtl_layout)


def read_pkg():
    with open(PKG, encoding="utf-8") as f:
        return f.read()


class Variant:
    """A modified copy of the package in a temporary file."""

    def __init__(self, test, text):
        self.dir = tempfile.TemporaryDirectory()
        test.addCleanup(self.dir.cleanup)
        self.path = os.path.join(self.dir.name, "wormsim_pkg.sv")
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(text)

    def parse(self):
        pkg = rtl_layout.Package(self.path)
        pkg.check_restated()
        return pkg


def line_of(text, needle):
    return text[: text.index(needle)].count("\n") + 1


class RealPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pkg = rtl_layout.Package(PKG)
        cls.pkg.check_restated()

    def test_structs_are_packed_msb_first_and_contiguous(self):
        for name, (width, fields) in self.pkg.structs.items():
            with self.subTest(struct=name):
                self.assertEqual(width, sum(w for _, w, _ in fields))
                top = width
                for fname, w, lsb in fields:  # declaration order
                    self.assertEqual(lsb + w, top, f"{name}.{fname}")
                    top = lsb
                self.assertEqual(top, 0)

    def test_flit_width_is_the_sum_of_its_declared_field_types(self):
        p = self.pkg.params
        width, fields = self.pkg.structs["flit_t"]
        self.assertEqual([f for f, _, _ in fields],
                         ["typ", "vc", "mc", "hlen", "more", "mpos", "pkt", "idx", "src", "dst",
                          "data"])
        expected = 2 + p["VcW"] + 1 + p["HlenW"] + 1 + p["MposW"] + p["PktW"] + p["IdxW"] + \
            2 * p["NodeW"] + p["DataW"]
        self.assertEqual(width, expected)
        self.assertEqual(p["FlitW"], width)  # the package's restatement agrees
        self.assertEqual(dict((f, lsb) for f, _, lsb in fields)["data"], 0)

    def test_expressions(self):
        p = self.pkg.params
        self.assertEqual(p["MaxPath"], 1 << p["MposW"])
        self.assertEqual(p["ListW"], p["DataW"])
        self.assertEqual(self.pkg.enums["flit_type_e"],
                         (2, [("FlitHead", 0), ("FlitBody", 1), ("FlitTail", 2), ("FlitHeadTail", 3)]))
        self.assertEqual(self.pkg.structs["cfg_t"][1][4][1], p["MaxDims"] * p["CoordW"])  # side

    def test_cli_writes_header_and_cmake(self):
        with tempfile.TemporaryDirectory() as d:
            h, c = os.path.join(d, "l.h"), os.path.join(d, "l.cmake")
            r = subprocess.run([sys.executable, SCRIPT, PKG, "--header", h, "--cmake", c],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            header = open(h, encoding="utf-8").read()
            self.assertIn(f"inline constexpr unsigned kFlitW = {self.pkg.params['FlitW']}u;", header)
            self.assertIn("kFlitDataLsb = 0u, kFlitDataW = ", header)
            self.assertIn("enum class Topo : unsigned {", header)
            self.assertIn(f"set(WORMSIM_PKG_WidePorts {self.pkg.params['WidePorts']})",
                          open(c, encoding="utf-8").read())


class Offsets(unittest.TestCase):
    def test_offsets_follow_declaration_order_not_comments(self):
        text = read_pkg()
        # Swap src and dst and drop their (now stale) comments: the offsets swap too.
        src = re.search(r"\n(\s*logic \[NodeW-1:0\] src;)[^\n]*", text)
        dst = re.search(r"\n(\s*logic \[NodeW-1:0\] dst;)[^\n]*", text)
        swapped = text.replace(src.group(0), "\n@DST@").replace(dst.group(0), "\n@SRC@")
        swapped = swapped.replace("@DST@", dst.group(1)).replace("@SRC@", src.group(1))
        # The package's restated offsets would now be wrong: drop them for this test.
        swapped = re.sub(r"\n\s*parameter int unsigned Flit\w+Lsb = [^\n]*", "", swapped)
        fields = {f: lsb for f, _, lsb in Variant(self, swapped).parse().structs["flit_t"][1]}
        real = {f: lsb for f, _, lsb in rtl_layout.Package(PKG).structs["flit_t"][1]}
        self.assertEqual(fields["dst"], real["src"])
        self.assertEqual(fields["src"], real["dst"])

    def test_a_stale_bit_range_comment_is_an_error(self):
        text = read_pkg()
        bad = text.replace("logic [NodeW-1:0] dst;   // [79:64]", "logic [NodeW-1:0] dst;   // [79:62]")
        self.assertNotEqual(bad, text)
        with self.assertRaisesRegex(rtl_layout.LayoutError,
                                    rf":{line_of(bad, '[79:62]')}: struct flit_t: the comment says dst"):
            Variant(self, bad).parse()

    def test_a_wrong_restated_offset_is_an_error(self):
        text = read_pkg()
        bad = text.replace("parameter int unsigned FlitVcLsb = FlitMcLsb + 1;",
                           "parameter int unsigned FlitVcLsb = FlitMcLsb + 2;")
        self.assertNotEqual(bad, text)
        with self.assertRaisesRegex(rtl_layout.LayoutError,
                                    rf":{line_of(bad, 'FlitVcLsb = FlitMcLsb + 2')}: FlitVcLsb = 160, but flit_t"):
            Variant(self, bad).parse()


class Fills(unittest.TestCase):
    def test_a_fill_takes_the_declared_width(self):
        text = read_pkg()
        at = text.index("\n", text.index("package wormsim_pkg;")) + 1
        variant = text[:at] + "  parameter logic [5:0] AllOnes = '1;\n  parameter logic [5:0] None = '0;\n" + text[at:]
        params = Variant(self, variant).parse().params
        self.assertEqual(params["AllOnes"], 63)
        self.assertEqual(params["None"], 0)


class Strict(unittest.TestCase):
    def bad_line(self, after, inserted):
        text = read_pkg()
        at = text.index("\n", text.index(after)) + 1
        bad = text[:at] + inserted + "\n" + text[at:]
        return bad, text[:at].count("\n") + 1

    def assert_error_at(self, bad, line, message):
        v = Variant(self, bad)
        with self.assertRaises(rtl_layout.LayoutError) as e:
            v.parse()
        self.assertIn(f"{v.path}:{line}: ", str(e.exception))
        self.assertIn(message, str(e.exception))
        # The command line says the same and fails.
        r = subprocess.run([sys.executable, SCRIPT, v.path, "--header", os.path.join(v.dir.name, "h")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"{v.path}:{line}: ", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(v.dir.name, "h")))

    def test_unknown_statement(self):
        bad, line = self.bad_line("parameter int unsigned PortW", "  localparam foo bar;")
        self.assert_error_at(bad, line, "cannot read")

    def test_unknown_name_in_expression(self):
        bad, line = self.bad_line("parameter int unsigned PortW", "  parameter int unsigned X = NoSuchW + 1;")
        self.assert_error_at(bad, line, "unknown name 'NoSuchW'")

    def test_value_too_wide(self):
        bad, line = self.bad_line("parameter int unsigned PortW", "  parameter logic [1:0] X = 4;")
        self.assert_error_at(bad, line, "does not fit its 2 bits")

    def test_unknown_field_type(self):
        bad, line = self.bad_line("typedef struct packed {", "    widget_t w;")
        self.assert_error_at(bad, line, "unknown type 'widget_t'")

    def test_enum_member_without_value(self):
        text = read_pkg()
        bad = text.replace("FlitTail     = 2'd2,", "FlitTail,")
        self.assertNotEqual(bad, text)
        self.assert_error_at(bad, line_of(bad, "typedef enum logic [1:0] {"), "explicit value")

    def test_unpacked_struct(self):
        text = read_pkg()
        bad = text.replace("typedef struct packed {", "typedef struct {", 1)
        self.assert_error_at(bad, line_of(bad, "typedef struct {"), "cannot read this typedef")

    def test_missing_semicolon(self):
        text = read_pkg()
        bad = text.replace("parameter int unsigned PortW = 6;", "parameter int unsigned PortW = 6")
        self.assertNotEqual(bad, text)
        self.assert_error_at(bad, line_of(bad, "parameter int unsigned PortW = 6"), "cannot read")


if __name__ == "__main__":
    unittest.main()
