/*
 * bags.c — which strands run logically in parallel with the current one:
 * SP-bags (Feng and Leiserson, SPAA'97) for wsff's order of execution.
 *
 * Strands are nodes of a union-find; a set is an S-bag (serial with the
 * current strand) or a P-bag (parallel).  Each procedure on the stack — a
 * spawning function's invocation, or a child run at a sync — has an S-bag
 * and, while its sync runs children, a P-bag.  Its code is cut by its
 * spawns into segments: on one worker a spawn's continuation runs first,
 * and the child at the sync, after the segments that follow its spawn and
 * after the children spawned later (taken back first).  So before the
 * child of the spawn at slot s runs, the segments from that spawn on go
 * into the P-bag, and when a child ends its S-bag does too; when the child
 * at the procedure's entry tail (the last one the sync takes back) ends,
 * the sync is done and the P-bag joins the S-bag.  A procedure that ends
 * joins its caller's current segment.  An earlier strand is then parallel
 * with the current one exactly when its bag is a P-bag; the argument is
 * the paper's, with the serial order of a sync block's children reversed
 * (docs/race.md).
 */
#include <stdlib.h>
#include <string.h>

#include "race.h"

/* ---- the union-find ---- */

enum { BAG_S = 0, BAG_P = 1 };

static ws_strand *parent;
static uint8_t *tag;
static uint32_t *stack_at;   /* the call stack a strand began with */
static uint32_t *owner;      /* a P-bag's procedure (index in frames) */
static uint32_t nodes = 1, capacity; /* node 0: none */

static ws_strand new_node(int kind) {
  if (nodes >= capacity) {
    uint32_t c = capacity ? 2 * capacity : 1u << 16;
    parent = ws_race_realloc(parent, c * sizeof *parent);
    tag = ws_race_realloc(tag, c);
    stack_at = ws_race_realloc(stack_at, c * sizeof *stack_at);
    owner = ws_race_realloc(owner, c * sizeof *owner);
    if (!parent || !tag || !stack_at || !owner)
      ws_fatal("-fws-race: out of memory for %u strands", c);
    capacity = c;
  }
  ws_strand n = nodes++;
  parent[n] = n;
  tag[n] = (uint8_t)kind;
  stack_at[n] = ws_race_stack_id();
  owner[n] = 0;
  return n;
}

static ws_strand find(ws_strand x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]]; /* path halving */
    x = parent[x];
  }
  return x;
}

/* Whether a strand is parallel, for the last strands asked about: valid
 * until the next union (race.h looks here first). */
uint32_t ws_race_version = 1;
ws_race_answer ws_race_answers[WS_RACE_ANSWERS];

/* x's set joins into's, and takes its kind. */
static void unite(ws_strand into, ws_strand x) {
  ws_strand a = find(into), b = find(x);
  if (a != b) {
    parent[b] = a;
    ws_race_version++;
  }
}

/* ---- procedures ---- */

typedef struct segment {
  ws_slot *slot;      /* the spawn's slot */
  ws_strand strand;   /* the continuation that followed it */
  uintptr_t spawn_pc; /* where the spawn is, for reports */
} segment;

typedef struct procedure {
  ws_slot *base;      /* its entry tail: its syncs take back down to it */
  ws_strand S, P;     /* P: 0 while no child runs */
  ws_strand current;  /* the segment running now */
  unsigned segs;      /* its continuations not yet in P: segments[segs..] */
  uintptr_t running;  /* the spawn of the child running now */
  int child;          /* a child run at a sync (else called) */
  int entered;        /* spawning functions entered in this child's frame */
} procedure;

static procedure *frames;
static unsigned depth, frames_cap;
/* The segments of all procedures on the stack, innermost last. */
static segment *segments;
static unsigned nsegments, segments_cap;

ws_strand ws_race_current;

static procedure *push_frame(ws_slot *base, int child) {
  if (depth == frames_cap) {
    frames_cap = frames_cap ? 2 * frames_cap : 256;
    frames = ws_race_realloc(frames, frames_cap * sizeof *frames);
    if (!frames)
      ws_fatal("-fws-race: out of memory for %u procedures", frames_cap);
  }
  procedure *p = &frames[depth++];
  memset(p, 0, sizeof *p);
  p->base = base;
  p->child = child;
  p->segs = nsegments;
  p->S = p->current = new_node(BAG_S);
  ws_race_current = p->current;
  return p;
}

/* The procedure ends: everything it ran is serial with what follows. */
static procedure *pop_frame(void) {
  procedure *p = &frames[--depth];
  if (p->P)
    unite(p->S, p->P);
  unite(p->S, p->current);
  for (unsigned i = p->segs; i < nsegments; i++)
    unite(p->S, segments[i].strand);
  nsegments = p->segs;
  return p;
}

static procedure *top(void) {
  if (!depth)
    push_frame(NULL, 0); /* the program's own code, outside any spawning function */
  return &frames[depth - 1];
}

int ws_race_parallel_slow(ws_strand s) {
  ws_race_answer *a = &ws_race_answers[s & (WS_RACE_ANSWERS - 1)];
  *a = (ws_race_answer){s, ws_race_version, tag[find(s)] == BAG_P};
  return a->parallel;
}

uintptr_t ws_race_spawn_of(ws_strand s) {
  ws_strand r = find(s);
  return tag[r] == BAG_P && owner[r] < depth ? frames[owner[r]].running : 0;
}

uint32_t ws_race_stack_of(ws_strand s) { return stack_at[s]; }

void __ws_race_enter(ws_slot *tail) {
  if (!ws_race_checked)
    return;
  procedure *p = top();
  /* A spawned spawning function: its procedure is the child's, which has
   * done nothing yet. */
  if (p->child && p->base == tail && !p->P && p->segs == nsegments && p->current == p->S) {
    p->entered++;
    return;
  }
  push_frame(tail, 0);
}

void __ws_race_leave(void) {
  if (!ws_race_checked || depth < 2)
    return;
  if (frames[depth - 1].entered) {
    frames[depth - 1].entered--;
    return;
  }
  procedure *p = pop_frame();
  procedure *caller = &frames[depth - 1];
  unite(caller->current, p->S);
  ws_race_current = caller->current;
}

void __ws_race_spawn(ws_slot *slot) {
  if (!ws_race_checked)
    return;
  procedure *p = top();
  if (nsegments == segments_cap) {
    segments_cap = segments_cap ? 2 * segments_cap : 1024;
    segments = ws_race_realloc(segments, segments_cap * sizeof *segments);
    if (!segments)
      ws_fatal("-fws-race: out of memory for spawns");
  }
  ws_strand c = new_node(BAG_S);
  segments[nsegments++] = (segment){slot, c, (uintptr_t)__builtin_return_address(0)};
  p->current = ws_race_current = c;
}

void ws_race_child_begin(ws_slot *slot) {
  if (!ws_race_checked)
    return;
  procedure *p = top();
  if (!p->P) {
    p->P = new_node(BAG_P);
    owner[p->P] = depth - 1;
  }
  /* The continuations from this child's spawn on run in parallel with it. */
  while (nsegments > p->segs &&
         (uintptr_t)segments[nsegments - 1].slot >= (uintptr_t)slot) {
    segment *s = &segments[--nsegments];
    unite(p->P, s->strand);
    if (s->slot == slot)
      p->running = s->spawn_pc;
  }
  /* The child's strand began at its spawn, in the procedure's stack. */
  uintptr_t spawn = p->running;
  procedure *c = push_frame(slot, 1);
  if (spawn)
    stack_at[c->S] = ws_race_stack_with(stack_at[c->S], spawn);
}

void ws_race_child_end(void) {
  if (!ws_race_checked || depth < 2)
    return;
  procedure *c = pop_frame();
  procedure *p = &frames[depth - 1];
  unite(p->P, c->S);
  if (c->base == p->base) {
    /* The last child of the sync: everything is serial with what follows. */
    unite(p->S, p->P);
    unite(p->S, p->current);
    p->P = 0;
    p->current = p->S;
    p->running = 0;
  }
  ws_race_current = p->current;
}
