/*
 * ws-litmus — the TSO[S] litmus test of paper 000 §7.3 (Figs. 8, 9).  For
 * each (L, delta) of a grid it runs the worker/thief test of litmus.h many
 * times and reports, like Fig. 8, for each alpha = ceil(S / (x + 1)) and
 * delta whether every run was correct.  TSO[S] allows incorrect runs only
 * below the bound, delta < alpha; an incorrect run at or above it refutes
 * TSO[S] for this machine, and the exit status says so.
 *
 * The worker takes with the runtime's own take, which makes one store
 * besides T := t (its anti-coalescing store), so x = L + 1: S is tested
 * as the runtime uses it.  --take=mirror is the paper's take with T := t
 * alone (x = L), whose L = 0 shows stores to T coalescing (§7.3);
 * --pad=scratch makes the L stores as ws-anticoalesce inserts them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "env.h"
#include "litmus.h"
#include "plot.h"
#include "store_buffer.h"

#define MAX_LIST 4096

typedef struct options {
  uint32_t S;
  const char *S_source;
  unsigned L[MAX_LIST], nL;
  unsigned delta[MAX_LIST], ndelta; /* a list; or, when ndelta is 0: */
  int at_bound;                     /* delta = alpha only, else 1..alpha+1 */
  uint64_t runs;
  int cpus[2];
  const char *plot;
  int stop; /* stop at the first run that refutes TSO[S] */
  litmus_take take;
  dut_pad_kind pad;
} options;

typedef struct point {
  unsigned L, alpha;
  int64_t delta;
  litmus_result r;
} point;

static const char usage[] =
    "usage: ws-litmus [options]\n"
    "Tests whether this machine behaves as TSO[S] (paper 000 §7.3, Fig. 9).\n"
    "  --S=N|auto          the supposed bound (default auto: what the runtime\n"
    "                      resolves without WS_STORE_BUFFER); 0 is SC\n"
    "  --L=LIST            stores between takes, e.g. 1-16,20,24 (default:\n"
    "                      0-16, then every 8 up to 64, every 16 up to S)\n"
    "  --delta=LIST|bound  deltas to try; bound: delta = alpha only, the\n"
    "                      tightest that TSO[S] must get right (default:\n"
    "                      1 .. alpha+1 for each L)\n"
    "  --runs=N            runs per (L, delta) (default 10000)\n"
    "  --cpus=A,B          worker and thief CPUs (default: the first two)\n"
    "  --plot=FILE.png     draw the Fig. 8 view (gnuplot)\n"
    "  --stop              stop at the first run that refutes TSO[S]\n"
    "  --take=T            runtime: the runtime's own take (the default), which\n"
    "                      also makes its anti-coalescing store, so x = L + 1;\n"
    "                      mirror: the paper's (Fig. 9), T := t alone, x = L\n"
    "  --pad=P             the L stores: lines, to L distinct lines (the\n"
    "                      default); scratch, as ws-anticoalesce inserts them\n"
    "                      (store k to scratch line (k+1) mod 8)\n"
    "Output: CSV (L,alpha,delta,runs,incorrect,duplicates,max_passed) and\n"
    "'#' lines.  Exit status: 0 TSO[S] not refuted, 1 refuted or error,\n"
    "2 bad usage.\n";

/* ceil(S / (x + 1)), x the stores between two stores to T */
static unsigned alpha_of(uint32_t S, unsigned x) {
  return (unsigned)(((uint64_t)S + x) / ((uint64_t)x + 1));
}

static void resolve_S(options *o) {
  ws_env env;
  memset(&env, 0, sizeof env); /* WS_STORE_BUFFER is not consulted */
  ws_store_bound b = ws_resolve_store_buffer(&env);
  o->S = b.S;
  o->S_source = b.source;
}

static void default_L(options *o) {
  o->nL = 0;
  for (unsigned L = 0; L <= 16 && L < LITMUS_MAX_L; L++)
    o->L[o->nL++] = L;
  for (unsigned L = 24; L <= 64 && L <= o->S; L += 8)
    o->L[o->nL++] = L;
  for (unsigned L = 80; L <= o->S && L < LITMUS_MAX_L; L += 16)
    o->L[o->nL++] = L;
}

static options parse(int argc, char **argv) {
  options o;
  memset(&o, 0, sizeof o);
  o.runs = 10000;
  o.take = LITMUS_TAKE_RUNTIME;
  cli_default_cpus(o.cpus);
  const char *S = "auto", *L = NULL;
  enum { OPT_S = 256, OPT_L, DELTA, RUNS, CPUS, PLOT, STOP, TAKE, PAD, HELP };
  static const struct option longs[] = {
      {"S", required_argument, 0, OPT_S},    {"L", required_argument, 0, OPT_L},
      {"delta", required_argument, 0, DELTA}, {"runs", required_argument, 0, RUNS},
      {"cpus", required_argument, 0, CPUS},   {"plot", required_argument, 0, PLOT},
      {"stop", no_argument, 0, STOP},         {"take", required_argument, 0, TAKE},
      {"pad", required_argument, 0, PAD},     {"help", no_argument, 0, HELP},
      {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (c) {
    case OPT_S: S = optarg; break;
    case OPT_L: L = optarg; break;
    case DELTA:
      o.at_bound = strcmp(optarg, "bound") == 0;
      o.ndelta = o.at_bound ? 0 : cli_list("--delta", optarg, 0, 1u << 20, o.delta, MAX_LIST);
      break;
    case RUNS: o.runs = cli_uint("--runs", optarg, 1, 1000000000); break;
    case CPUS: cli_cpus("--cpus", optarg, o.cpus); break;
    case PLOT: o.plot = optarg; break;
    case STOP: o.stop = 1; break;
    case TAKE:
      if (strcmp(optarg, "mirror") && strcmp(optarg, "runtime"))
        cli_usage_error("--take=%s is not valid: expected mirror or runtime", optarg);
      o.take = strcmp(optarg, "runtime") ? LITMUS_TAKE_MIRROR : LITMUS_TAKE_RUNTIME;
      break;
    case PAD:
      if (strcmp(optarg, "lines") && strcmp(optarg, "scratch"))
        cli_usage_error("--pad=%s is not valid: expected lines or scratch", optarg);
      o.pad = strcmp(optarg, "scratch") ? DUT_PAD_LINES : DUT_PAD_SCRATCH;
      break;
    case HELP: fputs(usage, stdout); exit(0);
    default:
      cli_usage_error("unknown option or missing value: %s", argv[optind - 1]);
    }
  }
  if (optind < argc)
    cli_usage_error("unexpected argument: %s", argv[optind]);
  if (strcmp(S, "auto") == 0) {
    resolve_S(&o);
  } else {
    o.S = (uint32_t)cli_uint("--S", S, 0, 65536);
    o.S_source = "--S";
  }
  if (L)
    o.nL = cli_list("--L", L, 0, LITMUS_MAX_L - 1, o.L, MAX_LIST);
  else
    default_L(&o);
  if (o.cpus[0] < 0 || o.cpus[1] < 0)
    cli_usage_error("this process may run on fewer than two CPUs; the test "
                    "needs a worker and a thief on two");
  return o;
}

/* The Fig. 8 view: one row per delta, one column per alpha that occurs;
 * 'o' every run correct, 'X' some run incorrect, '.' not run.  Cells at or
 * above the bound (delta >= alpha) must all be 'o' under TSO[S]. */
static void print_view(const point *p, size_t n) {
  unsigned alphas[MAX_LIST], na = 0;
  int64_t dmax = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned j = 0;
    while (j < na && alphas[j] != p[i].alpha)
      j++;
    if (j == na && na < MAX_LIST)
      alphas[na++] = p[i].alpha;
    if (p[i].delta > dmax)
      dmax = p[i].delta;
  }
  for (unsigned i = 1; i < na; i++) /* insertion sort, ascending */
    for (unsigned j = i; j > 0 && alphas[j - 1] > alphas[j]; j--) {
      unsigned t = alphas[j];
      alphas[j] = alphas[j - 1];
      alphas[j - 1] = t;
    }
  printf("# Fig. 8 view: rows delta, columns alpha = ceil(S/(x+1)); o all runs "
         "correct, X some incorrect, . not run\n");
  for (int64_t d = dmax; d >= 0; d--) {
    int any = 0;
    for (size_t i = 0; i < n; i++)
      any |= p[i].delta == d;
    if (!any)
      continue;
    printf("# delta %4lld |", (long long)d);
    for (unsigned a = 0; a < na; a++) {
      char cell = '.';
      for (size_t i = 0; i < n; i++)
        if (p[i].alpha == alphas[a] && p[i].delta == d)
          cell = p[i].r.incorrect ? 'X' : (cell == 'X' ? 'X' : 'o');
      printf(" %c", cell);
    }
    printf("\n");
  }
  printf("# alpha      |");
  for (unsigned a = 0; a < na; a++)
    printf(" %c", alphas[a] < 10 ? (char)('0' + alphas[a]) : '+');
  printf("\n# alpha > 9 ('+'), left to right:");
  for (unsigned a = 0; a < na; a++)
    if (alphas[a] >= 10)
      printf(" %u", alphas[a]);
  printf("\n");
}

static int draw(const options *o, const point *p, size_t n) {
  char *script = NULL;
  size_t size = 0;
  FILE *s = open_memstream(&script, &size);
  if (!s)
    return -1;
  unsigned amax = 1;
  int64_t dmax = 1;
  for (size_t i = 0; i < n; i++) {
    if (p[i].alpha > amax)
      amax = p[i].alpha;
    if (p[i].delta > dmax)
      dmax = p[i].delta;
  }
  fprintf(s,
          "set terminal pngcairo size 800,700\nset output '%s'\n"
          "set title 'TSO[%u] litmus test (paper 000 Figs. 8, 9), %llu runs per point'\n"
          "set xlabel 'alpha = ceil(S / (x + 1))'\nset ylabel 'delta'\n"
          "set grid\nset key left top\nset xrange [0:%u]\nset yrange [-0.5:%lld]\n"
          "set size ratio -1\n",
          o->plot, o->S, (unsigned long long)o->runs, amax + 1,
          (long long)dmax + 1);
  /* As in Fig. 8, a point (alpha, delta) is incorrect if a run of any L
   * with that alpha was. */
  for (int bad = 0; bad < 2; bad++) {
    fprintf(s, "$%s << EOD\n", bad ? "incorrect" : "correct");
    int any = 0;
    for (size_t i = 0; i < n; i++) {
      int first = 1, incorrect = 0;
      for (size_t j = 0; j < n; j++)
        if (p[j].alpha == p[i].alpha && p[j].delta == p[i].delta) {
          first = first && j >= i;
          incorrect |= p[j].r.incorrect != 0;
        }
      if (first && incorrect == bad) {
        fprintf(s, "%u %lld\n", p[i].alpha, (long long)p[i].delta);
        any = 1;
      }
    }
    if (!any) /* an empty block would make gnuplot fail */
      fprintf(s, "-100 -100\n");
    fprintf(s, "EOD\n");
  }
  fprintf(s, "plot x with lines dt 2 lc rgb 'gray' title 'delta = alpha (the bound)', "
             "$correct with points pt 6 ps 1.2 lc rgb '#1a7f37' title 'all runs correct', "
             "$incorrect with points pt 2 ps 1.5 lw 2 lc rgb '#cf222e' "
             "title 'some run incorrect'\n");
  fclose(s);
  char err[256];
  int rc = plot_run(script, err, sizeof err);
  free(script);
  if (rc)
    fprintf(stderr, "ws-litmus: --plot: %s\n", err);
  return rc;
}

int main(int argc, char **argv) {
  cli_tool = "ws-litmus";
  static options o;
  o = parse(argc, argv);
  char err[256];
  litmus *lt = litmus_start(o.cpus[0], o.cpus[1], err, sizeof err);
  if (!lt) {
    fprintf(stderr, "ws-litmus: %s\n", err);
    return 1;
  }
  size_t cap = 0;
  for (unsigned i = 0; i < o.nL; i++)
    cap += o.ndelta ? o.ndelta
                    : o.at_bound ? 1 : alpha_of(o.S, litmus_x(o.take, o.L[i])) + 1;
  point *p = calloc(cap ? cap : 1, sizeof *p);
  if (!p) {
    fprintf(stderr, "ws-litmus: out of memory\n");
    return 1;
  }
  printf("# ws-litmus: TSO[%u] (S from %s); worker on CPU %d, thief on CPU %d; "
         "%llu runs per point\n",
         o.S, o.S_source, o.cpus[0], o.cpus[1], (unsigned long long)o.runs);
  printf("# take: %s; L stores: %s; alpha = ceil(S/(x+1)), x = %s\n",
         o.take == LITMUS_TAKE_RUNTIME
             ? "the runtime's __ws_take_ffthe (T := t, then its anti-coalescing store)"
             : "the paper's (T := t, no other store)",
         o.pad == DUT_PAD_SCRATCH ? "to ws-anticoalesce's scratch lines, (k+1) mod 8"
                                  : "to L distinct lines",
         o.take == LITMUS_TAKE_RUNTIME ? "L + 1" : "L");
  printf("L,alpha,delta,runs,incorrect,duplicates,max_passed\n");
  size_t n = 0;
  uint64_t refuting_runs = 0, bound_runs = 0, max_passed = 0;
  size_t refuting_points = 0;
  for (unsigned i = 0; i < o.nL && !(o.stop && refuting_points); i++) {
    unsigned L = o.L[i], alpha = alpha_of(o.S, litmus_x(o.take, L));
    dut_pad pad = {o.pad, L};
    unsigned nd = o.ndelta ? o.ndelta : o.at_bound ? 1 : alpha + 1;
    for (unsigned j = 0; j < nd && !(o.stop && refuting_points); j++) {
      point *q = &p[n++];
      q->L = L;
      q->alpha = alpha;
      q->delta = o.ndelta ? o.delta[j] : o.at_bound ? alpha : (int64_t)j + 1;
      litmus_point(lt, o.take, pad, q->delta, o.runs, o.stop && q->delta >= (int64_t)alpha,
                   &q->r);
      printf("%u,%u,%lld,%llu,%llu,%llu,%llu\n", L, alpha, (long long)q->delta,
             (unsigned long long)q->r.runs, (unsigned long long)q->r.incorrect,
             (unsigned long long)q->r.duplicates,
             (unsigned long long)q->r.max_passed);
      fflush(stdout);
      if (q->r.max_passed > max_passed)
        max_passed = q->r.max_passed;
      if (q->delta >= (int64_t)alpha) {
        bound_runs += q->r.runs;
        if (q->r.incorrect) {
          refuting_points++;
          refuting_runs += q->r.incorrect;
        }
      }
    }
  }
  litmus_stop(lt);
  print_view(p, n);
  if (max_passed)
    printf("# the most stores a load of the worker was seen to pass: %llu\n",
           (unsigned long long)max_passed);
  else
    printf("# no incorrect run at any point\n");
  int rc = 0;
  if (refuting_points) {
    printf("# verdict: TSO[%u] REFUTED: %llu incorrect runs at %zu points with "
           "delta >= alpha\n",
           o.S, (unsigned long long)refuting_runs, refuting_points);
    rc = 1;
  } else {
    printf("# verdict: no run contradicts TSO[%u] (%llu runs at points with "
           "delta >= alpha)\n",
           o.S, (unsigned long long)bound_runs);
  }
  fflush(stdout);
  if (o.plot && draw(&o, p, n))
    rc = 1;
  free(p);
  return rc;
}
