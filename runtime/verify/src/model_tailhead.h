/*
 * model_tailhead.h — the steps the Fig. 2a deques share: put() and the
 * locked reset (runtime/src/tailhead.h, tailhead.c) of THE, FF-THE, THEP
 * and FF-MB, Chase-Lev's conflict path and reset (deque_cl.c), which FF-CL
 * calls too, and FF-THE's take (deque_ffthe.h, deque_ffthe.c's conflict path),
 * which FF-MB's owner runs too.  Each model numbers its own steps from
 * TH_FIRST_FREE.
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
  FFT_TAKE_STORE_T,
  FFT_TAKE_LOAD_H,
  FFT_TAKE_ANTICOALESCE,
  FFT_CONFLICT_LOCK,
  FFT_CONFLICT_LOAD_H,
  FFT_CONFLICT_RESTORE_T,
  FFT_CONFLICT_UNLOCK_STOLEN,
  FFT_CONFLICT_UNLOCK,
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

/* FF-THE's owner: ffthe_take (deque_ffthe.h, shared by deque_ffthe.c and
 * deque_ffmb.c) and ws_ffthe_take_conflict (deque_ffthe.c, which FF-MB's
 * take calls too). */
#define FFT_FILE "deque_ffthe.h"
#define FFT_CONFLICT_FILE "deque_ffthe.c"
#define VF_FFTHE_TAKE_STEPS                                                    \
  [FFT_TAKE_STORE_T] = {"Fig.3 take  T := t (no fence)", FFT_FILE,            \
                        "ws_store_tail(q, t);"},                              \
  [FFT_TAKE_LOAD_H] = {"Fig.2a take  h := H", FFT_FILE,                       \
                       "uint64_t H = ws_th_peek_head(q);"},                   \
  [FFT_TAKE_ANTICOALESCE] = {"§7.3 anti-coalescing store; Fig.2b l.3 if (t < h)", \
                             FFT_FILE, "ws_anticoalesce_store(t);",           \
                             "if (ws_likely(ws_th_at_or_above(t, H)))"},      \
  [FFT_CONFLICT_LOCK] = {"Fig.2b l.4 lock()", FFT_CONFLICT_FILE, "ws_th_lock(q);"}, \
  [FFT_CONFLICT_LOAD_H] = {"Fig.2b l.5 if (H >= t + 1)", FFT_CONFLICT_FILE,   \
                           "if (!ws_th_at_or_above(t, atomic_load_explicit(&q->H, ws_relaxed))) {"}, \
  [FFT_CONFLICT_RESTORE_T] = {"Fig.2b l.6 T := t + 1", FFT_CONFLICT_FILE,     \
                              "atomic_store_explicit(&q->T, t + 1, ws_relaxed);"}, \
  [FFT_CONFLICT_UNLOCK_STOLEN] = {"Fig.2b l.7-8 unlock(); return EMPTY",      \
                                  FFT_CONFLICT_FILE, "ws_th_unlock(q);"},     \
  [FFT_CONFLICT_UNLOCK] = {"Fig.2b l.10-12 unlock(); return tasks[t]",        \
                           FFT_CONFLICT_FILE, "ws_th_unlock(q);"}

/* model_tailhead.c */
int vf_th_step(vf_ctx *c); /* the TH_ steps */
int vf_th_lock(vf_ctx *c);
int vf_th_unlock(vf_ctx *c);
int vf_th_claimed_below(const vf_state *s);
void vf_th_show(const int8_t *mem); /* T and H, no newline */
/* model_cl.c */
int vf_cl_step(vf_ctx *c); /* the CL_ steps */
/* model_ffthe.c */
int vf_ffthe_take_step(vf_ctx *c); /* the FFT_ steps */

#endif
