/*
 * ws-sbmeasure — the store-buffer capacity of this CPU by the method of
 * paper 000 §7.2 (Figs. 6, 7): time a loop of k stores followed by a long
 * dependent chain of non-memory instructions, for k = kmin..kmax; the time
 * per iteration stays flat while the k stores fit in the store buffer and
 * grows from the first k that does not fit.  Every repetition sweeps all
 * k, in alternating order.
 *
 * Each timing is bracketed by two timings of the chain alone (k = 0); one
 * whose brackets disagree saw the core's clock change and is taken again.
 * The curve's value at k is then, over the repetitions, either
 *   - the median of the timing relative to its brackets (the default): on
 *     a shared machine the clock moves by a few per cent as other tenants
 *     come and go, and a minimum over raw times picks the fastest clock
 *     some k happened to see; or
 *   - the minimum of the raw times (--reading=min, the paper's reading),
 *     right on a quiet machine, where interrupts only ever add time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "calibration_save.h"
#include "cli.h"
#include "cpu_calibration.h"
#include "cpu_id.h"
#include "cpu_table.h"
#include "knee.h"
#include "plot.h"
#include "sb_kernel.h"

#define KMAX_LIMIT 1024

typedef struct options {
  unsigned kmin, kmax, chain, reps;
  uint64_t iters;
  int cpu;
  int distinct, same; /* which variants */
  int min_reading;    /* --reading=min */
  const char *plot;
  int save;
} options;

static const char usage[] =
    "usage: ws-sbmeasure [options]\n"
    "Measures the store-buffer capacity of this CPU (paper 000 §7.2) and\n"
    "prints the curve as CSV (k, ticks per iteration) with the estimate in\n"
    "'#' lines.\n"
    "  --kmin=N --kmax=N   store counts to try (default 1..200)\n"
    "  --chain=N           dependent sqrtsd per iteration (default 40)\n"
    "  --reps=N            repetitions (default 61)\n"
    "  --reading=R         median (of the time relative to the chain alone,\n"
    "                      the default) or min (of the raw time)\n"
    "  --iters=N           loop iterations per timing (default 1000)\n"
    "  --cpu=N             CPU to run on (default: the one it starts on)\n"
    "  --variant=V         distinct (k lines), same (one location) or both\n"
    "                      (default both)\n"
    "  --plot=FILE.png     draw the curve with the knee marked (gnuplot)\n"
    "  --save              write S for this CPU model into the calibration\n"
    "                      file the runtime reads (docs/bounded-tso.md)\n"
    "Exit status: 0 estimate found, 3 no clear knee, 1 error, 2 bad usage.\n";

static options parse(int argc, char **argv) {
  options o = {1, 200, 40, 61, 1000, sched_getcpu(), 1, 1, 0, NULL, 0};
  enum { KMIN = 256, KMAX, CHAIN, REPS, ITERS, CPU, VARIANT, READING, PLOT, SAVE, HELP };
  static const struct option longs[] = {
      {"kmin", required_argument, 0, KMIN},   {"kmax", required_argument, 0, KMAX},
      {"chain", required_argument, 0, CHAIN}, {"reps", required_argument, 0, REPS},
      {"iters", required_argument, 0, ITERS}, {"cpu", required_argument, 0, CPU},
      {"variant", required_argument, 0, VARIANT},
      {"reading", required_argument, 0, READING},
      {"plot", required_argument, 0, PLOT},   {"save", no_argument, 0, SAVE},
      {"help", no_argument, 0, HELP},         {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (c) {
    case KMIN: o.kmin = (unsigned)cli_uint("--kmin", optarg, 1, KMAX_LIMIT); break;
    case KMAX: o.kmax = (unsigned)cli_uint("--kmax", optarg, 1, KMAX_LIMIT); break;
    case CHAIN: o.chain = (unsigned)cli_uint("--chain", optarg, 1, 10000); break;
    case REPS: o.reps = (unsigned)cli_uint("--reps", optarg, 1, 100000); break;
    case ITERS: o.iters = cli_uint("--iters", optarg, 1, 100000000); break;
    case CPU: o.cpu = (int)cli_uint("--cpu", optarg, 0, 65535); break;
    case VARIANT:
      o.distinct = !strcmp(optarg, "distinct") || !strcmp(optarg, "both");
      o.same = !strcmp(optarg, "same") || !strcmp(optarg, "both");
      if (!o.distinct && !o.same)
        cli_usage_error("--variant=%s is not valid: expected distinct, same or both",
                        optarg);
      break;
    case READING:
      o.min_reading = strcmp(optarg, "min") == 0;
      if (!o.min_reading && strcmp(optarg, "median"))
        cli_usage_error("--reading=%s is not valid: expected median or min", optarg);
      break;
    case PLOT: o.plot = optarg; break;
    case SAVE: o.save = 1; break;
    case HELP: fputs(usage, stdout); exit(0);
    default:
      cli_usage_error("unknown option or missing value: %s", argv[optind - 1]);
    }
  }
  if (optind < argc)
    cli_usage_error("unexpected argument: %s", argv[optind]);
  if (o.kmax < o.kmin + 5)
    cli_usage_error("--kmax=%u must be at least --kmin + 5 (%u)", o.kmax, o.kmin + 5);
  if (o.save && !o.distinct)
    cli_usage_error("--save needs the distinct-lines variant");
  return o;
}

typedef struct curve {
  const char *name;
  double *ticks; /* per k - kmin */
  knee_fit fit;
} curve;

#define STEADY 0.002 /* references this close: the clock held still */
#define TRIES 20      /* bracketed readings per (repetition, k, variant) */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Fills each curve with ticks per iteration; a relative reading is turned
 * into ticks with the chain's median time.  Returns the first k that got
 * no steady timing at all, or 0. */
static unsigned measure(sb_kernels *ks, const options *o, curve *cv[2]) {
  unsigned n = o->kmax - o->kmin + 1, reps = o->reps;
  size_t cells = (size_t)n * reps, nref = 0;
  double *raw[2] = {NULL, NULL}, *rel[2] = {NULL, NULL};
  double *refs = malloc(2 * cells * sizeof *refs);
  for (int v = 0; v < 2; v++)
    if (cv[v]) {
      raw[v] = malloc(cells * sizeof *raw[v]);
      rel[v] = malloc(cells * sizeof *rel[v]);
      if (!raw[v] || !rel[v] || !refs) {
        fprintf(stderr, "ws-sbmeasure: out of memory\n");
        exit(1);
      }
      for (size_t c = 0; c < cells; c++)
        raw[v][c] = rel[v][c] = NAN;
    }
  double prev = sb_kernels_time(ks, 0, 0, o->iters);
  for (unsigned r = 0; r < reps; r++)
    for (unsigned i = 0; i < n; i++) {
      unsigned k = r % 2 ? o->kmax - i : o->kmin + i;
      size_t c = (size_t)(k - o->kmin) * reps + r;
      for (int v = 0; v < 2; v++)
        for (int t = 0; cv[v] && t < TRIES; t++) {
          double x = sb_kernels_time(ks, k, v, o->iters);
          double next = sb_kernels_time(ks, 0, 0, o->iters);
          int steady = fabs(next - prev) <= STEADY * fmin(next, prev);
          double ref = (prev + next) / 2;
          prev = next;
          if (steady) {
            raw[v][c] = x;
            rel[v][c] = x / ref;
            refs[nref++] = ref;
            break;
          }
        }
    }
  double typical = nref ? median_of(refs, nref) : NAN;
  unsigned missing = 0;
  for (int v = 0; v < 2; v++) {
    if (!cv[v])
      continue;
    for (unsigned i = 0; i < n; i++) {
      double *rw = raw[v] + (size_t)i * reps, *rl = rel[v] + (size_t)i * reps;
      size_t m = 0; /* the steady ones, moved to the front */
      for (unsigned r = 0; r < reps; r++)
        if (!isnan(rw[r])) {
          rw[m] = rw[r];
          rl[m++] = rl[r];
        }
      if (m == 0) {
        if (!missing || o->kmin + i < missing)
          missing = o->kmin + i;
        continue;
      }
      if (o->min_reading) {
        double best = rw[0];
        for (size_t j = 1; j < m; j++)
          best = fmin(best, rw[j]);
        cv[v]->ticks[i] = best;
      } else {
        cv[v]->ticks[i] = median_of(rl, m) * typical;
      }
    }
    free(raw[v]);
    free(rel[v]);
  }
  free(refs);
  return missing;
}

static void describe_fit(const options *o, const curve *c) {
  if (c->fit.clear)
    printf("# %s: flat up to k=%.0f (%.1f ticks/iteration), then +%.1f and "
           "+%.2f per store\n",
           c->name, c->fit.at, c->fit.plateau, c->fit.step, c->fit.slope);
  else
    printf("# %s: no clear knee in k=%u..%u: %s\n", c->name, o->kmin, o->kmax,
           c->fit.why);
}

static int draw(const options *o, curve *cv[2], unsigned entries, int clear) {
  char *script = NULL;
  size_t size = 0;
  FILE *s = open_memstream(&script, &size);
  if (!s)
    return -1;
  fprintf(s,
          "set terminal pngcairo size 900,560\nset output '%s'\n"
          "set title 'Store buffer capacity (paper 000 Fig. 6 method)'\n"
          "set xlabel 'k, stores per iteration'\n"
          "set ylabel 'TSC ticks per iteration (%s of %u)'\nset grid\n"
          "set key left top\n",
          o->plot, o->min_reading ? "min" : "median", o->reps);
  for (int v = 0; v < 2; v++) {
    if (!cv[v])
      continue;
    fprintf(s, "$%s << EOD\n", v ? "same" : "distinct");
    for (unsigned k = o->kmin; k <= o->kmax; k++)
      fprintf(s, "%u %.3f\n", k, cv[v]->ticks[k - o->kmin]);
    fprintf(s, "EOD\n");
  }
  if (clear)
    fprintf(s,
            "set arrow from %u, graph 0 to %u, graph 1 nohead dt 2 lc rgb 'red'\n"
            "set label 'knee: %u entries, S = %u' at %u, graph 0.92 "
            "offset 1,0 tc rgb 'red'\n",
            entries, entries, entries, entries + 1, entries);
  fprintf(s, "plot ");
  if (cv[0])
    fprintf(s, "$distinct with linespoints pt 7 ps 0.5 title 'k distinct lines'%s",
            cv[1] ? ", " : "");
  if (cv[1])
    fprintf(s, "$same with linespoints pt 6 ps 0.5 title 'k stores to one location'");
  fprintf(s, "\n");
  fclose(s);
  char err[256];
  int rc = plot_run(script, err, sizeof err);
  free(script);
  if (rc)
    fprintf(stderr, "ws-sbmeasure: --plot: %s\n", err);
  return rc;
}

static int save(const ws_cpu *cpu, unsigned S) {
  char path[1024], err[1200];
  if (ws_calibration_path(cli_getenv, NULL, path, sizeof path) < 0) {
    fprintf(stderr, "ws-sbmeasure: --save: no place for the calibration file: "
                    "set WS_CALIBRATION_FILE or HOME\n");
    return -1;
  }
  ws_calibration_record rec = {S, *cpu};
  if (calibration_save(path, &rec, err, sizeof err)) {
    fprintf(stderr, "ws-sbmeasure: --save: %s\n", err);
    return -1;
  }
  printf("# saved S=%u for this CPU model in %s\n", S, path);
  return 0;
}

int main(int argc, char **argv) {
  cli_tool = "ws-sbmeasure";
  options o = parse(argc, argv);
  ws_cpu cpu;
  char who[200], err[256];
  ws_cpu_identify(&cpu);
  ws_cpu_describe(&cpu, who, sizeof who);
  printf("# cpu: %s\n", who);
  const ws_cpu_row *row = ws_cpu_table_lookup(&cpu);
  if (row)
    printf("# cpu table: %s, S = %u (%s)%s\n", row->source, row->S, row->evidence,
           cpu.hypervisor ? " (the runtime does not use it under a hypervisor)" : "");
  else
    printf("# cpu table: no row for this CPU\n");

  if (pin_self_to_cpu(o.cpu)) {
    fprintf(stderr, "ws-sbmeasure: cannot run on CPU %d: %s\n", o.cpu,
            strerror(errno));
    return 1;
  }
  sb_kernels *ks = sb_kernels_new(o.kmax, o.chain, err, sizeof err);
  if (!ks) {
    fprintf(stderr, "ws-sbmeasure: %s\n", err);
    return 1;
  }
  unsigned n = o.kmax - o.kmin + 1;
  curve distinct = {"distinct lines", calloc(n, sizeof(double)), {0}};
  curve same = {"same location", calloc(n, sizeof(double)), {0}};
  if (!distinct.ticks || !same.ticks) {
    fprintf(stderr, "ws-sbmeasure: out of memory\n");
    return 1;
  }
  double *x = malloc(n * sizeof *x);
  if (!x) {
    fprintf(stderr, "ws-sbmeasure: out of memory\n");
    return 1;
  }
  curve *cv[2] = {o.distinct ? &distinct : NULL, o.same ? &same : NULL};
  printf("# k = %u..%u, chain of %u sqrtsd, %u repetitions of %llu iterations, "
         "on CPU %d; reading: %s\n",
         o.kmin, o.kmax, o.chain, o.reps, (unsigned long long)o.iters, o.cpu,
         o.min_reading ? "the minimum TSC time"
                       : "the median time relative to the chain alone");
  unsigned unsteady = measure(ks, &o, cv);
  sb_kernels_free(ks);
  if (unsteady) {
    fprintf(stderr,
            "ws-sbmeasure: the clock never held still while timing k=%u; the "
            "machine is too busy to measure\n",
            unsteady);
    return 3;
  }

  printf("k%s%s\n", o.distinct ? ",distinct_ticks" : "", o.same ? ",same_ticks" : "");
  for (unsigned i = 0; i < n; i++) {
    x[i] = o.kmin + i;
    printf("%u", o.kmin + i);
    for (int v = 0; v < 2; v++)
      if (cv[v])
        printf(",%.2f", cv[v]->ticks[i]);
    printf("\n");
  }
  int clear = 1;
  unsigned entries = 0;
  for (int v = 0; v < 2; v++) {
    if (!cv[v])
      continue;
    cv[v]->fit = knee_find(x, cv[v]->ticks, (int)n);
    describe_fit(&o, cv[v]);
    clear = clear && cv[v]->fit.clear;
    if (cv[v]->fit.clear && cv[v]->fit.at > entries)
      entries = (unsigned)cv[v]->fit.at;
  }
  free(x);
  /* Both variants ran: the larger knee.  More stores to one location than
   * to distinct lines in flight would mean they coalesce before the buffer
   * (paper 000 §7.3), and S must cover them too. */
  if (clear)
    printf("# store buffer: %u entries; S = %u (paper 000 §7.3: one more than "
           "the entries)\n",
           entries, entries + 1);
  else
    printf("# store buffer: no estimate; try a larger --kmax or --chain, or "
           "more --reps on a quieter machine\n");
  fflush(stdout);

  int rc = clear ? 0 : 3;
  if (o.plot && draw(&o, cv, entries, clear))
    rc = 1;
  if (o.save) {
    if (!clear)
      fprintf(stderr, "ws-sbmeasure: --save: nothing saved, no clear knee\n");
    else if (save(&cpu, entries + 1))
      rc = 1;
  }
  free(distinct.ticks);
  free(same.ticks);
  return rc;
}
