/*
 * scale_report.c — the ws-scale report.  On stderr, every line begins
 * "ws-scale:"; the CSV has one row per region and P (tidy: a plot filters
 * it), the program's row named <program>, figures in the DAG clock's unit,
 * and with two clocks the times along the DAG's paths in ns.
 */
#include <math.h>
#include <string.h>

#include "scale_report.h"

static double ratio(double a, double b) { return b > 0 ? a / b : INFINITY; }

double ws_scale_estimate(const ws_scale_row *r, int P) {
  if (r->work <= 0)
    return 1.0;
  double b = r->bspan < r->work ? r->bspan : r->work;
  return r->work / ((r->work - b) / P + b);
}

double ws_scale_bound(const ws_scale_row *r, int P) {
  double par = ratio(r->work, r->span);
  return par < P ? par : P;
}

/* The table shows millions of the unit: ms, or millions of instructions. */
static double mega(double x) { return x / 1e6; }

void ws_scale_write_table(FILE *out, const ws_scale_run *run,
                          const ws_scale_row *rows, int n) {
  int ns = strcmp(run->unit, "ns") == 0;
  if (run->tclock) {
    fprintf(out,
            "ws-scale: parallelism from %s (burden %.0f a spawn, %.0f "
            "taken off every strand); work ms by clock %s (%.0f ns taken "
            "off every strand), span ms = work ms / parallelism; run on %d "
            "worker%s\n",
            run->clock, run->burden, run->residual, run->tclock,
            run->tresidual, run->run_workers, run->run_workers == 1 ? "" : "s");
  } else {
    fprintf(out,
            "ws-scale: clock %s, burden %.0f %s a spawn, %.0f %s taken off "
            "every strand, run on %d worker%s\n",
            run->clock, run->burden, run->unit, run->residual, run->unit,
            run->run_workers, run->run_workers == 1 ? "" : "s");
  }
  if (run->open_frames)
    fprintf(out,
            "ws-scale: exit() with %d frame(s) open: they count as if they "
            "had returned there\n",
            run->open_frames);
  const char *u = ns || run->tclock ? "ms" : "Mi";
  char work[16], span[16], bspan[16];
  snprintf(work, sizeof work, "work %s", u);
  snprintf(span, sizeof span, "span %s", u);
  snprintf(bspan, sizeof bspan, "burd. span %s", u);
  fprintf(out, "ws-scale: %-20s %8s %13s %13s %12s %13s %12s %12s\n", "region",
          "count", work, span, "parallelism", bspan, "burd. par.", "spawns");
  for (int i = 0; i < n; i++) {
    const ws_scale_row *r = &rows[i];
    /* Two clocks: times in the columns of times, ratios of counts. */
    double work = run->tclock ? r->twork : r->work;
    double span = run->tclock ? r->tspan : r->span;
    double bspan = run->tclock ? r->tbspan : r->bspan;
    fprintf(out,
            "ws-scale: %-20.20s %8llu %13.4f %13.4f %12.2f %13.4f %12.2f "
            "%12llu\n",
            r->name, (unsigned long long)r->count, mega(work), mega(span),
            ratio(r->work, r->span), mega(bspan), ratio(r->work, r->bspan),
            (unsigned long long)r->spawns);
  }
  /* Two clocks: the counts cannot see time spent in the kernel (page
   * faults, system calls), in code not compiled with the flag, or in slow
   * instructions.  Where the critical path itself took much more time
   * than its share of the instructions says, say so, with the parallelism
   * by that path's time.  Below a millisecond the difference is as likely
   * one cold start or one interruption on that path (docs/scale.md). */
  for (int i = 0; run->tclock && i < n; i++) {
    const ws_scale_row *r = &rows[i];
    if (r->path_tspan > 2 * r->tspan &&
        r->path_tspan - r->tspan > WS_SCALE_NOTE_NS)
      fprintf(out,
              "ws-scale: note: %s's critical path took %.1f ms by %s, %.1f x "
              "its share of the instructions (%.1f ms): time the counts do "
              "not see (page faults, system calls, code built without "
              "-fws-scale, slow instructions) is on it; by that path's time "
              "the parallelism is %.2f\n",
              r->name, mega(r->path_tspan), run->tclock,
              r->path_tspan / r->tspan, mega(r->tspan),
              ratio(r->twork, r->path_tspan));
  }
  enum { cols = 6 };
  int shown = n < cols ? n : cols;
  fprintf(out,
          "ws-scale: speedup on P workers, estimate (burdened DAG) .. bound "
          "(span law)%s\n",
          n > cols ? "; the other regions in the CSV" : "");
  fprintf(out, "ws-scale: %4s", "P");
  for (int i = 0; i < shown; i++)
    fprintf(out, "  %-16.16s", rows[i].name);
  fputc('\n', out);
  for (int P = 1; P <= run->pmax; P++) {
    fprintf(out, "ws-scale: %4d", P);
    for (int i = 0; i < shown; i++) {
      char cell[40];
      snprintf(cell, sizeof cell, "%.2f..%.2f", ws_scale_estimate(&rows[i], P),
               ws_scale_bound(&rows[i], P));
      fprintf(out, "  %-16s", cell);
    }
    fputc('\n', out);
  }
  if (run->csv_path)
    fprintf(out, "ws-scale: CSV in %s\n", run->csv_path);
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_name(FILE *out, const char *s) {
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

void ws_scale_write_csv(FILE *out, const ws_scale_run *run,
                        const ws_scale_row *rows, int n) {
  fputs("region,count,work,span,parallelism,burdened_span,"
        "burdened_parallelism,spawns,workers,speedup_estimate,speedup_bound,"
        "unit,clock,burden,time_clock,work_ns,span_ns,burdened_span_ns,"
        "path_span_ns,path_burdened_span_ns\n",
        out);
  for (int i = 0; i < n; i++) {
    const ws_scale_row *r = &rows[i];
    for (int P = 1; P <= run->pmax; P++) {
      csv_name(out, r->name);
      fprintf(out,
              ",%llu,%.0f,%.0f,%.4f,%.0f,%.4f,%llu,%d,%.4f,%.4f,%s,%s,%.0f",
              (unsigned long long)r->count, r->work, r->span,
              ratio(r->work, r->span), r->bspan, ratio(r->work, r->bspan),
              (unsigned long long)r->spawns, P, ws_scale_estimate(r, P),
              ws_scale_bound(r, P), run->unit, run->clock, run->burden);
      if (run->tclock)
        fprintf(out, ",%s,%.0f,%.0f,%.0f,%.0f,%.0f\n", run->tclock, r->twork,
                r->tspan, r->tbspan, r->path_tspan, r->path_tbspan);
      else
        fputs(",,,,,,\n", out);
    }
  }
}
