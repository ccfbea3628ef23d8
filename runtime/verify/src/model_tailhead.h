/*
 * model_tailhead.h — the steps the Fig. 2a deques share: put() and the
 * locked reset (runtime/src/tailhead.h, tailhead.c) of THE, FF-THE and
 * THEP, and Chase-Lev's conflict path and reset (deque_cl.c), which FF-CL
 * calls too.  Each model numbers its own steps from TH_FIRST_FREE.
 */
#ifndef VF_MODEL_TAILHEAD_H
#define VF_MODEL_TAILHEAD_H

#include "verify.h"

enum {
  TH_PUT_STORE_T = 1,
  TH_RESET_LOCK,
  TH_RESET_LOAD_H,
  TH_RESET_STORE_T,
  TH_RESET_STORE_H,
  TH_RESET_UNLOCK,
  CL_CONFLICT_LOAD_H,
  CL_CONFLICT_STOLEN_T,
  CL_CONFLICT_LAST_T,
  CL_CONFLICT_CAS,
  CL_CONFLICT_DOWN_T,
  CL_CONFLICT_DOWN_H,
  CL_RESET_LOAD_H,
  CL_RESET_STORE_T,
  CL_RESET_STORE_H,
  TH_FIRST_FREE
};

#define VF_TH_PUT_STEPS                                                        \
  [TH_PUT_STORE_T] = {"Fig.2a put  T := t+1", "tailhead.h",                   \
                      "ws_store_tail(q, t + 1);"}

#define VF_TH_RESET_STEPS                                                      \
  [TH_RESET_LOCK] = {"(runtime) reset after the join: lock()", "tailhead.c",  \
                     "ws_th_lock(q);"},                                       \
  [TH_RESET_LOAD_H] = {"(runtime) reset: <tag, h> := H", "tailhead.c",        \
                       "uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);"}, \
  [TH_RESET_STORE_T] = {"(runtime) reset: T := t", "tailhead.c",              \
                        "atomic_store_explicit(&q->T, t, ws_relaxed);"},      \
  [TH_RESET_STORE_H] = {"(runtime) reset: H := <tag, t>", "tailhead.c",       \
                        "atomic_store_explicit(&q->H, ws_th_pack(ws_th_tag(H), t), ws_relaxed);"}, \
  [TH_RESET_UNLOCK] = {"(runtime) reset: unlock()", "tailhead.c",             \
                       "ws_th_unlock(q);"}

#define CL_FILE "deque_cl.c"
#define VF_CL_STEPS                                                            \
  [CL_CONFLICT_LOAD_H] = {"Fig.2c l.30-31 <tag, h> := H; if (t < h)", CL_FILE,\
                          "uint64_t H = atomic_load_explicit(&q->H, ws_seq_cst);", \
                          "if (!ws_th_at_or_above(t, H)) { /* t < h: a thief took it */"}, \
  [CL_CONFLICT_STOLEN_T] = {"Fig.2c l.32-33 T := t+1 (the paper's h); return EMPTY", \
                            CL_FILE,                                          \
                            "atomic_store_explicit(&q->T, t + 1, ws_relaxed); /* empty, above t */"}, \
  [CL_CONFLICT_LAST_T] = {"Fig.2c l.36 T := h + 1", CL_FILE,                  \
                          "atomic_store_explicit(&q->T, t + 1, ws_relaxed);"},\
  [CL_CONFLICT_CAS] = {"Fig.2c l.37-38 if (!CAS(&H, <tag,h>, <tag,h+1>)) return EMPTY", \
                       CL_FILE,                                               \
                       "&q->H, &expect, ws_th_pack(ws_th_tag(H), t + 1), ws_seq_cst, ws_relaxed))"}, \
  [CL_CONFLICT_DOWN_T] = {"(runtime) the last task is ours; move down: T := t", \
                          CL_FILE, "atomic_store_explicit(&q->T, t, ws_relaxed);"}, \
  [CL_CONFLICT_DOWN_H] = {"(runtime) H := <tag+1, t>; return tasks[t]", CL_FILE, \
                          "atomic_store_explicit(&q->H, ws_th_pack(ws_th_tag(H) + 1, t), ws_release);"}, \
  [CL_RESET_LOAD_H] = {"(runtime) reset after the join: <tag, h> := H", CL_FILE, \
                       "uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);"}, \
  [CL_RESET_STORE_T] = {"(runtime) reset: T := t", CL_FILE,                   \
                        "atomic_store_explicit(&q->T, t, ws_relaxed);"},      \
  [CL_RESET_STORE_H] = {"(runtime) reset: H := <tag+1, t>", CL_FILE,          \
                        "atomic_store_explicit(&q->H, ws_th_pack(ws_th_tag(H) + 1, t), ws_release);"}

/* model_tailhead.c */
int vf_th_step(vf_ctx *c); /* the TH_ steps */
int vf_th_lock(vf_ctx *c);
int vf_th_unlock(vf_ctx *c);
int vf_th_claimed_below(const vf_state *s);
void vf_th_show(const int8_t *mem); /* T and H, no newline */
/* model_cl.c */
int vf_cl_step(vf_ctx *c); /* the CL_ steps */

#endif
