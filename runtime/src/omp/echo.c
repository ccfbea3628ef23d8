/*
 * omp/echo.c — a waiting thread's echo to THEP's thieves (echo.h).
 */
#include "../tailhead.h"
#include "echo.h"

int ws_omp_echo(ws_worker *self) {
  if (!self || ws_rt.ops->id != WS_VARIANT_ID_thep)
    return 0;
  ws_dq *q = self->dq;
  ws_slot *t = atomic_load_explicit(&q->T, ws_relaxed);
  if (ws_th_dist(t, atomic_load_explicit(&q->H, ws_relaxed)) <= 0)
    return 0;
  /* The top spawn back, and out again; a thief that got it first keeps
   * it, and the frame that spawned it finds so at its sync (its take
   * fails as this one did). */
  if (!ws_rt.ops->take(q, t - 1))
    ws_rt.ops->push(q, t - 1);
  return 1;
}
