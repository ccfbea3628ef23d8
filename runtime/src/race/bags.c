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
 *
 * Memory: every spawn makes strands, but only those that the shadow or a
 * live procedure refers to are needed; collect.c marks them and
 * ws_race_strands_compact renumbers them (the union-find's arrays are
 * reused: nothing is allocated per spawn once they are large enough).
 */
#include <stdlib.h>
#include <string.h>

#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

/* ---- the union-find ---- */

enum { BAG_S = 0, BAG_P = 1 };

ws_strand *ws_race_parent;
uint8_t *ws_race_bag_kind;
#define parent ws_race_parent
#define tag ws_race_bag_kind
/* The call stack a strand began with: a trie id (callstack.c), or until
 * the strand is named in the shadow, LAZY, the depth of the current stack
 * where it began and CHILD if it is a child's first strand (its stack then
 * has the spawn on top). */
uint32_t *ws_race_stack_at;
#define stack_at ws_race_stack_at
enum { LAZY = 1u << 31, CHILD = 1u << 30 };
static uint32_t *owner;      /* a P-bag's procedure (index in frames) */
uint32_t ws_race_strands_made = 1; /* node 0: none */
#define nodes ws_race_strands_made
static uint32_t capacity;

static __attribute__((noinline)) void grow_nodes(void) {
  uint32_t c = capacity ? 2 * capacity : 1u << 16;
  if (c <= capacity)
    ws_fatal("-fws-race: too many strands");
  parent = ws_race_realloc(parent, c * sizeof *parent);
  tag = ws_race_realloc(tag, c);
  stack_at = ws_race_realloc(stack_at, c * sizeof *stack_at);
  owner = ws_race_realloc(owner, c * sizeof *owner);
  if (!parent || !tag || !stack_at || !owner)
    ws_fatal("-fws-race: out of memory for %u strands", c);
  capacity = c;
}

static inline __attribute__((always_inline)) ws_strand new_node(int kind, uint32_t stack) {
  if (__builtin_expect(nodes >= capacity, 0))
    grow_nodes();
  ws_strand n = nodes++;
  parent[n] = n;
  tag[n] = (uint8_t)kind;
  stack_at[n] = stack;
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

/* ---- procedures ---- */

/* A bag, or the set of a strand: a node of its set, 0 while empty.  x's
 * set joins the bag, which keeps its kind; an empty bag takes x's set as
 * it is, whose kind becomes the bag's (a set is in one bag at a time). */
static inline __attribute__((always_inline)) void join(ws_strand *bag, ws_strand x, int kind,
                                                   uint32_t proc) {
  if (!x)
    return;
  ws_strand b = find(x);
  if (!*bag) {
    *bag = b;
    tag[b] = (uint8_t)kind;
    owner[b] = proc;
    return;
  }
  ws_strand a = find(*bag);
  if (a != b)
    parent[b] = a;
}

typedef struct segment {
  ws_slot *slot;      /* the spawn's slot */
  ws_strand strand;   /* the continuation that followed it (0: not made) */
  uint32_t stack;     /* LAZY | the stack depth at the spawn */
  uintptr_t spawn_pc; /* where the spawn is, for reports */
} segment;

typedef struct procedure {
  ws_slot *base;      /* its entry tail: its syncs take back down to it */
  ws_strand S, P;     /* its bags (0: empty; P: empty while no child runs) */
  ws_strand current;  /* the segment running now (0: not made yet) */
  int in_S;           /* the segment running now belongs to S (no spawn
                         since the procedure began or its last sync) */
  uint32_t stack;     /* LAZY | [CHILD |] the stack depth where it began */
  unsigned segs;      /* its continuations not yet in P: segments[segs..] */
  uintptr_t running;  /* the spawn of the child running now */
  int child;          /* a child run at a sync (else called) */
  int entered;        /* spawning functions entered in this child's frame */
  unsigned lazy;      /* ws_race_lazy while a procedure runs above it */
} procedure;

static procedure *frames;
static unsigned depth, frames_cap;
/* The segments of all procedures on the stack, innermost last. */
static segment *segments;
static unsigned nsegments, segments_cap;

ws_strand ws_race_current;

/* The strand running now; PENDING until it is made (at its first access
 * that the shadow keeps): most strands — a continuation that only calls,
 * a procedure that only spawns — never are. */
static void set_current(ws_strand s) {
  ws_race_current = s;
  ws_race_set_me(s ? s : WS_RACE_PENDING);
}

/* join(bag, n, BAG_S, 0) for a strand n just made (its own set, an
 * S-bag's kind and no owner already). */
static inline void join_new(ws_strand *bag, ws_strand n) {
  if (*bag)
    parent[n] = find(*bag);
  else
    *bag = n;
}

/* The current strand of the innermost procedure, made now. */
static ws_strand make_current(void) {
  procedure *p = &frames[depth - 1];
  ws_strand n;
  if (p->in_S) {
    n = new_node(BAG_S, p->stack);
    join_new(&p->S, n);
  } else {
    /* The segment's set may hold what its calls ran already (bags_leave):
     * the strand joins it. */
    segment *s = &segments[nsegments - 1];
    n = new_node(BAG_S, s->stack);
    join_new(&s->strand, n);
  }
  p->current = n;
  set_current(n);
  return n;
}

ws_strand ws_race_make_me(void) { return make_current(); }

static inline __attribute__((always_inline)) procedure *push_frame(ws_slot *base, int child,
                                                                  uint32_t stack) {
  if (depth == frames_cap) {
    frames_cap = frames_cap ? 2 * frames_cap : 256;
    frames = ws_race_realloc(frames, frames_cap * sizeof *frames);
    if (!frames)
      ws_fatal("-fws-race: out of memory for %u procedures", frames_cap);
  }
  if (depth) { /* the outermost's, made at a first spawn, counts on */
    frames[depth - 1].lazy = ws_race_lazy;
    ws_race_lazy = 0;
  }
  procedure *p = &frames[depth++];
  p->base = base;
  p->S = p->P = p->current = 0;
  p->in_S = 1;
  p->stack = stack;
  p->segs = nsegments;
  p->running = 0;
  p->child = child;
  p->entered = 0;
  set_current(0);
  return p;
}

/* The procedure ends: everything it ran is serial with what follows, in
 * its S-bag, which it returns. */
static inline __attribute__((always_inline)) ws_strand pop_frame(ws_slot **base) {
  procedure *p = &frames[--depth];
  ws_race_lazy = frames[depth - 1].lazy; /* depth >= 1: the outermost stays */
  ws_strand S = p->S;
  join(&S, p->P, BAG_S, 0);
  if (!p->in_S)
    join(&S, p->current, BAG_S, 0);
  for (unsigned i = p->segs; i < nsegments; i++)
    join(&S, segments[i].strand, BAG_S, 0);
  nsegments = p->segs;
  if (base)
    *base = p->base;
  return S;
}

static __attribute__((noinline, cold)) void push_outermost(void) {
  push_frame(NULL, 0, LAZY | ws_race_depth);
}

static inline __attribute__((always_inline)) procedure *top(void) {
  if (__builtin_expect(!depth, 0)) /* the program's own code, outside any spawning function */
    push_outermost();
  return &frames[depth - 1];
}

void ws_race_bags_start(void) { top(); }

uintptr_t ws_race_spawn_of(ws_strand s) {
  ws_strand r = find(s);
  return tag[r] == BAG_P && owner[r] < depth ? frames[owner[r]].running : 0;
}

uint32_t ws_race_stack_of(ws_strand s) { return stack_at[s] & LAZY ? 0 : stack_at[s]; }

/* me runs now, so the frames below where it began are still those. */
void ws_race_strand_named_slow(ws_strand me) {
  uint32_t at = stack_at[me], id = ws_race_stack_id_below(at & (CHILD - 1));
  if (at & CHILD) {
    /* me is a strand of the child at the top, which began at the spawn
     * its parent runs (the child's own calls are above). */
    uintptr_t spawn = depth >= 2 ? frames[depth - 2].running : 0;
    if (spawn)
      id = ws_race_stack_with(id, spawn);
  }
  stack_at[me] = id;
}

/* A spawning function's procedure is made at its first spawn: until then
 * (and for good in a call that spawns nothing: a search's pruned node, a
 * recursion's base case) what it runs is its caller's current strand, as
 * in the serial elision, and entering and leaving it only count
 * (hooks.c): ws_race_lazy is how many functions were entered above the
 * innermost procedure and have not spawned.  They are the innermost
 * calls, so a first spawn is always the innermost's, at its entry tail
 * (nothing of it is outstanding before). */
unsigned ws_race_lazy;

static __attribute__((noinline)) procedure *make_procedure(procedure *p, ws_slot *tail) {
  /* A spawned spawning function: its procedure is the child's, which has
   * done nothing yet, and so is that of every function entered since (the
   * child's own, and its calls down to this one: none has spawned).  All
   * of them are taken in at once: a count left would be taken, at this
   * function's next spawn, for its own. */
  if (p->child && p->base == tail && !p->P && p->segs == nsegments && p->in_S) {
    p->entered += (int)ws_race_lazy;
    ws_race_lazy = 0;
    return p;
  }
  /* Else its own procedure; the functions entered before it wait below
   * it (push_frame keeps their count). */
  ws_race_lazy--;
  return push_frame(tail, 0, LAZY | ws_race_depth);
}

void ws_race_bags_leave(void) {
  if (depth < 2)
    return;
  procedure *in = &frames[depth - 1];
  if (in->entered) {
    in->entered--;
    return;
  }
  ws_strand S = pop_frame(NULL);
  procedure *caller = &frames[depth - 1];
  if (S) { /* what the procedure ran joins the caller's current strand */
    /* Into the caller's S-bag, or the set of its current segment (its
     * strand, if made, is in that set; if not, none is made for this: a
     * continuation that only calls keeps none). */
    if (caller->in_S)
      join(&caller->S, S, BAG_S, 0);
    else
      join(&segments[nsegments - 1].strand, S, BAG_S, 0);
  }
  set_current(caller->current);
}

void ws_race_bags_spawn(ws_slot *slot, uintptr_t spawn_pc) {
  procedure *p = top();
  if (ws_race_lazy)
    p = make_procedure(p, slot);
  if (nsegments == segments_cap) {
    segments_cap = segments_cap ? 2 * segments_cap : 1024;
    segments = ws_race_realloc(segments, segments_cap * sizeof *segments);
    if (!segments)
      ws_fatal("-fws-race: out of memory for spawns");
  }
  segments[nsegments++] = (segment){slot, 0, LAZY | ws_race_depth, spawn_pc};
  p->current = 0;
  p->in_S = 0;
  set_current(0);
}

void ws_race_bags_child_begin(ws_slot *slot) {
  procedure *p = top();
  uint32_t me = depth - 1;
  /* The continuations from this child's spawn on run in parallel with it. */
  while (nsegments > p->segs &&
         (uintptr_t)segments[nsegments - 1].slot >= (uintptr_t)slot) {
    segment *s = &segments[--nsegments];
    join(&p->P, s->strand, BAG_P, me);
    if (s->slot == slot)
      p->running = s->spawn_pc;
  }
  /* The child's strands began at its spawn, in the procedure's stack. */
  push_frame(slot, 1, LAZY | CHILD | ws_race_depth);
}

void ws_race_bags_child_end(void) {
  if (depth < 2)
    return;
  ws_slot *base;
  ws_strand S = pop_frame(&base);
  procedure *p = &frames[depth - 1];
  join(&p->P, S, BAG_P, depth - 1);
  if (base == p->base) {
    /* The last child of the sync: everything is serial with what follows. */
    join(&p->S, p->P, BAG_S, 0);
    if (!p->in_S)
      join(&p->S, p->current, BAG_S, 0);
    p->P = 0;
    p->in_S = 1;
    p->running = 0;
    p->current = 0;
  }
  set_current(p->in_S ? 0 : p->current);
}

/* ---- collection (collect.c) ---- */

void ws_race_strand_mark(ws_strand s, uint8_t *marks) {
  if (s && !marks[s]) {
    marks[s] = 1;
    ws_strand r = find(s);
    parent[s] = r;
    marks[r] = 1;
  }
}

void ws_race_strands_mark_own(uint8_t *marks) {
  for (unsigned i = 0; i < depth; i++) {
    ws_race_strand_mark(frames[i].S, marks);
    ws_race_strand_mark(frames[i].P, marks);
    ws_race_strand_mark(frames[i].current, marks);
  }
  for (unsigned i = 0; i < nsegments; i++)
    ws_race_strand_mark(segments[i].strand, marks);
  ws_race_strand_mark(ws_race_current, marks);
}

ws_strand *ws_race_strands_compact(const uint8_t *marks) {
  ws_strand *remap = (ws_strand *)ws_race_calloc(nodes, sizeof *remap);
  if (!remap)
    ws_fatal("-fws-race: out of memory for %u strands", nodes);
  /* Every marked strand points at its root (ws_race_strand_mark), which is
   * marked.  New numbers keep the old order, so each array is rewritten in
   * place, from the bottom. */
  ws_strand n = 1;
  for (ws_strand x = 1; x < nodes; x++)
    if (marks[x])
      remap[x] = n++;
  for (ws_strand x = 1; x < nodes; x++) {
    ws_strand to = remap[x];
    if (!to)
      continue;
    parent[to] = remap[parent[x]];
    tag[to] = tag[x];
    stack_at[to] = stack_at[x];
    owner[to] = owner[x];
  }
  nodes = n;
  for (unsigned i = 0; i < depth; i++) {
    frames[i].S = remap[frames[i].S];
    frames[i].P = remap[frames[i].P];
    frames[i].current = remap[frames[i].current];
  }
  for (unsigned i = 0; i < nsegments; i++)
    segments[i].strand = remap[segments[i].strand];
  ws_race_current = remap[ws_race_current];
  ws_race_set_me(ws_race_current ? ws_race_current : WS_RACE_PENDING);
  return remap;
}

void ws_race_strands_stacks(void (*each)(uint32_t *stack_id, void *arg), void *arg) {
  for (ws_strand x = 1; x < nodes; x++)
    if (!(stack_at[x] & LAZY))
      each(&stack_at[x], arg);
}

WS_RACE_NO_LIBCALLS_END
