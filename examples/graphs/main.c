/*
 * main.c — ws-graphs: transitive closure and spanning tree on a pool, every
 * variant in turn, repeated; one CSV row per run on stdout.
 *
 *   ws-graphs --graph kregular|random|torus [--n N] [--k K] [--m M]
 *             [--algo tc|st|both] [--variants a,b,...] [--reps R]
 *             [--threads T] [--seed S]
 *
 * Runs are interleaved (rep 1 of every variant, then rep 2, ...) so that a
 * slow phase of the machine hits all variants alike.  Every run is checked
 * against a serial BFS; a wrong result stops the program with status 1.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "traverse.h"

static void usage(void) {
  fprintf(stderr,
          "usage: ws-graphs --graph kregular|random|torus [--n N] [--k K] "
          "[--m M] [--algo tc|st|both] [--variants a,b,...] [--reps R] "
          "[--threads T] [--seed S]\n");
  exit(2);
}

static long number(const char *s, long lo, long hi, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end || v < lo || v > hi) {
    fprintf(stderr, "ws-graphs: %s=%s: expected %ld to %ld\n", what, s, lo, hi);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  const char *kind = NULL, *algos = "both";
  char variants[512] = "cl,ffcl,idem-lifo,idem-fifo";
  long n = 0, k = 16, m = 0, reps = 5, seed = 1;
  long threads = sysconf(_SC_NPROCESSORS_ONLN);
  static const struct option opts[] = {
      {"graph", 1, 0, 'g'}, {"n", 1, 0, 'n'},        {"k", 1, 0, 'k'},
      {"m", 1, 0, 'm'},     {"algo", 1, 0, 'a'},     {"variants", 1, 0, 'v'},
      {"reps", 1, 0, 'r'},  {"threads", 1, 0, 't'}, {"seed", 1, 0, 's'},
      {0, 0, 0, 0}};
  for (int c; (c = getopt_long(argc, argv, "", opts, NULL)) != -1;) {
    switch (c) {
    case 'g': kind = optarg; break;
    case 'n': n = number(optarg, 16, 1L << 26, "--n"); break;
    case 'k': k = number(optarg, 2, 1024, "--k"); break;
    case 'm': m = number(optarg, 1, 1L << 30, "--m"); break;
    case 'a': algos = optarg; break;
    case 'v': snprintf(variants, sizeof variants, "%s", optarg); break;
    case 'r': reps = number(optarg, 1, 1000, "--reps"); break;
    case 't': threads = number(optarg, 1, 256, "--threads"); break;
    case 's': seed = number(optarg, 0, 1L << 62, "--seed"); break;
    default: usage();
    }
  }
  if (!kind || optind != argc)
    usage();
  graph g;
  if (strcmp(kind, "kregular") == 0)
    g = graph_kregular((int)(n ? n : 1 << 20), (int)(k & ~1L), (uint64_t)seed);
  else if (strcmp(kind, "random") == 0)
    g = graph_random((int)(n ? n : 1 << 20), m ? m : 4 * (n ? n : 1 << 20),
                     (uint64_t)seed);
  else if (strcmp(kind, "torus") == 0)
    g = graph_torus(n ? (int)n : 1024); /* --n is the side here */
  else
    usage();
  int run_tc = strcmp(algos, "st") != 0, run_st = strcmp(algos, "tc") != 0;
  if (!run_tc && !run_st) /* neither tc nor st nor both */
    usage();
  if (strcmp(algos, "tc") && strcmp(algos, "st") && strcmp(algos, "both"))
    usage();

  unsigned char *reach = malloc((size_t)g.n);
  _Atomic unsigned char *mark = malloc((size_t)g.n);
  int *parent = malloc(sizeof(int) * (size_t)g.n);
  long reached = graph_reach(&g, 0, reach);
  const char *list[32];
  int nv = 0;
  for (char *save, *v = strtok_r(variants, ",", &save); v && nv < 32;
       v = strtok_r(NULL, ",", &save))
    list[nv++] = v;

  printf("graph,algo,variant,threads,rep,seconds,tasks,reached,stolen,"
         "steal_attempts,aborts,chunk_steals\n");
  for (long rep = 1; rep <= reps; rep++)
    for (int ai = 0; ai < 2; ai++) {
      if (!(ai == 0 ? run_tc : run_st))
        continue;
      algo a = ai == 0 ? ALGO_TC : ALGO_ST;
      for (int i = 0; i < nv; i++) {
        run_result r = traverse(&g, a, list[i], (int)threads, 0, mark, parent);
        const char *err = verify(&g, a, 0, reach, mark, parent);
        if (err) {
          fprintf(stderr, "ws-graphs: %s %s %s: %s\n", kind,
                  a == ALGO_TC ? "tc" : "st", list[i], err);
          return 1;
        }
        printf("%s,%s,%s,%ld,%ld,%.6f,%ld,%ld,%llu,%llu,%llu,%llu\n", kind,
               a == ALGO_TC ? "tc" : "st", list[i], threads, rep, r.seconds,
               r.tasks, reached, (unsigned long long)r.stats.stolen,
               (unsigned long long)r.stats.steal_attempts,
               (unsigned long long)r.stats.aborts,
               (unsigned long long)r.stats.chunk_steals);
        fflush(stdout);
      }
    }
  free(reach);
  free(mark);
  free(parent);
  graph_free(&g);
  return 0;
}
