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
 *
 * Slot addresses are indices here: T is the index of the owner's tail slot,
 * H packs a tag with the index of the head slot (VF_PACK), and every
 * pointer the runtime compares or subtracts is compared or subtracted as an
 * index.  The runtime's slots are 64 bytes and span less than 2^31 bytes,
 * so its 32-bit differences of addresses are these differences times 64.
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
#define VF_SLOTS 8 /* the slot array; at most VF_MAX_TASKS are ever in use */
#define VF_MAX_OPS 48

/* Shared addresses.  Each is one word (or byte, where the runtime stores a
 * byte) of the runtime's deque, a slot, or a line the worker writes. */
enum vf_addr {
  A_T,    /* ws_dq.T: the owner's tail slot */
  A_H,    /* ws_dq.H: <tag, head slot>, packed by VF_PACK */
  A_LOCK, /* THE, FF-THE, THEP */
  A_P,    /* THEP: the echo of H */
  A_TAIL, /* split: ts = <split:32, tail:32>, its two halves */
  A_SPLIT,
  A_ALLSTOLEN,    /* split: allstolen, the thieves' flag */
  A_SPLITREQ,     /* split: sp_flags.b.splitreq, a byte */
  A_SP_ALLSTOLEN, /* split: sp_flags.b.allstolen, the owner's byte */
  A_REQUEST,      /* private: the owner's request cell */
  A_TRANSFER0,    /* private: thief k's transfer cell is A_TRANSFER0 + k - 1 */
  A_SCRATCH = A_TRANSFER0 + VF_MAX_THIEVES, /* ws_tls_scratch[0] (§7.3) */
  A_X0,  /* the client's stores between takes, A_X0 .. A_X0 + VF_MAX_X - 1 */
  A_SLOT0 = A_X0 + VF_MAX_X,     /* slot i: the task written into it */
  A_STATE0 = A_SLOT0 + VF_SLOTS, /* slot i's state word (ws_slot.state) */
  A_NADDR = A_STATE0 + VF_SLOTS,
  A_TS = A_NADDR, /* buffer entries only: a 64-bit store of (tail, split) */
  A_NONE = 0xff
};

#define VF_SLOT(i) (A_SLOT0 + (i))
#define VF_STATE(i) (A_STATE0 + (i))
#define VF_TS(tail, split) ((int8_t)((split) * 16 + (tail)))

/* H = <tag, head>: the tag is THEP's s and Chase-Lev's reset counter, 0
 * for THE and FF-THE.  Indices stay below VF_SLOTS. */
#define VF_PACK(tag, h) ((tag) * VF_SLOTS + (h))
#define VF_TAG(H) ((H) / VF_SLOTS)
#define VF_HEAD(H) ((H) % VF_SLOTS)

/* The runtime's special pointers and cells, as the model's small numbers. */
#define VF_NO_ECHO (-1)       /* THEP: P = ⊥ (the runtime's 1: no H is odd) */
#define VF_ALLSTOLEN 127      /* split: o_split = WS_ALLSTOLEN, above every slot */
#define VF_EMPTY_SLOT (-1)    /* private: WS_EMPTY handed over (no work) */
#define VF_TRANSFER_WAIT (-2) /* private: WS_TRANSFER_WAIT */
#define VF_NO_REQUEST (-1)    /* private: WS_NO_REQUEST */
#define VF_REQUESTS_CLOSED (-2)
#define VF_REQUEST_ANSWERING (-3) /* private: WS_REQUEST_ANSWERING */
#define VF_DONE 1 /* a slot's state: WS_TASK_DONE (the thief's address left out) */

typedef struct vf_store {
  uint8_t addr; /* A_NONE: empty */
  int8_t val;
  /* Low bits (VF_PUB_MASK), ghost: the task id whose push() wrote this T,
   * or 0.  --memory=weak only: VF_ST_REL, a release store (stlr, or the
   * store of a release RMW): no later store passes it... it passes no
   * earlier one; VF_ST_RMW, the store of an RMW (stlxr): no other thread
   * writes the address until it drains. */
  uint8_t publishes;
} vf_store;
#define VF_PUB_MASK 0x3f
#define VF_ST_REL 0x40
#define VF_ST_RMW 0x80

/* Where a thread is. */
enum vf_phase {
  PH_IDLE,    /* between operations */
  PH_DEQUE,   /* in the variant's code (pc = its step) */
  PH_CLIENT,  /* in the scenario's own steps (pc = enum vf_client_step) */
  PH_FINISHED /* program complete */
};

/* The steps the scenario makes itself: compiled code's and the scheduler's
 * (scheduler.c), the same for every variant. */
enum vf_client_step {
  C_PUT_SLOT = 1, /* compiled code writes the task into slot t */
  C_STORE,        /* one of the client's stores between two takes */
  C_JOIN_T,       /* __ws_join: T := t + 1 */
  C_JOIN_WAIT,    /* __ws_join: is the stolen task done? */
  C_JOIN_CLEAR,   /* __ws_join: t->state = 0, then ops->reset */
  C_RUN_SLOT,     /* a thief runs the task in the slot it stole */
  C_RUN_DONE,     /* ... and marks it done */
  C_NSTEPS
};

/* RET_EMPTY_HINT: the EMPTY of the runtime's unlocked look before locking.
 * Two loads outside the lock cannot tell a provisional H := h + 1 of a thief
 * that will back off from a real one, so that EMPTY is a hint, like ABORT;
 * the scheduler treats the two alike.  The paper's EMPTYs are RET_EMPTY. */
enum vf_ret { RET_NONE, RET_TASK, RET_EMPTY, RET_EMPTY_HINT, RET_ABORT };

typedef struct vf_thread {
  uint8_t op, phase, pc;
  uint8_t nsb;
  vf_store sb[VF_MAX_S]; /* FIFO: sb[0] is the oldest */
  vf_store b;            /* §7.3 buffer B between the store buffer and memory */
  /* The locals of the C code, by their names there (a thief's t, h, H; the
   * owner's H, new_s, j, head in h).  task: the slot a thief stole. */
  int8_t t, h, s, H, task, ret, new_s, j;
  /* Owner-private fields of the deque: only the owner reads them, so they
   * live in registers (split: o_split; private: o_head). */
  int8_t o_split, o_head;
  uint8_t caller;    /* where a shared piece of the variant's code returns to */
  uint8_t saw_empty; /* ghost: the deque was empty at some moment of this steal */
} vf_thread;

typedef struct vf_state {
  int8_t mem[A_NADDR];
  vf_thread th[VF_MAX_THREADS]; /* 0: the worker; 1..: thieves */
  /* Ghost variables (task id k is bit k-1 / index k-1). */
  uint8_t removed_by[VF_MAX_TASKS]; /* 0 not removed, 1 worker, 2 thief */
  uint8_t pushed;    /* the worker wrote it into its slot (a block's tasks
                        exist only when the block runs) */
  uint8_t visible;   /* the push's T store reached memory */
  uint8_t announced; /* the worker's take() has stored T := t for it */
} vf_state;

enum vf_buffer { BUF_PLAIN, BUF_B, BUF_COALESCE };

/* The worker's program, compiled from the script (config.c). */
enum vf_opkind {
  OP_PUT,      /* write task `arg` into slot `slot`, then push() */
  OP_TAKE,     /* take(slot); when the worker keeps the task: go to `skip` */
  OP_JOIN,     /* __ws_join(slot) after a stolen take; skip != 0: a block
                  of work follows (leapfrogging), skip is past its OP_JOIN_END */
  OP_JOIN_END, /* the rest of that join, after the block */
  OP_STORE,    /* a client store, to A_X0 + arg */
  OP_QUIESCE,  /* the worker stops for good (ops->quiesce) */
  OP_STEAL     /* a thief's steal() */
};
typedef struct vf_op {
  uint8_t kind;
  uint8_t arg;  /* the task id; OP_STORE: the client address */
  uint8_t slot; /* the slot index t that compiled code passes */
  uint8_t skip;
} vf_op;

/* Negative controls: things of the runtime's code a run leaves out. */
enum vf_drop {
  DROP_FENCE = 1,                /* the, cl, split: the worker's fence */
  DROP_ANTICOALESCE = 2,         /* ffthe, ffcl: the take's anti-coalescing store */
  DROP_RESET_TAG = 4,        /* cl, ffcl: ws_cl_reset keeps H's tag */
  DROP_TAKE_TAG = 8,         /* cl, ffcl: the take's move down keeps H's tag */
  DROP_RESET_LOCK = 16,      /* the, ffthe, thep: reset without the lock */
  DROP_RESET_ALLSTOLEN = 32, /* split: reset leaves allstolen as it is */
  DROP_RESET = 64,           /* every variant: no ops->reset after a join */
  DROP_QUIESCE = 128,        /* private: the worker stops without closing */
  DROP_BARRIER = 256,        /* ffmb: the thief's barrier on the owner */
  DROP_FENCED_PEEK = 512,    /* the, cl: the take reads H with a plain load
                                (ws_th_peek_head, before dfa1a27) */
  DROP_CLAIM = 1024,         /* private: the owner answers a request without
                                claiming it first */
  DROP_TAKE_BACK = 2048      /* private: a thief waits for its answer forever */
};

/* --memory=weak: the memory order of a step's access, read from the C
 * statement the step quotes (config.c, vf_order_of). */
enum vf_order { VO_PLAIN, VO_RLX, VO_ACQ, VO_REL, VO_ACQ_REL, VO_SC, VO_FULL };
#define VF_MAX_STEPS 64

/* --delta=inf: no S is trusted (FF-MB's delta_validated = INT64_MAX), so
 * no T - delta > h ever holds. */
#define VF_DELTA_INF 1000

typedef struct vf_variant vf_variant;

typedef struct vf_config {
  const vf_variant *v;
  int take_stores; /* stores of the take itself counted in x (variants.def) */
  int S, x, delta, tasks, thieves, steals;
  enum vf_buffer buffer;
  unsigned drop;   /* enum vf_drop */
  int strict_peek; /* check the EMPTY of the unlocked peek like the paper's */
  char script[VF_MAX_OPS + 1];
  vf_op worker[VF_MAX_OPS];
  int nworker;
  uint8_t left;                  /* tasks the script never takes (bit k-1) */
  uint8_t slot_of[VF_MAX_TASKS]; /* the slot task k is pushed into */
  long max_states;
  int quiet;
  int weak; /* --memory=weak (tso.c) */
  uint8_t order[VF_MAX_STEPS];        /* enum vf_order of each model step */
  uint8_t client_order[C_NSTEPS];     /* ... and of the scenario's steps */
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
  int wait;         /* --memory=weak: the access must wait (the step blocks) */
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
  /* Statements of a function the step calls and models as one action (FF-MB's
   * barrier: membarrier.c), in also_file; checked like `code`. */
  const char *also_file;
  const char *also[3];
} vf_step_info;

struct vf_variant {
  const char *name;
  int relaxed; /* steal() may return ABORT (paper 000 §4 relaxed specification) */
  int hides_private; /* steal() may return EMPTY while tasks are private */
  unsigned drops;    /* the enum vf_drop this model can leave out */
  /* Entry steps; 0: none (idle, quiesce). */
  uint8_t put_pc, take_pc, steal_pc, reset_pc, idle_pc, quiesce_pc;
  const vf_step_info *steps;
  int nsteps;
  void (*init)(vf_state *s); /* initial memory, if not all zero; may be NULL */
  int (*step)(vf_ctx *c);
  /* The index below which thieves have claimed every task: the head of H in
   * memory (a thief's H := h + 1 announces its steal of slot h).  NULL:
   * thieves see only what the owner shares (hides_private). */
  int (*claimed_below)(const vf_state *s);
  /* The thread spins in a wait loop whose exit conditions are false now
   * (waits on a lock are blocked steps instead).  May be NULL. */
  int (*waiting)(vf_ctx *c);
  /* Prints the deque's words in memory, for the trace. */
  void (*show)(const int8_t *mem);
};

/* The models: the rows of ws/variants.def with model = 1. */
#define VF_IF_MODEL_0(...)
#define VF_IF_MODEL_1(...) __VA_ARGS__
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail, validated_only, summary) \
  VF_IF_MODEL_##model(extern const vf_variant vf_##name;)
#include "ws/variants.def"
#undef WS_VARIANT

typedef struct vf_model {
  const vf_variant *v;
  int take_stores; /* variants.def: stores every take() makes after its T store */
} vf_model;
extern const vf_model vf_models[]; /* ends with {NULL} */
const vf_model *vf_model_by_name(const char *name);
extern const vf_step_info vf_client_steps[C_NSTEPS];

/* tso.c: the machine. */
int vf_load(vf_ctx *c, int addr);
void vf_load_ts(vf_ctx *c, int8_t *tail, int8_t *split); /* one 64-bit load */
int vf_load_pair(vf_ctx *c, int lo, int hi); /* one load of two bytes: lo|hi */
int vf_store_(vf_ctx *c, int addr, int val, int publishes);
#define vf_store(c, a, v) vf_store_((c), (a), (v), 0)
int vf_drained(const vf_thread *th);
int vf_xchg(vf_ctx *c, int addr, int val);
int vf_cas(vf_ctx *c, int addr, int expect, int val);
int vf_cas_ts(vf_ctx *c, int tail, int split);
int vf_can_drain(const vf_config *cfg, const vf_thread *th);
void vf_drain(const vf_config *cfg, vf_state *s, int tid, vf_note *note);
/* Entry i of thread tid's buffer may reach memory now (TSO: i = 0 only). */
int vf_can_drain_at(const vf_config *cfg, const vf_state *s, int tid, int i);
void vf_drain_at(const vf_config *cfg, vf_state *s, int tid, int i, vf_note *note);
int vf_order_now(const vf_ctx *c); /* enum vf_order of the access being made */
void vf_flush_b(vf_state *s, int tid, vf_note *note);
void vf_barrier_on(vf_ctx *c, int tid); /* thread tid's buffer and B to memory */
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
int vf_slot(const vf_ctx *c); /* the worker's t: the slot of its current op */
int vf_goto(vf_ctx *c, int pc);
int vf_continue(vf_ctx *c, int pc); /* goto, and run that step now */
int vf_put_return(vf_ctx *c);
int vf_take_return(vf_ctx *c, int stolen);
int vf_steal_return(vf_ctx *c, int ret, int slot);
int vf_reset_return(vf_ctx *c);
int vf_idle_return(vf_ctx *c);
int vf_quiesce_return(vf_ctx *c);
void vf_announce_take(vf_ctx *c);
int vf_store_fenced(vf_ctx *c, int addr, int val);
int vf_dropped(const vf_ctx *c, unsigned what);
int vf_violation(vf_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
extern int vf_saw_steal; /* some execution stole a task (run statistics) */

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
const char *vf_delta_name(int delta, char *buf, size_t n); /* "inf" or the number */
const char *vf_drop_names(unsigned drop, char *buf, size_t n);
int vf_order_of(const char *code, unsigned drop); /* enum vf_order */
typedef struct vf_helper {
  const char *call; /* as a quote calls it, e.g. "ws_store_tail(" */
  int order;        /* enum vf_order of its access */
  const char *file, *definition; /* where the runtime defines it (checked) */
} vf_helper;
extern const vf_helper vf_helpers[]; /* ends with {NULL} */
const char *vf_order_name(int order);

/* Moves (explore.c, trace.c): a thread's step, the drain of its oldest
 * buffered store, the write of B, and (--memory=weak) the drain of its
 * entry i >= 1. */
#define VF_MOVE_STEP 0
#define VF_MOVE_DRAIN 1
#define VF_MOVE_FLUSH_B 2
#define VF_MOVE_KINDS (2 + VF_MAX_S)
#define VF_MOVE_DRAIN_AT(i) (2 + (i))
#define VF_MOVE(tid, kind) ((uint8_t)((tid) * VF_MOVE_KINDS + (kind)))

#endif
