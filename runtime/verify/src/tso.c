/*
 * tso.c — the abstract TSO[S] machine (paper 000 §2, after Sewell et al.'s
 * x86-TSO), with the §7.3 buffer B:
 *
 *  - each thread has a FIFO store buffer of S entries; a store needs a free
 *    entry (when the buffer is full the thread waits for a drain);
 *  - a load returns the newest matching entry of the thread's own buffer,
 *    else B's content, else memory;
 *  - a drain moves the oldest entry on.  BUF_PLAIN: into memory.  BUF_B and
 *    BUF_COALESCE: into B; B first goes to memory unless (BUF_COALESCE) it
 *    holds the same address, in which case the entry overwrites it;
 *  - atomic operations (xchg, CAS) and fences need an empty buffer and an
 *    empty B, and then act on memory directly.
 *
 * --memory=weak (cfg->weak), ARMv8-like, each access with the memory order
 * of the C statement its step quotes (vf_order_now):
 *  - a store enters the buffer; a release (or seq_cst) store is marked
 *    VF_ST_REL.  Any entry may reach memory, not only the oldest, unless an
 *    earlier entry has its address (coherence) or it is a release entry
 *    (which waits for every earlier store): stores pass earlier stores;
 *  - loads read their own newest buffered store, else memory, so they pass
 *    buffered stores; a seq_cst load (ldar) waits until no release entry is
 *    buffered (RCsc: stlr, stlxr then ldar are ordered); a relaxed or
 *    acquire one (ldapr) does not;
 *  - an RMW is ldaxr/stlxr, the weakest compilation (no LSE): it reads
 *    memory at once and buffers its store, marked VF_ST_RMW (and VF_ST_REL
 *    when its order releases).  A release RMW waits first for an empty
 *    buffer; every RMW waits while its own buffer or another thread's RMW
 *    store holds its address, and no other thread's store to that address
 *    reaches memory before the RMW's does (the exclusive succeeds; a failed
 *    one is a retry, an execution the search has too);
 *  - loads are made in program order, at their step: a load is never
 *    satisfied before an earlier load, and a store never reaches memory
 *    before an earlier load (docs/verification.md says where that matters).
 */
#include <stdio.h>

#include "verify.h"

static int covers(const vf_store *e, int addr) {
  return e->addr == addr ||
         (e->addr == A_TS && (addr == A_TAIL || addr == A_SPLIT));
}

static int value_of(const vf_store *e, int addr) {
  if (e->addr != A_TS)
    return e->val;
  return addr == A_TAIL ? e->val % 16 : e->val / 16;
}

const char *vf_addr_name(int addr, char *buf, size_t n) {
  static const char *const names[] = {
      [A_T] = "T",         [A_H] = "H",         [A_LOCK] = "lock",
      [A_P] = "P",         [A_TAIL] = "tail",   [A_SPLIT] = "split",
      [A_ALLSTOLEN] = "allstolen", [A_SPLITREQ] = "splitreq",
      [A_SP_ALLSTOLEN] = "sp.allstolen", [A_REQUEST] = "request",
      [A_SCRATCH] = "scratch", [A_TS] = "(tail,split)"};
  if (addr >= A_TRANSFER0 && addr < A_SCRATCH)
    snprintf(buf, n, "transfer%d", addr - A_TRANSFER0 + 1);
  else if (addr >= A_X0 && addr < A_SLOT0)
    snprintf(buf, n, "x%d", addr - A_X0 + 1);
  else if (addr >= A_SLOT0 && addr < A_STATE0)
    snprintf(buf, n, "slot[%d]", addr - A_SLOT0);
  else if (addr >= A_STATE0 && addr < A_NADDR)
    snprintf(buf, n, "state[%d]", addr - A_STATE0);
  else
    snprintf(buf, n, "%s", names[addr]);
  return buf;
}

static void note(vf_ctx *c, const char *what, int addr, int val,
                 const char *where) {
  if (!c->note)
    return;
  char a[24];
  vf_addr_name(addr, a, sizeof a);
  if (addr == A_TS)
    snprintf(c->note->access, sizeof c->note->access, "%s%s := (%d,%d)%s",
             what, a, val % 16, val / 16, where);
  else
    snprintf(c->note->access, sizeof c->note->access, "%s%s%s%d%s", what, a,
             *what == 'l' ? " -> " : " := ", val, where);
}

static int has_release(const vf_thread *th) {
  for (int i = 0; i < th->nsb; i++)
    if (th->sb[i].publishes & VF_ST_REL)
      return 1;
  return 0;
}

static int overlap(int a, int b) {
  return a == b || (a == A_TS && (b == A_TAIL || b == A_SPLIT)) ||
         (b == A_TS && (a == A_TAIL || a == A_SPLIT));
}

/* Another thread than tid has an RMW store to addr in its buffer. */
static int reserved_by_other(const vf_state *s, int nth, int tid, int addr) {
  for (int u = 0; u < nth; u++)
    if (u != tid)
      for (int i = 0; i < s->th[u].nsb; i++)
        if ((s->th[u].sb[i].publishes & VF_ST_RMW) && overlap(s->th[u].sb[i].addr, addr))
          return 1;
  return 0;
}

static int is_release(int order) {
  return order == VO_REL || order == VO_ACQ_REL || order == VO_SC || order == VO_FULL;
}

int vf_order_now(const vf_ctx *c) {
  const vf_thread *th = c->th;
  if (th->phase == PH_CLIENT)
    return c->cfg->client_order[th->pc];
  return c->cfg->order[th->pc];
}

/* --memory=weak: may the thread's RMW on addr start now? */
static int rmw_ready(vf_ctx *c, int addr) {
  const vf_thread *th = c->th;
  if (th->nsb == c->cfg->S || (is_release(vf_order_now(c)) && th->nsb))
    return 0;
  for (int i = 0; i < th->nsb; i++)
    if (overlap(th->sb[i].addr, addr))
      return 0;
  return !reserved_by_other(c->s, vf_nthreads(c->cfg), c->tid, addr);
}

static void push_rmw(vf_ctx *c, int addr, int val) {
  vf_thread *th = c->th;
  uint8_t flags = VF_ST_RMW | (is_release(vf_order_now(c)) ? VF_ST_REL : 0);
  th->sb[th->nsb++] = (vf_store){(uint8_t)addr, (int8_t)val, flags};
}

int vf_load(vf_ctx *c, int addr) {
  const vf_thread *th = c->th;
  if (c->cfg->weak && vf_order_now(c) == VO_SC && has_release(th))
    c->wait = 1; /* ldar after stlr: the step blocks */
  for (int i = th->nsb - 1; i >= 0; i--)
    if (covers(&th->sb[i], addr)) {
      int v = value_of(&th->sb[i], addr);
      note(c, "load ", addr, v, " (own buffer)");
      return v;
    }
  if (th->b.addr != A_NONE && covers(&th->b, addr)) {
    int v = value_of(&th->b, addr);
    note(c, "load ", addr, v, " (own B)");
    return v;
  }
  note(c, "load ", addr, c->s->mem[addr], "");
  return c->s->mem[addr];
}

void vf_load_ts(vf_ctx *c, int8_t *tail, int8_t *split) {
  vf_note *keep = c->note;
  c->note = NULL;
  *tail = (int8_t)vf_load(c, A_TAIL);
  *split = (int8_t)vf_load(c, A_SPLIT);
  c->note = keep;
  if (keep)
    snprintf(keep->access, sizeof keep->access, "load (tail,split) -> (%d,%d)",
             *tail, *split);
}

/* One load of two adjacent bytes (split's sp_flags): each byte from the
 * newest entry of the thread's own buffer, else from B or memory, at one
 * moment.  On x86 a load that overlaps a buffered byte store waits for it
 * to reach the cache and then reads both bytes there, an outcome this one
 * includes.  Returns lo + 2 * hi for 0/1 bytes, nonzero when either is. */
int vf_load_pair(vf_ctx *c, int lo, int hi) {
  vf_note *keep = c->note;
  c->note = NULL;
  int a = vf_load(c, lo), b = vf_load(c, hi);
  c->note = keep;
  if (keep) {
    char na[24], nb[24];
    snprintf(keep->access, sizeof keep->access, "load (%s,%s) -> (%d,%d)",
             vf_addr_name(lo, na, sizeof na), vf_addr_name(hi, nb, sizeof nb), a, b);
  }
  return (a != 0) | (b != 0) << 1;
}

int vf_store_(vf_ctx *c, int addr, int val, int publishes) {
  vf_thread *th = c->th;
  if (th->nsb == c->cfg->S)
    return 0; /* full: the memory subsystem must drain first (rule 6) */
  uint8_t rel = c->cfg->weak && is_release(vf_order_now(c)) ? VF_ST_REL : 0;
  th->sb[th->nsb++] = (vf_store){(uint8_t)addr, (int8_t)val, (uint8_t)(publishes | rel)};
  note(c, "store ", addr, val, rel ? " -> buffer (release)" : " -> buffer");
  return 1;
}

int vf_drained(const vf_thread *th) { return th->nsb == 0 && th->b.addr == A_NONE; }

int vf_xchg(vf_ctx *c, int addr, int val) {
  int old = c->s->mem[addr];
  if (c->cfg->weak && !rmw_ready(c, addr)) {
    c->wait = 1;
    return old;
  }
  if (c->cfg->weak)
    push_rmw(c, addr, val);
  else
    c->s->mem[addr] = (int8_t)val;
  if (c->note) {
    char a[24];
    snprintf(c->note->access, sizeof c->note->access, "xchg %s := %d (was %d)%s",
             vf_addr_name(addr, a, sizeof a), val, old,
             !c->cfg->weak ? ""
             : is_release(vf_order_now(c)) ? ", store -> buffer (release)"
                                            : ", store -> buffer");
  }
  return old;
}

int vf_cas(vf_ctx *c, int addr, int expect, int val) {
  if (c->cfg->weak && !rmw_ready(c, addr)) {
    c->wait = 1;
    return 0;
  }
  int ok = c->s->mem[addr] == expect;
  if (c->note) {
    char a[24];
    snprintf(c->note->access, sizeof c->note->access, "CAS %s %d -> %d %s%s",
             vf_addr_name(addr, a, sizeof a), expect, val,
             ok ? "succeeds" : "fails",
             ok && c->cfg->weak ? ", store -> buffer" : "");
  }
  if (ok && c->cfg->weak)
    push_rmw(c, addr, val);
  else if (ok)
    c->s->mem[addr] = (int8_t)val;
  return ok;
}

/* CAS of the 64-bit word (tail, split) from (tail, split) to (tail+1, split). */
int vf_cas_ts(vf_ctx *c, int tail, int split) {
  int8_t *m = c->s->mem;
  int ok = m[A_TAIL] == tail && m[A_SPLIT] == split;
  if (c->note)
    snprintf(c->note->access, sizeof c->note->access,
             "CAS (tail,split) (%d,%d) -> (%d,%d) %s", tail, split, tail + 1,
             split, ok ? "succeeds" : "fails");
  if (ok)
    m[A_TAIL] = (int8_t)(tail + 1);
  return ok;
}

static void to_memory(vf_state *s, const vf_store *e) {
  if (e->addr == A_TS) {
    s->mem[A_TAIL] = (int8_t)(e->val % 16);
    s->mem[A_SPLIT] = (int8_t)(e->val / 16);
  } else {
    s->mem[e->addr] = e->val;
  }
  if (e->publishes & VF_PUB_MASK)
    s->visible |= (uint8_t)(1u << ((e->publishes & VF_PUB_MASK) - 1));
}

int vf_can_drain(const vf_config *cfg, const vf_thread *th) {
  if (th->nsb == 0)
    return 0;
  if (cfg->buffer == BUF_PLAIN || th->b.addr == A_NONE)
    return 1;
  return cfg->buffer == BUF_COALESCE && th->b.addr == th->sb[0].addr;
}

static void describe(vf_note *note, const char *what, const vf_store *e,
                     const char *where) {
  if (!note)
    return;
  char a[24];
  vf_addr_name(e->addr, a, sizeof a);
  if (e->addr == A_TS)
    snprintf(note->access, sizeof note->access, "%s %s=(%d,%d) %s", what, a,
             e->val % 16, e->val / 16, where);
  else
    snprintf(note->access, sizeof note->access, "%s %s=%d %s", what, a, e->val,
             where);
}

void vf_drain(const vf_config *cfg, vf_state *s, int tid, vf_note *note) {
  vf_thread *th = &s->th[tid];
  vf_store e = th->sb[0];
  for (int i = 1; i < th->nsb; i++)
    th->sb[i - 1] = th->sb[i];
  th->nsb--;
  th->sb[th->nsb] = (vf_store){A_NONE, 0, 0};
  if (cfg->buffer == BUF_PLAIN) {
    to_memory(s, &e);
    describe(note, "drain", &e, "-> memory");
  } else {
    describe(note, "drain", &e,
             th->b.addr == A_NONE ? "-> B" : "-> B (coalesced with B)");
    th->b = e;
  }
}

int vf_can_drain_at(const vf_config *cfg, const vf_state *s, int tid, int i) {
  const vf_thread *th = &s->th[tid];
  if (!cfg->weak)
    return i == 0 && vf_can_drain(cfg, th);
  if (i >= th->nsb)
    return 0;
  const vf_store *e = &th->sb[i];
  if (i > 0 && (e->publishes & VF_ST_REL))
    return 0;
  for (int j = 0; j < i; j++)
    if (overlap(th->sb[j].addr, e->addr))
      return 0;
  return (e->publishes & VF_ST_RMW) || !reserved_by_other(s, vf_nthreads(cfg), tid, e->addr);
}

/* --memory=weak: entry i reaches memory, out of order. */
void vf_drain_at(const vf_config *cfg, vf_state *s, int tid, int i, vf_note *note) {
  if (i == 0) {
    vf_drain(cfg, s, tid, note);
    return;
  }
  vf_thread *th = &s->th[tid];
  vf_store e = th->sb[i];
  for (int k = i + 1; k < th->nsb; k++)
    th->sb[k - 1] = th->sb[k];
  th->nsb--;
  th->sb[th->nsb] = (vf_store){A_NONE, 0, 0};
  to_memory(s, &e);
  describe(note, "drain", &e, "-> memory (past older stores)");
}

void vf_flush_b(vf_state *s, int tid, vf_note *note) {
  vf_thread *th = &s->th[tid];
  to_memory(s, &th->b);
  describe(note, "write B", &th->b, "-> memory");
  th->b = (vf_store){A_NONE, 0, 0};
}

/* A full memory barrier that another thread forces on thread tid (FF-MB's
 * ws_barrier_victim: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), or the
 * signal whose handler fences before it answers): B and then every entry
 * of tid's store buffer reach memory, in order, as one action of the
 * caller.  That the caller's later loads see them is what the system call
 * (or the answer the caller waits for) guarantees. */
void vf_barrier_on(vf_ctx *c, int tid) {
  vf_thread *th = &c->s->th[tid];
  char list[80] = "";
  size_t used = 0;
  if (th->b.addr != A_NONE) {
    char a[24];
    used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0,
                             " B:%s=%d", vf_addr_name(th->b.addr, a, sizeof a), th->b.val);
    to_memory(c->s, &th->b);
    th->b = (vf_store){A_NONE, 0, 0};
  }
  for (int i = 0; i < th->nsb; i++) {
    char a[24];
    used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0,
                             " %s=%d", vf_addr_name(th->sb[i].addr, a, sizeof a),
                             th->sb[i].val);
    to_memory(c->s, &th->sb[i]);
    th->sb[i] = (vf_store){A_NONE, 0, 0};
  }
  th->nsb = 0;
  if (c->note)
    snprintf(c->note->access, sizeof c->note->access, "barrier on %s: [%s ] -> memory",
             tid ? "a thief" : "the worker", list);
}
