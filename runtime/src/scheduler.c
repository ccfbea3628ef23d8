/*
 * scheduler.c — what workers do when they are not running their own tasks:
 * steal at random, leapfrog at a sync whose task was stolen, back off to
 * sleep when there is nothing to do.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <unistd.h>

#include "idle.h"
#include "mainexit.h"
#include "views.h"
#include "worker.h"

/* Iterations an idle worker spins before it yields, then sleeps. */
#define WS_SPIN_ROUNDS 256
#define WS_YIELD_ROUNDS 1024
/* Failed attempts a worker makes after each nap before it naps again.  A
 * split or private deque shares work only when its owner answers a
 * request at its next push or take; a thief that woke, asked, and napped
 * again at once could miss every answer (jacobi on `split` ran on one
 * worker in half the runs). */
#define WS_WAKE_ROUNDS 64
#define WS_SLEEP_MIN_NS 20000L
#define WS_SLEEP_MAX_NS 1000000L
/* Entry wakes (idle.c): a worker asks for one once its naps reach this
 * long (it has been idle some 300 us), while it has credit.  A stolen task
 * that runs at least WS_WORTH_STEALING_NS gives it all back; one that runs
 * less costs WS_SMALL_STEAL_COST, a wake after which the worker found
 * nothing costs one.  A program whose serial code calls small spawning
 * functions (a tiny task each) stops waking the thief at once: a thief
 * kept awake there steals tasks smaller than what the steal and the
 * victim's wait at its sync cost (docs/results/wakeup.md). */
#define WS_ENTRY_WAKE_NAP_NS 160000L
#define WS_ENTRY_CREDIT 8
#define WS_SMALL_STEAL_COST 4
#define WS_WORTH_STEALING_NS 20000L

/* A victim among workers 0..n-1 (n >= 2, the count as the caller read
 * it once), never self; a worker at or beyond n (one that runs what it
 * stole before the count shrank) picks any of them. */
static ws_worker *random_victim(ws_worker *self, int n) {
  int v = (int)(ws_next_rand(self) % (uint64_t)(n - 1));
  return ws_rt.workers[v >= self->id ? v + 1 : v];
}

/* Run a task stolen from another worker, in its slot, with our own tail
 * for the spawns it makes, and reducer views of its own, which the DONE
 * store hands to the owner (views.h).  After that store the owner may
 * return and reuse the slot: do not touch it again.  A thunk whose task
 * threw has set WS_TASK_THREW meanwhile (__ws_task_threw): keep it. */
void ws_run_stolen(ws_worker *self, ws_slot *t) {
  __atomic_store_n(&t->state, (uintptr_t)self, __ATOMIC_RELEASE);
  ws_slot *tail = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  ws_views_saved saved;
  ws_views_enter(&saved);
  t->run(t, tail);
  /* Split and private deques' fast paths do not store the tail: the task
   * left the one it last published (before a call), above ours.  Every
   * task it spawned is joined, so ours is the tail again. */
  atomic_store_explicit(&ws_my_dq.T, tail, ws_relaxed);
  ws_views *left = ws_views_leave(&saved);
  uintptr_t threw = __atomic_load_n(&t->state, __ATOMIC_RELAXED) & WS_TASK_THREW;
  __atomic_store_n(&t->state, (uintptr_t)left | threw | WS_TASK_DONE,
                   __ATOMIC_RELEASE);
}

/* One steal attempt on `victim`; runs the task if there is one.  A worker
 * whose thread has not set up its deque yet (the main thread binds at its
 * first spawning call) has nothing to steal. */
static int try_steal(ws_worker *self, ws_worker *victim, int leap) {
  if (!atomic_load_explicit(&victim->ready, ws_acquire))
    return 0;
  ws_slot *r = ws_rt.ops->steal(victim->dq, self);
  if (ws_is_task(r)) {
    self->c.steals++;
    if (leap)
      self->c.leaps++;
    ws_wake_one(); /* where one steal succeeds, there may be more work */
    uint64_t start = ws_now_ns();
    atomic_fetch_add_explicit(&self->running, 1, ws_seq_cst);
    ws_run_stolen(self, r);
    atomic_fetch_sub_explicit(&self->running, 1, ws_release);
    if (ws_now_ns() - start >= WS_WORTH_STEALING_NS)
      self->entry_credit = WS_ENTRY_CREDIT;
    else if ((self->entry_credit -= WS_SMALL_STEAL_COST) < 0)
      self->entry_credit = 0;
    return 1;
  }
  if (r == WS_ABORT)
    self->c.aborts++;
  return 0;
}

static void back_off(unsigned rounds) {
  if (rounds < WS_SPIN_ROUNDS)
    ws_cpu_relax();
  else
    sched_yield();
}

/* The count no longer includes w (ws_set_num_workers): it closes its
 * deque to requests (private), says it is parked, and waits until the
 * count includes it again or the runtime stops.  Its deque stays in its
 * thread's TLS, empty: a thief that read the old count may still look.
 * Worker 1 keeps watching for the main thread's pthread_exit meanwhile
 * (mainexit.c wakes it). */
static void park(ws_worker *w) {
  if (ws_rt.ops->quiesce)
    ws_rt.ops->quiesce(w->dq);
  atomic_store_explicit(&w->parked, 1, ws_seq_cst);
  for (;;) {
    uint32_t seq = atomic_load_explicit(&ws_rt.park_seq, ws_seq_cst);
    if (atomic_load_explicit(&ws_rt.shutdown, ws_acquire) ||
        w->id < atomic_load_explicit(&ws_rt.nworkers, ws_seq_cst))
      break;
    ws_main_exit_poll(w);
    struct timespec poll = {0, WS_MAIN_EXIT_POLL_NS};
    ws_park_wait(seq, w->id == 1 && ws_main_exited() ? &poll : NULL);
  }
  atomic_store_explicit(&w->parked, 0, ws_seq_cst);
  if (!atomic_load_explicit(&ws_rt.shutdown, ws_acquire) && ws_rt.ops->reopen)
    ws_rt.ops->reopen(w->dq);
}

void ws_worker_loop(ws_worker *w) {
  const ws_deque_ops *ops = ws_rt.ops;
  unsigned fails = 0;
  long nap = WS_SLEEP_MIN_NS;
  int entry_woken = 0; /* since the last entry wake, nothing found */
  w->entry_credit = WS_ENTRY_CREDIT;
  while (!atomic_load_explicit(&ws_rt.shutdown, ws_acquire)) {
    if (ws_rt.forked)
      ws_fatal("fork: the child returned from a task that worker %d stole; "
               "what follows the task runs on a thread of the parent, which "
               "the child does not have: end the child (exit, _exit or exec) "
               "inside the task",
               w->id);
    int n = atomic_load_explicit(&ws_rt.nworkers, ws_acquire);
    if (w->id >= n) {
      park(w);
      fails = 0;
      nap = WS_SLEEP_MIN_NS;
      continue;
    }
    if (ops->idle)
      ops->idle(w->dq);
    if (ws_serve_submission(w) ||
        (n > 1 && try_steal(w, random_victim(w, n), 0))) {
      fails = 0;
      nap = WS_SLEEP_MIN_NS;
      entry_woken = 0;
      continue;
    }
    if (++fails < WS_SPIN_ROUNDS + WS_YIELD_ROUNDS) {
      back_off(fails);
    } else {
      ws_main_exit_poll(w);
      if (entry_woken && w->entry_credit > 0)
        w->entry_credit--; /* the last entry wake found nothing */
      int ask = nap >= WS_ENTRY_WAKE_NAP_NS && w->entry_credit > 0;
      entry_woken = ws_sleep_a_while(w, nap, ask) && ask;
      if (entry_woken) {
        /* Woken where work may have appeared: look a whole spin phase. */
        fails = 0;
        nap = WS_SLEEP_MIN_NS;
        continue;
      }
      if (nap < WS_SLEEP_MAX_NS)
        nap *= 2;
      fails = WS_SPIN_ROUNDS + WS_YIELD_ROUNDS - WS_WAKE_ROUNDS;
    }
  }
}

/* A sync found its task stolen: help until it is done.  Leapfrogging
 * (Wagner & Calder; paper 003 Fig. 1): steal from the thief, who is
 * working on our task's subtasks; when the thief has nothing, steal at
 * random (paper 003 §4.3).  Meanwhile our deque is empty just above the
 * stolen slot, so what we run pushes above it.  Then the slot is ours
 * again: clear its state, move the deque down to it, join the reducer
 * views the thief left, in serial order, and hand compiled code the task's
 * exception, if it threw. */
void *__ws_join(ws_slot *t) {
  ws_worker *w = ws_tls_self;
  const ws_deque_ops *ops = ws_rt.ops;
  unsigned fails = 0;
  /* The thread's errno, as the sync found it: the runtime's own calls
   * (sched_yield, a barrier) and the tasks this thread runs meanwhile,
   * which have nothing to do with this strand, leave it alone. */
  int saved_errno = errno;
  w->c.stolen_syncs++;
  /* What we run meanwhile spawns above the stolen slot (split and private
   * do not keep T up to date on their fast paths). */
  atomic_store_explicit(&w->dq->T, t + 1, ws_relaxed);
  uintptr_t st;
  for (;;) {
    st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
    if (st & WS_TASK_DONE)
      break;
    /* The thief's address, without the flags (a task that threw sets
     * WS_TASK_THREW before it is done). */
    ws_worker *thief = (ws_worker *)(st & ~(WS_TASK_DONE | WS_TASK_THREW));
    if (ws_rt.forked) {
      /* A forked child: no thief is here.  A task claimed before the fork
       * but not started (the thief stores its address first) has not run
       * in this process: run it.  One that was running is lost to us. */
      if (!thief) {
        ws_run_stolen(w, t);
        continue;
      }
      ws_fatal("fork: the child syncs with a task stolen before the fork by "
               "worker %d, a thread of the parent, which the child does not "
               "have; end the child (exit, _exit or exec) before it syncs "
               "with tasks spawned before the fork",
               thief->id);
    }
    if (ops->idle)
      ops->idle(w->dq);
    if (thief && try_steal(w, thief, 1)) {
      fails = 0;
      continue;
    }
    int n = atomic_load_explicit(&ws_rt.nworkers, ws_acquire);
    if (n > 2 && try_steal(w, random_victim(w, n), 0)) {
      fails = 0;
      continue;
    }
    back_off(++fails);
  }
  void *exception = st & WS_TASK_THREW ? *(void **)t->payload : NULL;
  t->state = 0;
  ops->reset(w->dq, t);
  ws_views *left = (ws_views *)(st & ~(WS_TASK_DONE | WS_TASK_THREW));
  if (left || (uintptr_t)t < (uintptr_t)ws_tls_views_max)
    ws_views_join(t, left);
  errno = saved_errno;
  return exception;
}
