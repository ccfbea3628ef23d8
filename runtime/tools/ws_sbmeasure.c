/*
 * ws-sbmeasure — the store-buffer capacity of this CPU by the method of
 * paper 000 §7.2 (Figs. 6, 7): time a loop of k stores followed by a long
 * dependent chain of non-memory instructions, for k = kmin..kmax; the time
 * per iteration stays flat while the k stores fit in the store buffer and
 * grows from the first k that does not fit (sb_sweep.h: the sweep and its
 * readings).  It reports the largest capacity seen, and says when the
 * curve shows two: the median of the repetitions and the fastest of them
 * then have different knees.  A capacity is not yet a bound: ws-calibrate
 * takes it as its first candidate and validates it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "cli.h"
#include "cpu_id.h"
#include "cpu_table.h"
#include "knee.h"
#include "plot.h"
#include "sb_kernel.h"
#include "sb_sweep.h"

#define KMAX_LIMIT 1024

typedef struct options {
  unsigned kmin, kmax, chain, reps;
  uint64_t iters;
  int cpu;
  int distinct, same; /* which variants */
  int min_reading;    /* --reading=min */
  const char *plot;
} options;

static const char usage[] =
    "usage: ws-sbmeasure [options]\n"
    "Measures the store-buffer capacity of this CPU (paper 000 §7.2) and\n"
    "prints the curve as CSV (k, ticks per iteration: the reading, and the\n"
    "fastest repetition) with the estimate in '#' lines.\n"
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
    "(ws-calibrate measures, validates and saves S for the runtime.)\n"
    "Exit status: 0 estimate found, 3 no clear knee, 1 error, 2 bad usage.\n";

static options parse(int argc, char **argv) {
  options o = {1, 200, 40, 61, 1000, sched_getcpu(), 1, 1, 0, NULL};
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
    case SAVE:
      cli_usage_error("--save is gone: a knee is not a bound until it is validated; "
                      "ws-calibrate measures, validates and saves S");
    case HELP: fputs(usage, stdout); exit(0);
    default:
      cli_usage_error("unknown option or missing value: %s", argv[optind - 1]);
    }
  }
  if (optind < argc)
    cli_usage_error("unexpected argument: %s", argv[optind]);
  if (o.kmax < o.kmin + 5)
    cli_usage_error("--kmax=%u must be at least --kmin + 5 (%u)", o.kmax, o.kmin + 5);
  return o;
}

static const char *const pattern_name[2] = {"distinct lines", "same location"};

static void describe_fit(const options *o, const char *what, const knee_fit *f) {
  if (f->clear)
    printf("# %s: flat up to k=%.0f (%.1f ticks/iteration), then +%.1f and "
           "+%.2f per store\n",
           what, f->at, f->plateau, f->step, f->slope);
  else
    printf("# %s: no clear knee in k=%u..%u: %s\n", what, o->kmin, o->kmax, f->why);
}

static int draw(const options *o, const sb_sweep *sw, const sb_estimate *e) {
  char *script = NULL;
  size_t size = 0;
  FILE *s = open_memstream(&script, &size);
  if (!s)
    return -1;
  fprintf(s,
          "set terminal pngcairo size 900,620\nset output '%s'\n"
          "set title 'Store buffer capacity (paper 000 Fig. 6 method)'\n"
          "set xlabel 'k, stores per iteration'\n"
          "set ylabel 'TSC ticks per iteration (%u repetitions)'\nset grid\n"
          "set key below\n",
          o->plot, o->reps);
  const char *reading = o->min_reading ? "min" : "median";
  for (int v = 0; v < 2; v++) {
    if (!sw->have[v])
      continue;
    for (int f = 0; f < 2; f++) {
      const double *y = f ? sw->fastest[v] : o->min_reading ? sw->min_raw[v] : sw->median[v];
      fprintf(s, "$%s%s << EOD\n", v ? "same" : "distinct", f ? "_fastest" : "");
      for (unsigned k = o->kmin; k <= o->kmax; k++)
        fprintf(s, "%u %.3f\n", k, y[k - o->kmin]);
      fprintf(s, "EOD\n");
    }
  }
  if (e->clear)
    fprintf(s,
            "set arrow from %u, graph 0 to %u, graph 1 nohead dt 2 lc rgb 'red'\n"
            "set label 'largest capacity: %u entries' at %u, graph 0.92 "
            "offset 1,0 tc rgb 'red'\n",
            e->entries, e->entries, e->entries, e->entries);
  if (e->two_states)
    fprintf(s,
            "set arrow from %u, graph 0 to %u, graph 1 nohead dt 3 lc rgb 'blue'\n"
            "set label '%s: %u' at %u, graph 0.84 offset 1,0 tc rgb 'blue'\n",
            e->typical, e->typical, reading, e->typical, e->typical);
  fprintf(s, "plot ");
  const char *sep = "";
  for (int v = 0; v < 2; v++)
    if (sw->have[v]) {
      const char *name = v ? "same" : "distinct";
      fprintf(s,
              "%s$%s with linespoints pt 7 ps 0.5 title '%s, %s', "
              "$%s_fastest with lines title '%s, fastest repetition'",
              sep, name, pattern_name[v], reading, name, pattern_name[v]);
      sep = ", ";
    }
  fprintf(s, "\n");
  fclose(s);
  char err[256];
  int rc = plot_run(script, err, sizeof err);
  free(script);
  if (rc)
    fprintf(stderr, "ws-sbmeasure: --plot: %s\n", err);
  return rc;
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
  printf("# k = %u..%u, chain of %u sqrtsd, %u repetitions of %llu iterations, "
         "on CPU %d; reading: %s, and the fastest repetition\n",
         o.kmin, o.kmax, o.chain, o.reps, (unsigned long long)o.iters, o.cpu,
         o.min_reading ? "the minimum TSC time"
                       : "the median time relative to the chain alone");
  sb_sweep sw;
  if (sb_sweep_run(ks, o.kmin, o.kmax, o.reps, o.iters, o.distinct, o.same, &sw)) {
    fprintf(stderr, "ws-sbmeasure: out of memory\n");
    return 1;
  }
  sb_kernels_free(ks);
  if (sw.unsteady) {
    fprintf(stderr,
            "ws-sbmeasure: the clock never held still while timing k=%u; the "
            "machine is too busy to measure\n",
            sw.unsteady);
    return 3;
  }

  printf("k%s%s\n", o.distinct ? ",distinct_ticks,distinct_fastest" : "",
         o.same ? ",same_ticks,same_fastest" : "");
  for (unsigned k = o.kmin; k <= o.kmax; k++) {
    printf("%u", k);
    for (int v = 0; v < 2; v++)
      if (sw.have[v])
        printf(",%.2f,%.2f", (o.min_reading ? sw.min_raw[v] : sw.median[v])[k - o.kmin],
               sw.fastest[v][k - o.kmin]);
    printf("\n");
  }
  sb_estimate e;
  sb_estimate_from(&sw, o.min_reading, &e);
  for (int v = 0; v < 2; v++) {
    if (!sw.have[v])
      continue;
    char what[64];
    snprintf(what, sizeof what, "%s, %s", pattern_name[v], o.min_reading ? "min" : "median");
    describe_fit(&o, what, &e.median[v]);
    snprintf(what, sizeof what, "%s, fastest repetition", pattern_name[v]);
    describe_fit(&o, what, &e.fastest[v]);
  }
  /* The largest knee of all: more stores to one location than to distinct
   * lines in flight would mean they coalesce before the buffer (paper 000
   * §7.3), and a state seen only some of the time is still a state the
   * program may run in. */
  if (e.two_states)
    printf("# two capacity states: %u entries in the %s, %u in the fastest "
           "repetitions; at k=%u, %.0f%% of the repetitions ran flat\n",
           e.typical, o.min_reading ? "minimum" : "median", e.entries, e.probe_k,
           100 * e.flat_share);
  if (e.clear)
    printf("# store buffer: %u entries, the largest capacity seen (a bound S is "
           "at least %u; ws-calibrate validates one)\n",
           e.entries, e.entries + 1);
  else
    printf("# store buffer: no estimate; try a larger --kmax or --chain, or "
           "more --reps on a quieter machine\n");
  fflush(stdout);

  int rc = e.clear ? 0 : 3;
  if (o.plot && draw(&o, &sw, &e))
    rc = 1;
  sb_sweep_free(&sw);
  return rc;
}
