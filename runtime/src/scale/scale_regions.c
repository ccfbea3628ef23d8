/*
 * scale_regions.c — the rows of the ws-scale report, one per region name:
 * instances add up (their work, their spans as if run one after another).
 * Regions end on any worker, so the table takes a lock; the lock's time is
 * inside a hook, not charged to any strand.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "scale_regions.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ws_scale_region_row *rows;
static int nrows, cap;

void ws_scale_region_record(const char *name, const ws_scale_figures *f) {
  pthread_mutex_lock(&lock);
  int i = 0;
  while (i < nrows && strcmp(rows[i].name, name) != 0)
    i++;
  if (i == nrows) {
    if (nrows == cap) {
      int ncap = cap ? 2 * cap : 16;
      ws_scale_region_row *r = realloc(rows, (size_t)ncap * sizeof *r);
      if (!r)
        ws_scale_fatal("out of memory");
      rows = r;
      cap = ncap;
    }
    memset(&rows[i], 0, sizeof rows[i]);
    rows[i].name = strdup(name);
    if (!rows[i].name)
      ws_scale_fatal("out of memory");
    nrows++;
  }
  ws_scale_region_row *r = &rows[i];
  r->count++;
  r->f.work += f->work;
  r->f.span += f->span;
  r->f.bspan += f->bspan;
  r->f.spawns += f->spawns;
  r->f.twork += f->twork;
  r->f.tspan += f->tspan;
  r->f.tbspan += f->tbspan;
  pthread_mutex_unlock(&lock);
}

const ws_scale_region_row *ws_scale_region_rows(int *n) {
  pthread_mutex_lock(&lock);
  *n = nrows;
  const ws_scale_region_row *r = rows;
  pthread_mutex_unlock(&lock);
  return r;
}
