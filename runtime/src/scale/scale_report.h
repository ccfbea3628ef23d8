/*
 * scale_report.h — the ws-scale report: a table on stderr, a CSV file.
 */
#ifndef WS_SCALE_REPORT_H
#define WS_SCALE_REPORT_H

#include <stdint.h>
#include <stdio.h>

/* One row: the program, or a region; in the clock's unit. */
typedef struct ws_scale_row {
  const char *name;
  uint64_t count;
  double work, span, bspan; /* the DAG clock's unit */
  uint64_t spawns;
  /* Two clocks, in ns: the work measured; span and burdened span
   * attributed (twork * span / work: the DAG's shares of the time
   * measured); and the time measured along the two critical paths. */
  double twork, tspan, tbspan, path_tspan, path_tbspan;
} ws_scale_row;

typedef struct ws_scale_run {
  const char *clock;    /* the DAG clock's name */
  const char *unit;     /* "ns" or "instructions" */
  double burden;        /* a spawn's burden */
  double residual;      /* taken off every strand */
  const char *tclock;   /* two clocks: the time clock's name; else NULL */
  double tburden;       /*   a spawn's burden in ns */
  double tresidual;     /*   ns taken off every strand */
  int run_workers;      /* workers of this run */
  int pmax;             /* the speedup table goes to P = pmax */
  int open_frames;      /* frames exit() left open */
  const char *csv_path; /* where the CSV went, or NULL when it could not */
} ws_scale_run;

/* The report notes a row whose critical path took more than twice its
 * share of the instructions' time, and more than this many ns beyond it. */
#define WS_SCALE_NOTE_NS 1e6

/* The greedy-scheduler estimate on P workers from the burdened DAG:
 * work / ((work - b) / P + b), b = min(burdened span, work) (Brent). */
double ws_scale_estimate(const ws_scale_row *r, int P);
/* The span law: min(P, work / span). */
double ws_scale_bound(const ws_scale_row *r, int P);

void ws_scale_write_table(FILE *out, const ws_scale_run *run,
                          const ws_scale_row *rows, int n);
void ws_scale_write_csv(FILE *out, const ws_scale_run *run,
                        const ws_scale_row *rows, int n);

#endif
