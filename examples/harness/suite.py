"""The benchmarks of the suite, their inputs, and the builds to compare."""

import os

import variants

# (benchmark, program, {size: arguments}).  "small" is the ctest input
# (the ARGS of examples/<program>/CMakeLists.txt),
# "default" a serial run of 0.5-3 s on the 2-core development machine,
# "paper" the input of paper 000 Table 1 (fib ... fft) or of paper 003
# §4.1 (nqueens, uts).  uts runs twice: a geometric and a binomial tree.
BENCHMARKS = [
    ("fib", "fib", {"small": ["27"], "default": ["42"], "paper": ["42"]}),
    ("jacobi", "jacobi", {"small": ["200", "50"], "default": ["1024", "1000"],
                          "paper": ["1024", "1000"]}),
    ("quicksort", "quicksort", {"small": ["1000000"], "default": ["10000000"],
                                "paper": ["100000000"]}),
    ("matmul", "matmul", {"small": ["300"], "default": ["1536"], "paper": ["1024"]}),
    ("integrate", "integrate", {"small": ["500"], "default": ["10000"],
                                "paper": ["10000"]}),
    ("knapsack", "knapsack", {"small": ["22"], "default": ["32"], "paper": ["32"]}),
    ("cholesky", "cholesky", {"small": ["300"], "default": ["2048"], "paper": ["4000"]}),
    ("heat", "heat", {"small": ["500", "200", "20"], "default": ["4096", "1024", "150"],
                      "paper": ["4096", "1024", "150"]}),
    ("lud", "lud", {"small": ["300"], "default": ["2048"], "paper": ["1024"]}),
    ("strassen", "strassen", {"small": ["256"], "default": ["2048"], "paper": ["4096"]}),
    ("fft", "fft", {"small": ["18"], "default": ["22"], "paper": ["26"]}),
    ("nqueens", "nqueens", {"small": ["10"], "default": ["13"], "paper": ["15"]}),
    ("uts-geo", "uts", {"small": ["tiny-geo"], "default": ["T2"], "paper": ["T2L"]}),
    ("uts-bin", "uts", {"small": ["tiny-bin"], "default": ["T3"], "paper": ["T3L"]}),
    # Not in the papers: the loop of spawns a user writes before ws_for
    # (issue 3's spawn-in-loop reduction).
    ("reduce", "reduce", {"small": ["100000", "512", "4", "2"],
                          "default": ["4194304", "1024", "40", "4"],
                          "paper": ["16777216", "4096", "40", "4"]}),
    # Not in the papers: two shapes of tzcnt/runtime-benchmarks (issue 26),
    # "paper" being that suite's input: spawns in a loop with no cut-off
    # (skynet, after atemerev/skynet) and coarse tasks behind a sync every
    # four spawns (qmatmul).
    ("skynet", "skynet", {"small": ["5"], "default": ["8"], "paper": ["8"]}),
    ("qmatmul", "qmatmul", {"small": ["256"], "default": ["2048"], "paper": ["2048"]}),
]

SIZES = ("small", "default", "paper")

# Builds of our runtime: the paper's fenced baselines (cheapest fence, then
# mfence as in its setting), its fence-free variants, Lace's split deque
# and private deques.
# The variants are the rows of runtime/include/ws/variants.def, in id
# order (variants.py); THE and Chase-Lev are followed by their mfence twins
# (WS_EXAMPLE_MFENCE_VARIANTS in cmake/WsExamples.cmake).
VARIANTS = [(v.name, v.fence_free) for v in variants.rows()]
MFENCE_VARIANTS = ["the", "cl"]
WS_BUILDS = [b for name, _ in VARIANTS
             for b in ([name, name + "_mfence"] if name in MFENCE_VARIANTS else [name])]
PEER_BUILDS = ["omp_clang", "omp_gcc", "tbb"]
SERIAL = "serial"
OURS = "thep"  # the paper's algorithm (the default deque is variants.default())

# (fenced, fence-free) pairs whose T_P ratio is the paper's claim (§8.1).
FENCE_PAIRS = [("the", "ffthe"), ("the", "thep"), ("the", "ffmb"), ("cl", "ffcl"),
               ("the_mfence", "ffthe"), ("the_mfence", "thep"),
               ("cl_mfence", "ffcl")]

# Benchmarks with a cut-off (coarse tasks): their T1/T_S target is 1.05.
COARSE = ["jacobi", "quicksort", "matmul", "cholesky", "heat", "lud",
          "strassen", "fft", "reduce", "qmatmul"]


def kind(build):
    """serial, ws (our runtime) or peer."""
    if build == SERIAL:
        return "serial"
    return "peer" if build in PEER_BUILDS else "ws"


def discover(bindir, names):
    """[(benchmark, program, sizes, [builds])] for the benchmarks in `names`
    whose serial build exists, with every build found next to it."""
    found = []
    for bench, prog, sizes in BENCHMARKS:
        if names and bench not in names:
            continue
        builds = [b for b in [SERIAL] + WS_BUILDS + PEER_BUILDS
                  if os.access(os.path.join(bindir, f"{prog}_{b}"), os.X_OK)]
        if SERIAL in builds:
            found.append((bench, prog, sizes, builds))
    return found


def env_for(bench, build, workers, store_buffer=None):
    """The environment of one run: the worker count in each runtime's own
    variable, WS_STATS for the steal counts, and S when the caller knows the
    machine's (otherwise the runtime resolves it itself).  uts-bin (T3L: 17844 levels)
    needs deep stacks everywhere (our workers and oneTBB's get 64 MiB by
    themselves) and, for us, a deque deeper than the default 65536 tasks."""
    env = dict(os.environ)
    for var in ("WS_DEQUE", "WS_STORE_BUFFER", "WS_NUM_WORKERS", "WS_DEQUE_SIZE",
                "OMP_NUM_THREADS", "OMP_STACKSIZE", "TBB_NUM_THREADS"):
        env.pop(var, None)
    k = kind(build)
    if k == "ws":
        env["WS_NUM_WORKERS"] = str(workers)
        env["WS_STATS"] = "1"
        if store_buffer:
            env["WS_STORE_BUFFER"] = str(store_buffer)
        if bench == "uts-bin":
            env["WS_DEQUE_SIZE"] = str(1 << 20)
    elif k == "peer" and build.startswith("omp"):
        env["OMP_NUM_THREADS"] = str(workers)
        if bench == "uts-bin":
            env["OMP_STACKSIZE"] = "64M"
    elif k == "peer":
        env["TBB_NUM_THREADS"] = str(workers)
    return env
