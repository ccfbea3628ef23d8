/*
 * scale_init.c — ws-scale's start and end.  It starts in a constructor that
 * runs after the runtime's (init.c, priority 101) and registers its report
 * with atexit after the runtime's shutdown, so the report runs first, once
 * main has returned and every task is done.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../fatal.h"
#include "scale.h"
#include "scale_clock.h"
#include "scale_env.h"
#include "scale_regions.h"
#include "scale_report.h"
#include "ws/ws.h"

static ws_scale_env env;
static uint64_t burden;  /* in the DAG clock's unit */
static uint64_t tburden; /* two clocks: in ns */

/* This file's constructor must be linked whenever the hooks are
 * (libws_scale is an archive), but the hooks do not call up into their
 * start-up: every module the ws-scale pass instruments refers to this
 * anchor instead (ws/scale_hooks.def). */
const int __ws_scale_start = 1;

static ws_scale_row row_of(const char *name, uint64_t count,
                           const ws_scale_figures *f) {
  ws_scale_row r = {name,
                    count,
                    ws_scale_clock_value(f->work),
                    ws_scale_clock_value(f->span),
                    ws_scale_clock_value(f->bspan),
                    f->spawns,
                    ws_scale_time_value(f->twork),
                    0,
                    0,
                    ws_scale_time_value(f->tspan),
                    ws_scale_time_value(f->tbspan)};
  if (f->work) {
    r.tspan = r.twork * (double)f->span / (double)f->work;
    r.tbspan = r.twork * (double)f->bspan / (double)f->work;
  }
  return r;
}

static void report(void) {
  int open = ws_scale_finish_program();
  ws_scale_clock_refine();
  int nregions;
  const ws_scale_region_row *regions = ws_scale_region_rows(&nregions);
  ws_scale_row *rows = malloc((size_t)(nregions + 1) * sizeof *rows);
  if (!rows)
    ws_scale_fatal("out of memory");
  rows[0] = row_of("<program>", 1, &ws_scale_program()->f);
  for (int i = 0; i < nregions; i++)
    rows[i + 1] = row_of(regions[i].name, regions[i].count, &regions[i].f);

  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  int pmax = env.workers;
  if (!pmax)
    pmax = ncpu > WS_SCALE_DEFAULT_WORKERS
               ? (ncpu > WS_SCALE_MAX_WORKERS ? WS_SCALE_MAX_WORKERS : (int)ncpu)
               : WS_SCALE_DEFAULT_WORKERS;
  ws_scale_clock_id dag = ws_scale_clock_dag();
  ws_scale_run run = {
      .clock = ws_scale_clock_name(dag),
      .unit = ws_scale_clock_unit(dag),
      .burden = (double)burden,
      .residual = ws_scale_clock_value(ws_scale_residual),
      .tclock = ws_scale_timed ? ws_scale_clock_name(env.clock) : NULL,
      .tburden = (double)tburden,
      .tresidual = ws_scale_time_value(ws_scale_tresidual),
      .run_workers = ws_num_workers(),
      .pmax = pmax,
      .open_frames = open,
      .csv_path = env.out ? env.out : WS_SCALE_DEFAULT_OUT,
  };
  FILE *csv = fopen(run.csv_path, "w");
  int failed = !csv;
  if (csv) {
    ws_scale_write_csv(csv, &run, rows, nregions + 1);
    failed = fclose(csv) != 0;
  }
  if (failed) {
    fprintf(stderr, "ws-scale: cannot write %s (WS_SCALE_OUT): %s\n",
            run.csv_path, strerror(errno));
    run.csv_path = NULL;
  }
  fflush(stdout);
  ws_scale_write_table(stderr, &run, rows, nregions + 1);
  free(rows);
}

__attribute__((constructor(102))) static void ws_scale_start(void) {
  char err[512];
  if (ws_scale_env_parse(ws_env_getenv, NULL, &env, err, sizeof err)) {
    fprintf(stderr, "ws: %s\n", err);
    exit(2);
  }
  if (env.clock < 0)
    env.clock = ws_scale_clock_default();
  if (env.clock == WS_SCALE_CLOCK_INSTRUCTIONS && !ws_scale_clock_counted()) {
    fprintf(stderr, "ws: WS_SCALE_CLOCK=instructions needs a program built "
                    "with -fws-scale or -fws-scale=instructions (this one "
                    "was built with -fws-scale=time)\n");
    exit(2);
  }
  ws_scale_clock_select(env.clock);
  /* WS_SCALE_BURDEN is in the DAG's unit; with two clocks the time burden
   * is its equivalent at the defaults' rate (2.5 instructions a ns). */
  int in_instructions = ws_scale_clock_dag() == WS_SCALE_CLOCK_INSTRUCTIONS;
  if (env.burden_set)
    burden = env.burden;
  else
    burden = in_instructions ? WS_SCALE_DEFAULT_BURDEN_INSTRUCTIONS
                             : WS_SCALE_DEFAULT_BURDEN_NS;
  tburden = (uint64_t)((double)burden * WS_SCALE_DEFAULT_BURDEN_NS /
                           WS_SCALE_DEFAULT_BURDEN_INSTRUCTIONS +
                       0.5);
  ws_scale_burden = ws_scale_clock_ticks(burden);
  ws_scale_tburden = ws_scale_timed ? ws_scale_time_ticks(tburden) : 0;
  ws_scale_residual = ws_scale_tresidual = 0;
  /* restarts the program */
  ws_scale_residual = ws_scale_measure_residual(&ws_scale_tresidual);
  atexit(report);
}
