/*
 * verify.h — an exhaustive model checker of the deques on the abstract
 * TSO[S] machine of Morrison & Afek (ASPLOS'14, paper 000 §2), with the
 * store-coalescing buffer B they hypothesise in §7.3.
 *
 * A state is the shared memory, each thread's store buffer, B, program
 * position and the locals of the C code, plus the ghost variables the
 * specification needs.  One step of a thread performs at most one access
 * to shared memory (a load, a store into its buffer, or an atomic
 * operation), together with the purely local computation that follows it.
 * The memory subsystem's steps are the drains of buffers.
 */
#ifndef VF_VERIFY_H
#define VF_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#define VF_MAX_S 8
#define VF_MAX_TASKS 6
#define VF_MAX_THIEVES 3
#define VF_MAX_THREADS (1 + VF_MAX_THIEVES)
#define VF_MAX_X 4
#define VF_SLOTS 8 /* the task array W; the model never wraps (puts <= W) */
#define VF_MAX_OPS 40

/* Shared addresses.  Each is one machine word of the runtime's deque. */
enum vf_addr {
  A_T,
  A_H, /* THEP: <s, h> packed as s * 16 + h */
  A_LOCK,
  A_P,
  A_TAIL, /* Lace split deque: tail and split, the halves of u.ts */
  A_SPLIT,
  A_ALLSTOLEN,
  A_SPLITREQ,
  A_TAKES, /* w->takes: the anti-coalescing store of every take() */
  A_X0,    /* the client's other stores, A_X0 .. A_X0 + VF_MAX_X - 2 */
  A_SLOT0 = A_X0 + VF_MAX_X - 1,
  A_DONE0 = A_SLOT0 + VF_SLOTS, /* ws_task.state of task k: DONE */
  A_NADDR = A_DONE0 + VF_MAX_TASKS,
  A_TS = A_NADDR, /* buffer entries only: a 64-bit store of (tail, split) */
  A_NONE = 0xff
};

#define VF_SLOT(i) (A_SLOT0 + ((i) & (VF_SLOTS - 1)))
#define VF_TS(tail, split) ((int8_t)((split) * 16 + (tail)))
#define VF_NO_ECHO (-1) /* THEP: P = ⊥ */

typedef struct vf_store {
  uint8_t addr; /* A_NONE: empty */
  int8_t val;
  uint8_t publishes; /* ghost: the task id whose put() wrote this T, or 0 */
} vf_store;

/* Where a thread is in its current operation. */
enum vf_phase {
  PH_IDLE,    /* between operations */
  PH_DEQUE,   /* inside put/take/steal (pc = step of the variant's code) */
  PH_JOIN,    /* after take() returned STOLEN: wait until the task is done */
  PH_POP,     /* Lace: pop_stolen() after the join (pc = variant step) */
  PH_RUN,     /* after steal() returned a task: run it, mark it DONE */
  PH_FINISHED /* program complete */
};

/* RET_EMPTY_HINT: the EMPTY of the runtime's unlocked look before locking.
 * Two loads outside the lock cannot tell a provisional H := h + 1 of a thief
 * that will back off from a real one, so that EMPTY is a hint, like ABORT;
 * the scheduler treats the two alike.  The paper's EMPTYs are RET_EMPTY. */
enum vf_ret { RET_NONE, RET_TASK, RET_EMPTY, RET_EMPTY_HINT, RET_ABORT, RET_STOLEN };

typedef struct vf_thread {
  uint8_t op, phase, pc;
  uint8_t nsb;
  vf_store sb[VF_MAX_S]; /* FIFO: sb[0] is the oldest */
  vf_store b;            /* §7.3 buffer B between the store buffer and memory */
  /* The locals of the C code, by their names there. */
  int8_t t, h, s, task, ret, new_s;
  /* Owner-private fields of the deque (split: head, o_split, o_allstolen)
   * and w->takes: only the owner reads them, so they live in registers. */
  uint8_t head, o_split, o_allstolen, takes;
  uint8_t caller; /* Lace: where grow_shared returns to */
  uint8_t saw_empty; /* ghost: the deque was empty at some moment of this steal */
} vf_thread;

typedef struct vf_state {
  int8_t mem[A_NADDR];
  vf_thread th[VF_MAX_THREADS]; /* 0: the worker; 1..: thieves */
  /* Ghost variables (task id k is bit k-1 / index k-1). */
  uint8_t removed_by[VF_MAX_TASKS]; /* 0 not removed, 1 worker, 2 thief */
  uint8_t visible;   /* the put's T store reached memory */
  uint8_t announced; /* the worker's take() has stored T := t for it */
  uint8_t index[VF_MAX_TASKS]; /* the deque index the put() stored it at */
} vf_state;

enum vf_buffer { BUF_PLAIN, BUF_B, BUF_COALESCE };

enum vf_opkind { OP_PUT, OP_TAKE, OP_STORE, OP_STEAL };
typedef struct vf_op {
  uint8_t kind;
  uint8_t arg; /* put/take: task id (takes pop the most recent put); store: X index */
} vf_op;

typedef struct vf_variant vf_variant;

typedef struct vf_config {
  const vf_variant *v;
  int S, x, delta, tasks, thieves, steals;
  enum vf_buffer buffer;
  int no_fence; /* the, cl, split: drop the worker's fence (negative control) */
  int strict_peek; /* check the EMPTY of the unlocked peek like the paper's */
  char script[VF_MAX_OPS + 1];
  vf_op worker[VF_MAX_OPS];
  int nworker;
  uint8_t left; /* tasks the script never takes (bit k-1: task k) */
  long max_states;
  int quiet;
} vf_config;

/* A note on what one step did, filled only while printing a trace. */
typedef struct vf_note {
  char access[96];
  int continued_pc; /* the step vf_continue ran after a private one, or 0 */
} vf_note;

typedef struct vf_ctx {
  const vf_config *cfg;
  vf_state *s;
  int tid;
  vf_thread *th;
  vf_note *note;    /* NULL while exploring */
  char *why;        /* violation message, VF_WHY bytes */
} vf_ctx;
#define VF_WHY 400

enum vf_rc { STEP_OK, STEP_BLOCKED, STEP_VIOLATION };

/* What the trace prints for a step: the line of the paper's figure and the
 * statement of the runtime's C code the step mirrors. */
typedef struct vf_step_info {
  const char *fig;  /* e.g. "Fig.3 l.61  if (T - δ > h)" */
  const char *file; /* runtime/src file of `code`, NULL for model-only steps */
  const char *code; /* the C statement, verbatim (checked by --check-source) */
  const char *cond; /* the condition the step decides, verbatim, or NULL */
} vf_step_info;

struct vf_variant {
  const char *name;
  int relaxed; /* steal() may return ABORT (paper 000 §4 relaxed specification) */
  int hides_private; /* steal() may return EMPTY while tasks are private (Lace) */
  int has_fence;     /* --no-fence means something */
  uint8_t put_pc, take_pc, steal_pc, pop_stolen_pc; /* entry steps; 0: none */
  const vf_step_info *steps;
  int nsteps;
  void (*init)(vf_state *s); /* initial memory, if not all zero; may be NULL */
  int (*step)(vf_ctx *c);
  /* The index below which thieves have claimed every task: H in memory
   * (a thief's H := h + 1 announces its steal of task h).  NULL: Lace. */
  int (*claimed_below)(const vf_state *s);
  /* The thread spins in a wait loop whose exit conditions are false now
   * (waits on a lock are blocked steps instead).  May be NULL. */
  int (*waiting)(vf_ctx *c);
};

extern const vf_variant vf_the, vf_cl, vf_ffthe, vf_ffcl, vf_thep, vf_split;
extern const vf_variant *const vf_variants[];
const vf_variant *vf_variant_by_name(const char *name);

/* tso.c: the machine. */
int vf_load(vf_ctx *c, int addr);
void vf_load_ts(vf_ctx *c, int8_t *tail, int8_t *split); /* one 64-bit load */
int vf_store_(vf_ctx *c, int addr, int val, int publishes);
#define vf_store(c, a, v) vf_store_((c), (a), (v), 0)
int vf_drained(const vf_thread *th);
int vf_xchg(vf_ctx *c, int addr, int val);
int vf_cas(vf_ctx *c, int addr, int expect, int val);
int vf_cas_ts(vf_ctx *c, int tail, int split);
int vf_can_drain(const vf_config *cfg, const vf_thread *th);
void vf_drain(const vf_config *cfg, vf_state *s, int tid, vf_note *note);
void vf_flush_b(vf_state *s, int tid, vf_note *note);
const char *vf_addr_name(int addr, char *buf, size_t n);

/* client.c: the scenario (programs of the worker and thieves) and the
 * specification checked along every execution. */
void vf_initial_state(const vf_config *cfg, vf_state *s);
int vf_thread_step(vf_ctx *c);
void vf_after_step(const vf_config *cfg, vf_state *s);
int vf_all_finished(const vf_config *cfg, const vf_state *s);
int vf_final_check(const vf_config *cfg, const vf_state *s, char *why);
int vf_nthreads(const vf_config *cfg);
/* Called by the variants' code. */
int vf_goto(vf_ctx *c, int pc);
int vf_continue(vf_ctx *c, int pc); /* goto, and run that step now */
int vf_put_return(vf_ctx *c);
int vf_take_return(vf_ctx *c, int ret, int task);
int vf_steal_commit(vf_ctx *c, int task);
int vf_steal_return(vf_ctx *c, int ret);
int vf_pop_stolen_return(vf_ctx *c);
void vf_announce_take(vf_ctx *c);
int vf_store_fenced(vf_ctx *c, int addr, int val);
int vf_count_take(vf_ctx *c);
int vf_violation(vf_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
extern int vf_saw_steal; /* some execution stole a task (run statistics) */

/* model_tailhead.c: put() and the lock of the Fig. 2a deques. */
int vf_th_put_step(vf_ctx *c);
int vf_th_lock(vf_ctx *c);
int vf_th_unlock(vf_ctx *c);
int vf_th_claimed_below(const vf_state *s);
enum { TH_PUT_LOAD_T = 1, TH_PUT_STORE_TASK, TH_PUT_STORE_T, TH_FIRST_FREE };
#define VF_TH_PUT_STEPS                                                        \
  [TH_PUT_LOAD_T] = {"Fig.2a put  t := T", "tailhead.h",                      \
                     "int64_t t = atomic_load_explicit(&q->T, ws_relaxed);"},  \
  [TH_PUT_STORE_TASK] = {"Fig.2a put  tasks[t mod W] := task", "tailhead.h",   \
                         "__atomic_store_n(&q->tasks[t & q->mask], task, "     \
                         "__ATOMIC_RELAXED);"},                                \
  [TH_PUT_STORE_T] = {"Fig.2a put  T := t+1", "tailhead.h",                   \
                      "atomic_store_explicit(&q->T, t + 1, ws_release);"}

/* What thread `th` will do next, for the trace. */
const vf_step_info *vf_next_step_info(const vf_config *cfg, const vf_thread *th,
                                      int tid);

/* explore.c */
typedef struct vf_result {
  int violation;
  int limit_hit;
  long states, transitions, finals;
  double seconds;
} vf_result;
vf_result vf_explore(const vf_config *cfg);

/* trace.c */
void vf_print_trace(const vf_config *cfg, const uint8_t *moves, int n,
                    const char *why);

/* srccheck.c */
int vf_check_source(const char *srcdir);

/* config.c */
int vf_parse_args(int argc, char **argv, vf_config *cfg, int *expect,
                  const char **srcdir, char *err, size_t n);
int vf_delta_bound(const vf_config *cfg);

#endif
