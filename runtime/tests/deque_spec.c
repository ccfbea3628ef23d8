/*
 * deque_spec.c — the sequential specification of each deque variant,
 * driven through the internal interface (src/deque.h) on standalone
 * workers.
 *
 *   deque_spec VARIANT                 the specification (exit 0 or 1)
 *   deque_spec VARIANT overflow        a push past capacity: must stop the
 *                                      program (status 2, WS_DEQUE_SIZE)
 *
 * The specification, with `count` the tasks in the deque and not stolen:
 *   take   of the owner's newest slot: it gets its task back (LIFO), or
 *          finds it stolen, and then joins it and the deque moves down to
 *          that slot: the next push reuses it.
 *   steal  the oldest task's slot (FIFO); WS_EMPTY when count is 0.
 *          Relaxed: a fence-free variant whose thieves trust delta
 *          without a validated S (ws/variants.def: fence_free, not
 *          validated_only; FF-THE and FF-CL) returns WS_ABORT when
 *          count <= delta and changes nothing (THEP's thief waits for the
 *          echo instead, FF-MB's forces a barrier on the owner); split returns WS_EMPTY when its shared part is
 *          used up (it asks the owner, whose next push or take shares
 *          more) and WS_ABORT when its CAS loses; private returns WS_ABORT
 *          when another thief's request is pending.
 * A task here is its id in its slot's payload; a thief "runs" a stolen
 * task at once (the sequential steps have no second worker to wait for).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "deque_harness.h"
#include "tailhead.h"

static const ws_deque_ops *ops;
static ws_worker *owner, *thief, *thief2;
static ws_slot *tail; /* the owner's tail, as compiled code keeps it */
static long next_id = 1;
static unsigned checks;

static int is(const char *name) { return strcmp(ops->name, name) == 0; }
static int fence_free_abort(void) {
  return ops->fence_free && !ops->validated_only;
}
static long id_of(const ws_slot *t) { return *(const long *)t->payload; }

/* A fresh owner and two thieves, with ids 0, 1, 2 in ws_rt.workers. */
static ws_worker *crew[3];
static void fresh(size_t capacity, int64_t delta) {
  for (int i = 0; i < 3; i++) {
    if (crew[i])
      dh_free_worker(crew[i]);
    crew[i] = dh_new_worker(ops, i, capacity);
  }
  owner = crew[0], thief = crew[1], thief2 = crew[2];
  tail = owner->dq->base;
  dh_install(ops, crew, 3, delta);
}

/* Spawn: a new task into the owner's tail slot. */
static long put(void) {
  long id = next_id++;
  tail->run = NULL;
  *(long *)tail->payload = id;
  dh_push(ops, owner, tail);
  tail++;
  return id;
}

static void never_waits(ws_worker *w, ws_slot *t) {
  (void)w;
  dh_fail(__FILE__, __LINE__, "%s: join waits for task %ld, which no thief has",
          ops->name, id_of(t));
}

/* Sync on the newest spawn: its id when the owner has it back, -id when a
 * thief took it (then joined). */
static long take(void) {
  ws_slot *t = --tail;
  long id = id_of(t);
  if (!dh_take(ops, owner, t))
    return id;
  dh_join(ops, owner, t, never_waits);
  return -id;
}

static void expect_take(long got, long want, const char *what) {
  DH_CHECK(got == want, "%s: %s gave task %ld%s, expected task %ld%s",
           ops->name, what, got < 0 ? -got : got, got < 0 ? " (stolen)" : "",
           want < 0 ? -want : want, want < 0 ? " (stolen)" : "");
  checks++;
}

/* A steal: the id it got, or 0 (EMPTY), or -1 (ABORT). */
static long outcome(ws_slot *r, ws_worker *by) {
  if (r == WS_EMPTY)
    return 0;
  if (r == WS_ABORT)
    return -1;
  dh_mark_running(r, by);
  dh_mark_done(r, by);
  return id_of(r);
}

static long steal(void) { return outcome(dh_steal(ops, owner, thief), thief); }

static void expect_steal(long got, long want) {
  DH_CHECK(got == want, "%s: steal gave %ld, expected %ld (0: EMPTY, -1: ABORT)",
           ops->name, got, want);
  checks++;
}

static void empty_deque(void) {
  fresh(16, 0);
  expect_steal(steal(), 0);
  long a = put();
  expect_take(take(), a, "take");
  expect_steal(steal(), 0);
}

/* put 0..n-1, take n-1..0: LIFO. */
static void lifo_take(void) {
  fresh(16, 0);
  long t[12];
  for (int i = 0; i < 12; i++)
    t[i] = put();
  for (int i = 11; i >= 0; i--)
    expect_take(take(), t[i], "take");
  expect_steal(steal(), 0);
}

/* Steals from the bottom, takes from the top, until they meet; then the
 * owner's takes find the rest stolen, and the deque is back at its first
 * slot.  Split shares one task at first; its thief's EMPTY asks for more,
 * which the owner's next take hands out. */
static void fifo_steal(void) {
  fresh(16, 0);
  long t[12];
  for (int i = 0; i < 12; i++)
    t[i] = put();
  int lo = 0, hi = 12;
  while (lo < hi) {
    long r = steal();
    if (is("split") && r == 0) {
      expect_take(take(), t[--hi], "take");
      continue;
    }
    expect_steal(r, t[lo++]);
  }
  expect_steal(steal(), 0);
  while (lo > 0)
    expect_take(take(), -t[--lo], "take of a stolen task");
  DH_CHECK(tail == owner->dq->base, "%s: the deque did not come back down",
           ops->name);
  long a = put();
  expect_take(take(), a, "take after the joins");
}

/* The owner finds the task it spawned last stolen; the slot is reused. */
static void take_after_steal(void) {
  fresh(16, 0);
  long a = put();
  expect_steal(steal(), a);
  expect_take(take(), -a, "take");
  expect_steal(steal(), 0);
  long b = put();
  expect_take(take(), b, "take after the stolen join");

  /* a b c; a stolen: the owner gets c, b, then finds a stolen.  A split
   * deque that is not all stolen keeps new tasks private: its thief asks,
   * and the owner's take of c shares a. */
  long t[3];
  for (int i = 0; i < 3; i++)
    t[i] = put();
  if (is("split")) {
    expect_steal(steal(), 0);
    expect_take(take(), t[2], "take");
    expect_steal(steal(), t[0]);
  } else {
    expect_steal(steal(), t[0]);
    expect_take(take(), t[2], "take");
  }
  expect_take(take(), t[1], "take");
  expect_take(take(), -t[0], "take");
  expect_steal(steal(), 0);
}

/* FF-THE / FF-CL with delta 3: a thief steals only while count > delta;
 * an ABORT changes nothing. */
static void fence_free_window(void) {
  fresh(16, 3);
  long t[6];
  for (int i = 0; i < 6; i++)
    t[i] = put();
  expect_steal(steal(), t[0]);
  expect_steal(steal(), t[1]);
  expect_steal(steal(), t[2]);
  expect_steal(steal(), -1);
  expect_steal(steal(), -1);
  for (int i = 5; i >= 3; i--)
    expect_take(take(), t[i], "take after ABORT");
  for (int i = 2; i >= 0; i--)
    expect_take(take(), -t[i], "take");
  expect_steal(steal(), 0);
}

/* THEP never aborts: with count <= delta the thief holds the lock and
 * waits until the worker's take echoes it (paper 000 §5, Fig. 5). */
typedef struct thread_steal {
  ws_slot *result;
  _Atomic int done;
} thread_steal;

static void *steal_thread(void *arg) {
  thread_steal *c = arg;
  c->result = ops->steal(owner->dq, thief);
  atomic_store(&c->done, 1);
  return NULL;
}

static void thep_echo(int n) {
  fresh(16, 8);
  long t[8];
  for (int i = 0; i < n; i++)
    t[i] = put();
  thread_steal c = {NULL, 0};
  pthread_t th;
  DH_CHECK(pthread_create(&th, NULL, steal_thread, &c) == 0, "pthread_create");
  /* Wait until the thief has raised H to <s+1, h+1>: it now waits. */
  while ((atomic_load(&owner->dq->H) >> 32) != 1)
    sched_yield();
  DH_CHECK(!atomic_load(&c.done), "thep: the thief did not wait for the echo");
  ws_slot *t_last = tail - 1;
  int stolen = dh_take(ops, owner, t_last);
  pthread_join(th, NULL);
  if (n == 1) { /* the worker wins the last task */
    expect_take(stolen ? -id_of(t_last) : id_of(t_last), t[0],
                "take racing a waiting thief for the last task");
    expect_steal(outcome(c.result, thief), 0);
  } else {
    expect_take(stolen ? -id_of(t_last) : id_of(t_last), t[n - 1],
                "take (echoing the waiting thief)");
    expect_steal(outcome(c.result, thief), t[0]);
    tail--;
    for (int i = n - 2; i >= 1; i--)
      expect_take(take(), t[i], "take");
    expect_take(take(), -t[0], "take");
  }
  DH_CHECK(thief->c.echo_waits == 1, "thep: echo_waits=%llu, expected 1",
           (unsigned long long)thief->c.echo_waits);
}

/* A private deque takes one request at a time; a second thief aborts. */
static void private_requests(void) {
  fresh(16, 0);
  long t[3];
  for (int i = 0; i < 3; i++)
    t[i] = put();
  /* A thief takes its request back when no answer comes within its
   * patience (deque_private.c): on a loaded machine this thread may not
   * run for that long, and then the request is tried again (the deque is
   * as it was: nothing was answered).  Only a thief that gave up may
   * return ABORT; a hundred in a row is a failure. */
  thread_steal c;
  for (int attempt = 0;; attempt++) {
    DH_CHECK(attempt < 100, "private: the thief gave up %d times in a row", attempt);
    c = (thread_steal){NULL, 0};
    pthread_t th;
    DH_CHECK(pthread_create(&th, NULL, steal_thread, &c) == 0, "pthread_create");
    while (atomic_load(&owner->dq->request) != thief->id && !atomic_load(&c.done))
      sched_yield();
    if (!atomic_load(&c.done)) {
      /* A second thief while the request is pending aborts (or, where
       * the first gave up meanwhile, waits out its own patience). */
      expect_steal(outcome(ops->steal(owner->dq, thief2), thief2), -1);
      while (!atomic_load(&c.done)) {
        ops->idle(owner->dq); /* the owner answers at its next poll */
        sched_yield();
      }
    }
    pthread_join(th, NULL);
    if (c.result != WS_ABORT)
      break;
  }
  expect_steal(outcome(c.result, thief), t[0]);
  expect_take(take(), t[2], "take");
  expect_take(take(), t[1], "take");
  expect_take(take(), -t[0], "take");
  ops->quiesce(owner->dq); /* a stopped worker takes no more requests */
  put();
  expect_steal(outcome(ops->steal(owner->dq, thief), thief), 0);
}

/* Random push/take/steal against a model of the owner's spawn stack:
 * stack[0..stolen) were stolen, stack[stolen..len) are in the deque. */
static void random_ops(int64_t delta, unsigned steps) {
  enum { CAP = 64 };
  fresh(CAP, delta);
  long stack[CAP];
  int len = 0, stolen = 0;
  int split_asked = 0, split_owes = 0; /* a split thief asked for work */
  uint64_t rng = 0x2545f4914f6cdd1dULL + (uint64_t)delta;
  for (unsigned step = 0; step < steps; step++) {
    unsigned op = (unsigned)(dh_rand(&rng) % 100);
    int count = len - stolen;
    int owed = split_owes;
    split_owes = 0;
    if (op < 45 && len < CAP) {
      stack[len++] = put();
      split_owes = split_asked;
      split_asked = 0;
    } else if (op < 75 && len > 0) {
      long r = take();
      if (count > 0) {
        expect_take(r, stack[len - 1], "take");
        split_owes = split_asked && len - 1 > stolen; /* the take shares */
        split_asked = 0;
      } else {
        expect_take(r, -stack[len - 1], "take of a stolen task");
        stolen--;
      }
      len--;
    } else {
      long r = steal();
      /* A private deque's thief takes its request back when no answer
       * comes within its patience (deque_private.c): on a loaded machine
       * the owner's thread here may not run for that long.  The deque is
       * then as it was; the steal is tried again, and a hundred give-ups
       * in a row fail below. */
      for (int again = 0; r == -1 && is("private") && again < 100; again++)
        r = steal();
      if (count == 0) {
        expect_steal(r, 0);
        split_asked = 1;
      } else if (fence_free_abort() && count <= delta) {
        expect_steal(r, -1);
      } else if (is("split") && r == 0 && !owed) {
        split_asked = 1;
      } else {
        expect_steal(r, stack[stolen++]);
      }
    }
  }
  while (len > stolen) /* drain: the deque must agree with the model */
    expect_take(take(), stack[--len], "take");
  while (len > 0)
    expect_take(take(), -stack[--len], "take of a stolen task");
  expect_steal(steal(), 0);
}

static void spec(void) {
  empty_deque();
  lifo_take();
  fifo_steal();
  take_after_steal();
  /* A steal from a request-based deque (ops->idle) is a round trip
   * between two threads (deque_harness.c, dh_steal), which a loaded
   * machine stretches to a time slice or more: fewer steps there keep
   * the test within its timeout (200000 took over 60 s beside three busy
   * loops on 2 CPUs, 20000 up to 39 s). */
  unsigned steps = ops->idle ? 5000 : 200000;
  random_ops(0, steps);
  if (fence_free_abort()) {
    fence_free_window();
    random_ops(3, steps);
  }
  if (is("thep")) {
    thep_echo(1);
    thep_echo(2);
    thep_echo(5);
  }
  if (is("private"))
    private_requests();
  printf("deque_spec %s: %u checks passed\n", ops->name, checks);
}

/* Pushes one task more than the deque holds: the push faults in the guard
 * page and the runtime must stop the program with its message. */
static void overflow(void) {
  enum { CAP = 16 };
  fresh(CAP, 0);
  for (int i = 0; i <= CAP; i++)
    put();
  dh_fail(__FILE__, __LINE__, "%s: %d pushes into a deque of %d accepted",
          ops->name, CAP + 1, CAP);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: deque_spec VARIANT [overflow]\n");
    return 2;
  }
  ops = dh_variant(argv[1]);
  const char *mode = argc == 3 ? argv[2] : "spec";
  if (strcmp(mode, "spec") == 0)
    spec();
  else if (strcmp(mode, "overflow") == 0)
    overflow();
  else {
    fprintf(stderr, "deque_spec: unknown mode \"%s\"\n", mode);
    return 2;
  }
  for (int i = 0; i < 3; i++)
    dh_free_worker(crew[i]);
  dh_restore();
  return 0;
}
