"""The command line: every subcommand and validation case answers --help, bad names exit 2."""
import contextlib
import io
import unittest

from _common import run, run_here
from sphreverb_post import cli


def in_process(argv):
    """cli.main(argv) here (argparse's --help exits): (exit code, stdout)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            code = cli.main(argv)
        except SystemExit as e:
            code = e.code
    return code, out.getvalue()


class TestCommandLine(unittest.TestCase):
    def test_every_subcommand_has_help(self):
        names = [n for n in cli.COMMANDS if n != "validate"]
        names += [f"validate {c}" for c in cli.CASES]
        for name in names:
            code, out = in_process([*name.split(), "--help"])
            self.assertEqual(code, 0, name)
            self.assertIn(f"usage: python3 -m sphreverb_post {name}", out, name)

    def test_module_entry_point(self):
        code, out, err = run("render", "--help")    # ParaView is imported after parsing only
        self.assertEqual(code, 0, err)
        self.assertIn("usage: python3 -m sphreverb_post render", out)

    def test_listing(self):
        code, out = in_process(["--help"])
        self.assertEqual(code, 0)
        for name in cli.COMMANDS:
            self.assertIn(f"\n  {name} ", out)
        code, out = in_process(["validate", "--help"])
        self.assertEqual(code, 0)
        for case, (name, _, _) in cli.CASES.items():
            self.assertIn(f"  {case} {name} ", out)

    def test_case_by_name_or_number(self):
        self.assertEqual(cli.case_module("tof"), ("v2", "v2_tof"))
        self.assertEqual(cli.case_module("V7"), ("v7", "v7_decay"))
        self.assertIsNone(cli.case_module("v10"))
        code, out = in_process(["validate", "decays", "--help"])
        self.assertEqual(code, 0)
        self.assertIn("usage: python3 -m sphreverb_post validate v8", out)

    def test_unknown_or_missing_exit_2(self):
        for argv in ([], ["nosuch"], ["validate"], ["validate", "v99"]):
            code, out, err = run_here(*argv) if argv else run_here("")
            self.assertEqual(code, 2, argv)
            self.assertIn("usage:", err, argv)
            self.assertNotIn("Traceback", err, argv)


if __name__ == "__main__":
    unittest.main()
