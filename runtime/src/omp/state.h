/*
 * omp/state.h — what the OpenMP module keeps: teams, implicit tasks, the
 * record every task has (general-path tasks, fast-path contexts, implicit
 * and initial tasks), taskgroups, and each thread's state (state.c).
 *
 * A team is the master and the workers that joined its region; each runs
 * the region's microtask once, as its implicit task.  A thread's current
 * task is __ws_omp_current_task (ws/omp_abi.h), NULL until the runtime is
 * first asked something on the thread: then the thread's initial task, an
 * implicit task of a team of one at level 0.  ws_omp_pending counts the
 * current task's children that sit in this thread's task deque (taskq.c):
 * they are its top slots.
 */
#ifndef WS_OMP_STATE_H
#define WS_OMP_STATE_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "../worker.h"
#include "kmp.h"
#include "ws/omp_abi.h"

/* Task record kinds. */
enum {
  WS_OMP_KIND_IMPLICIT = 1, /* a member's (or a thread's initial) task */
  WS_OMP_KIND_GENERAL,      /* __kmpc_omp_task_alloc's */
  WS_OMP_KIND_FAST,         /* a fast-path context (ws/omp_abi.h) */
  WS_OMP_KIND_LAZY,         /* one not completed yet: parent, flags, and
                               its creator's itask (unbound) and tg */
};

/* The flags word: the compiler's KMP_TASK_* bits as given, and: */
#define WS_OMP_F_FINAL KMP_TASK_FINAL /* final, or included in a final task */
#define WS_OMP_F_REQUEUED (1u << 16)  /* an untied task queued itself again */
#define WS_OMP_F_IF0 (1u << 17)       /* run by its creator (if(0)) */
#define WS_OMP_F_INCLUDED (1u << 18)  /* created in a final task: runs at once */

typedef struct ws_omp_team ws_omp_team;
typedef struct ws_omp_itask ws_omp_itask;
typedef struct ws_omp_tg ws_omp_tg;

/* Every task's record.  Its first words are the fast-path context's
 * (ws/omp_abi.h): a fast-path task's record is its context block. */
typedef struct ws_omp_task {
  struct ws_omp_task *parent; /* the task that created it (NULL: initial) */
  uint32_t flags;
  uint32_t kind;
  ws_omp_itask *itask;        /* the implicit task it binds to */
  ws_omp_tg *tg;              /* the innermost taskgroup it is in */
  /* While it runs: the thread's current task and pending count before. */
  struct ws_omp_task *saved_current;
  long saved_pending;
} ws_omp_task;

_Static_assert(sizeof(ws_omp_task) <= WS_OMP_TASK_CTX_SIZE,
               "a task's record must fit a fast-path context");
_Static_assert(offsetof(ws_omp_task, parent) == WS_OMP_TASK_CTX_PARENT &&
                   offsetof(ws_omp_task, flags) == WS_OMP_TASK_CTX_FLAGS,
               "the words compiled code writes");

/* A general-path task: the record, then (at WS_OMP_TASK_HEADER) the
 * kmp_task_t the compiler fills, then its shareds. */
typedef struct ws_omp_gtask {
  ws_omp_task h;
  size_t size; /* the whole block, shareds included (taskloop copies it) */
} ws_omp_gtask;
#define WS_OMP_TASK_HEADER 64
_Static_assert(sizeof(ws_omp_gtask) <= WS_OMP_TASK_HEADER, "task header");

static inline kmp_task_t *ws_omp_kmp_task(ws_omp_gtask *g) {
  return (kmp_task_t *)((char *)g + WS_OMP_TASK_HEADER);
}
static inline ws_omp_gtask *ws_omp_gtask_of(void *kmp_task) {
  return (ws_omp_gtask *)((char *)kmp_task - WS_OMP_TASK_HEADER);
}

/* A taskgroup, opened by task `owner`.  pending_at: the owner's pending
 * count when it opened (the children created before), lowered when a
 * taskwait finishes those. */
struct ws_omp_tg {
  ws_omp_tg *prev;
  ws_omp_task *owner;
  long pending_at;
  struct ws_omp_taskred *red; /* its task reductions (taskred.c) */
};

/* A worksharing loop's shared part: the next iteration to hand out, how
 * many threads are done with it, and which of the team's loops it serves
 * (loops.c).  A team has WS_OMP_DISP_BUFS, so threads may run that many
 * nowait loops ahead. */
#define WS_OMP_DISP_BUFS 8
typedef struct ws_omp_disp {
  alignas(WS_CACHE_LINE) _Atomic uint64_t next;
  _Atomic uint32_t done;
  _Atomic uint64_t serves;
} ws_omp_disp;

/* A thread's view of its current dynamically scheduled loop. */
typedef struct ws_omp_loop {
  ws_omp_disp *buf;
  uint64_t trip;   /* iterations */
  uint64_t chunk;
  uint64_t next;   /* static schedules: the thread's next chunk */
  int64_t lb, st;  /* the first iteration and the step, as given */
  int sched;       /* kmp_sch_static, _static_chunked, _dynamic_chunked, _guided_chunked */
  int finished;
} ws_omp_loop;

struct ws_omp_team {
  int nthreads;
  int level;        /* omp_get_level inside */
  int active_level; /* enclosing regions with more than one thread, this one included */
  ws_omp_team *parent;
  int parent_tid;   /* the master's number in the parent team */
  kmpc_micro fn;
  int argc;
  void **argv;
  ws_omp_itask *parent_itask; /* the master's, whose ICVs the members take */
  int want;                   /* members the master asked for */
  /* Forming: members joined (low bits) and CLOSED; the master waits for
   * them, then says `started`; `refs` frees the team (team.c). */
  alignas(WS_CACHE_LINE) _Atomic uint32_t form;
  _Atomic uint32_t started;
  _Atomic int refs;
  /* Thread numbers taken: a member of the last region asks for its number
   * again (threadprivate data stays with it); if the team started with
   * fewer members than asked for, they number in the order they joined. */
  _Atomic uint64_t taken[WS_MAX_WORKERS / 64];
  int compact;
  /* The barrier (barrier.c). */
  alignas(WS_CACHE_LINE) _Atomic uint32_t bar_arrived;
  alignas(WS_CACHE_LINE) _Atomic uint32_t bar_gen;
  _Atomic int sleepers;
  /* single: how many single constructs were taken; copyprivate's data. */
  alignas(WS_CACHE_LINE) _Atomic uint64_t singles;
  void *_Atomic cpy_data;
  ws_omp_disp disp[WS_OMP_DISP_BUFS];
};
#define WS_OMP_FORM_CLOSED 0x80000000u

/* A thread's implicit task in a team: its record first. */
struct ws_omp_itask {
  ws_omp_task task;
  ws_omp_team *team;
  int tid;
  int red_method;      /* the last __kmpc_reduce's answer (sync.c) */
  uint64_t singles;    /* single constructs this thread reached */
  uint64_t loops;      /* dynamically scheduled loops it reached */
  ws_omp_loop loop;
  /* The data environment's ICVs (omp_set_*), inherited from the master's
   * at the start of a region; initial tasks take the environment's. */
  int nthreads_var;    /* 0: the worker count */
  int sched_var;
  int64_t chunk_var;
  int dyn_var;
};

/* ---- per-thread state (state.c) ---- */

/* The number of the current task's children in this thread's task deque. */
extern __thread long ws_omp_pending __attribute__((tls_model("initial-exec")));
/* gtid + 1, 0 until asked. */
extern __thread int32_t ws_omp_gtid1 __attribute__((tls_model("initial-exec")));
/* The implicit task of the active region this thread is a member of
 * (NULL: none). */
extern __thread ws_omp_itask *ws_omp_member __attribute__((tls_model("initial-exec")));
/* A num_threads clause for the thread's next parallel region (0: none). */
extern __thread int ws_omp_push_nthreads __attribute__((tls_model("initial-exec")));

/* The team of every initial task: one thread, level 0. */
extern ws_omp_team ws_omp_initial_team;

ws_omp_task *ws_omp_cur_slow(void);
/* The calling thread's initial task, set up. */
ws_omp_itask *ws_omp_initial_itask(void);
int32_t ws_omp_gtid_slow(void);

/* The calling thread's current task (its initial task, set up, if it had
 * none; a lazy fast-path task completed: fast.c). */
static inline ws_omp_task *ws_omp_cur(void) {
  ws_omp_task *t = (ws_omp_task *)__ws_omp_current_task;
  return ws_likely(t != NULL && t->kind != WS_OMP_KIND_LAZY) ? t : ws_omp_cur_slow();
}
/* Completes lazy fast-path task c, the thread's current task (fast.c). */
void ws_omp_complete_lazy(ws_omp_task *c);

static inline int32_t ws_omp_gtid(void) {
  int32_t g = ws_omp_gtid1;
  return ws_likely(g != 0) ? g - 1 : ws_omp_gtid_slow();
}

/* The calling thread is one of the runtime's workers (worker 0, the main
 * thread, once bound): it may queue and steal tasks. */
static inline ws_worker *ws_omp_worker_self(void) {
  ws_worker *w = ws_tls_self;
  return w && w->id >= 0 && w->dq == &ws_my_dq ? w : NULL;
}

/* The implicit task a task running on this thread binds to: the thread's
 * own in the task's team where it is a member (omp_get_thread_num is the
 * thread's number), else the creator's. */
static inline ws_omp_itask *ws_omp_bind(ws_omp_itask *creators) {
  ws_omp_itask *m = ws_omp_member;
  return m && creators && m->team == creators->team ? m : creators;
}

#endif
