"""Unit tests of the harness's arithmetic: medians, ratios of medians,
geometric means, failed cells, and the targets."""

import glob
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import plots  # noqa: E402
import summary  # noqa: E402
from suite import PEER_BUILDS, WS_BUILDS  # noqa: E402


def row(bench, build, workers, rep, time_s, status="ok", spawns="", steals="",
        wall_s=""):
    return {"bench": bench, "build": build, "workers": str(workers), "rep": str(rep),
            "status": status, "time_s": "" if time_s is None else str(time_s),
            "spawns": spawns, "steals": steals, "wall_s": wall_s}


def runs(bench, build, workers, times, **kw):
    return [row(bench, build, workers, i + 1, t, **kw) for i, t in enumerate(times)]


class SummaryTest(unittest.TestCase):
    def setUp(self):
        rows = []
        rows += runs("fib", "serial", 1, [1.0, 1.2, 0.9])           # median 1.0
        rows += runs("fib", "the", 1, [1.5, 1.4, 9.0])              # median 1.5
        rows += runs("fib", "thep", 1, [1.2, 1.25, 1.1])            # median 1.2
        rows += runs("fib", "thep", 2, [0.6, 0.7, 0.65],            # median 0.65
                     spawns="1000", steals="10")
        rows += runs("fib", "omp_clang", 2, [6.5])
        rows += runs("fib", "tbb", 2, [None], status="timeout", wall_s="120")
        rows += runs("matmul", "serial", 1, [2.0])
        rows += runs("matmul", "the", 1, [2.2])
        rows += runs("matmul", "thep", 1, [2.0])
        rows += runs("matmul", "thep", 2, [None], status="fail")
        self.s = summary.Summary(rows)

    def test_medians_and_ratios(self):
        self.assertAlmostEqual(self.s.overhead("fib", "thep"), 1.2)
        self.assertAlmostEqual(self.s.fence_ratio("fib", "the", "thep", 1), 1.25)
        self.assertAlmostEqual(self.s.speedup("fib", "thep", 2), 1.2 / 0.65)
        self.assertAlmostEqual(self.s.peer_ratio("fib", "omp_clang", 2), 6.5 / 0.65)
        self.assertAlmostEqual(self.s.get("fib", "thep", 2).steal_ratio, 0.01)

    def test_geomean_skips_missing_and_failed(self):
        self.assertAlmostEqual(summary.geomean([1.25, 1.1, None, "FAIL"]), (1.25 * 1.1) ** 0.5)
        self.assertIsNone(summary.geomean([None]))

    def test_failed_cell_has_no_median(self):
        self.assertEqual(self.s.speedup("matmul", "thep", 2), "FAIL")
        self.assertIsNone(self.s.speedup("matmul", "the", 2))

    def test_timeout_is_a_lower_bound(self):
        x = self.s.peer_ratio("fib", "tbb", 2)
        self.assertIsInstance(x, summary.Above)
        self.assertAlmostEqual(x, 120 / 0.65)
        self.assertEqual(summary.fmt(x), ">184.62")
        self.assertIsNone(summary.geomean([x]))

    def test_one_worker_uses_cpu_time_speedup_wall_time(self):
        rows = [row("fib", "serial", 1, 1, 2.0), row("fib", "thep", 1, 1, 3.0),
                row("fib", "thep", 2, 1, 1.0)]
        rows[0]["cpu_s"], rows[1]["cpu_s"], rows[2]["cpu_s"] = "1.0", "1.2", "1.9"
        s = summary.Summary(rows)
        self.assertAlmostEqual(s.overhead("fib", "thep"), 1.2)   # CPU: 1.2 / 1.0
        self.assertAlmostEqual(s.speedup("fib", "thep", 2), 3.0)  # wall: 3.0 / 1.0

    def test_speedup_at_one_worker_is_one(self):
        # Wall and CPU time differ at P=1 (a parallel runtime's idle
        # workers, a loaded machine); T1/T1 must not mix them.
        rows = [row("lud", "the", 1, 1, 2.2), row("lud", "the", 2, 1, 1.2)]
        rows[0]["cpu_s"], rows[1]["cpu_s"] = "1.0", "2.3"
        s = summary.Summary(rows)
        self.assertEqual(s.speedup("lud", "the", 1), 1.0)
        self.assertAlmostEqual(s.speedup("lud", "the", 2), 2.2 / 1.2)

    def test_every_build_has_its_own_colour(self):
        def rgb(c):
            return [int(c[i:i + 2], 16) for i in (1, 3, 5)]

        builds = WS_BUILDS + PEER_BUILDS
        self.assertEqual(sorted(plots.COLOURS), sorted(builds))
        closest = min((sum((x - y) ** 2 for x, y in zip(rgb(plots.COLOURS[a]),
                                                       rgb(plots.COLOURS[b]))) ** 0.5, a, b)
                      for i, a in enumerate(builds) for b in builds[i + 1:])
        self.assertGreater(closest[0], 60, f"{closest[1]} and {closest[2]} look alike")

    def test_every_results_page_names_its_cpu_and_s(self):
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        pages = glob.glob(os.path.join(root, "docs", "results", "**", "*.md"), recursive=True)
        pages = [p for p in pages if os.path.basename(p) != "machine.md"]
        self.assertTrue(pages)
        for page in pages:
            with open(page) as f:
                text = f.read()
            with self.subTest(page=os.path.relpath(page, root)):
                self.assertRegex(text, r"(CPU|Machine): \S")
                self.assertRegex(text, r"\bS( \(the store-buffer bound the runs used\): |=)\d+")
                self.assertRegex(text, r"Regenerate: `|Produced by `")

    def test_targets(self):
        t = {what: (x, ok) for what, x, _, ok in self.s.targets()}
        x, ok = t["geomean T1(the)/T1(thep)"]
        self.assertAlmostEqual(x, (1.25 * 1.1) ** 0.5)
        self.assertTrue(ok)
        self.assertTrue(t["T1/T_S fib (thep)"][1])          # 1.2 <= 1.25
        self.assertTrue(t["T1/T_S matmul (thep)"][1])           # 1.0 <= 1.05
        self.assertTrue(t["T1/T2 fib (thep)"][1])           # 1.2 / 0.65 = 1.85
        self.assertIsNone(t["T1/T2 matmul (thep)"][1])      # failed: not judged
        self.assertTrue(t["min TP(peer)/TP(thep) fib (omp_clang P=2)"][1])

    def test_tables_render(self):
        text = self.s.tables()
        self.assertIn("| fib | 1.50 | 1.20 | – |", text)
        self.assertIn("FAIL", text)
        self.assertIn("### Steal ratio steals/spawns at P=2", text)

    def test_steals_stand_alone_without_spawn_counts(self):
        # Builds without -fws-stats report steals but no spawns: the table
        # shows the steals, not a column of dashes.
        rows = runs("fib", "serial", 1, [1.0]) + runs("fib", "thep", 1, [1.2])
        rows += runs("fib", "thep", 2, [0.6, 0.7, 0.65], steals="42")
        text = summary.Summary(rows).tables()
        self.assertNotIn("Steal ratio", text)
        self.assertIn("### Steals per run at P=2", text)
        self.assertIn("| fib | 42 |", text)


if __name__ == "__main__":
    unittest.main()
