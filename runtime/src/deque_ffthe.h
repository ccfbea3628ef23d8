/*
 * deque_ffthe.h — FF-THE's owner (paper 000 §4, Fig. 3): THE's take without the
 * fence, then the anti-coalescing store (§7.3).  Shared by FF-THE
 * (deque_ffthe.c) and FF-MB (deque_ffmb.c), whose owners run the same code
 * and differ only in what their thieves do.
 */
#ifndef WS_DEQUE_FFTHE_H
#define WS_DEQUE_FFTHE_H

#include "tailhead.h"

int ws_ffthe_take_conflict(ws_dq *q, ws_slot *t);
int ws_ffthe_take_conflict_self(ws_slot *t);

static inline __attribute__((always_inline)) int ffthe_take(ws_dq *q, int self,
                                                            ws_slot *t) {
  ws_store_tail(q, t); /* T := t, no fence */
  WS_TAKE_MARK();
  uint64_t H = ws_th_peek_head(q);
  ws_anticoalesce_store(t);
  if (ws_likely(ws_th_at_or_above(t, H)))
    return 0;
  return WS_SLOW(self, ws_ffthe_take_conflict_self(t), ws_ffthe_take_conflict(q, t));
}

#endif
