/*
 * views.c — reducer views: lookup, the segments of ordered views, how
 * views travel with stolen tasks and submitted calls (views.h), and the
 * checks that a reducer is read, unregistered and updated where it may be.
 *
 * Nothing here takes a lock or makes an atomic access but a
 * registration's pthread_once (the check at exit, installed once): a
 * context belongs to one thread, and a finished task's context reaches its
 * owner through the release store of its slot's state (scheduler.c).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* The API of ws/reducer.h, not its serial elision. */
#define WS_FENCEFREE 1
#include "ws/reducer.h"

#include "views.h"

#ifdef WS_RACE
/* -fws-race: every view is kept in serial order, so that a child and the
 * continuation before it never share one (as if every child were
 * stolen), and the monoid's own code, which the runtime runs where no
 * strand of the program is, is not checked. */
#include "race/race.h"
#define ALL_ORDERED 1
#define UNCHECKED(call) (ws_race_ignore_begin(), (call), ws_race_ignore_end())
#else
#define ALL_ORDERED 0
#define UNCHECKED(call) (call)
#endif

__thread ws_views *ws_tls_views __attribute__((tls_model("initial-exec")));
/* Contexts entered on this thread and not left (stolen tasks, submitted
 * calls): none while the thread runs in its own. */
static __thread unsigned ws_tls_entered __attribute__((tls_model("initial-exec")));

/* One segment of a view: the updates of a stretch of the strand, in serial
 * order below the segments above it. */
typedef struct ws_seg {
  ws_slot *key; /* the tail when it began; set aside: the child's slot */
  void *val;    /* the view's storage */
  void *aside;  /* NULL: current; else the boundary that set it aside */
} ws_seg;

typedef struct ws_view {
  ws_reducer *r;
  const ws_monoid *m;
  void *top;        /* the top segment's storage, while it is current */
  ws_slot *top_key; /* its key; WS_NO_KEY while the top is set aside */
  ws_seg *segs;     /* bottom first; one only for commutative monoids */
  unsigned n, cap;
  unsigned index;   /* in the context's list */
  int ordered;      /* not commutative: segments keep the serial order */
  int pinned;       /* segs[0] is r->var: the strand that registered r */
  /* Where the strand that registered r runs (pinned views): its tail then
   * (NULL: before the thread had a deque, i.e. its lowest tail) and the
   * depth of open boundaries.  Not segs[0].key, which split_view lowers. */
  ws_slot *reg_tail;
  unsigned reg_depth;
} ws_view;

struct ws_views {
  ws_view **list; /* every view */
  unsigned n, cap;
  ws_view **tab; /* by reducer address, linear probing; tabcap = 2^k */
  unsigned tabcap;
  ws_reducer *last_r;
  ws_view *last_v;
  unsigned depth; /* open boundaries (children run at a sync between
                     __ws_child_begin and __ws_child_end, joins): the
                     innermost's token is (void *)depth */
  int root;       /* the thread's own: not a stolen task's or a call's */
};

/* Never a tail: the fast path's compare fails while the top is aside. */
#define WS_NO_KEY ((ws_slot *)(uintptr_t)1)
/* Above every slot: every child is run between marks. */
#define WS_ALL_SLOTS ((ws_slot *)UINTPTR_MAX)

static int above(const ws_slot *a, const ws_slot *b) {
  return (uintptr_t)a > (uintptr_t)b;
}

static void *grow(void *p, unsigned *cap, size_t elem) {
  unsigned c = *cap ? *cap * 2 : 8;
  void *q = realloc(p, (size_t)c * elem);
  if (!q)
    ws_fatal("out of memory for reducer views");
  *cap = c;
  return q;
}

static void *new_identity(const ws_monoid *m) {
  size_t align = m->align > sizeof(void *) ? m->align : sizeof(void *);
  void *v = aligned_alloc(align, (m->size + align - 1) & ~(align - 1));
  if (!v)
    ws_fatal("out of memory for a reducer view of %zu bytes", m->size);
  UNCHECKED(m->identity(v));
  return v;
}

/* left := left (x) right; right is gone. */
static void reduce_into(const ws_monoid *m, void *left, void *right) {
  UNCHECKED(m->reduce(left, right));
  if (m->destroy)
    UNCHECKED(m->destroy(right));
  free(right);
}

/* Segments [from, n) reduced into segs[from], which stays. */
static void fold(ws_view *v, unsigned from) {
  for (unsigned k = from + 1; k < v->n; k++)
    reduce_into(v->m, v->segs[from].val, v->segs[k].val);
  v->n = from + 1;
}

static void push_seg(ws_view *v, ws_slot *key, void *val) {
  if (v->n == v->cap)
    v->segs = grow(v->segs, &v->cap, sizeof *v->segs);
  v->segs[v->n++] = (ws_seg){key, val, NULL};
}

static void set_top(ws_view *v) {
  ws_seg *t = &v->segs[v->n - 1];
  v->top = t->aside ? NULL : t->val;
  v->top_key = t->aside ? WS_NO_KEY : t->key;
}

/* The registering strand's tail, once the thread has a deque: a
 * registration made before had the lowest tail, where the thread's
 * spawning calls start. */
static ws_slot *registered_at(ws_view *v) {
  if (!v->reg_tail)
    v->reg_tail = ws_my_dq.base;
  return v->reg_tail;
}

/* What __ws_views_above compares with, for one view: its top segment's key
 * (ordered: a child that begins below it must split), and for the
 * registering strand's view, just above its tail, so that the child run in
 * the slot it registered at (the first it spawned after) or below runs
 * between marks, which tell that child from the strand (its depth);
 * before the thread has a deque, above every slot. */
static ws_slot *view_max(ws_view *v) {
  ws_slot *max = v->ordered && v->top_key != WS_NO_KEY ? v->top_key : NULL;
  if (v->pinned) {
    ws_slot *t = registered_at(v);
    ws_slot *reg = t ? (ws_slot *)((char *)t + 1) : WS_ALL_SLOTS;
    if (above(reg, max))
      max = reg;
  }
  return max;
}

static void recompute_max(ws_views *c) {
  ws_slot *max = NULL;
  for (unsigned i = 0; i < c->n; i++) {
    ws_slot *m = view_max(c->list[i]);
    if (above(m, max))
      max = m;
  }
  ws_tls_views_max = max;
}

/* ---- contexts and lookup ---- */

static ws_views *views_here(void) {
  ws_views *c = ws_tls_views;
  if (!c) {
    c = calloc(1, sizeof *c);
    if (!c)
      ws_fatal("out of memory for reducer views");
    c->root = !ws_tls_entered;
    ws_tls_views = c;
  }
  return c;
}

static unsigned slot_of(const ws_views *c, const ws_reducer *r) {
  uint64_t h = (uint64_t)(uintptr_t)r * 0x9e3779b97f4a7c15ULL;
  return (unsigned)(h >> 32) & (c->tabcap - 1);
}

static ws_view *find(ws_views *c, ws_reducer *r) {
  if (c->last_r == r)
    return c->last_v;
  if (!c->tabcap)
    return NULL;
  for (unsigned i = slot_of(c, r);; i = (i + 1) & (c->tabcap - 1)) {
    ws_view *v = c->tab[i];
    if (!v)
      return NULL;
    if (v->r == r) {
      c->last_r = r;
      c->last_v = v;
      return v;
    }
  }
}

static void tab_put(ws_views *c, ws_view *v) {
  unsigned i = slot_of(c, v->r);
  while (c->tab[i])
    i = (i + 1) & (c->tabcap - 1);
  c->tab[i] = v;
}

static void insert(ws_views *c, ws_view *v) {
  if (2 * (c->n + 1) > c->tabcap) {
    unsigned old = c->tabcap;
    ws_view **otab = c->tab;
    c->tabcap = old ? old * 2 : 16;
    c->tab = calloc(c->tabcap, sizeof *c->tab);
    if (!c->tab)
      ws_fatal("out of memory for reducer views");
    for (unsigned i = 0; i < old; i++)
      if (otab[i])
        tab_put(c, otab[i]);
    free(otab);
  }
  tab_put(c, v);
  if (c->n == c->cap)
    c->list = grow(c->list, &c->cap, sizeof *c->list);
  v->index = c->n;
  c->list[c->n++] = v;
}

/* Linear probing's deletion: shift the entries of the run back. */
static void remove_view(ws_views *c, ws_view *v) {
  unsigned i = slot_of(c, v->r);
  while (c->tab[i] != v)
    i = (i + 1) & (c->tabcap - 1);
  c->tab[i] = NULL;
  for (unsigned j = (i + 1) & (c->tabcap - 1); c->tab[j];
       j = (j + 1) & (c->tabcap - 1)) {
    ws_view *e = c->tab[j];
    c->tab[j] = NULL;
    tab_put(c, e);
  }
  c->list[v->index] = c->list[--c->n];
  c->list[v->index]->index = v->index;
  if (c->last_v == v) {
    c->last_r = NULL;
    c->last_v = NULL;
  }
}

/* Before a view of a reducer that this context did not register: a
 * thread's own context holds only its registrations.  Another thread's
 * reducer has no serial order with this thread's strands, and nothing
 * would ever reduce the view into its variable. */
static void refuse_foreign(const ws_views *c) {
  if (c->root)
    ws_fatal("ws_reducer_view: this thread did not register this reducer "
             "(another thread did, or none), and updated it or called "
             "spawning code that did; a reducer is updated only by the "
             "thread that registered it, its tasks and its calls of "
             "spawning code (register one per thread and combine them)");
}

/* pinned: the registration, at tail `key`. */
static ws_view *new_view(ws_views *c, ws_reducer *r, ws_slot *key, void *val,
                         int pinned) {
  ws_view *v = calloc(1, sizeof *v);
  if (!v)
    ws_fatal("out of memory for reducer views");
  v->r = r;
  v->m = r->monoid;
  v->ordered = ALL_ORDERED || !r->monoid->commutative;
  v->pinned = pinned;
  v->reg_tail = pinned ? key : NULL;
  v->reg_depth = c->depth;
  push_seg(v, key, val);
  set_top(v);
  insert(c, v);
  ws_slot *max = view_max(v);
  if (above(max, ws_tls_views_max))
    ws_tls_views_max = max;
  return v;
}

static void free_view(ws_view *v) {
  free(v->segs);
  free(v);
}

static ws_slot *current_tail(void) {
  return atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
}

/* ---- the user API ---- */

static const char leaked[] =
    "ws_reducer_register: a task returned without unregistering the reducer "
    "it registered";

/* At exit with status 0, the thread's own context should hold no
 * registration: a task that registered a reducer and returned without
 * unregistering it on its parent's thread, between no marks, is found
 * here.  Installed at the first registration, before the destructor of a
 * C++ object that registers one is, so it runs after that destructor. */
static void check_at_exit(int status, void *arg) {
  (void)arg;
  ws_views *c = ws_tls_views;
  if (status || !c || !c->root || ws_rt.forked)
    return;
  for (unsigned i = 0; i < c->n; i++)
    if (c->list[i]->pinned) {
      fflush(NULL);
      ws_fatal("%s, or the program exits with a reducer registered "
               "(unregister each where it was registered, before that "
               "strand returns)",
               leaked);
    }
}

static void install_exit_check(void) {
  if (on_exit(check_at_exit, NULL))
    ws_fatal("cannot register the reducers' check at exit");
}

void ws_reducer_register(ws_reducer *r, const ws_monoid *m, void *var) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, install_exit_check);
  ws_views *c = views_here();
  ws_view *v = find(c, r);
  if (v && v->pinned)
    ws_fatal("ws_reducer_register: this reducer is registered already");
  if (v)
    ws_fatal("ws_reducer_register: this task updated a reducer at this "
             "address that it did not register: the reducer is registered "
             "by an enclosing strand, or was unregistered while its tasks "
             "ran (unregister after the ws_sync that waits for them)");
  r->monoid = m;
  r->var = var;
  v = new_view(c, r, current_tail(), var, 1);
  c->last_r = r;
  c->last_v = v;
}

/* The strand moved to tail `key` since the top segment began. */
static __attribute__((noinline)) void *strand_moved(ws_view *v, ws_slot *key) {
  if (v->top_key != WS_NO_KEY && above(v->top_key, key))
    ws_fatal("internal error: a reducer view is above the tail (a take the "
             "compiler did not mark?)");
  push_seg(v, key, new_identity(v->m));
  set_top(v);
  if (above(key, ws_tls_views_max))
    ws_tls_views_max = key;
  return v->top;
}

/* Everything but the last reducer's view, still current. */
static __attribute__((noinline)) void *view_slow(ws_reducer *r) {
  ws_views *c = views_here();
  ws_view *v = find(c, r);
  if (!v) {
    refuse_foreign(c);
    v = new_view(c, r, current_tail(), new_identity(r->monoid), 0);
    c->last_r = r;
    c->last_v = v;
  }
  if (!v->ordered)
    return v->top;
  ws_slot *key = current_tail();
  if (key == v->top_key)
    return v->top;
  return strand_moved(v, key);
}

void *ws_reducer_view(ws_reducer *r) {
  ws_views *c = ws_tls_views;
  if (ws_likely(c && c->last_r == r)) {
    ws_view *v = c->last_v;
    if (!v->ordered || ws_likely(current_tail() == v->top_key))
      return v->top;
  }
  return view_slow(r);
}

/* Every segment of the registering strand's view into the variable, in
 * that strand, with none of its spawns since the registration
 * outstanding.  A child that its thread runs at a sync runs in its
 * parent's context with its slot as the tail: one in a slot above the
 * registration's has a higher tail, one at or below it runs between marks
 * (view_max), at a greater depth.  Then no later strand is set aside. */
static ws_view *fold_registered(ws_reducer *r, const char *what) {
  ws_views *c = ws_tls_views;
  ws_view *v = c ? find(c, r) : NULL;
  if (!v || !v->pinned || c->depth != v->reg_depth)
    ws_fatal("%s: not the strand that registered this reducer (call it "
             "where ws_reducer_register was called, after the ws_sync)",
             what);
  if (above(current_tail(), registered_at(v)))
    ws_fatal("%s: spawns made since this reducer was registered are not "
             "synced (call it after the ws_sync that waits for them, in "
             "the strand that registered it)",
             what);
  fold(v, 0);
  set_top(v);
  return v;
}

void *ws_reducer_get(ws_reducer *r) {
  fold_registered(r, "ws_reducer_get");
  recompute_max(ws_tls_views);
  return r->var;
}

void ws_reducer_unregister(ws_reducer *r) {
  ws_view *v = fold_registered(r, "ws_reducer_unregister");
  remove_view(ws_tls_views, v);
  free_view(v);
  recompute_max(ws_tls_views);
}

/* ---- boundaries: a child run at the sync ---- */

/* The child at `slot` begins: the current segments above it (the
 * continuation, which follows the child in serial order) are set aside,
 * reduced into one, under `boundary`.  The registering strand's bottom
 * segment, the variable, never moves: it only takes the lower key. */
static void split_view(ws_view *v, void *boundary, ws_slot *slot) {
  unsigned first = v->n;
  while (first > 0 && !v->segs[first - 1].aside)
    first--;
  unsigned i = v->n;
  while (i > first && above(v->segs[i - 1].key, slot))
    i--;
  if (i == 0 && v->pinned) {
    v->segs[0].key = slot;
    i = 1;
  }
  if (i < v->n) {
    fold(v, i);
    v->segs[i].key = slot;
    v->segs[i].aside = boundary;
  }
  set_top(v);
}

/* Boundaries nest (a child's own children begin and end inside it), so
 * the depth names the open one: its token.  One opens even where no view
 * splits: the depth tells the child from the strand that registered a
 * reducer (fold_registered). */
void *__ws_child_begin(ws_slot *slot) {
#ifdef WS_RACE
  ws_race_child_begin(slot);
#endif
  ws_views *c = ws_tls_views;
  if (!c) {
    ws_tls_views_max = NULL;
    return NULL;
  }
  void *boundary = (void *)(uintptr_t)++c->depth;
  for (unsigned i = 0; i < c->n; i++)
    if (c->list[i]->ordered)
      split_view(c->list[i], boundary, slot);
  recompute_max(c);
  return boundary;
}

/* The child is done: its segments, then the continuation set aside at
 * `boundary`, reduce into one at the child's slot. */
static void merge_view(ws_view *v, void *boundary) {
  unsigned j = v->n;
  while (j > 0 && !v->segs[j - 1].aside)
    j--;
  if (j == 0 || v->segs[j - 1].aside != boundary)
    return;
  j--;
  ws_slot *slot = v->segs[j].key;
  void *later = v->segs[j].val, *val = later;
  if (v->n > j + 1) {
    fold(v, j + 1);
    val = v->segs[j + 1].val;
    reduce_into(v->m, val, later);
  }
  v->n = j;
  ws_seg *below = j > 0 ? &v->segs[j - 1] : NULL;
  if (below && !below->aside && below->key == slot)
    reduce_into(v->m, below->val, val);
  else
    push_seg(v, slot, val);
  set_top(v);
}

static void child_end(void *boundary);

void __ws_child_end(void *boundary) {
  child_end(boundary);
#ifdef WS_RACE
  ws_race_child_end();
#endif
}

static void child_end(void *boundary) {
  ws_views *c = ws_tls_views;
  if (!boundary)
    return;
  if ((uintptr_t)boundary != c->depth)
    ws_fatal("internal error: reducer boundaries end out of order");
  for (unsigned i = 0; i < c->n; i++) {
    ws_view *v = c->list[i];
    if (v->pinned && v->reg_depth >= c->depth)
      ws_fatal("%s (call ws_reducer_unregister before it returns)", leaked);
    if (v->ordered)
      merge_view(v, boundary);
  }
  c->depth--;
  recompute_max(c);
}

/* ---- contexts that travel ---- */

void ws_views_enter(ws_views_saved *s) {
  s->views = ws_tls_views;
  s->max = ws_tls_views_max;
  ws_tls_views = NULL;
  ws_tls_views_max = NULL;
  ws_tls_entered++;
}

static void free_context(ws_views *c) {
  free(c->list);
  free(c->tab);
  free(c);
}

ws_views *ws_views_leave(ws_views_saved *s) {
  ws_views *c = ws_tls_views;
  ws_tls_views = s->views;
  ws_tls_views_max = s->max;
  ws_tls_entered--;
  if (c && !c->n) {
    free_context(c);
    c = NULL;
  }
  if (!c)
    return NULL;
  for (unsigned i = 0; i < c->n; i++) {
    ws_view *v = c->list[i];
    if (v->pinned)
      ws_fatal("%s (call ws_reducer_unregister before it returns)", leaked);
    fold(v, 0);
  }
  return c;
}

/* One view a child left, at its slot: after the owner's segments at or
 * below the slot (the continuation above it is aside, if there was any). */
static void absorb(ws_views *c, ws_view *d, ws_slot *slot) {
  void *val = d->segs[0].val;
  ws_view *v = find(c, d->r);
  if (!v) {
    refuse_foreign(c);
    new_view(c, d->r, slot, val, 0);
  } else if (!v->ordered) {
    reduce_into(v->m, v->top, val);
  } else {
    if (v->top_key == slot)
      reduce_into(v->m, v->top, val);
    else
      push_seg(v, slot, val);
    set_top(v);
  }
  free_view(d);
}

void ws_views_join(ws_slot *slot, ws_views *left) {
  void *boundary = above(ws_tls_views_max, slot) ? __ws_child_begin(slot) : NULL;
  if (left) {
    ws_views *c = views_here();
    for (unsigned i = 0; i < left->n; i++)
      absorb(c, left->list[i], slot);
    free_context(left);
  }
  if (boundary)
    __ws_child_end(boundary);
  else if (ws_tls_views)
    recompute_max(ws_tls_views);
}
