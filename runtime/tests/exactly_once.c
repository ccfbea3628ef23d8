/*
 * exactly_once.c — every task runs exactly once under contention.
 *
 *   exactly_once VARIANT THREADS [TASKS [ROUNDS]]
 *
 * THREADS workers on standalone deques; the first half own tasks, all of
 * them steal.  An owner works like spawn/sync: it pushes a batch into its
 * slots, takes it back LIFO, runs what it gets back and joins what a take
 * reports stolen, which the thief runs in its slot.  Each run of a task is
 * counted by the id in its slot; at the end no id may be missing or counted
 * twice, and every stolen take must match one successful steal.
 *
 *   batch phase  TASKS tasks (default 10^6) in batches of 1 to 3*delta+2,
 *                so fence-free thieves (which steal only while more than
 *                delta tasks are queued) do steal
 *   race phase   ROUNDS rounds (default 2*10^5) of a queue holding a
 *                single task: each thief watches one owner and steals the
 *                moment the task is put, the owner takes it back after a
 *                random while, so take and steal collide
 *
 * delta is the runtime's own, ceil(S/2) with S from WS_STORE_BUFFER or the
 * default: the sound value for this loop, whose takes each make at least
 * one other store (paper 000 §4).  The owner counts its runs with plain
 * stores, so nothing fences its take path behind the protocol's back.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deque_harness.h"

static const ws_deque_ops *ops;
static int nthreads, nowners;
static int64_t delta;
static int64_t batch_delta; /* sizes batches: delta, or 8 when unbounded */
static ws_worker **workers;
static uint32_t ntasks;
static uint32_t *runs_by_owner;         /* written by the task's owner only */
static _Atomic uint32_t *runs_by_thief; /* written by any thief */
static _Atomic int owners_left;
static _Atomic int inflight; /* thieves inside a steal or a stolen run */
static unsigned batch_max;
static int race; /* the single-task phase */
static struct {
  alignas(WS_CACHE_LINE) _Atomic uint32_t round; /* task put, 1 + its id */
  _Atomic int thief_ready; /* the owner's thief waits for the next round */
} *announce;
#define RACE_READY_SPINS 4096
#define RACE_MAX_DELAY 1024
static pthread_barrier_t start;

/* Busy work without stores: a task's body, and the continuation an owner
 * runs between its spawns and its sync, giving thieves time to act. */
static uint64_t work(uint64_t x, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  return x;
}
#define TASK_WORK 32
#define MAX_CONTINUATION_WORK 512
static _Atomic uint64_t work_sink; /* keeps the compiler from dropping it */

/* Whose steal may abort: a fence-free thief that trusts delta without a
 * validated S (ws/variants.def validated_only: not THEP's, which waits, nor
 * FF-MB's, which forces a barrier), split's whose CAS lost, private's whose
 * request is pending. */
static int may_abort(void) {
  return (ops->fence_free && !ops->validated_only) ||
         strcmp(ops->name, "split") == 0 || strcmp(ops->name, "private") == 0;
}

/* The id of the task in slot t. */
static uint32_t id_in(const ws_slot *t, const char *what) {
  uint32_t id = *(const uint32_t *)t->payload;
  DH_CHECK(id < ntasks, "%s: %s gave a slot holding %u, not a task of this test",
           ops->name, what, id);
  return id;
}

/* One steal attempt; runs what it gets, in its slot. */
static int steal_from(ws_worker *w, ws_worker *victim) {
  atomic_fetch_add(&inflight, 1);
  ws_slot *r = ops->steal(victim->dq, w);
  int got = ws_is_task(r);
  if (got) {
    dh_mark_running(r, w);
    uint32_t id = id_in(r, "steal");
    w->c.steals++;
    atomic_store_explicit(&work_sink, work(id + 1, TASK_WORK),
                          memory_order_relaxed);
    atomic_fetch_add_explicit(&runs_by_thief[id], 1, memory_order_relaxed);
    dh_mark_done(r, w);
  } else if (r == WS_ABORT) {
    DH_CHECK(may_abort(), "%s: steal returned ABORT", ops->name);
    w->c.aborts++;
  } else {
    DH_CHECK(r == WS_EMPTY, "%s: steal returned %p", ops->name, (void *)r);
  }
  atomic_fetch_sub(&inflight, 1);
  return got;
}

static int try_steal(ws_worker *w) {
  int v = (int)(dh_rand(&w->rng) % (uint64_t)(nthreads - 1));
  return steal_from(w, workers[v >= w->id ? v + 1 : v]);
}

/* Race phase, the thief's side.  Each owner has one thief (owner i, thief
 * nowners + i).  The thief says it is ready, spins until its owner has put
 * the round's task, and steals until the task is gone (a steal, or EMPTY;
 * ABORT means it is still there).  The owner waits briefly for the thief
 * to be ready, puts, and takes the task back after a random while, so that
 * take and steal collide whenever both threads are running. */
static void race_thief(ws_worker *w) {
  ws_worker *victim = workers[w->id - nowners];
  _Atomic uint32_t *round = &announce[victim->id].round;
  _Atomic int *ready = &announce[victim->id].thief_ready;
  uint32_t seen = 0, now;
  unsigned spins = 0;
  for (;;) {
    atomic_store_explicit(ready, 1, memory_order_relaxed);
    while ((now = atomic_load_explicit(round, memory_order_acquire)) == seen) {
      if (atomic_load(&owners_left) == 0)
        return;
      if (ops->idle)
        ops->idle(w->dq);
      if (++spins % 1024 == 0)
        sched_yield();
    }
    atomic_store_explicit(ready, 0, memory_order_relaxed);
    seen = now;
    while (atomic_load_explicit(round, memory_order_relaxed) == seen) {
      uint64_t aborts = w->c.aborts;
      if (steal_from(w, victim) || w->c.aborts == aborts)
        break;
    }
  }
}

/* The owner's side: wait a bounded while for the thief, which may not be
 * running (more threads than cores); the bound only shapes the schedule. */
static void race_owner_sync(ws_worker *w) {
  for (unsigned i = 0; i < RACE_READY_SPINS; i++)
    if (atomic_load_explicit(&announce[w->id].thief_ready, memory_order_relaxed))
      return;
}

/* What an owner does while a thief runs its stolen task: steal in turn.
 * When no thief is inside a steal or a run and the task is still not done,
 * nobody has it: the deque lost it. */
static void help(ws_worker *w, ws_slot *t) {
  if (ops->idle)
    ops->idle(w->dq);
  if (try_steal(w))
    return;
  if (atomic_load(&inflight) == 0 &&
      !(__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) & WS_TASK_DONE))
    dh_fail(__FILE__, __LINE__,
            "%s: take reported task %u stolen, but no thief has it",
            ops->name, *(uint32_t *)t->payload);
  sched_yield();
}

/* The owner's first batch in the batch phase holds more than delta tasks
 * and waits until a thief has stolen and run its oldest, so that every run
 * steals however the threads are scheduled.  While it waits it keeps
 * taking, as the protocols assume a worker does (a THEP thief may wait for
 * the echo of a take, a split thief for a take to share more, a private
 * thief for a take to answer it): it takes its newest task and puts it
 * back. */
static void await_first_steal(ws_worker *w, ws_slot *oldest, ws_slot *newest) {
  while (!(__atomic_load_n(&oldest->state, __ATOMIC_ACQUIRE) & WS_TASK_DONE)) {
    DH_CHECK(!dh_take(ops, w, newest), "%s: the take of task %u found it "
             "stolen, with more than delta tasks below", ops->name,
             *(uint32_t *)newest->payload);
    dh_push(ops, w, newest);
    if (ops->idle)
      ops->idle(w->dq);
    sched_yield();
  }
}

static void own(ws_worker *w, uint32_t first, uint32_t end, int guided) {
  uint32_t next = first;
  ws_slot *tail = w->dq->base;
  while (next < end) {
    uint32_t n = guided ? 2 * (uint32_t)batch_delta + 2
                        : 1 + (uint32_t)(dh_rand(&w->rng) % batch_max);
    if (n > end - next)
      n = end - next;
    if (race)
      race_owner_sync(w);
    ws_slot *base = tail;
    for (uint32_t k = 0; k < n; k++) {
      *(uint32_t *)tail->payload = next + k;
      dh_push(ops, w, tail++);
    }
    if (race)
      atomic_store_explicit(&announce[w->id].round, next + 1,
                            memory_order_release);
    if (guided && n > batch_delta)
      await_first_steal(w, base, tail - 1);
    guided = 0;
    uint64_t sink = work(w->rng, (unsigned)(w->rng % (race ? RACE_MAX_DELAY
                                                           : MAX_CONTINUATION_WORK)));
    for (uint32_t k = n; k-- > 0;) {
      ws_slot *t = --tail;
      uint32_t id = next + k;
      if (!dh_take(ops, w, t)) {
        DH_CHECK(id_in(t, "take") == id,
                 "%s: take gave task %u, expected %u (LIFO)", ops->name,
                 id_in(t, "take"), id);
        sink ^= work(id + 1, TASK_WORK);
        runs_by_owner[id]++;
      } else {
        w->c.stolen_syncs++;
        dh_join(ops, w, t, help);
      }
    }
    next += n;
    atomic_store_explicit(&work_sink, sink, memory_order_relaxed);
    if (!race)
      try_steal(w); /* owners are thieves too */
  }
}

static void *worker_main(void *arg) {
  ws_worker *w = arg;
  pthread_barrier_wait(&start); /* thieves are running before owners spawn */
  if (w->id < nowners) {
    uint32_t share = ntasks / (uint32_t)nowners;
    uint32_t first = (uint32_t)w->id * share;
    own(w, first, w->id == nowners - 1 ? ntasks : first + share, !race);
    atomic_fetch_sub(&owners_left, 1);
  }
  if (race && w->id >= nowners && w->id < 2 * nowners)
    race_thief(w);
  /* Once every owner has taken its deque empty, nothing is left to steal.
   * Spin a while between yields, to meet the owners' short windows. */
  unsigned fails = 0;
  while (atomic_load(&owners_left) > 0) {
    if (ops->idle)
      ops->idle(w->dq);
    if (!try_steal(w) && ++fails % 64 == 0)
      sched_yield();
  }
  if (ops->quiesce)
    ops->quiesce(w->dq); /* answer a last request; take no more */
  return NULL;
}

/* Runs one phase: the batch phase, or (race) the single-task rounds. */
static void phase(const char *name, uint32_t count, unsigned max_batch,
                  int single) {
  race = single;
  ntasks = count;
  batch_max = max_batch;
  size_t capacity = 16;
  while (capacity < (size_t)max_batch + 2)
    capacity <<= 1;
  for (uint32_t i = 0; i < count; i++) {
    runs_by_owner[i] = 0;
    atomic_init(&runs_by_thief[i], 0);
  }
  for (int i = 0; i < nthreads; i++) {
    workers[i] = dh_new_worker(ops, i, capacity);
    atomic_init(&announce[i].round, 0);
    atomic_init(&announce[i].thief_ready, 0);
  }
  dh_install(ops, workers, nthreads, delta);
  atomic_store(&owners_left, nowners);

  pthread_t *threads = calloc((size_t)nthreads, sizeof *threads);
  DH_CHECK(threads, "out of memory");
  pthread_barrier_init(&start, NULL, (unsigned)nthreads);
  for (int i = 0; i < nthreads; i++)
    DH_CHECK(pthread_create(&threads[i], NULL, worker_main, workers[i]) == 0,
             "cannot start thread %d", i);
  for (int i = 0; i < nthreads; i++)
    pthread_join(threads[i], NULL);
  pthread_barrier_destroy(&start);
  free(threads);

  uint64_t lost = 0, twice = 0, steals = 0, stolen_syncs = 0, aborts = 0,
           echo_waits = 0;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t n = runs_by_owner[i] + atomic_load(&runs_by_thief[i]);
    if (n != 1 && lost + twice < 5)
      fprintf(stderr, "%s: task %u ran %u times\n", ops->name, i, n);
    lost += n == 0;
    twice += n > 1;
  }
  for (int i = 0; i < nthreads; i++) {
    ws_counters *c = &workers[i]->c;
    steals += c->steals, stolen_syncs += c->stolen_syncs;
    aborts += c->aborts, echo_waits += c->echo_waits;
    dh_free_worker(workers[i]);
  }
  printf("exactly_once %s threads=%d %s: tasks=%u delta=%lld batch<=%u "
         "steals=%llu stolen_takes=%llu aborts=%llu echo_waits=%llu "
         "lost=%llu twice=%llu\n",
         ops->name, nthreads, name, count, (long long)delta, max_batch,
         (unsigned long long)steals, (unsigned long long)stolen_syncs,
         (unsigned long long)aborts, (unsigned long long)echo_waits,
         (unsigned long long)lost, (unsigned long long)twice);
  fflush(stdout);
  DH_CHECK(lost == 0 && twice == 0, "%s: %llu tasks lost, %llu run twice",
           ops->name, (unsigned long long)lost, (unsigned long long)twice);
  DH_CHECK(steals == stolen_syncs,
           "%s: %llu steals but %llu takes reported a task stolen", ops->name,
           (unsigned long long)steals, (unsigned long long)stolen_syncs);
  DH_CHECK(race || steals >= (uint64_t)nowners,
           "%s: %llu steals for %d owners, each owner's first batch is "
           "stolen from", ops->name, (unsigned long long)steals, nowners);
}

static long arg(const char *s, long lo, long hi, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "exactly_once: %s must be an integer from %ld to %ld\n",
            what, lo, hi);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 5) {
    fprintf(stderr, "usage: exactly_once VARIANT THREADS [TASKS [ROUNDS]]\n");
    return 2;
  }
  ops = dh_variant(argv[1]);
  nthreads = (int)arg(argv[2], 2, 64, "THREADS");
  uint32_t batch_tasks = argc > 3 ? (uint32_t)arg(argv[3], 1, 1L << 26, "TASKS")
                                  : 1000000;
  uint32_t rounds = argc > 4 ? (uint32_t)arg(argv[4], 1, 1L << 26, "ROUNDS")
                             : 200000;
  nowners = nthreads / 2;
  delta = dh_runtime_delta();
  /* FF-THE and FF-CL steal only with a finite delta; THEP and FF-MB steal
   * whatever it is (an echo, a barrier), and their batches need not pass
   * it. */
  if (delta > 4096 && (strcmp(ops->name, "ffthe") == 0 ||
                       strcmp(ops->name, "ffcl") == 0)) {
    fprintf(stderr, "exactly_once: delta=%lld: needs a finite S "
                    "(WS_STORE_BUFFER) so fence-free thieves can steal\n",
            (long long)delta);
    return 2;
  }
  batch_delta = delta > 4096 ? 8 : delta;
  uint32_t most = batch_tasks > rounds ? batch_tasks : rounds;
  workers = calloc((size_t)nthreads, sizeof *workers);
  runs_by_owner = calloc(most, sizeof *runs_by_owner);
  runs_by_thief = calloc(most, sizeof *runs_by_thief);
  announce = aligned_alloc(WS_CACHE_LINE, (size_t)nthreads * sizeof *announce);
  DH_CHECK(workers && runs_by_owner && runs_by_thief && announce,
           "out of memory");

  phase("batch", batch_tasks, 3 * (unsigned)batch_delta + 2, 0);
  phase("race", rounds, 1, 1);

  dh_restore();
  free(workers);
  free(runs_by_owner);
  free(runs_by_thief);
  free(announce);
  return 0;
}
