/*
 * ws-sbmeasure — the store-buffer capacity of this CPU by the method of
 * paper 000 §7.2 (Figs. 6, 7): time a loop of k stores followed by a long
 * dependent chain of non-memory instructions, for k = kmin..kmax; the time
 * per iteration stays flat while the k stores fit in the store buffer and
 * grows from the first k that does not fit.  The reading for each k is the
 * minimum over repetitions (interrupts and other tenants only add time),
 * and the ks are swept in alternating order on every repetition.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
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
    "  --reps=N            repetitions; the minimum is kept (default 61)\n"
    "  --iters=N           loop iterations per timing (default 1000)\n"
    "  --cpu=N             CPU to run on (default: the one it starts on)\n"
    "  --variant=V         distinct (k lines), same (one location) or both\n"
    "                      (default both)\n"
    "  --plot=FILE.png     draw the curve with the knee marked (gnuplot)\n"
    "  --save              write S for this CPU model into the calibration\n"
    "                      file the runtime reads (docs/bounded-tso.md)\n"
    "Exit status: 0 estimate found, 3 no clear knee, 1 error, 2 bad usage.\n";

static options parse(int argc, char **argv) {
  options o = {1, 200, 40, 61, 1000, sched_getcpu(), 1, 1, NULL, 0};
  enum { KMIN = 256, KMAX, CHAIN, REPS, ITERS, CPU, VARIANT, PLOT, SAVE, HELP };
  static const struct option longs[] = {
      {"kmin", required_argument, 0, KMIN},   {"kmax", required_argument, 0, KMAX},
      {"chain", required_argument, 0, CHAIN}, {"reps", required_argument, 0, REPS},
      {"iters", required_argument, 0, ITERS}, {"cpu", required_argument, 0, CPU},
      {"variant", required_argument, 0, VARIANT},
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

static void measure(sb_kernels *ks, const options *o, curve *cv[2]) {
  unsigned n = o->kmax - o->kmin + 1;
  for (unsigned r = 0; r < o->reps; r++)
    for (unsigned i = 0; i < n; i++) {
      unsigned k = r % 2 ? o->kmax - i : o->kmin + i;
      for (int same = 0; same < 2; same++) {
        if (!cv[same])
          continue;
        double t = sb_kernels_time(ks, k, same, o->iters);
        double *best = &cv[same]->ticks[k - o->kmin];
        if (r == 0 || t < *best)
          *best = t;
      }
    }
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
          "set ylabel 'TSC ticks per iteration (min of %u)'\nset grid\n"
          "set key left top\n",
          o->plot, o->reps);
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
    printf("# cpu table: %s, %u entries, S = %u%s\n", row->source, row->entries,
           row->entries + 1,
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
  printf("# k = %u..%u, chain of %u sqrtsd, minimum of %u repetitions of %llu "
         "iterations, on CPU %d\n",
         o.kmin, o.kmax, o.chain, o.reps, (unsigned long long)o.iters, o.cpu);
  measure(ks, &o, cv);
  sb_kernels_free(ks);

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
