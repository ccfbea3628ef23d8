/*
 * stacks.c — call stacks for race reports.  The current stack is an array
 * of call sites, pushed and popped at every call (a store and a compare);
 * a strand keeps the stack it began with as one 32-bit id, a node of a
 * trie of call sites made only when a strand begins (a spawn, a child, a
 * procedure), for the part of the array that changed since the last one.
 */
#include <stdlib.h>

#include "race.h"

/* ---- the current stack ---- */

static uintptr_t *sites_now; /* outermost first */
static uint32_t *ids_now;    /* ids_now[k]: the trie node of sites_now[0..k] */
static unsigned depth, interned, depth_cap;

void ws_race_stack_push(uintptr_t call_site) {
  if (depth == depth_cap) {
    depth_cap = depth_cap ? 2 * depth_cap : 1024;
    sites_now = ws_race_realloc(sites_now, depth_cap * sizeof *sites_now);
    ids_now = ws_race_realloc(ids_now, depth_cap * sizeof *ids_now);
    if (!sites_now || !ids_now)
      ws_fatal("-fws-race: out of memory for call stacks");
  }
  sites_now[depth++] = call_site;
  if (interned >= depth)
    interned = depth - 1;
}

void ws_race_stack_pop(void) {
  if (depth && --depth < interned)
    interned = depth;
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
static uint32_t ids = 1, ids_cap; /* id 0: the empty stack */

static uint32_t intern(uint32_t below, uintptr_t pc) {
  if (ids_cap)
    for (uint32_t c = first[below]; c; c = next[c])
      if (site[c] == pc)
        return c;
  if (ids >= ids_cap) {
    uint32_t cap = ids_cap ? 2 * ids_cap : 1u << 12;
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
  uint32_t id = ids++;
  up[id] = below;
  site[id] = pc;
  next[id] = first[below];
  first[below] = id;
  return id;
}

uint32_t ws_race_stack_with(uint32_t below, uintptr_t call_site) {
  return intern(below, call_site);
}

uint32_t ws_race_stack_id(void) {
  for (; interned < depth; interned++)
    ids_now[interned] = intern(interned ? ids_now[interned - 1] : 0, sites_now[interned]);
  return depth ? ids_now[depth - 1] : 0;
}

int ws_race_stack_frames(uint32_t id, uintptr_t *pcs, int n) {
  int k = 0;
  for (; id && k < n; id = up[id])
    pcs[k++] = site[id];
  return k;
}
