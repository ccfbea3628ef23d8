"""Unit tests of the doc-test (scripts/doc_commands.py): what it refuses in the
fences, how directives apply, and that a failing command fails it even in
the middle of a block or of an && chain."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import doc_commands as dt  # noqa: E402


def md(text):
    return textwrap.dedent(text).lstrip("\n")


class ParseTest(unittest.TestCase):
    def test_tags_decide_what_runs(self):
        blocks, errors = dt.parse("x.md", md("""
            ```sh
            echo hi
            ```

            ```text
            hi
            ```
            """))
        self.assertEqual(errors, [])
        self.assertEqual([b.tag for b in blocks], ["sh", "text"])

    def test_untagged_and_command_like_fences_are_refused(self):
        _, errors = dt.parse("x.md", md("""
            ```
            make
            ```

            ```console
            $ make
            ```
            """))
        self.assertEqual(len(errors), 2)
        self.assertIn("x.md:1: untagged fence", errors[0])
        self.assertIn("x.md:5: fence tagged `console`", errors[1])

    def test_indented_code_block_is_refused_but_list_text_is_not(self):
        _, errors = dt.parse("x.md", md("""
            Text.

                make all

            - an item
              whose text goes on

              in a second paragraph
            """))
        self.assertEqual(len(errors), 1)
        self.assertIn("x.md:3: indented code block", errors[0])

    def test_directives(self):
        blocks, errors = dt.parse("x.md", md("""
            <!-- doctest: replace "--runs=100" "--runs=2" small inputs -->
            <!-- doctest: exit 0,1 the verdict depends on the CPU -->
            <!-- main-command -->
            ```sh
            tool --runs=100
            ```
            <!-- doctest: skip needs a crash file, which isn't there -->
            ```sh
            tool crash-XXXX
            ```
            """))
        self.assertEqual(errors, [])
        self.assertEqual(blocks[0].replacements, [["--runs=100", "--runs=2"]])
        self.assertEqual(blocks[0].exits, ["0", "1"])
        self.assertIsNone(blocks[0].skip)
        self.assertEqual(blocks[1].skip, "needs a crash file, which isn't there")

    def test_directive_needs_its_reason(self):
        _, errors = dt.parse("x.md", md("""
            <!-- doctest: skip -->
            ```sh
            true
            ```
            <!-- doctest: replace "a" "b" -->
            ```sh
            a
            ```
            <!-- doctest: frobnicate x -->
            ```sh
            x
            ```
            <!-- doctest: skip output, not a command -->
            ```text
            x
            ```
            """))
        self.assertEqual(len(errors), 4, errors)
        self.assertIn("skip needs a reason", errors[0])
        self.assertIn("replace needs", errors[1])
        self.assertIn("unknown doctest directive", errors[2])
        self.assertIn("directives on a `text` block", errors[3])

    def test_directive_away_from_its_fence_is_refused(self):
        _, errors = dt.parse("x.md", md("""
            <!-- doctest: skip too far -->

            ```sh
            true
            ```
            """))
        self.assertEqual(errors, ["x.md:1: doctest directive not on the lines just "
                                  "above a fence"])

    def test_commands_split_as_bash_parses(self):
        cmds = dt.commands(md("""
            # a comment
            a && b
            for v in 1 2; do
              echo $v
            done
            long \\
                line
            """))
        self.assertEqual(cmds, ["a && b", "for v in 1 2; do\n  echo $v\ndone",
                                "long \\\n    line"])


class RunTest(unittest.TestCase):
    """The whole script on a small source tree of its own."""

    def run_doc(self, text):
        with tempfile.TemporaryDirectory() as d:
            src, build = os.path.join(d, "src"), os.path.join(d, "build")
            os.makedirs(os.path.join(src, "docs"))
            os.makedirs(build)
            with open(os.path.join(build, "marker"), "w") as f:
                f.write("the build\n")
            with open(os.path.join(src, "README.md"), "w") as f:
                f.write(md(text))
            env = dict(os.environ, WS_STATS="1")  # must not reach the commands
            p = subprocess.run([sys.executable, os.path.join(HERE, "doc_commands.py"),
                                "--source", src, "--build", build],
                               capture_output=True, text=True, timeout=60, env=env)
            return p.returncode, p.stdout

    def test_passing_doc(self):
        rc, out = self.run_doc("""
            ```sh
            grep -q 'the build' build/marker && test -f README.md
            echo data > /tmp/scratch && cat /tmp/scratch
            test -d "$HOME" && test -z "$(ls -A "$HOME")" && test -z "${WS_STATS-}"
            ```
            <!-- doctest: skip not here -->
            ```sh
            false
            ```
            <!-- doctest: exit 3 the tool says 3 -->
            ```sh
            sh -c 'exit 3'
            ```
            """)
        self.assertEqual(rc, 0, out)
        self.assertIn("2 command blocks passed, 0 failed, 1 skipped", out)
        self.assertIn("skip README.md:7: not here", out)

    def test_failure_inside_an_and_chain_fails(self):
        rc, out = self.run_doc("""
            ```sh
            false && true
            echo after
            ```
            """)
        self.assertEqual(rc, 1, out)
        self.assertIn("command 1 exited with 1: false && true", out)

    def test_replacement_that_no_longer_matches_fails(self):
        rc, out = self.run_doc("""
            <!-- doctest: replace "--runs=100" "--runs=2" small inputs -->
            ```sh
            true --runs=5000
            ```
            """)
        self.assertEqual(rc, 1, out)
        self.assertIn("replace: '--runs=100' is not in the block", out)

    def test_doc_with_no_command_fails(self):
        rc, out = self.run_doc("""
            ```text
            nothing to run
            ```
            """)
        self.assertEqual(rc, 1, out)
        self.assertIn("no command ran", out)


if __name__ == "__main__":
    unittest.main()
