/*
 * callstack.c — call stacks for race reports.  The current stack is an array
 * of call sites, pushed and popped at every call (a store and a compare);
 * a strand keeps the stack it began with as one 32-bit id, a node of a
 * trie of call sites made only when a strand begins (a spawn, a child, a
 * procedure), for the part of the array that changed since the last one.
 * The trie's nodes that no strand refers to any more are reclaimed by
 * collect.c (ws_race_stack_compact).
 */
#include <stdlib.h>

#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

/* ---- the current stack ---- */

uintptr_t *ws_race_sites; /* outermost first */
unsigned ws_race_depth, ws_race_interned, ws_race_depth_cap;
#define sites_now ws_race_sites
#define depth ws_race_depth
#define interned ws_race_interned
#define depth_cap ws_race_depth_cap
uint32_t *ws_race_ids_now;  /* ids_now[k]: the trie node of sites_now[0..k] */
#define ids_now ws_race_ids_now

void ws_race_stack_grow_push(uintptr_t call_site) {
  depth_cap = depth_cap ? 2 * depth_cap : 1024;
  sites_now = ws_race_realloc(sites_now, depth_cap * sizeof *sites_now);
  ids_now = ws_race_realloc(ids_now, depth_cap * sizeof *ids_now);
  if (!sites_now || !ids_now)
    ws_fatal("-fws-race: out of memory for call stacks");
  sites_now[depth++] = call_site;
}

int ws_race_stack_now(uintptr_t *pcs, int n) {
  int k = 0;
  for (unsigned i = depth; i-- > 0 && k < n;)
    pcs[k++] = sites_now[i];
  return k;
}

/* ---- the trie: (the stack below, a call site) -> id ----
 * A node's children are a list: a function calls from a few sites. */

static uint32_t *up;     /* by id: the stack below */
static uintptr_t *site;  /* by id: its innermost call site */
static uint32_t *first;  /* by id: its first child */
static uint32_t *next;   /* by id: its next sibling */
uint32_t ws_race_stack_ids_made = 1; /* id 0: the empty stack */
#define ids ws_race_stack_ids_made
static uint32_t ids_cap;

static __attribute__((noinline)) void grow_trie(void) {
  uint32_t cap = ids_cap ? 2 * ids_cap : 1u << 12;
  if (cap <= ids_cap)
    ws_fatal("-fws-race: too many call stacks");
  up = ws_race_realloc(up, cap * sizeof *up);
  site = ws_race_realloc(site, cap * sizeof *site);
  first = ws_race_realloc(first, cap * sizeof *first);
  next = ws_race_realloc(next, cap * sizeof *next);
  if (!up || !site || !first || !next)
    ws_fatal("-fws-race: out of memory for call stacks");
  for (uint32_t i = ids_cap; i < cap; i++)
    first[i] = 0;
  ids_cap = cap;
}

/* The trie's edges found lately, direct-mapped by (below, call site): a
 * strand named where the last one was (a spawn in a loop, a recursion's
 * same call) finds its id without walking a list.  An entry whose id is
 * 0 is empty; the collection empties them all (ids change). */
typedef struct edge {
  uintptr_t site;
  uint32_t below, id;
} edge;
enum { EDGES = 1 << 12 };
static edge edges[EDGES];

static inline edge *edge_slot(uint32_t below, uintptr_t pc) {
  uint64_t h = ((uint64_t)pc ^ ((uint64_t)below << 7)) * 0x9e3779b97f4a7c15ull;
  return &edges[h >> (64 - 12)];
}

static uint32_t intern_slow(uint32_t below, uintptr_t pc) {
  if (ids_cap)
    for (uint32_t c = first[below]; c; c = next[c])
      if (site[c] == pc)
        return c;
  if (ids >= ids_cap)
    grow_trie();
  uint32_t id = ids++;
  up[id] = below;
  site[id] = pc;
  first[id] = 0;
  next[id] = first[below];
  first[below] = id;
  return id;
}

static inline uint32_t intern(uint32_t below, uintptr_t pc) {
  edge *e = edge_slot(below, pc);
  if (e->id && e->site == pc && e->below == below)
    return e->id;
  uint32_t id = intern_slow(below, pc);
  *e = (edge){pc, below, id};
  return id;
}

uint32_t ws_race_stack_with(uint32_t below, uintptr_t call_site) {
  return intern(below, call_site);
}

uint32_t ws_race_stack_id(void) { return ws_race_stack_id_below(depth); }

uint32_t ws_race_stack_id_below_slow(unsigned d) {
  for (; interned < d; interned++)
    ids_now[interned] = intern(interned ? ids_now[interned - 1] : 0, sites_now[interned]);
  return d ? ids_now[d - 1] : 0;
}


int ws_race_stack_frames(uint32_t id, uintptr_t *pcs, int n) {
  int k = 0;
  for (; id && k < n; id = up[id])
    pcs[k++] = site[id];
  return k;
}

/* ---- collection ---- */

/* id and the stacks below it are kept. */
void ws_race_stack_mark(uint32_t id, uint8_t *marks) {
  for (; id && !marks[id]; id = up[id])
    marks[id] = 1;
}

uint32_t *ws_race_stack_compact(uint8_t *marks) {
  for (unsigned k = 0; k < interned; k++)
    ws_race_stack_mark(ids_now[k], marks);
  /* New ids in the old order: a node's stack below has a smaller id, so
   * it is renumbered first, and every array is rewritten in place. */
  uint32_t *remap = (uint32_t *)ws_race_calloc(ids, sizeof *remap);
  if (!remap)
    ws_fatal("-fws-race: out of memory for call stacks");
  uint32_t n = 1;
  for (uint32_t id = 1; id < ids; id++) {
    if (!marks[id])
      continue;
    remap[id] = n;
    up[n] = remap[up[id]];
    site[n] = site[id];
    first[n] = 0;
    n++;
  }
  first[0] = 0;
  for (uint32_t id = n; id-- > 1;) {
    next[id] = first[up[id]];
    first[up[id]] = id;
  }
  ids = n;
  for (unsigned k = 0; k < EDGES; k++)
    edges[k].id = 0;
  for (unsigned k = 0; k < interned; k++)
    ids_now[k] = remap[ids_now[k]];
  return remap;
}

WS_RACE_NO_LIBCALLS_END
