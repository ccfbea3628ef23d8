/*
 * salsa_core.c — SALSA's structure, shared by salsa.c and salsa_cas.c:
 * chunks and their pools, producers, the consumer's traversal of its lists,
 * and the reclamation of nodes and chunks (salsa_core.h).
 */
#include <stdlib.h>

#include "../worker.h"
#include "salsa_core.h"

/* --- chunks ------------------------------------------------------------ */

static salsa_chunk *chunk_at(salsa *s, uint32_t id) {
  salsa_chunk **seg = atomic_load_explicit(&s->dir[id >> SALSA_SEG_BITS], ws_acquire);
  return seg[id & (SALSA_SEG_SIZE - 1)];
}

static salsa_chunk *new_chunk(salsa *s, int consumer) {
  uint32_t id = atomic_fetch_add_explicit(&s->nchunks, 1, ws_relaxed);
  if (id >= (uint32_t)SALSA_DIR_SIZE * SALSA_SEG_SIZE)
    ws_fatal("salsa: more than %u chunks of %zu tasks; use larger chunks "
             "(WS_POOL_CHUNK)",
             (unsigned)SALSA_DIR_SIZE * SALSA_SEG_SIZE, s->size);
  _Atomic(salsa_chunk **) *dir = &s->dir[id >> SALSA_SEG_BITS];
  salsa_chunk **seg = atomic_load_explicit(dir, ws_acquire);
  if (!seg) {
    salsa_chunk **fresh =
        ws_pool_zalloc(sizeof *fresh * SALSA_SEG_SIZE, "SALSA chunk table");
    if (atomic_compare_exchange_strong_explicit(dir, &seg, fresh, ws_acq_rel,
                                                ws_acquire))
      seg = fresh;
    else
      free(fresh);
  }
  salsa_chunk *c = ws_pool_zalloc(sizeof *c + s->size * sizeof c->task[0],
                                  "a SALSA chunk");
  c->id = id;
  atomic_init(&c->owner, salsa_owner(0, consumer));
  seg[id & (SALSA_SEG_SIZE - 1)] = c;
  return c;
}

/* Chunk pools: Treiber stacks of chunk ids with a tag against ABA.  Only the
 * pool's consumer pushes (the chunks it finished, §5.4); producers pop. */
static salsa_chunk *pop_free(salsa *s, int c) {
  _Atomic uint64_t *head = &s->cons[c].free_chunks;
  uint64_t h = atomic_load_explicit(head, ws_acquire);
  for (;;) {
    uint32_t top = (uint32_t)h;
    if (!top)
      return NULL;
    salsa_chunk *ch = chunk_at(s, top - 1);
    uint32_t next = atomic_load_explicit(&ch->next_free, ws_relaxed);
    if (atomic_compare_exchange_weak_explicit(
            head, &h, (salsa_tag(h) + 1) << 32 | next, ws_acquire, ws_acquire))
      return ch;
  }
}

static void push_free(salsa *s, int c, salsa_chunk *ch) {
  _Atomic uint64_t *head = &s->cons[c].free_chunks;
  uint64_t h = atomic_load_explicit(head, ws_relaxed);
  do
    atomic_store_explicit(&ch->next_free, (uint32_t)h, ws_relaxed);
  while (!atomic_compare_exchange_weak_explicit(
      head, &h, (salsa_tag(h) + 1) << 32 | (ch->id + 1), ws_release, ws_relaxed));
}

void salsa_finish_chunk(salsa *s, int w, salsa_chunk *c) {
  uint64_t o = atomic_load_explicit(&c->owner, ws_relaxed);
  while (!atomic_compare_exchange_weak_explicit(
      &c->owner, &o, salsa_owner(salsa_tag(o) + 1, w), ws_seq_cst, ws_relaxed))
    ;
  salsa_consumer *cp = &s->cons[w];
  if (atomic_load_explicit(&cp->hazard, ws_relaxed) == c)
    atomic_store_explicit(&cp->hazard, NULL, ws_release); /* done with it */
  c->dead_next = NULL;
  c->dead_stamp = ws_epoch_stamp(&s->epoch);
  if (cp->dead_tail)
    cp->dead_tail->dead_next = c;
  else
    cp->dead = c;
  cp->dead_tail = c;
}

static int hazardous(salsa *s, salsa_chunk *c) {
  for (int i = 0; i < s->workers; i++)
    if (atomic_load_explicit(&s->cons[i].hazard, ws_seq_cst) == c)
      return 1;
  return 0;
}

/* --- nodes and reclamation --------------------------------------------- */

static salsa_node *new_node(salsa_chunk *c, int64_t idx, uint64_t owner) {
  salsa_node *n = ws_pool_alloc(sizeof *n, "a SALSA node");
  atomic_init(&n->chunk, c);
  atomic_init(&n->idx, idx);
  n->owner = owner;
  atomic_init(&n->next, NULL);
  n->limbo_next = NULL;
  n->stamp = 0;
  return n;
}

/* Frees the nodes and reuses the chunks that nobody can touch any more. */
static void collect(salsa *s, int w) {
  salsa_consumer *cp = &s->cons[w];
  if (cp->fresh) {
    uint64_t stamp = ws_epoch_stamp(&s->epoch);
    while (cp->fresh) {
      salsa_node *n = cp->fresh;
      cp->fresh = n->limbo_next;
      n->stamp = stamp;
      n->limbo_next = NULL;
      if (cp->limbo_tail)
        cp->limbo_tail->limbo_next = n;
      else
        cp->limbo = n;
      cp->limbo_tail = n;
    }
  }
  if (!cp->limbo && !cp->dead)
    return;
  uint64_t now = ws_epoch_advance(&s->epoch);
  while (cp->limbo && ws_epoch_safe(cp->limbo->stamp, now)) {
    salsa_node *n = cp->limbo;
    cp->limbo = n->limbo_next;
    free(n);
  }
  if (!cp->limbo)
    cp->limbo_tail = NULL;
  /* Finished chunks: oldest first; one still named by a hazard waits. */
  salsa_chunk **link = &cp->dead, *last = NULL;
  while (*link && ws_epoch_safe((*link)->dead_stamp, now)) {
    salsa_chunk *c = *link;
    if (hazardous(s, c)) {
      last = c;
      link = &c->dead_next;
      continue;
    }
    *link = c->dead_next;
    for (size_t i = 0; i < s->size; i++)
      atomic_store_explicit(&c->task[i], WS_POOL_NONE, ws_relaxed);
    push_free(s, w, c); /* release: a producer that pops it sees it reset */
  }
  if (!*link) /* the walk reached the end: `last` is the new tail */
    cp->dead_tail = last;
}

/* --- producers (paper 002 Alg. 4 and §5.4) ------------------------------ */

static int home_consumer(const salsa *s, int slot) {
  return slot < s->workers ? slot : (slot - s->workers) % s->workers;
}

/* A new chunk for producer `slot`: from the chunk pool of the first consumer
 * in its access list that has one (producer-based balancing: a consumer that
 * finishes chunks gets more of them), else a fresh one for its home
 * consumer (produceForce). */
static void start_chunk(salsa *s, int slot) {
  salsa_producer *pr = &s->prod[slot];
  int home = home_consumer(s, slot), c = home;
  salsa_chunk *ch = NULL;
  for (int k = 0; k < s->workers && !ch; k++) {
    c = home + k < s->workers ? home + k : home + k - s->workers;
    ch = pop_free(s, c);
  }
  if (!ch) {
    c = home;
    ch = new_chunk(s, home);
  }
  salsa_node *n = new_node(ch, -1, atomic_load_explicit(&ch->owner, ws_relaxed));
  atomic_store_explicit(&pr->tail[c]->next, n, ws_release);
  pr->tail[c] = n;
  pr->chunk = ch;
  pr->next = 0;
}

void salsa_put(ws_pool *p, int slot, ws_pool_task t) {
  salsa *s = p->impl;
  salsa_producer *pr = &s->prod[slot];
  if (ws_unlikely(!pr->chunk))
    start_chunk(s, slot);
  /* Release: a consumer that reads the task reads it whole.  The producer
   * fills its chunk even after a thief took it over (§5.2.1). */
  atomic_store_explicit(&pr->chunk->task[pr->next], t, ws_release);
  if (++pr->next == s->size)
    pr->chunk = NULL;
}

/* --- consumers ----------------------------------------------------------- */

salsa_node *salsa_adopt_stolen(salsa *s, int w, salsa_chunk *c, int64_t idx,
                               uint64_t owner) {
  salsa_consumer *cp = &s->cons[w];
  salsa_node *n = new_node(c, idx, owner);
  atomic_store_explicit(&cp->steal_tail->next, n, ws_release);
  cp->steal_tail = n;
  return n;
}

ws_pool_task salsa_consume(ws_pool *p, int w, salsa_take_fn take) {
  salsa *s = p->impl;
  salsa_consumer *cp = &s->cons[w];
  ws_pool_task t = WS_POOL_NONE;
  if (cp->current && (t = take(p, w, cp->current)) != WS_POOL_NONE)
    return t;
  cp->current = NULL;
  int nl = s->slots + 1, unlinked = 0;
  for (int k = 0; k < nl && t == WS_POOL_NONE; k++) {
    int l = cp->next_list + k < nl ? cp->next_list + k : cp->next_list + k - nl;
    salsa_node *pred = &cp->lists[l];
    for (salsa_node *n = atomic_load_explicit(&pred->next, ws_acquire); n;) {
      salsa_node *nx = atomic_load_explicit(&n->next, ws_acquire);
      if (atomic_load_explicit(&n->chunk, ws_relaxed) &&
          (t = take(p, w, n)) != WS_POOL_NONE) {
        cp->current = n;
        cp->next_list = l + 1 < nl ? l + 1 : 0;
        break;
      }
      /* A producer appends after its last node: never unlink a node
       * without a successor. */
      if (!atomic_load_explicit(&n->chunk, ws_relaxed) && nx) {
        atomic_store_explicit(&pred->next, nx, ws_release);
        n->limbo_next = cp->fresh;
        cp->fresh = n;
        unlinked++;
      } else {
        pred = n;
      }
      n = nx;
    }
  }
  if (t == WS_POOL_NONE) /* holds no chunk now: let its finisher reuse it */
    atomic_store_explicit(&cp->hazard, NULL, ws_release);
  if (unlinked || (t == WS_POOL_NONE && (cp->limbo || cp->dead)))
    collect(s, w);
  return t;
}

void salsa_guard_begin(ws_pool *p, int slot) {
  ws_epoch_enter(&((salsa *)p->impl)->epoch, slot);
}

void salsa_guard_end(ws_pool *p, int slot) {
  ws_epoch_exit(&((salsa *)p->impl)->epoch, slot);
}

uint32_t salsa_chunks_allocated(const ws_pool *p) {
  return atomic_load_explicit(&((salsa *)p->impl)->nchunks, ws_relaxed);
}

/* --- life cycle ---------------------------------------------------------- */

void salsa_init(ws_pool *p) {
  salsa *s = ws_pool_zalloc(sizeof *s, "a SALSA pool");
  s->size = p->chunk_size;
  s->workers = p->workers;
  s->slots = p->slots;
  ws_epoch_init(&s->epoch, p->slots);
  s->cons = ws_pool_zalloc(sizeof *s->cons * (size_t)s->workers, "SALSA pools");
  for (int c = 0; c < s->workers; c++) {
    salsa_consumer *cp = &s->cons[c];
    cp->lists = ws_pool_zalloc(sizeof *cp->lists * (size_t)(s->slots + 1),
                               "SALSA chunk lists");
    cp->steal_tail = &cp->lists[s->slots];
  }
  s->prod = ws_pool_zalloc(sizeof *s->prod * (size_t)s->slots, "SALSA producers");
  for (int i = 0; i < s->slots; i++) {
    s->prod[i].tail = ws_pool_zalloc(sizeof *s->prod[i].tail * (size_t)s->workers,
                                     "SALSA producers");
    for (int c = 0; c < s->workers; c++)
      s->prod[i].tail[c] = &s->cons[c].lists[i];
  }
  p->impl = s;
}

static void free_nodes(salsa_node *n, int linked) {
  while (n) {
    salsa_node *next =
        linked ? atomic_load_explicit(&n->next, ws_relaxed) : n->limbo_next;
    free(n);
    n = next;
  }
}

void salsa_fini(ws_pool *p) {
  salsa *s = p->impl;
  for (int c = 0; c < s->workers; c++) {
    salsa_consumer *cp = &s->cons[c];
    for (int l = 0; l <= s->slots; l++)
      free_nodes(atomic_load_explicit(&cp->lists[l].next, ws_relaxed), 1);
    free_nodes(cp->fresh, 0);
    free_nodes(cp->limbo, 0);
    free(cp->lists);
  }
  for (int i = 0; i < s->slots; i++)
    free(s->prod[i].tail);
  uint32_t n = atomic_load_explicit(&s->nchunks, ws_relaxed);
  for (uint32_t id = 0; id < n; id++)
    free(chunk_at(s, id));
  for (int d = 0; d < SALSA_DIR_SIZE; d++)
    free(atomic_load_explicit(&s->dir[d], ws_relaxed));
  ws_epoch_fini(&s->epoch);
  free(s->cons);
  free(s->prod);
  free(s);
}
