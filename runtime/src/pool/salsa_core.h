/*
 * salsa_core.h — what SALSA and SALSA+CAS share (Gidron, Keidar, Perelman, Perez,
 * "SALSA", 2012; "paper 002"): chunks of tasks, per-producer chunk lists in
 * every consumer's pool (§5.1), producers and producer-based balancing
 * (§5.2.1, §5.4), chunk pools, and the reclamation of nodes and chunks.
 *
 * Consumers are the worker slots; every slot is a producer.  Consumer c keeps
 * `slots` producer lists, each written only by its producer, plus a steal
 * list written by c.  A node links a chunk into a list and carries `idx`, the
 * last slot its consumer took or is about to take (§5.2.2).
 *
 * The owner word of a chunk is <tag:32, consumer:32>.  Every change (a steal,
 * the end of a chunk's life) increments the tag, and a node records the word
 * that was current when it became the chunk's node.  `C->owner == n->owner`
 * thus says both "n's consumer owns C" and "n is C's node in this life of C"
 * (§5.3's ABA tag).
 *
 * Reclamation (the paper uses hazard pointers for both, §5.1):
 *  - a node is unlinked only by the consumer whose list holds it, and freed
 *    after an epoch grace period (epoch.h): thieves and scanners read other
 *    consumers' lists only inside ws_epoch_enter/exit;
 *  - a finished chunk is reset and reused only after a grace period, and only
 *    while no consumer's hazard slot names it: a consumer publishes the chunk
 *    it takes from (once per chunk, not per task), so a late take after a
 *    steal never touches a reused chunk.
 */
#ifndef WS_POOL_SALSA_CORE_H
#define WS_POOL_SALSA_CORE_H

#include <stdalign.h>
#include <stdint.h>

#include "epoch.h"
#include "pool_impl.h"

/* Slot values besides tasks: never inserted (0, "⊥") and taken. */
#define SALSA_TAKEN ((ws_pool_task)WS_POOL_TASK_MAX + 1)

/* Single-threaded tests stop the algorithms between two steps here and run
 * another consumer's operation (runtime/tests/pool). */
#ifdef WS_POOL_TEST_HOOKS
extern void (*ws_pool_test_point)(const char *where);
#define WS_POOL_TEST_POINT(where)                                              \
  (ws_pool_test_point ? ws_pool_test_point(where) : (void)0)
#else
#define WS_POOL_TEST_POINT(where) ((void)0)
#endif

typedef struct salsa_chunk {
  alignas(WS_CACHE_LINE) _Atomic uint64_t owner;
  _Atomic uint32_t next_free; /* chunk pool link: id + 1 of the next, or 0 */
  uint32_t id;
  struct salsa_chunk *dead_next; /* waiting for reuse (its finisher's list) */
  uint64_t dead_stamp;
  alignas(WS_CACHE_LINE) _Atomic(ws_pool_task) task[];
} salsa_chunk;

typedef struct salsa_node {
  _Atomic(salsa_chunk *) chunk; /* NULL: finished, or no longer this node's */
  _Atomic int64_t idx;
  uint64_t owner; /* C->owner when this node became C's node */
  _Atomic(struct salsa_node *) next;
  struct salsa_node *limbo_next; /* unlinked, waiting for a grace period */
  uint64_t stamp;
} salsa_node;

typedef struct salsa_consumer {
  alignas(WS_CACHE_LINE) salsa_node *lists; /* sentinels: producers, steal */
  salsa_node *steal_tail;
  salsa_node *current;
  int next_list; /* where the next traversal starts (fairness, §5.2.2) */
  salsa_node *fresh;                   /* unlinked, not yet stamped */
  salsa_node *limbo, *limbo_tail;      /* stamped, oldest first */
  salsa_chunk *dead, *dead_tail;       /* finished chunks, oldest first */
  alignas(WS_CACHE_LINE) _Atomic(salsa_chunk *) hazard;
  alignas(WS_CACHE_LINE) _Atomic uint64_t free_chunks; /* <tag:32, id+1:32> */
} salsa_consumer;

typedef struct salsa_producer {
  alignas(WS_CACHE_LINE) salsa_chunk *chunk; /* being filled, or NULL */
  size_t next;                               /* its first free slot */
  salsa_node **tail;                         /* per consumer: last appended */
} salsa_producer;

#define SALSA_SEG_BITS 12
#define SALSA_SEG_SIZE (1u << SALSA_SEG_BITS)
#define SALSA_DIR_SIZE 1024 /* at most 4M chunks */

typedef struct salsa {
  size_t size; /* tasks per chunk */
  int workers, slots;
  salsa_consumer *cons;
  salsa_producer *prod;
  ws_epoch epoch;
  _Atomic uint32_t nchunks;
  _Atomic(salsa_chunk **) dir[SALSA_DIR_SIZE]; /* chunk id -> chunk */
} salsa;

static inline uint64_t salsa_owner(uint64_t tag, int consumer) {
  return tag << 32 | (uint32_t)consumer;
}
static inline uint64_t salsa_tag(uint64_t owner) { return owner >> 32; }

/* Takes one task through node n for consumer w (salsa.c, salsa_cas.c). */
typedef ws_pool_task (*salsa_take_fn)(ws_pool *p, int w, salsa_node *n);

void salsa_init(ws_pool *p);
void salsa_fini(ws_pool *p);
void salsa_put(ws_pool *p, int slot, ws_pool_task t);
void salsa_guard_begin(ws_pool *p, int slot);
void salsa_guard_end(ws_pool *p, int slot);

/* The consumer's own pool: its current node, then every node of its lists
 * from a rotating start, unlinking nodes whose chunk is gone.  `take` clears
 * n->chunk when n is done. */
ws_pool_task salsa_consume(ws_pool *p, int w, salsa_take_fn take);

/* Publishes the chunk consumer w is about to take from (no fence when it
 * already is the published one). */
static inline void salsa_protect(salsa_consumer *cp, salsa_chunk *c) {
  if (atomic_load_explicit(&cp->hazard, ws_relaxed) != c)
    WS_STORE_FENCED(&cp->hazard, c);
}

/* Ends this life of a chunk whose last slot consumer w took: no node's owner
 * word matches it any more; it is reused once no one can still touch it. */
void salsa_finish_chunk(salsa *s, int w, salsa_chunk *c);

/* Appends a node for a stolen chunk to w's steal list. */
salsa_node *salsa_adopt_stolen(salsa *s, int w, salsa_chunk *c, int64_t idx,
                               uint64_t owner);

/* Chunks allocated so far (tests: reuse keeps this bounded). */
uint32_t salsa_chunks_allocated(const ws_pool *p);

#endif
