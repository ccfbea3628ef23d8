/*
 * views.h — reducer views (hyperobjects), the runtime side of
 * ws/reducer.h.
 *
 * A context is the views of one strand of execution on one thread: a
 * thread's own (main's, or one the program created), or those of one
 * stolen task or submitted call, which start empty (every view from the
 * identity) and are handed to the owner at its join.  A view of an ordered
 * (non-commutative) monoid is a stack of segments, each keyed by the tail
 * when it began: wsff steals children, and runs an unstolen child at the
 * sync, after the continuation that follows it in serial order, so the
 * continuation's updates (made while the tail was above the child's slot)
 * are set aside when the child begins and put back after the child's.
 * The argument that this gives the serial order is in docs/design.md.
 */
#ifndef WS_VIEWS_H
#define WS_VIEWS_H

#include "worker.h"

typedef struct ws_views ws_views;

/* The calling thread's current context (NULL: none yet). */
extern __thread ws_views *ws_tls_views __attribute__((tls_model("initial-exec")));

/* The thread's context and the word __ws_views_above compares with, saved
 * around a stolen task or a submitted call. */
typedef struct ws_views_saved {
  ws_views *views;
  ws_slot *max;
} ws_views_saved;

/* A fresh context, for a stolen task or a submitted call. */
void ws_views_enter(ws_views_saved *s);
/* Leaves it, back to the saved one: returns its views, each reduced to
 * one value, for the owner's join (NULL: the task touched no reducer). */
ws_views *ws_views_leave(ws_views_saved *s);
/* The owner's side: the views a child run elsewhere left, joined in serial
 * order after everything at or below its slot and before the continuation
 * (the segments above the slot).  Frees `left`. */
void ws_views_join(ws_slot *slot, ws_views *left);


#endif
