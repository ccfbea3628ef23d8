/*
 * deque_spec.c — the sequential specification of each deque variant,
 * driven through the internal interface (src/deque.h) on standalone
 * workers.
 *
 *   deque_spec VARIANT                 the specification (exit 0 or 1)
 *   deque_spec VARIANT overflow        a put past capacity: must stop the
 *                                      program (status 2, WS_DEQUE_SIZE)
 *   deque_spec VARIANT overflow-race   a put into the slot a THE-style thief
 *                                      is still reading: must stop the
 *                                      program too, never overwrite it
 *
 * The specification, with `count` the tasks in the deque and not stolen:
 *   take   the most recent task (LIFO); when the owner's next task was
 *          stolen, WS_STOLEN of it.  The THE-family deques (the, cl, ffthe,
 *          ffcl, thep) tag the right outcome but not always the right
 *          pointer: a stolen take pulls T up to H, and CL's take of the
 *          last task raises H, so T-1 no longer indexes the owner's next
 *          task.  Compiled code tests the tag only.
 *   steal  the oldest task (FIFO); WS_EMPTY when count is 0.  Relaxed:
 *          ffthe/ffcl return WS_ABORT when count <= delta and change
 *          nothing; split returns WS_EMPTY when its shared part is used up
 *          (it asks the owner, whose next put or take shares more) and
 *          WS_ABORT when its CAS loses; private returns WS_ABORT when
 *          another thief's request is pending.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "deque_harness.h"
#include "tailhead.h"

#define POOL 4096 /* distinct task descriptors, reused round robin */

static ws_task pool[POOL];
static unsigned pool_next;
static const ws_deque_ops *ops;
static ws_worker *owner, *thief, *thief2;
static unsigned checks;

static ws_task *new_task(void) { return &pool[pool_next++ % POOL]; }
static long id_of(const ws_task *t) { return ws_untag(t) - pool; }

static int is(const char *name) { return strcmp(ops->name, name) == 0; }
static int fence_free_abort(void) { return is("ffthe") || is("ffcl"); }
static int the_family(void) { return !is("split") && !is("private"); }

/* A fresh owner and two thieves, with ids 0, 1, 2 in ws_rt.workers. */
static ws_worker *crew[3];
static void fresh(size_t capacity, int64_t delta) {
  for (int i = 0; i < 3; i++) {
    if (crew[i])
      dh_free_worker(ops, crew[i]);
    crew[i] = dh_new_worker(ops, i, capacity);
  }
  owner = crew[0], thief = crew[1], thief2 = crew[2];
  dh_install(ops, crew, 3, delta);
}

static void expect_task(ws_task *got, ws_task *want, const char *what) {
  DH_CHECK(got == want, "%s: %s returned %p (task %ld), expected task %ld",
           ops->name, what, (void *)got, ws_is_task(got) ? id_of(got) : -1L,
           id_of(want));
  checks++;
}

static void expect_stolen(ws_task *got, ws_task *want) {
  DH_CHECK(ws_is_stolen(got), "%s: take returned %p, expected WS_STOLEN",
           ops->name, (void *)got);
  if (want)
    DH_CHECK(ws_untag(got) == want,
             "%s: take returned WS_STOLEN(task %ld), expected WS_STOLEN(task %ld)",
             ops->name, id_of(got), id_of(want));
  checks++;
}

static void expect_steal(ws_task *got, ws_task *want) {
  DH_CHECK(got == want, "%s: steal returned %p (%s), expected %s", ops->name,
           (void *)got,
           got == WS_EMPTY ? "EMPTY" : got == WS_ABORT ? "ABORT" : "a task",
           want == WS_EMPTY ? "EMPTY" : want == WS_ABORT ? "ABORT" : "a task");
  checks++;
}

static ws_task *steal(void) { return dh_steal(ops, owner, thief); }

/* An empty deque: take gives a non-task and leaves the deque usable. */
static void empty_deque(void) {
  fresh(16, 0);
  expect_steal(steal(), WS_EMPTY);
  DH_CHECK(!ws_is_task(ops->take(owner)), "%s: take on an empty deque "
           "returned a task", ops->name);
  expect_steal(steal(), WS_EMPTY);
  ws_task *a = new_task();
  ops->put(owner, a);
  expect_task(ops->take(owner), a, "take");
  expect_steal(steal(), WS_EMPTY);
}

/* put 0..n-1, take n-1..0: LIFO with the exact descriptors. */
static void lifo_take(void) {
  fresh(16, 0);
  ws_task *t[12];
  for (int i = 0; i < 12; i++)
    ops->put(owner, t[i] = new_task());
  for (int i = 11; i >= 0; i--)
    expect_task(ops->take(owner), t[i], "take");
  expect_steal(steal(), WS_EMPTY);
}

/* Steals from the bottom, takes from the top, until they meet.  Split
 * shares one task at first; its thief's EMPTY asks for more, which the
 * owner's next take hands out. */
static void fifo_steal(void) {
  fresh(16, 0);
  ws_task *t[12];
  for (int i = 0; i < 12; i++)
    ops->put(owner, t[i] = new_task());
  int lo = 0, hi = 12;
  while (lo < hi) {
    ws_task *r = steal();
    if (is("split") && r == WS_EMPTY) {
      expect_task(ops->take(owner), t[--hi], "take");
      continue;
    }
    expect_task(r, t[lo++], "steal");
  }
  expect_steal(steal(), WS_EMPTY);
  expect_stolen(ops->take(owner), t[lo - 1]);
  dh_after_stolen_join(ops, owner);
}

/* The owner finds the task it spawned last stolen. */
static void take_after_steal(void) {
  fresh(16, 0);
  ws_task *a = new_task();
  ops->put(owner, a);
  expect_task(steal(), a, "steal");
  expect_stolen(ops->take(owner), a);
  dh_after_stolen_join(ops, owner);
  expect_steal(steal(), WS_EMPTY);
  ws_task *b = new_task();
  ops->put(owner, b);
  expect_task(ops->take(owner), b, "take after the stolen join");

  /* a b c; a stolen: the owner gets c, b, then finds a stolen.  A split
   * deque that is not all stolen keeps new tasks private: its thief asks,
   * and the owner's take of c shares a. */
  ws_task *t[3];
  for (int i = 0; i < 3; i++)
    ops->put(owner, t[i] = new_task());
  if (is("split")) {
    expect_steal(steal(), WS_EMPTY);
    expect_task(ops->take(owner), t[2], "take");
    expect_task(steal(), t[0], "steal");
  } else {
    expect_task(steal(), t[0], "steal");
    expect_task(ops->take(owner), t[2], "take");
  }
  expect_task(ops->take(owner), t[1], "take");
  /* CL's take of the last task raises H with T, so its stolen pointer is
   * that of the last task taken; only the tag is reliable. */
  expect_stolen(ops->take(owner), the_family() ? NULL : t[0]);
  dh_after_stolen_join(ops, owner);
  expect_steal(steal(), WS_EMPTY);
}

/* FF-THE / FF-CL with delta 3: a thief steals only while count > delta;
 * an ABORT changes nothing. */
static void fence_free_window(void) {
  fresh(16, 3);
  ws_task *t[6];
  for (int i = 0; i < 6; i++)
    ops->put(owner, t[i] = new_task());
  expect_task(steal(), t[0], "steal (count 6 > delta 3)");
  expect_task(steal(), t[1], "steal (count 5 > delta 3)");
  expect_task(steal(), t[2], "steal (count 4 > delta 3)");
  expect_steal(steal(), WS_ABORT);
  expect_steal(steal(), WS_ABORT);
  for (int i = 5; i >= 3; i--)
    expect_task(ops->take(owner), t[i], "take after ABORT");
  expect_stolen(ops->take(owner), NULL);
  expect_stolen(ops->take(owner), NULL);
  expect_stolen(ops->take(owner), NULL);
  expect_steal(steal(), WS_EMPTY);
}

/* THEP never aborts: with count <= delta the thief holds the lock and
 * waits until the worker's take echoes it (paper 000 §5, Fig. 5). */
typedef struct thep_steal_call {
  ws_task *result;
  _Atomic int done;
} thep_steal_call;

static void *thep_thief(void *arg) {
  thep_steal_call *c = arg;
  c->result = ops->steal(owner, thief);
  atomic_store(&c->done, 1);
  return NULL;
}

static void thep_echo(int n) {
  fresh(16, 8);
  ws_task *t[8];
  for (int i = 0; i < n; i++)
    ops->put(owner, t[i] = new_task());
  thep_steal_call c = {NULL, 0};
  pthread_t th;
  DH_CHECK(pthread_create(&th, NULL, thep_thief, &c) == 0, "pthread_create");
  /* Wait until the thief has raised H to <s+1, h+1>: it now waits. */
  while ((atomic_load(&owner->dq.th.H) >> 32) != 1)
    sched_yield();
  DH_CHECK(!atomic_load(&c.done), "thep: the thief did not wait for the echo");
  ws_task *r = ops->take(owner);
  pthread_join(th, NULL);
  if (n == 1) { /* the worker wins the last task */
    expect_task(r, t[0], "take racing a waiting thief for the last task");
    expect_steal(c.result, WS_EMPTY);
  } else {
    expect_task(r, t[n - 1], "take (echoing the waiting thief)");
    expect_task(c.result, t[0], "steal after the echo");
    for (int i = n - 2; i >= 1; i--)
      expect_task(ops->take(owner), t[i], "take");
    expect_stolen(ops->take(owner), t[0]);
  }
  DH_CHECK(thief->c.echo_waits == 1, "thep: echo_waits=%llu, expected 1",
           (unsigned long long)thief->c.echo_waits);
}

/* A private deque takes one request at a time; a second thief aborts. */
static void *private_thief(void *arg) {
  thep_steal_call *c = arg;
  c->result = ops->steal(owner, thief);
  atomic_store(&c->done, 1);
  return NULL;
}

static void private_requests(void) {
  fresh(16, 0);
  ws_task *t[3];
  for (int i = 0; i < 3; i++)
    ops->put(owner, t[i] = new_task());
  thep_steal_call c = {NULL, 0};
  pthread_t th;
  DH_CHECK(pthread_create(&th, NULL, private_thief, &c) == 0, "pthread_create");
  while (atomic_load(&owner->dq.pr.request) != thief->id)
    sched_yield();
  expect_steal(ops->steal(owner, thief2), WS_ABORT);
  while (!atomic_load(&c.done)) {
    ops->idle(owner); /* the owner answers at its next poll */
    sched_yield();
  }
  pthread_join(th, NULL);
  expect_task(c.result, t[0], "steal answered by the owner");
  expect_task(ops->take(owner), t[2], "take");
  expect_task(ops->take(owner), t[1], "take");
  expect_stolen(ops->take(owner), t[0]);
  ops->quiesce(owner); /* a stopped worker takes no more requests */
  ops->put(owner, new_task());
  expect_steal(ops->steal(owner, thief), WS_EMPTY);
}

/* Random put/take/steal against a model of the owner's spawn stack:
 * stack[0..stolen) were stolen, stack[stolen..len) are in the deque.  A
 * small capacity makes the indices wrap many times. */
static void random_ops(int64_t delta, unsigned steps) {
  enum { CAP = 64 };
  fresh(CAP, delta);
  ws_task *stack[CAP];
  int len = 0, stolen = 0;
  int split_asked = 0, split_owes = 0; /* a split thief asked for work */
  uint64_t rng = 0x2545f4914f6cdd1dULL + (uint64_t)delta;
  for (unsigned step = 0; step < steps; step++) {
    unsigned op = (unsigned)(dh_rand(&rng) % 100);
    int count = len - stolen;
    int owed = split_owes;
    split_owes = 0;
    if (op < 45 && len < CAP - 1) {
      ops->put(owner, stack[len++] = new_task());
      split_owes = split_asked;
      split_asked = 0;
    } else if (op < 75 && len > 0) {
      ws_task *r = ops->take(owner);
      if (count > 0) {
        expect_task(r, stack[len - 1], "take");
        split_owes = split_asked && len - 1 > stolen; /* the take shares */
        split_asked = 0;
      } else {
        /* THE-family: only the first of a run of stolen takes is exact. */
        expect_stolen(r, the_family() ? NULL : stack[len - 1]);
        stolen--;
        dh_after_stolen_join(ops, owner);
      }
      len--;
    } else if (op < 98) {
      ws_task *r = steal();
      if (count == 0) {
        expect_steal(r, WS_EMPTY);
        split_asked = 1;
      } else if (fence_free_abort() && count <= delta) {
        expect_steal(r, WS_ABORT);
      } else if (is("split") && r == WS_EMPTY && !owed) {
        split_asked = 1;
      } else {
        expect_task(r, stack[stolen++], "steal");
      }
    } else if (len == 0) {
      DH_CHECK(!ws_is_task(ops->take(owner)),
               "%s: take on an empty deque returned a task", ops->name);
    }
  }
  while (len > stolen) /* drain: the deque must agree with the model */
    expect_task(ops->take(owner), stack[--len], "take");
  expect_steal(steal(), WS_EMPTY);
}

static void spec(void) {
  empty_deque();
  lifo_take();
  fifo_steal();
  take_after_steal();
  random_ops(0, 200000);
  if (fence_free_abort()) {
    fence_free_window();
    random_ops(3, 200000);
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

/* Puts one task more than the deque holds: the runtime must stop. */
static void overflow(void) {
  enum { CAP = 16 };
  fresh(CAP, 0);
  for (int i = 0; i <= CAP; i++)
    ops->put(owner, new_task());
  dh_fail(__FILE__, __LINE__, "%s: %d puts into a deque of %d accepted",
          ops->name, CAP + 1, CAP);
}

/* A THE-style thief (the, ffthe, thep) raises H to h+1 under its lock and
 * only then reads slot h.  Freeze one there, with the deque as full as the
 * owner may fill it, and put twice more: the second put maps to slot h
 * and must stop the program rather than overwrite the task being stolen. */
static void overflow_race(void) {
  enum { CAP = 16 };
  DH_CHECK(is("the") || is("ffthe") || is("thep"),
           "overflow-race is for THE-style thieves (the, ffthe, thep)");
  fresh(CAP, 0);
  ws_task *t[CAP + 1];
  for (int i = 0; i < CAP - 1; i++)
    ops->put(owner, t[i] = new_task());
  ws_thedeque *q = &owner->dq.th;
  atomic_store(&q->lock, 1);
  uint64_t h = atomic_load(&q->H);
  atomic_store(&q->H, h + (is("thep") ? (1ULL << 32) + 1 : 1));
  for (int i = CAP - 1; i <= CAP; i++)
    ops->put(owner, t[i] = new_task());
  ws_task *seen = ws_th_slot(q, (int64_t)h); /* what the thief reads now */
  dh_fail(__FILE__, __LINE__,
          "%s: put into slot %llu accepted while a thief reads it; the "
          "thief gets task %ld instead of task %ld",
          ops->name, (unsigned long long)h, id_of(seen), id_of(t[0]));
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: deque_spec VARIANT [overflow|overflow-race]\n");
    return 2;
  }
  ops = dh_variant(argv[1]);
  const char *mode = argc == 3 ? argv[2] : "spec";
  if (strcmp(mode, "spec") == 0)
    spec();
  else if (strcmp(mode, "overflow") == 0)
    overflow();
  else if (strcmp(mode, "overflow-race") == 0)
    overflow_race();
  else {
    fprintf(stderr, "deque_spec: unknown mode \"%s\"\n", mode);
    return 2;
  }
  for (int i = 0; i < 3; i++)
    dh_free_worker(ops, crew[i]);
  dh_restore();
  return 0;
}
