/*
 * ws-takestress — take versus steal on the runtime's own fast paths, at
 * the tightest delta a bound S allows (takestress.h): does every task run
 * exactly once?  A bad round refutes S for this machine as the runtime
 * uses it; the exit status says so.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "cli.h"
#include "deque_under_test.h"
#include "env.h"
#include "store_buffer.h"
#include "takestress.h"

typedef struct options {
  int variants[DUT_VARIANTS], nvariants;
  uint32_t S;
  int S_inf;
  const char *S_source;
  int64_t delta; /* 0: the bound for each variant's x */
  uint64_t rounds;
  double seconds;
  int stop;
  int cpus[2];
} options;

static const char usage[] =
    "usage: ws-takestress [options]\n"
    "Take versus steal on the runtime's own deque code, at delta =\n"
    "ceil(S/(x+1)) with x the stores of the variant's take: does every task\n"
    "run exactly once?\n"
    "  --variant=LIST    ffthe,ffcl,thep,ffmb (the default), or the, cl\n"
    "                    (fenced controls)\n"
    "  --S=N|inf|auto    the bound under test (default auto: what the runtime\n"
    "                    resolves without WS_STORE_BUFFER)\n"
    "  --delta=N|bound   the thief's delta (default bound)\n"
    "  --rounds=N        rounds per variant (default 1000000)\n"
    "  --seconds=T       at most this long per variant (default: no limit)\n"
    "  --stop            stop a variant at its first bad round\n"
    "  --cpus=A,B        owner and thief CPUs (default: the first two)\n"
    "Output: CSV (variant,S,x,delta,rounds,bad_rounds,twice,lost,wrong_takes,\n"
    "steals,aborts,barriers,barriers_lost,seconds) and '#' lines; progress on stderr.  Exit status:\n"
    "0 every task ran exactly once, 1 some did not (S refuted) or error,\n"
    "2 bad usage.\n";

static options parse(int argc, char **argv) {
  options o;
  memset(&o, 0, sizeof o);
  o.rounds = 1000000;
  o.variants[o.nvariants++] = DUT_FFTHE;
  o.variants[o.nvariants++] = DUT_FFCL;
  o.variants[o.nvariants++] = DUT_THEP;
  o.variants[o.nvariants++] = DUT_FFMB;
  const char *S = "auto";
  cli_default_cpus(o.cpus);
  enum { OPT_VARIANT = 256, OPT_S, DELTA, ROUNDS, SECONDS, STOP, CPUS, HELP };
  static const struct option longs[] = {
      {"variant", required_argument, 0, OPT_VARIANT}, {"S", required_argument, 0, OPT_S},
      {"delta", required_argument, 0, DELTA},         {"rounds", required_argument, 0, ROUNDS},
      {"seconds", required_argument, 0, SECONDS},     {"stop", no_argument, 0, STOP},
      {"cpus", required_argument, 0, CPUS},           {"help", no_argument, 0, HELP},
      {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (c) {
    case OPT_VARIANT: {
      o.nvariants = 0;
      char list[128];
      snprintf(list, sizeof list, "%s", optarg);
      for (char *save, *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
        int id = dut_variant_by_name(v);
        if (id < 0 || o.nvariants == DUT_VARIANTS)
          cli_usage_error("--variant=%s is not valid: expected a list of ffthe, "
                          "ffcl, thep, ffmb, the, cl",
                          optarg);
        o.variants[o.nvariants++] = id;
      }
      if (!o.nvariants)
        cli_usage_error("--variant= is empty");
      break;
    }
    case OPT_S: S = optarg; break;
    case DELTA:
      o.delta = strcmp(optarg, "bound") ? (int64_t)cli_uint("--delta", optarg, 1, 1u << 20) : 0;
      break;
    case ROUNDS: o.rounds = cli_uint("--rounds", optarg, 1, UINT64_MAX / 2); break;
    case SECONDS: o.seconds = (double)cli_uint("--seconds", optarg, 1, 1000000); break;
    case STOP: o.stop = 1; break;
    case CPUS: cli_cpus("--cpus", optarg, o.cpus); break;
    case HELP: fputs(usage, stdout); exit(0);
    default:
      cli_usage_error("unknown option or missing value: %s", argv[optind - 1]);
    }
  }
  if (optind < argc)
    cli_usage_error("unexpected argument: %s", argv[optind]);
  if (strcmp(S, "auto") == 0) {
    ws_env env;
    memset(&env, 0, sizeof env); /* WS_STORE_BUFFER is not consulted */
    ws_store_bound b = ws_resolve_store_buffer(&env);
    o.S = b.S;
    o.S_inf = b.inf;
    o.S_source = b.source;
  } else if (strcmp(S, "inf") == 0) {
    o.S_inf = 1;
    o.S_source = "--S";
  } else {
    o.S = (uint32_t)cli_uint("--S", S, 1, 65536);
    o.S_source = "--S";
  }
  if (o.cpus[0] < 0 || o.cpus[1] < 0)
    cli_usage_error("this process may run on fewer than two CPUs; the stress "
                    "needs an owner and a thief on two");
  return o;
}

static void progress(const ts_result *r, void *ctx) {
  fprintf(stderr, "# %s: %llu rounds, %llu bad (%.0f s)\n", (const char *)ctx,
          (unsigned long long)r->rounds, (unsigned long long)r->bad_rounds, r->seconds);
}

static void S_text(const options *o, char *buf, size_t n) {
  if (o->S_inf)
    snprintf(buf, n, "inf");
  else
    snprintf(buf, n, "%u", o->S);
}

int main(int argc, char **argv) {
  cli_tool = "ws-takestress";
  options o = parse(argc, argv);
  char S[16], err[256];
  S_text(&o, S, sizeof S);
  printf("# ws-takestress: S=%s (from %s); owner on CPU %d, thief on CPU %d; up to "
         "%llu rounds per variant%s\n",
         S, o.S_source, o.cpus[0], o.cpus[1], (unsigned long long)o.rounds,
         o.stop ? ", stopping at the first bad one" : "");
  printf("variant,S,x,delta,rounds,bad_rounds,twice,lost,wrong_takes,steals,aborts,"
         "barriers,barriers_lost,seconds\n");
  fflush(stdout);
  int refuted = 0;
  for (int i = 0; i < o.nvariants; i++) {
    int v = o.variants[i];
    unsigned x = dut_take_stores(v);
    /* As configure.c sets ws_rt.delta_validated: FF-MB's and THEP's thieves
     * never trust the default S, a guess; every uncertain steal then
     * forces the barrier (FF-MB) or waits for the echo (THEP). */
    int guessed = o.S_source && strcmp(o.S_source, "default") == 0;
    int64_t bound = dut_validated_S_only(v) && guessed ? INT64_MAX
                                                       : ts_delta_for(o.S, o.S_inf, x);
    ts_options to = {v, o.delta ? o.delta : bound,
                     o.rounds, o.seconds, o.stop, {o.cpus[0], o.cpus[1]},
                     {progress, (void *)dut_variant_name(v)}};
    ts_result r;
    if (ts_run(&to, &r, err, sizeof err)) {
      fprintf(stderr, "ws-takestress: %s\n", err);
      return 1;
    }
    char delta[24];
    if (to.delta == INT64_MAX)
      snprintf(delta, sizeof delta, "inf");
    else
      snprintf(delta, sizeof delta, "%lld", (long long)to.delta);
    printf("%s,%s,%u,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.1f\n",
           dut_variant_name(v), S,
           x, delta, (unsigned long long)r.rounds, (unsigned long long)r.bad_rounds,
           (unsigned long long)r.twice, (unsigned long long)r.lost,
           (unsigned long long)r.wrong_takes, (unsigned long long)r.steals,
           (unsigned long long)r.aborts, (unsigned long long)r.barriers,
           (unsigned long long)r.barriers_lost, r.seconds);
    if (r.bad_rounds) {
      printf("# %s: first bad round: %s\n", dut_variant_name(v), r.first_bad);
      refuted = 1;
    } else if (dut_fence_free(v) && r.steals == 0 && r.barriers == 0) {
      printf("# %s: no task was stolen, so nothing was tested at this delta\n",
             dut_variant_name(v));
    }
    fflush(stdout);
  }
  if (refuted)
    printf("# verdict: S=%s REFUTED: some task ran twice or never\n", S);
  else
    printf("# verdict: every task ran exactly once at S=%s\n", S);
  return refuted;
}
