/*
 * omp/team.c — parallel regions: __kmpc_fork_call and its kin.
 *
 * A region's team is the thread that meets it (the master, thread 0) and
 * workers of the runtime's, each running the region's microtask once as
 * its implicit task, then the region's closing barrier.  One team with
 * more than one thread runs at a time: a region met while one runs (a
 * nested region, or one in a task of another worker's) runs on its
 * thread alone (a serialized team), as libomp runs nested regions by
 * default; so does a region met by a thread that is not a worker (a
 * thread of the program's, when there are several workers).
 *
 * Workers come to a team without a change to the scheduler: a worker
 * that is idle runs calls handed over from other threads before it steals
 * (submit.c), so the master gives each member it needs to a helper
 * thread of the module's, which hands the call "join this team" to the
 * workers (__ws_submit) and sleeps until it returns.  Each call runs on a
 * worker that was idle, never on one already in the team (those are busy
 * in it), under every deque variant.  A member that finished its region
 * stays in that call (the hot team, as libomp's): the next region takes
 * it directly, with a futex wake, under the same thread number (its
 * threadprivate data stays with it).  Meanwhile it steals spawned tasks as
 * an idle worker would, and naps; it leaves the team when a call of
 * another thread's is queued (it goes to run it), when the main thread has
 * left by pthread_exit, when the worker count drops below it, at
 * omp_pause_resource and at exit.
 *
 * The master waits until all the members it asked for have joined: a
 * team has exactly min(requested, workers) threads.  Where the master is
 * not the main thread at the top of its stack (it runs in a stolen task),
 * a worker it waits for might be waiting for it: it waits at most
 * WS_OMP_FORM_WAIT_NS, then starts with the members it has.
 */
#include <limits.h>
#include <sched.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../idle.h"
#include "../mainexit.h"
#include "barrier.h"
#include "echo.h"
#include "icv.h"
#include "invoke.h"
#include "taskq.h"
#include "team.h"

#define WS_OMP_FORM_WAIT_NS 20000000L
#define WS_OMP_HELPER_STACK (256 * 1024)

int ws_num_workers(void); /* startup.c (ws/ws.h) */

/* A team with more than one thread runs. */
static _Atomic int active;
/* At exit: no team forms any more, the hot team leaves. */
static _Atomic int stopping;

static void unref(ws_omp_team *t) {
  if (atomic_fetch_sub_explicit(&t->refs, 1, ws_acq_rel) == 1)
    free(t);
}

/* A worker joins team t: a place (0 when the team is full or closed),
 * then a number, `prefer` if it is free (see members_number). */
static int claim(ws_omp_team *t, int prefer, int *place) {
  uint32_t f = atomic_load_explicit(&t->form, ws_acquire);
  do {
    if ((f & WS_OMP_FORM_CLOSED) || (int)f >= t->want)
      return 0;
  } while (!atomic_compare_exchange_weak_explicit(&t->form, &f, f + 1, ws_acq_rel,
                                                  ws_acquire));
  *place = (int)f + 1;
  if ((int)f + 1 == t->want)
    ws_futex(&t->form, FUTEX_WAKE_PRIVATE, 1, NULL);
  for (int i = prefer >= 1 && prefer <= t->want ? prefer : 1;; i = i % t->want + 1) {
    uint64_t bit = 1ull << (i % 64);
    if (!(atomic_fetch_or_explicit(&t->taken[i / 64], bit, ws_relaxed) & bit))
      return i;
  }
}

static uint32_t hot_register(void);

/* Thread `tid`'s implicit task in team t: the microtask, then the
 * region's barrier.  member: t is an active team (the thread's member
 * task).  linger_gen: register in the hot team before the barrier. */
static void run_implicit(ws_omp_team *t, int tid, int member, uint32_t *linger_gen) {
  ws_omp_itask it;
  memset(&it, 0, sizeof it);
  it.task.kind = WS_OMP_KIND_IMPLICIT;
  it.task.flags = KMP_TASK_TIED;
  it.task.itask = &it;
  it.team = t;
  it.tid = tid;
  it.nthreads_var = t->parent_itask->nthreads_var;
  it.sched_var = t->parent_itask->sched_var;
  it.chunk_var = t->parent_itask->chunk_var;
  it.dyn_var = t->parent_itask->dyn_var;
  void *cur = __ws_omp_current_task;
  long pending = ws_omp_pending;
  ws_omp_itask *outer = ws_omp_member;
  __ws_omp_current_task = &it.task;
  ws_omp_pending = 0;
  if (member)
    ws_omp_member = &it;
  int32_t gtid = ws_omp_gtid(), btid = tid;
  ws_omp_invoke(t->fn, &gtid, &btid, t->argc, t->argv);
  if (linger_gen)
    *linger_gen = hot_register();
  ws_omp_barrier(&it);
  __ws_omp_current_task = cur;
  ws_omp_pending = pending;
  ws_omp_member = outer;
}

/* A worker handed team t (preferring number `prefer`, its number in the
 * last region): joins it if it still forms and runs its implicit task.
 * Its number, or 0. */
static int member_run(ws_omp_team *t, int prefer, uint32_t *linger_gen) {
  int place = 0;
  int tid = ws_omp_worker_self() ? claim(t, prefer, &place) : 0;
  if (!tid) {
    unref(t);
    return 0;
  }
  if (!atomic_load_explicit(&t->started, ws_acquire))
    ws_omp_wait_change(&t->started, 0, NULL, 0, 1000000L);
  if (t->compact)
    tid = place; /* the team started short: numbers 1..joined */
  run_implicit(t, tid, 1, linger_gen);
  unref(t);
  return tid;
}

/* ---- the hot team ---- */

static pthread_mutex_t hot_lock = PTHREAD_MUTEX_INITIALIZER;
static int hot_nlinger;          /* members waiting for a next region */
static _Atomic uint32_t hot_gen; /* regions handed to them, releases */
static ws_omp_team *hot_team;    /* the last region handed to them */
static int hot_slots;            /* members it still wants from them */
static _Atomic uint32_t hot_release; /* omp_pause_resource: all leave */

static uint32_t hot_register(void) {
  pthread_mutex_lock(&hot_lock);
  hot_nlinger++;
  uint32_t g = atomic_load_explicit(&hot_gen, ws_relaxed);
  pthread_mutex_unlock(&hot_lock);
  return g;
}

#define WS_OMP_NAP_MAX_NS 10000000L

/* A member that finished its region waits in it for the next one: it
 * spins for OMP_WAIT_POLICY's while (active: 200 ms, default: 20 ms,
 * passive: not at all), then naps, longer and longer, up to 10 ms;
 * between naps it steals spawned tasks as an idle worker would. */
static void linger(uint32_t gen, int tid) {
  ws_worker *w = ws_tls_self;
  uint32_t release = atomic_load_explicit(&hot_release, ws_acquire);
  uint64_t active_until = ws_now_ns() + (uint64_t)ws_omp_icvs.linger_ns;
  long nap = 20000;
  unsigned fails = 0;
  for (;;) {
    int leave = atomic_load_explicit(&stopping, ws_acquire) ||
                atomic_load_explicit(&hot_release, ws_acquire) != release ||
                atomic_load_explicit(&ws_rt.shutdown, ws_acquire) ||
                atomic_load_explicit(&ws_rt.submitted, ws_acquire) ||
                w->id >= atomic_load_explicit(&ws_rt.nworkers, ws_acquire) ||
                ws_main_exited();
    if (atomic_load_explicit(&hot_gen, ws_acquire) != gen || leave) {
      pthread_mutex_lock(&hot_lock);
      if (hot_slots > 0 && atomic_load_explicit(&hot_gen, ws_relaxed) != gen) {
        hot_slots--;
        hot_nlinger--;
        ws_omp_team *t = hot_team;
        pthread_mutex_unlock(&hot_lock);
        int got = member_run(t, tid, &gen);
        if (got)
          tid = got;
        else
          gen = hot_register();
        active_until = ws_now_ns() + (uint64_t)ws_omp_icvs.linger_ns;
        nap = 20000;
        fails = 0;
        continue;
      }
      gen = atomic_load_explicit(&hot_gen, ws_relaxed);
      if (leave) {
        hot_nlinger--;
        pthread_mutex_unlock(&hot_lock);
        return;
      }
      pthread_mutex_unlock(&hot_lock);
      continue;
    }
    if (ws_omp_help(w)) {
      fails = 0;
      nap = 20000;
      continue;
    }
    if (++fails < 64 || ws_now_ns() < active_until) {
      if (fails % 64 == 0)
        sched_yield();
      else
        ws_cpu_relax();
      continue;
    }
    struct timespec ts = {0, nap};
    ws_futex(&hot_gen, FUTEX_WAIT_PRIVATE, gen, &ts);
    if (nap < WS_OMP_NAP_MAX_NS)
      nap *= 2;
  }
}

/* omp_pause_resource: the hot team's members go back to the workers. */
void ws_omp_release_team(void) {
  atomic_fetch_add_explicit(&hot_release, 1, ws_release);
  atomic_fetch_add_explicit(&hot_gen, 1, ws_release);
  ws_futex(&hot_gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

/* ---- helper threads: they hand members' calls to the workers ---- */

typedef struct ws_omp_helper {
  struct ws_omp_helper *next;
  _Atomic uint32_t go;
  ws_omp_team *team;
} ws_omp_helper;

static ws_omp_helper *idle_helpers; /* hot_lock's */

#define WS_OMP_HELPER_IDLE_NS 100000000L

static void order_run(void *closure, ws_slot *tail) {
  (void)tail;
  uint32_t gen;
  int tid = member_run(closure, 0, &gen);
  if (tid)
    linger(gen, tid);
}

/* A helper waits for an order; one that has none for a while ends (and
 * all do once the main thread has left: its process ends when only the
 * workers are left, mainexit.c). */
static void *helper_main(void *arg) {
  ws_omp_helper *h = arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  for (;;) {
    struct timespec ts = {0, WS_OMP_HELPER_IDLE_NS};
    while (!atomic_load_explicit(&h->go, ws_acquire)) {
      ws_futex(&h->go, FUTEX_WAIT_PRIVATE, 0, &ts);
      if (atomic_load_explicit(&h->go, ws_acquire))
        break;
      pthread_mutex_lock(&hot_lock);
      if (!atomic_load_explicit(&h->go, ws_acquire)) {
        ws_omp_helper **p = &idle_helpers;
        while (*p && *p != h)
          p = &(*p)->next;
        if (*p)
          *p = h->next;
        pthread_mutex_unlock(&hot_lock);
        free(h);
        return NULL;
      }
      pthread_mutex_unlock(&hot_lock);
    }
    atomic_store_explicit(&h->go, 0, ws_relaxed);
    __ws_submit(order_run, h->team);
    pthread_mutex_lock(&hot_lock);
    h->next = idle_helpers;
    idle_helpers = h;
    pthread_mutex_unlock(&hot_lock);
  }
}

/* Under hot_lock: one member for team t, through a helper. */
static void order(ws_omp_team *t) {
  ws_omp_helper *h = idle_helpers;
  if (h) {
    idle_helpers = h->next;
  } else {
    h = calloc(1, sizeof *h);
    if (!h)
      ws_fatal("out of memory starting an OpenMP helper thread");
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, WS_OMP_HELPER_STACK);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t th;
    int rc = pthread_create(&th, &attr, helper_main, h);
    pthread_attr_destroy(&attr);
    if (rc)
      ws_fatal("cannot start an OpenMP helper thread: %s", strerror(rc));
  }
  h->team = t;
  atomic_store_explicit(&h->go, 1, ws_release);
  ws_futex(&h->go, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/* Asks for `want` members for team t: lingering members first, helpers
 * for the rest. */
static void dispatch(ws_omp_team *t, int want) {
  pthread_mutex_lock(&hot_lock);
  for (; hot_slots > 0; hot_slots--) /* a closed team's, nobody took them */
    unref(hot_team);
  int k = hot_nlinger < want ? hot_nlinger : want;
  if (k > 0) {
    hot_team = t;
    hot_slots = k;
    atomic_fetch_add_explicit(&hot_gen, 1, ws_release);
  }
  for (int i = k; i < want; i++)
    order(t);
  pthread_mutex_unlock(&hot_lock);
  if (k > 0)
    ws_futex(&hot_gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

static void at_exit(void) {
  atomic_store_explicit(&stopping, 1, ws_release);
  atomic_fetch_add_explicit(&hot_gen, 1, ws_release);
  ws_futex(&hot_gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

/* A child of fork has none of the parent's threads: no helper, no member
 * (its regions run serialized: ws_rt.forked). */
static void at_fork_child(void) {
  pthread_mutex_init(&hot_lock, NULL);
  hot_nlinger = hot_slots = 0;
  hot_team = NULL;
  idle_helpers = NULL;
  atomic_store_explicit(&active, 0, ws_relaxed);
}

static void set_up(void) {
  atexit(at_exit);
  pthread_atfork(NULL, NULL, at_fork_child);
}

/* ---- regions ---- */

/* Waits for the members; returns how many joined. */
static int formation(ws_omp_team *t, int want, int top) {
  ws_worker *w = ws_tls_self;
  uint64_t start = top ? 0 : ws_now_ns();
  unsigned spins = 0;
  for (;;) {
    uint32_t f = atomic_load_explicit(&t->form, ws_acquire);
    if ((int)f >= want)
      return want;
    if (!top && ws_now_ns() - start > (uint64_t)WS_OMP_FORM_WAIT_NS) {
      if (atomic_compare_exchange_strong_explicit(&t->form, &f, f | WS_OMP_FORM_CLOSED,
                                                  ws_acq_rel, ws_acquire))
        return (int)f;
      continue;
    }
    ws_omp_idle(w);
    int echoed = ws_omp_echo(w);
    if (++spins < 128) {
      ws_cpu_relax();
    } else if (spins < 192 || echoed) {
      sched_yield();
    } else {
      struct timespec ts = {0, 100000};
      ws_futex(&t->form, FUTEX_WAIT_PRIVATE, f, &ts);
    }
  }
}

static void fork_active(ws_omp_task *parent, kmpc_micro fn, int argc, void **argv,
                        int n) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, set_up);
  size_t size = (sizeof(ws_omp_team) + WS_CACHE_LINE - 1) & ~(size_t)(WS_CACHE_LINE - 1);
  ws_omp_team *t = aligned_alloc(WS_CACHE_LINE, size);
  if (!t)
    ws_fatal("out of memory starting a parallel region");
  memset(t, 0, size);
  ws_omp_team *pt = parent->itask->team;
  t->nthreads = n;
  t->want = n - 1;
  t->level = pt->level + 1;
  t->active_level = pt->active_level + 1;
  t->parent = pt;
  t->parent_tid = parent->itask->tid;
  t->parent_itask = parent->itask;
  t->fn = fn;
  t->argc = argc;
  t->argv = argv;
  for (int i = 0; i < WS_OMP_DISP_BUFS; i++)
    atomic_init(&t->disp[i].serves, (uint64_t)i);
  atomic_init(&t->refs, n); /* the master, and each member asked for */
  ws_worker *w = ws_tls_self;
  int top = w->id == 0 && atomic_load_explicit(&w->running, ws_acquire) == 0;
  dispatch(t, n - 1);
  int joined = formation(t, n - 1, top);
  t->nthreads = joined + 1;
  t->compact = joined < n - 1;
  atomic_store_explicit(&t->started, 1, ws_release);
  ws_futex(&t->started, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
  run_implicit(t, 0, 1, NULL);
  atomic_store_explicit(&active, 0, ws_release);
  unref(t);
}

static void fork_serial(ws_omp_task *parent, kmpc_micro fn, int argc, void **argv) {
  ws_omp_team t;
  memset(&t, 0, sizeof t);
  ws_omp_team *pt = parent->itask->team;
  t.nthreads = 1;
  t.level = pt->level + 1;
  t.active_level = pt->active_level;
  t.parent = pt;
  t.parent_tid = parent->itask->tid;
  t.parent_itask = parent->itask;
  t.fn = fn;
  t.argc = argc;
  t.argv = argv;
  run_implicit(&t, 0, 0, NULL);
}

/* The calling thread may lead a team of n (lowered to the worker count):
 * it is a worker, nothing stops, and no other team runs. */
static int lead(int *n) {
  if (!__ws_tail()) /* starts the runtime; NULL: a thread of the program's */
    return 0;
  if (!ws_omp_worker_self() || ws_rt.forked ||
      atomic_load_explicit(&ws_rt.shutdown, ws_acquire) ||
      atomic_load_explicit(&stopping, ws_acquire))
    return 0;
  int nw = atomic_load_explicit(&ws_rt.nworkers, ws_acquire);
  if (*n > nw)
    *n = nw;
  if (*n < 2)
    return 0;
  int idle = 0;
  return atomic_compare_exchange_strong_explicit(&active, &idle, 1, ws_acq_rel,
                                                 ws_relaxed);
}

int ws_omp_max_threads(void) {
  ws_omp_init();
  ws_omp_itask *it = ws_omp_cur()->itask;
  int n = it->nthreads_var > 0 ? it->nthreads_var : ws_num_workers();
  return n > ws_omp_icvs.thread_limit ? ws_omp_icvs.thread_limit : n;
}

static void fork_region(kmpc_micro fn, int argc, void **argv) {
  ws_omp_task *parent = ws_omp_cur();
  int n = ws_omp_push_nthreads;
  ws_omp_push_nthreads = 0;
  if (n <= 0)
    n = ws_omp_max_threads();
  if (n > ws_omp_icvs.thread_limit)
    n = ws_omp_icvs.thread_limit;
  if (n > 1 && parent->itask->team->active_level == 0 && lead(&n))
    fork_active(parent, fn, argc, argv, n);
  else
    fork_serial(parent, fn, argc, argv);
}

void __kmpc_fork_call(ident_t *loc, int32_t argc, kmpc_micro fn, ...) {
  (void)loc;
  void *argv[argc > 0 ? argc : 1];
  va_list ap;
  va_start(ap, fn);
  for (int i = 0; i < argc; i++)
    argv[i] = va_arg(ap, void *);
  va_end(ap);
  fork_region(fn, argc, argv);
}

/* parallel if(cond), as the OpenMPIRBuilder emits it: args is the one
 * argument (the outlined function's aggregate), or NULL. */
void __kmpc_fork_call_if(ident_t *loc, int32_t argc, kmpc_micro fn, int32_t cond,
                         void *args) {
  (void)loc;
  void *argv[1] = {args};
  int n = args ? 1 : 0;
  (void)argc;
  if (cond) {
    fork_region(fn, n, argv);
  } else {
    ws_omp_push_nthreads = 0;
    fork_serial(ws_omp_cur(), fn, n, argv);
  }
}

void __kmpc_push_num_threads(ident_t *loc, int32_t gtid, int32_t n) {
  (void)loc;
  (void)gtid;
  ws_omp_push_nthreads = n;
}

/* proc_bind: threads are not bound to places. */
void __kmpc_push_proc_bind(ident_t *loc, int32_t gtid, int32_t proc_bind) {
  (void)loc;
  (void)gtid;
  (void)proc_bind;
}

/* parallel if(0): clang calls the outlined function itself between these. */
typedef struct ws_omp_serial {
  struct ws_omp_serial *prev;
  void *cur;
  long pending;
  ws_omp_team team;
  ws_omp_itask it;
} ws_omp_serial;
static __thread ws_omp_serial *serials __attribute__((tls_model("initial-exec")));

void __kmpc_serialized_parallel(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  ws_omp_task *parent = ws_omp_cur();
  ws_omp_serial *s = calloc(1, sizeof *s);
  if (!s)
    ws_fatal("out of memory entering a parallel region");
  ws_omp_team *pt = parent->itask->team;
  s->team.nthreads = 1;
  s->team.level = pt->level + 1;
  s->team.active_level = pt->active_level;
  s->team.parent = pt;
  s->team.parent_tid = parent->itask->tid;
  s->team.parent_itask = parent->itask;
  s->it.task.kind = WS_OMP_KIND_IMPLICIT;
  s->it.task.flags = KMP_TASK_TIED;
  s->it.task.itask = &s->it;
  s->it.team = &s->team;
  s->it.nthreads_var = parent->itask->nthreads_var;
  s->it.sched_var = parent->itask->sched_var;
  s->it.chunk_var = parent->itask->chunk_var;
  s->it.dyn_var = parent->itask->dyn_var;
  s->cur = __ws_omp_current_task;
  s->pending = ws_omp_pending;
  s->prev = serials;
  serials = s;
  ws_omp_push_nthreads = 0;
  __ws_omp_current_task = &s->it.task;
  ws_omp_pending = 0;
}

void __kmpc_end_serialized_parallel(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  ws_omp_serial *s = serials;
  if (!s)
    ws_fatal("__kmpc_end_serialized_parallel without a serialized region");
  ws_omp_barrier(&s->it);
  __ws_omp_current_task = s->cur;
  ws_omp_pending = s->pending;
  serials = s->prev;
  free(s);
}

/* Program start and end, for libomp's sake. */
void __kmpc_begin(ident_t *loc, int32_t flags) {
  (void)loc;
  (void)flags;
}
void __kmpc_end(ident_t *loc) { (void)loc; }
