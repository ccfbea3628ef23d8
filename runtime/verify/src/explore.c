/*
 * explore.c — breadth-first search over every reachable state, each stored
 * once (exact, in a compact encoding), with a parent pointer so that a
 * violation comes back as a shortest interleaving.
 *
 * The moves out of a state: for each thread, its next program step, the
 * drain of its oldest buffered store, and (with B) the write of B to memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify.h"

#define MOVE_STEP VF_MOVE_STEP
#define MOVE_DRAIN VF_MOVE_DRAIN
#define MOVE_FLUSH_B VF_MOVE_FLUSH_B
#define MOVE VF_MOVE

/* ---- compact encoding: only the live threads and buffer entries ---- */

enum { NREGS = 16 };
enum { MAX_CODE = A_NADDR + VF_MAX_THREADS * (NREGS + 3 * (VF_MAX_S + 1)) + VF_MAX_TASKS + 3 };

static void put_store(uint8_t **p, const vf_store *e) {
  *(*p)++ = e->addr;
  *(*p)++ = (uint8_t)e->val;
  *(*p)++ = e->publishes;
}

static void get_store(const uint8_t **p, vf_store *e) {
  e->addr = *(*p)++;
  e->val = (int8_t) * (*p)++;
  e->publishes = *(*p)++;
}

static int encode(const vf_config *cfg, const vf_state *s, uint8_t *out) {
  uint8_t *p = out;
  memcpy(p, s->mem, A_NADDR);
  p += A_NADDR;
  for (int i = 0; i < vf_nthreads(cfg); i++) {
    const vf_thread *th = &s->th[i];
    const uint8_t regs[NREGS] = {
        th->op,           th->phase,        th->pc,           th->nsb,
        (uint8_t)th->t,   (uint8_t)th->h,   (uint8_t)th->s,   (uint8_t)th->H,
        (uint8_t)th->task, (uint8_t)th->ret, (uint8_t)th->new_s, (uint8_t)th->j,
        (uint8_t)th->o_split, (uint8_t)th->o_head, th->caller, th->saw_empty};
    memcpy(p, regs, sizeof regs);
    p += sizeof regs;
    for (int j = 0; j < th->nsb; j++)
      put_store(&p, &th->sb[j]);
    put_store(&p, &th->b);
  }
  memcpy(p, s->removed_by, (size_t)cfg->tasks);
  p += cfg->tasks;
  *p++ = s->pushed;
  *p++ = s->visible;
  *p++ = s->announced;
  return (int)(p - out);
}

static void decode(const vf_config *cfg, const uint8_t *p, vf_state *s) {
  vf_initial_state(cfg, s);
  memcpy(s->mem, p, A_NADDR);
  p += A_NADDR;
  for (int i = 0; i < vf_nthreads(cfg); i++) {
    vf_thread *th = &s->th[i];
    th->op = *p++;
    th->phase = *p++;
    th->pc = *p++;
    th->nsb = *p++;
    th->t = (int8_t)*p++;
    th->h = (int8_t)*p++;
    th->s = (int8_t)*p++;
    th->H = (int8_t)*p++;
    th->task = (int8_t)*p++;
    th->ret = (int8_t)*p++;
    th->new_s = (int8_t)*p++;
    th->j = (int8_t)*p++;
    th->o_split = (int8_t)*p++;
    th->o_head = (int8_t)*p++;
    th->caller = *p++;
    th->saw_empty = *p++;
    for (int j = 0; j < th->nsb; j++)
      get_store(&p, &th->sb[j]);
    get_store(&p, &th->b);
  }
  memcpy(s->removed_by, p, (size_t)cfg->tasks);
  p += cfg->tasks;
  s->pushed = *p++;
  s->visible = *p++;
  s->announced = *p++;
}

/* ---- the set of states: records in an arena, found by an open hash ---- */

typedef struct record {
  uint32_t parent;
  uint8_t move, len;
  uint8_t code[];
} record;

typedef struct store {
  uint8_t *arena;
  size_t used, cap;
  uint64_t *at; /* state number -> offset in the arena */
  size_t n, at_cap;
  /* high 32 bits: of the state's hash; low 32 bits: state number + 1
   * (0: empty slot) */
  uint64_t *table;
  size_t mask;
} store;

static void out_of_memory(void) {
  fprintf(stderr, "ws-verify: out of memory after the states found so far; "
                  "choose a smaller configuration\n");
  exit(2);
}

static void *grow(void *p, size_t bytes) {
  void *q = realloc(p, bytes);
  if (!q)
    out_of_memory();
  return q;
}

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdu;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53u;
  return h ^ (h >> 33);
}

static uint64_t hash(const uint8_t *p, int n) {
  uint64_t h = 0x9e3779b97f4a7c15u * (uint64_t)(n + 1);
  for (int i = 0; i < n; i += 8) {
    uint64_t w = 0;
    memcpy(&w, p + i, (size_t)(n - i < 8 ? n - i : 8));
    h = mix(h ^ w) + 0x9e3779b97f4a7c15u;
  }
  return mix(h);
}

static const record *rec(const store *st, size_t i) {
  return (const record *)(st->arena + st->at[i]);
}

static uint64_t slot(uint64_t h, size_t i) {
  return (h & 0xffffffff00000000u) | (uint64_t)(i + 1);
}

static void rehash(store *st) {
  size_t size = st->mask ? 2 * (st->mask + 1) : 1u << 16;
  free(st->table);
  st->table = calloc(size, sizeof *st->table);
  if (!st->table)
    out_of_memory();
  st->mask = size - 1;
  for (size_t i = 0; i < st->n; i++) {
    const record *r = rec(st, i);
    uint64_t h = hash(r->code, r->len);
    size_t k = h & st->mask;
    while (st->table[k])
      k = (k + 1) & st->mask;
    st->table[k] = slot(h, i);
  }
}

/* Adds the state if new; returns its number, or -1 if it was known. */
static long insert(store *st, const uint8_t *code, int len, uint32_t parent,
                   uint8_t move) {
  if (2 * (st->n + 1) > st->mask + 1)
    rehash(st);
  uint64_t h = hash(code, len);
  size_t k = h & st->mask;
  for (; st->table[k]; k = (k + 1) & st->mask) {
    if ((st->table[k] ^ h) >> 32)
      continue;
    const record *r = rec(st, (uint32_t)st->table[k] - 1);
    if (r->len == len && !memcmp(r->code, code, (size_t)len))
      return -1;
  }
  size_t need = sizeof(record) + (size_t)len;
  need = (need + 7) & ~(size_t)7;
  if (st->used + need > st->cap) {
    st->cap = st->cap ? 2 * st->cap : 1u << 20;
    st->arena = grow(st->arena, st->cap);
  }
  if (st->n == st->at_cap) {
    st->at_cap = st->at_cap ? 2 * st->at_cap : 1u << 16;
    st->at = grow(st->at, st->at_cap * sizeof *st->at);
  }
  record *r = (record *)(st->arena + st->used);
  r->parent = parent;
  r->move = move;
  r->len = (uint8_t)len;
  memcpy(r->code, code, (size_t)len);
  st->at[st->n] = st->used;
  st->used += need;
  st->table[k] = slot(h, st->n);
  return (long)st->n++;
}

/* ---- the search ---- */

static int buffers_empty(const vf_config *cfg, const vf_state *s) {
  for (int i = 0; i < vf_nthreads(cfg); i++)
    if (!vf_drained(&s->th[i]))
      return 0;
  return 1;
}

static void report(const vf_config *cfg, const store *st, size_t from,
                   int last_move, const char *why) {
  int n = 0;
  for (size_t i = from; i; i = rec(st, i)->parent)
    n++;
  n += last_move >= 0;
  uint8_t *moves = grow(NULL, (size_t)n + 1);
  int k = n;
  if (last_move >= 0)
    moves[--k] = (uint8_t)last_move;
  for (size_t i = from; i; i = rec(st, i)->parent)
    moves[--k] = rec(st, i)->move;
  if (!cfg->quiet)
    vf_print_trace(cfg, moves, n, why);
  else
    printf("violation: %s\n", why);
  free(moves);
}

/* Names each thread and where it waits, e.g. "thief1 waits at Fig.5 l.114". */
static void describe_stuck(const vf_config *cfg, const vf_state *s, char *why) {
  int n = snprintf(why, VF_WHY, "no thread can ever move again, no store is "
                                "buffered:");
  for (int tid = 0; tid < vf_nthreads(cfg) && n < VF_WHY; tid++) {
    const vf_thread *th = &s->th[tid];
    char name[16];
    snprintf(name, sizeof name, tid ? "thief%d" : "worker", tid);
    if (th->phase == PH_FINISHED)
      n += snprintf(why + n, (size_t)(VF_WHY - n), " %s finished;", name);
    else
      n += snprintf(why + n, (size_t)(VF_WHY - n), " %s waits at %s;", name,
                    vf_next_step_info(cfg, th, tid)->fig);
  }
}

vf_result vf_explore(const vf_config *cfg) {
  vf_result res = {0};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  store st = {0};
  uint8_t code[MAX_CODE];
  char why[VF_WHY];
  vf_state s, next;
  vf_initial_state(cfg, &s);
  vf_saw_steal = 0;
  insert(&st, code, encode(cfg, &s, code), 0, 0);
  int nth = vf_nthreads(cfg);

  for (size_t i = 0; i < st.n && !res.violation; i++) {
    if ((long)st.n > cfg->max_states) {
      res.limit_hit = 1;
      break;
    }
    decode(cfg, rec(&st, i)->code, &s);
    int stuck = !vf_all_finished(cfg, &s) && buffers_empty(cfg, &s);
    for (int tid = 0; tid < nth && !res.violation; tid++) {
      int last = cfg->weak ? VF_MOVE_DRAIN_AT(s.th[tid].nsb - 1) : MOVE_FLUSH_B;
      for (int kind = MOVE_STEP; kind <= last; kind++) {
        next = s;
        vf_thread *th = &next.th[tid];
        if (kind == MOVE_STEP) {
          vf_ctx c = {cfg, &next, tid, th, NULL, why, 0};
          int rc = vf_thread_step(&c);
          if (rc == STEP_BLOCKED)
            continue;
          if (rc == STEP_VIOLATION) {
            report(cfg, &st, i, MOVE(tid, kind), why);
            res.violation = 1;
            break;
          }
          vf_ctx w = {cfg, &s, tid, &s.th[tid], NULL, why, 0};
          if (!cfg->v->waiting || !cfg->v->waiting(&w))
            stuck = 0;
        } else if (kind == MOVE_DRAIN) {
          if (!vf_can_drain_at(cfg, &next, tid, 0))
            continue;
          vf_drain(cfg, &next, tid, NULL);
        } else if (kind > MOVE_FLUSH_B) { /* --memory=weak: a younger entry */
          if (!vf_can_drain_at(cfg, &next, tid, kind - 2))
            continue;
          vf_drain_at(cfg, &next, tid, kind - 2, NULL);
        } else {
          if (th->b.addr == A_NONE)
            continue;
          vf_flush_b(&next, tid, NULL);
        }
        res.transitions++;
        vf_after_step(cfg, &next);
        long id = insert(&st, code, encode(cfg, &next, code), (uint32_t)i,
                         MOVE(tid, kind));
        if (id < 0 || !vf_all_finished(cfg, &next) || !buffers_empty(cfg, &next))
          continue;
        res.finals++;
        if (!vf_final_check(cfg, &next, why)) {
          report(cfg, &st, (size_t)id, -1, why);
          res.violation = 1;
          break;
        }
      }
    }
    if (stuck && !res.violation) {
      describe_stuck(cfg, &s, why);
      report(cfg, &st, i, -1, why);
      res.violation = 1;
    }
  }
  res.states = (long)st.n;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  res.seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  free(st.arena);
  free(st.at);
  free(st.table);
  return res;
}
