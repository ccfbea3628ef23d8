/*
 * omp/kmp.h — the parts of libomp's binary interface that clang 19's
 * OpenMP code generation uses (the names and layouts of LLVM's
 * openmp/runtime/src/kmp.h, written here from that interface): what a
 * location, a task, a critical name, a schedule and a task reduction look
 * like to compiled code.  Types only.
 */
#ifndef WS_OMP_KMP_H
#define WS_OMP_KMP_H

#include <stddef.h>
#include <stdint.h>

/* A source location: clang passes one to most entry points. */
typedef struct ident {
  int32_t reserved_1;
  int32_t flags; /* KMP_IDENT_* */
  int32_t reserved_2;
  int32_t reserved_3;
  const char *psource; /* ";file;function;line;column;;" */
} ident_t;

/* ident_t.flags: the construct may combine its reduction with atomic
 * instructions (clang sets it when every reduction item allows it). */
#define KMP_IDENT_ATOMIC_REDUCE 0x10

/* A parallel region's outlined function: the thread's gtid and its number
 * in the team, then the region's shared variables. */
typedef void (*kmpc_micro)(int32_t *gtid, int32_t *btid, ...);

/* A task's entry: (gtid, the kmp_task_t).  Returns 0. */
typedef int32_t (*kmp_routine_entry_t)(int32_t gtid, void *task);

typedef union kmp_cmplrdata {
  int32_t priority;
  kmp_routine_entry_t destructors;
} kmp_cmplrdata_t;

/* What __kmpc_omp_task_alloc returns: the compiler's private copies
 * (firstprivates, a taskloop's bounds) follow it, within the size the
 * compiler asked for. */
typedef struct kmp_task {
  void *shareds; /* the block of pointers to shared variables */
  kmp_routine_entry_t routine;
  int32_t part_id; /* an untied task's next part */
  kmp_cmplrdata_t data1; /* destructors */
  kmp_cmplrdata_t data2; /* priority */
} kmp_task_t;

/* The flags argument of __kmpc_omp_task_alloc (kmp_tasking_flags_t, its
 * compiler half). */
#define KMP_TASK_TIED 0x1
#define KMP_TASK_FINAL 0x2
#define KMP_TASK_MERGED_IF0 0x4
#define KMP_TASK_DESTRUCTORS 0x8
#define KMP_TASK_PROXY 0x10
#define KMP_TASK_PRIORITY 0x20
#define KMP_TASK_DETACHABLE 0x40
#define KMP_TASK_HIDDEN_HELPER 0x80

/* A critical section's name: 32 zeroed bytes per name, common to the
 * program. */
typedef int32_t kmp_critical_name[8];

/* Loop schedules (enum sched_type). */
enum {
  kmp_sch_static_chunked = 33,
  kmp_sch_static = 34,
  kmp_sch_dynamic_chunked = 35,
  kmp_sch_guided_chunked = 36,
  kmp_sch_runtime = 37,
  kmp_sch_auto = 38,
  kmp_sch_trapezoidal = 39,
  kmp_sch_static_greedy = 40,
  kmp_sch_static_balanced = 41,
  kmp_sch_guided_iterative_chunked = 42,
  kmp_sch_guided_analytical_chunked = 43,
  kmp_sch_static_steal = 44,
  kmp_sch_static_balanced_chunked = 45,
  kmp_sch_guided_simd = 46,
  kmp_sch_runtime_simd = 47,
  kmp_ord_lower = 64,
  kmp_ord_upper = 72,
  kmp_distribute_static_chunked = 91,
  kmp_distribute_static = 92,
  kmp_nm_lower = 160, /* "nomerge" forms: kmp_sch_* + 128 */
  kmp_nm_upper = 200,
};
#define KMP_SCH_MODIFIER_MONOTONIC (1 << 29)
#define KMP_SCH_MODIFIER_NONMONOTONIC (1 << 30)
#define KMP_SCH_WITHOUT_MODIFIERS(s)                                          \
  ((s) & ~(KMP_SCH_MODIFIER_MONOTONIC | KMP_SCH_MODIFIER_NONMONOTONIC))

/* A task reduction item (__kmpc_taskred_init; taskloop and taskgroup
 * task_reduction).  init(private, original), comb(shared, private),
 * fini(private). */
typedef struct kmp_taskred_input {
  void *reduce_shar;
  void *reduce_orig;
  size_t reduce_size;
  void *reduce_init;
  void *reduce_fini;
  void *reduce_comb;
  uint32_t flags; /* bit 0: lazy_priv */
} kmp_taskred_input_t;

#endif
