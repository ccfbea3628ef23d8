/*
 * ws-calibrate — the S the runtime may use on this CPU, validated before
 * it is saved (docs/bounded-tso.md, "Calibrating").
 *
 *   1. measure: ws-sbmeasure's sweep, several times; the largest capacity
 *      any sweep saw, in any repetition, and whether there were two;
 *   2. validate a candidate S, from that capacity + 1 up: the litmus test
 *      at delta = the bound (paper 000 §7.3) at L = 1..8 and wherever L+1
 *      divides S-1, S or S+1 (there the bound is tightest), the runtime's
 *      own take at L = 0, and the take stress of the runtime's fast paths
 *      at the tightest delta of S for FF-THE, FF-CL and THEP (FF-MB's
 *      owner and bound check are FF-THE's).  A run that
 *      refutes S says how many stores a load passed; the next candidate is
 *      at least that;
 *   3. save S = the first candidate nothing refuted + a margin
 *      (ws_calibration_margin), after validating that S the same way, with
 *      a record that says how it was validated.  When no candidate up to
 *      --limit survives, save inf: the thieves then never trust a stale T.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "calibration_save.h"
#include "cli.h"
#include "cpu_calibration.h"
#include "cpu_id.h"
#include "deque_under_test.h"
#include "litmus.h"
#include "sb_kernel.h"
#include "sb_sweep.h"
#include "takestress.h"

typedef struct options {
  unsigned sweeps, reps, kmax;
  uint32_t start; /* 0: from the measurement */
  uint32_t limit;
  uint64_t runs;   /* litmus runs per point */
  uint64_t rounds; /* stress rounds per variant */
  int cpus[2];
  int dry_run;
} options;

static const char usage[] =
    "usage: ws-calibrate [options]\n"
    "Measures this CPU's store buffer, finds the smallest S that neither the\n"
    "litmus test nor the take stress refutes, and saves that S plus a margin\n"
    "for the runtime (WS_CALIBRATION_FILE, else ~/.config/wsff/store-buffer.conf),\n"
    "with how it was validated; or inf when no S up to --limit survives.\n"
    "  --sweeps=N        capacity sweeps (default 3)\n"
    "  --reps=N          repetitions per sweep (default 31)\n"
    "  --kmax=N          largest store count swept (default 200)\n"
    "  --start=S         skip the measurement, start from this candidate\n"
    "  --limit=S         the largest S to try before saving inf (default 512)\n"
    "  --runs=N          litmus runs per point (default 5000)\n"
    "  --rounds=N        stress rounds per fence-free variant (default 1000000)\n"
    "  --cpus=A,B        worker and thief CPUs (default: the first two)\n"
    "  --dry-run         validate, but save nothing\n"
    "Exit status: 0 saved (or would save), 1 error, 2 bad usage, 3 the machine\n"
    "is too busy to measure.\n";

static options parse(int argc, char **argv) {
  options o = {3, 31, 200, 0, 512, 5000, 1000000, {-1, -1}, 0};
  cli_default_cpus(o.cpus);
  enum { SWEEPS = 256, REPS, KMAX, START, LIMIT, RUNS, ROUNDS, CPUS, DRY, HELP };
  static const struct option longs[] = {
      {"sweeps", required_argument, 0, SWEEPS}, {"reps", required_argument, 0, REPS},
      {"kmax", required_argument, 0, KMAX},     {"start", required_argument, 0, START},
      {"limit", required_argument, 0, LIMIT},   {"runs", required_argument, 0, RUNS},
      {"rounds", required_argument, 0, ROUNDS}, {"cpus", required_argument, 0, CPUS},
      {"dry-run", no_argument, 0, DRY},         {"help", no_argument, 0, HELP},
      {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (c) {
    case SWEEPS: o.sweeps = (unsigned)cli_uint("--sweeps", optarg, 1, 100); break;
    case REPS: o.reps = (unsigned)cli_uint("--reps", optarg, 3, 10000); break;
    case KMAX: o.kmax = (unsigned)cli_uint("--kmax", optarg, 16, 1024); break;
    case START: o.start = (uint32_t)cli_uint("--start", optarg, 1, 1000); break;
    case LIMIT: o.limit = (uint32_t)cli_uint("--limit", optarg, 1, 1000); break;
    case RUNS: o.runs = cli_uint("--runs", optarg, 1, 1000000000); break;
    case ROUNDS: o.rounds = cli_uint("--rounds", optarg, 1, 1000000000000ULL); break;
    case CPUS: cli_cpus("--cpus", optarg, o.cpus); break;
    case DRY: o.dry_run = 1; break;
    case HELP: fputs(usage, stdout); exit(0);
    default:
      cli_usage_error("unknown option or missing value: %s", argv[optind - 1]);
    }
  }
  if (optind < argc)
    cli_usage_error("unexpected argument: %s", argv[optind]);
  if (o.cpus[0] < 0 || o.cpus[1] < 0)
    cli_usage_error("this process may run on fewer than two CPUs; the litmus "
                    "test and the stress need two");
  return o;
}

__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
}

/* --- 1. measure ----------------------------------------------------------- */

typedef struct capacity {
  unsigned entries; /* the largest seen; 0: no clear knee in any sweep */
  unsigned smallest;
  int two_states;
} capacity;

static int measure(const options *o, capacity *cap) {
  char err[256];
  memset(cap, 0, sizeof *cap);
  if (pin_self_to_cpu(o->cpus[0])) {
    fprintf(stderr, "ws-calibrate: cannot run on CPU %d: %s\n", o->cpus[0], strerror(errno));
    return 1;
  }
  sb_kernels *ks = sb_kernels_new(o->kmax, 40, err, sizeof err);
  if (!ks) {
    fprintf(stderr, "ws-calibrate: %s\n", err);
    return 1;
  }
  for (unsigned i = 1; i <= o->sweeps; i++) {
    sb_sweep sw;
    if (sb_sweep_run(ks, 1, o->kmax, o->reps, 1000, 1, 1, &sw)) {
      fprintf(stderr, "ws-calibrate: out of memory\n");
      sb_kernels_free(ks);
      return 1;
    }
    if (sw.unsteady) {
      say("[measure] sweep %u/%u: the clock never held still at k=%u\n", i, o->sweeps,
          sw.unsteady);
      sb_sweep_free(&sw);
      continue;
    }
    sb_estimate e;
    sb_estimate_from(&sw, 0, &e);
    sb_sweep_free(&sw);
    if (!e.clear) {
      say("[measure] sweep %u/%u: no clear knee up to k=%u\n", i, o->sweeps, o->kmax);
      continue;
    }
    if (e.two_states)
      say("[measure] sweep %u/%u: %u entries in the median, %u in the fastest "
          "repetitions (two states: %.0f%% of the repetitions flat at k=%u)\n",
          i, o->sweeps, e.typical, e.entries, 100 * e.flat_share, e.probe_k);
    else
      say("[measure] sweep %u/%u: %u entries\n", i, o->sweeps, e.entries);
    cap->two_states |= e.two_states;
    if (e.entries > cap->entries)
      cap->entries = e.entries;
    if (!cap->smallest || (e.typical ? e.typical : e.entries) < cap->smallest)
      cap->smallest = e.typical ? e.typical : e.entries;
  }
  sb_kernels_free(ks);
  if (!cap->entries) {
    fprintf(stderr, "ws-calibrate: no sweep found a clear knee; the machine is too "
                    "busy to measure (or try --kmax, --reps)\n");
    return 3;
  }
  unsigned gap = cap->entries / 10 > 4 ? cap->entries / 10 : 4;
  cap->two_states |= cap->smallest + gap <= cap->entries;
  say("[measure] the largest capacity seen: %u entries%s\n", cap->entries,
      cap->two_states ? "; the curve shows two states (a smaller one part of the time)"
                      : "");
  return 0;
}

/* --- 2. validate ---------------------------------------------------------- */

typedef struct verdict {
  int refuted;
  uint32_t passed;       /* the most stores a load was seen to pass */
  uint64_t litmus_runs;  /* at the bound */
  uint64_t stress_rounds; /* per variant, the fewest */
} verdict;

typedef struct litmus_point_spec {
  litmus_take take;
  unsigned L;
} litmus_point_spec;

/* L = 1..8, and every L whose L+1 divides S-1, S or S+1. */
static unsigned tight_points(uint32_t S, unsigned *L, unsigned max) {
  unsigned n = 0;
  for (unsigned l = 1; l <= S + 1 && l < LITMUS_MAX_L && n < max; l++) {
    unsigned d = l + 1;
    if (l <= 8 || (S - 1) % d == 0 || S % d == 0 || (S + 1) % d == 0)
      L[n++] = l;
  }
  return n;
}

static void stress_progress(const ts_result *r, void *ctx) {
  say("           %s: %llu rounds\n", (const char *)ctx, (unsigned long long)r->rounds);
}

static int validate(const options *o, uint32_t S, verdict *v) {
  char err[256];
  memset(v, 0, sizeof v[0]);
  /* The litmus test at the bound. */
  litmus *lt = litmus_start(o->cpus[0], o->cpus[1], err, sizeof err);
  if (!lt) {
    fprintf(stderr, "ws-calibrate: %s\n", err);
    return -1;
  }
  /* The runtime's own take with nothing between takes (its anti-coalescing
   * store keeps the T stores apart, x = 1), then the paper's at the tight
   * points. */
  unsigned L[256];
  unsigned n = tight_points(S, L, 256);
  litmus_point_spec points[257];
  unsigned np = 0;
  points[np++] = (litmus_point_spec){LITMUS_TAKE_RUNTIME, 0};
  for (unsigned i = 0; i < n; i++)
    points[np++] = (litmus_point_spec){LITMUS_TAKE_MIRROR, L[i]};
  say("[validate] S=%u: litmus test at the bound, %u points x %llu runs\n", S, np,
      (unsigned long long)o->runs);
  for (unsigned i = 0; i < np && !v->refuted; i++) {
    unsigned x = litmus_x(points[i].take, points[i].L);
    int64_t alpha = (int64_t)(((uint64_t)S + x) / ((uint64_t)x + 1));
    dut_pad pad = {DUT_PAD_LINES, points[i].L};
    litmus_result r;
    litmus_point(lt, points[i].take, pad, alpha, o->runs, 1, &r);
    v->litmus_runs += r.runs;
    if (r.max_passed > v->passed)
      v->passed = (uint32_t)r.max_passed;
    if (r.incorrect) {
      v->refuted = 1;
      say("[validate] S=%u: REFUTED by the litmus test at L=%u%s, delta=%lld: a load "
          "passed %llu stores\n",
          S, points[i].L, points[i].take == LITMUS_TAKE_RUNTIME ? " (the runtime's take)" : "",
          (long long)alpha, (unsigned long long)r.max_passed);
    }
  }
  litmus_stop(lt);
  if (v->refuted)
    return 0;
  say("[validate] S=%u: litmus: no incorrect run in %llu\n", S,
      (unsigned long long)v->litmus_runs);

  /* The take stress, every fence-free variant. */
  /* Not FF-MB: its owner is FF-THE's, and its thief's bound check is
   * FF-THE's too (T - delta > h after its claim); past the check it forces
   * a barrier, which nothing about S decides, and which makes a round 20
   * to 50 times slower (ws-takestress runs it). */
  static const int variants[] = {DUT_FFTHE, DUT_FFCL, DUT_THEP};
  v->stress_rounds = o->rounds;
  for (unsigned i = 0; i < sizeof variants / sizeof variants[0]; i++) {
    int var = variants[i];
    unsigned x = dut_take_stores(var);
    int64_t delta = ts_delta_for(S, 0, x);
    say("[validate] S=%u: take stress, %s (x=%u, delta=%lld), %llu rounds\n", S,
        dut_variant_name(var), x, (long long)delta, (unsigned long long)o->rounds);
    ts_options to = {var, delta, o->rounds, 0, 1, {o->cpus[0], o->cpus[1]},
                     {stress_progress, (void *)dut_variant_name(var)}};
    ts_result r;
    if (ts_run(&to, &r, err, sizeof err)) {
      fprintf(stderr, "ws-calibrate: %s\n", err);
      return -1;
    }
    if (r.rounds < v->stress_rounds)
      v->stress_rounds = r.rounds;
    if (r.bad_rounds) {
      /* A task run twice: the owner's load of H passed its delta+1 latest
       * T stores and the x stores between each two. */
      uint32_t passed = (uint32_t)((delta + 1) * (x + 1) - x);
      if (passed > v->passed)
        v->passed = passed;
      v->refuted = 1;
      say("[validate] S=%u: REFUTED by the take stress, %s: %s\n", S, dut_variant_name(var),
          r.first_bad);
      return 0;
    }
  }
  say("[validate] S=%u: stress: every task ran exactly once\n", S);
  return 0;
}

/* --- 3. save -------------------------------------------------------------- */

static int save(const options *o, const ws_calibration_record *rec) {
  char path[1024], line[WS_CALIBRATION_LINE_MAX + 2], err[1200];
  if (ws_calibration_format(rec, line, sizeof line)) {
    fprintf(stderr, "ws-calibrate: this CPU cannot be written as a calibration record\n");
    return 1;
  }
  if (o->dry_run) {
    say("[save] --dry-run: not saved: %s", line);
    return 0;
  }
  if (ws_calibration_path(ws_env_getenv, NULL, path, sizeof path) < 0) {
    fprintf(stderr, "ws-calibrate: no place for the calibration file: set "
                    "WS_CALIBRATION_FILE or HOME\n");
    return 1;
  }
  if (calibration_save(path, rec, err, sizeof err)) {
    fprintf(stderr, "ws-calibrate: %s\n", err);
    return 1;
  }
  say("[save] %s: %s", path, line);
  return 0;
}

int main(int argc, char **argv) {
  cli_tool = "ws-calibrate";
  options o = parse(argc, argv);
  ws_cpu cpu;
  char who[200];
  ws_cpu_identify(&cpu);
  ws_cpu_describe(&cpu, who, sizeof who);
  say("ws-calibrate: %s\n", who);

  capacity cap = {0, 0, 0};
  uint32_t S;
  if (o.start) {
    S = o.start;
    say("[measure] skipped (--start=%u)\n", S);
  } else {
    int rc = measure(&o, &cap);
    if (rc)
      return rc;
    S = cap.entries + 1;
  }

  /* Candidates rise until one survives; then the margin, validated too. */
  uint32_t passed = 0, survivor = 0;
  verdict v;
  for (;;) {
    if (!survivor && S > o.limit)
      break; /* the margin may take a survivor past the limit */
    if (validate(&o, S, &v))
      return 1;
    if (v.passed > passed)
      passed = v.passed;
    if (v.refuted) {
      uint32_t next = S + 1 + S / 16;
      S = passed > next ? passed : next;
      continue;
    }
    if (!survivor) {
      survivor = S;
      uint32_t margin = ws_calibration_margin(survivor > passed ? survivor : passed);
      say("[validate] S=%u survived; with the margin (a quarter, at least 8): S=%u\n",
          survivor, survivor + margin);
      S = survivor + margin;
      continue;
    }
    break; /* the S with its margin survived too */
  }

  ws_calibration_record rec;
  memset(&rec, 0, sizeof rec);
  rec.cpu = cpu;
  rec.validated = 1;
  rec.check.entries = cap.entries;
  rec.check.states = cap.two_states ? 2 : 1;
  rec.check.passed = passed;
  if (!survivor) {
    rec.inf = 1;
    say("ws-calibrate: no S up to %u survived (a load passed %u stores): saving inf, "
        "fence-free stealing off for this CPU (thep waits for the echo, ffmb forces "
        "a barrier, ffthe and ffcl never steal)\n",
        o.limit, passed);
  } else {
    rec.S = S;
    rec.check.margin = S - survivor;
    rec.check.litmus = v.litmus_runs;
    rec.check.stress = v.stress_rounds;
    say("ws-calibrate: S=%u (%u that nothing refuted + %u; the most stores seen passed: "
        "%u; at S=%u: %llu litmus runs, %llu stress rounds per variant, all correct)\n",
        S, survivor, S - survivor, passed, S, (unsigned long long)v.litmus_runs,
        (unsigned long long)v.stress_rounds);
  }
  return save(&o, &rec);
}
