/*
 * omp/api.c — the omp_* routines (runtime/include/ws/openmp/omp.h):
 * queries of the team and the task, the ICVs' setters, locks (plain and
 * nested, owned by tasks), the wall clock, memory allocators (the
 * predefined ones; traits are ignored), and what a host without devices,
 * places or teams answers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "icv.h"
#include "kmp.h"
#include "lock.h"
#include "state.h"
#include "team.h"

/* The values of omp.h's enums (as libomp's). */
enum { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3,
       omp_sched_auto = 4, omp_sched_monotonic = (int)0x80000000u };

typedef struct omp_lock_t {
  void *_lk;
} omp_lock_t;
typedef struct omp_nest_lock_t {
  void *_lk;
} omp_nest_lock_t;

static inline ws_omp_itask *itask(void) { return ws_omp_cur()->itask; }

/* ---- threads and teams ---- */

void omp_set_num_threads(int n) {
  if (n >= 1)
    itask()->nthreads_var = n;
}

int omp_get_num_threads(void) { return itask()->team->nthreads; }
int omp_get_thread_num(void) { return itask()->tid; }
int omp_get_max_threads(void) { return ws_omp_max_threads(); }

int omp_get_num_procs(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

int omp_in_parallel(void) { return itask()->team->active_level > 0; }
int omp_get_level(void) { return itask()->team->level; }
int omp_get_active_level(void) { return itask()->team->active_level; }

int omp_get_ancestor_thread_num(int level) {
  ws_omp_itask *it = itask();
  ws_omp_team *t = it->team;
  if (level < 0 || level > t->level)
    return -1;
  int tid = it->tid;
  for (; t && t->level > level; t = t->parent)
    tid = t->parent_tid;
  return tid;
}

int omp_get_team_size(int level) {
  ws_omp_team *t = itask()->team;
  if (level < 0 || level > t->level)
    return -1;
  while (t->level > level && t->parent)
    t = t->parent;
  return t->nthreads;
}

int omp_get_thread_limit(void) {
  ws_omp_init();
  return ws_omp_icvs.thread_limit;
}

/* Nested regions run serialized: one active level is all there is. */
int omp_get_supported_active_levels(void) { return 1; }

void omp_set_max_active_levels(int n) {
  ws_omp_init();
  if (n >= 0)
    ws_omp_icvs.max_active_levels = n > 1 ? 1 : n;
}

int omp_get_max_active_levels(void) {
  ws_omp_init();
  return ws_omp_icvs.max_active_levels > 1 ? 1 : ws_omp_icvs.max_active_levels;
}

void omp_set_nested(int nested) { omp_set_max_active_levels(nested ? INT_MAX : 1); }
int omp_get_nested(void) { return omp_get_max_active_levels() > 1; }

void omp_set_dynamic(int dynamic) { itask()->dyn_var = dynamic != 0; }
int omp_get_dynamic(void) { return itask()->dyn_var; }

int omp_get_cancellation(void) {
  ws_omp_init();
  return ws_omp_icvs.cancellation;
}

void omp_set_schedule(int kind, int chunk) {
  static const int sched[] = {0, kmp_sch_static, kmp_sch_dynamic_chunked,
                              kmp_sch_guided_chunked, kmp_sch_auto};
  int k = kind & ~omp_sched_monotonic;
  if (k < omp_sched_static || k > omp_sched_auto)
    return;
  ws_omp_itask *it = itask();
  it->sched_var = sched[k];
  it->chunk_var = chunk < 1 ? 0 : chunk;
}

void omp_get_schedule(int *kind, int *chunk) {
  ws_omp_itask *it = itask();
  switch (it->sched_var) {
  case kmp_sch_dynamic_chunked: *kind = omp_sched_dynamic; break;
  case kmp_sch_guided_chunked: *kind = omp_sched_guided; break;
  case kmp_sch_auto: *kind = omp_sched_auto; break;
  default: *kind = omp_sched_static; break;
  }
  *chunk = (int)it->chunk_var;
}

/* ---- tasks ---- */

int omp_in_final(void) { return (ws_omp_cur()->flags & WS_OMP_F_FINAL) != 0; }
int omp_in_explicit_task(void) { return ws_omp_cur()->kind != WS_OMP_KIND_IMPLICIT; }
int omp_get_max_task_priority(void) { return 0; }

/* ---- the wall clock ---- */

double omp_get_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double omp_get_wtick(void) {
  struct timespec ts;
  if (clock_getres(CLOCK_MONOTONIC, &ts))
    return 1e-9;
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- locks: a plain lock is its word; a nested one, a record ---- */

static _Atomic uint32_t *word(omp_lock_t *l) { return (_Atomic uint32_t *)l; }

void omp_init_lock(omp_lock_t *l) { l->_lk = NULL; }
void omp_init_lock_with_hint(omp_lock_t *l, int hint) {
  (void)hint;
  omp_init_lock(l);
}
void omp_destroy_lock(omp_lock_t *l) { (void)l; }
void omp_set_lock(omp_lock_t *l) { ws_omp_lock(word(l)); }
void omp_unset_lock(omp_lock_t *l) { ws_omp_unlock(word(l)); }
int omp_test_lock(omp_lock_t *l) { return ws_omp_trylock(word(l)); }

typedef struct ws_omp_nest {
  _Atomic uint32_t word;
  _Atomic(ws_omp_task *) owner;
  int count;
} ws_omp_nest;

static ws_omp_nest *nest(omp_nest_lock_t *l) {
  if (!l->_lk)
    ws_fatal("an OpenMP nested lock used before omp_init_nest_lock");
  return l->_lk;
}

void omp_init_nest_lock(omp_nest_lock_t *l) {
  ws_omp_nest *n = calloc(1, sizeof *n);
  if (!n)
    ws_fatal("out of memory for an OpenMP nested lock");
  l->_lk = n;
}
void omp_init_nest_lock_with_hint(omp_nest_lock_t *l, int hint) {
  (void)hint;
  omp_init_nest_lock(l);
}
void omp_destroy_nest_lock(omp_nest_lock_t *l) {
  free(l->_lk);
  l->_lk = NULL;
}

void omp_set_nest_lock(omp_nest_lock_t *l) {
  ws_omp_nest *n = nest(l);
  ws_omp_task *me = ws_omp_cur();
  if (atomic_load_explicit(&n->owner, ws_relaxed) != me) {
    ws_omp_lock(&n->word);
    atomic_store_explicit(&n->owner, me, ws_relaxed);
  }
  n->count++;
}

void omp_unset_nest_lock(omp_nest_lock_t *l) {
  ws_omp_nest *n = nest(l);
  if (--n->count == 0) {
    atomic_store_explicit(&n->owner, NULL, ws_relaxed);
    ws_omp_unlock(&n->word);
  }
}

int omp_test_nest_lock(omp_nest_lock_t *l) {
  ws_omp_nest *n = nest(l);
  ws_omp_task *me = ws_omp_cur();
  if (atomic_load_explicit(&n->owner, ws_relaxed) != me) {
    if (!ws_omp_trylock(&n->word))
      return 0;
    atomic_store_explicit(&n->owner, me, ws_relaxed);
  }
  return ++n->count;
}

/* ---- memory: a header before each block says where it starts ---- */

typedef uintptr_t omp_allocator_handle_t;
#define WS_OMP_ALLOC_ALIGN 64

static __thread omp_allocator_handle_t default_allocator = 1;

void *omp_aligned_alloc(size_t align, size_t size, omp_allocator_handle_t a) {
  (void)a;
  if (align < WS_OMP_ALLOC_ALIGN)
    align = WS_OMP_ALLOC_ALIGN;
  if (align & (align - 1))
    return NULL;
  size_t total = (align + size + align - 1) & ~(align - 1);
  char *base = aligned_alloc(align, total);
  if (!base)
    return NULL;
  char *p = base + align;
  ((void **)p)[-1] = base;
  ((size_t *)p)[-2] = size;
  return p;
}

void *omp_alloc(size_t size, omp_allocator_handle_t a) {
  return omp_aligned_alloc(WS_OMP_ALLOC_ALIGN, size, a);
}

void *omp_aligned_calloc(size_t align, size_t n, size_t size, omp_allocator_handle_t a) {
  if (size && n > SIZE_MAX / size)
    return NULL;
  void *p = omp_aligned_alloc(align, n * size, a);
  if (p)
    memset(p, 0, n * size);
  return p;
}

void *omp_calloc(size_t n, size_t size, omp_allocator_handle_t a) {
  return omp_aligned_calloc(WS_OMP_ALLOC_ALIGN, n, size, a);
}

void omp_free(void *p, omp_allocator_handle_t a) {
  (void)a;
  if (p)
    free(((void **)p)[-1]);
}

void *omp_realloc(void *p, size_t size, omp_allocator_handle_t a,
                  omp_allocator_handle_t free_a) {
  if (!p)
    return omp_alloc(size, a);
  if (!size) {
    omp_free(p, free_a);
    return NULL;
  }
  void *q = omp_alloc(size, a);
  if (!q)
    return NULL;
  size_t old = ((size_t *)p)[-2];
  memcpy(q, p, old < size ? old : size);
  omp_free(p, free_a);
  return q;
}

void omp_set_default_allocator(omp_allocator_handle_t a) { default_allocator = a; }
omp_allocator_handle_t omp_get_default_allocator(void) { return default_allocator; }

omp_allocator_handle_t omp_init_allocator(uintptr_t memspace, int ntraits,
                                          const void *traits) {
  (void)memspace;
  (void)ntraits;
  (void)traits;
  return 1; /* omp_default_mem_alloc */
}
void omp_destroy_allocator(omp_allocator_handle_t a) { (void)a; }

/* The allocate directive and clause. */
void *__kmpc_alloc(int32_t gtid, size_t size, omp_allocator_handle_t a) {
  (void)gtid;
  return omp_alloc(size, a);
}
void *__kmpc_aligned_alloc(int32_t gtid, size_t align, size_t size,
                           omp_allocator_handle_t a) {
  (void)gtid;
  return omp_aligned_alloc(align, size, a);
}
void __kmpc_free(int32_t gtid, void *p, omp_allocator_handle_t a) {
  (void)gtid;
  omp_free(p, a);
}
omp_allocator_handle_t __kmpc_init_allocator(int32_t gtid, uintptr_t memspace,
                                             int ntraits, const void *traits) {
  (void)gtid;
  return omp_init_allocator(memspace, ntraits, traits);
}
void __kmpc_destroy_allocator(int32_t gtid, omp_allocator_handle_t a) {
  (void)gtid;
  (void)a;
}

/* ---- a host without devices, places or teams ---- */

int omp_get_num_devices(void) { return 0; }
int omp_get_default_device(void) { return 0; }
void omp_set_default_device(int d) { (void)d; }
int omp_is_initial_device(void) { return 1; }
int omp_get_initial_device(void) { return 0; }
int omp_get_device_num(void) { return 0; }
int omp_get_num_teams(void) { return 1; }
int omp_get_team_num(void) { return 0; }
void omp_set_num_teams(int n) { (void)n; }
int omp_get_max_teams(void) { return 1; }
void omp_set_teams_thread_limit(int n) { (void)n; }
int omp_get_teams_thread_limit(void) { return omp_get_thread_limit(); }
int omp_get_proc_bind(void) { return 0; /* omp_proc_bind_false */ }
int omp_get_num_places(void) { return 0; }
int omp_get_place_num_procs(int place) {
  (void)place;
  return 0;
}
void omp_get_place_proc_ids(int place, int *ids) {
  (void)place;
  (void)ids;
}
int omp_get_place_num(void) { return -1; }
int omp_get_partition_num_places(void) { return 0; }
void omp_get_partition_place_nums(int *places) { (void)places; }
/* The team's workers that wait for its next region go back to the
 * runtime (then ws_set_num_workers may change the count). */
int omp_pause_resource(int kind, int device) {
  (void)kind;
  if (device != omp_get_initial_device())
    return -1;
  ws_omp_release_team();
  return 0;
}
int omp_pause_resource_all(int kind) { return omp_pause_resource(kind, 0); }
int omp_control_tool(int command, int modifier, void *arg) {
  (void)command;
  (void)modifier;
  (void)arg;
  return -2; /* omp_control_tool_notool */
}

void omp_display_env(int verbose) {
  (void)verbose;
  ws_omp_init();
  fflush(stdout);
  fprintf(stderr,
          "OPENMP DISPLAY ENVIRONMENT BEGIN\n"
          "  _OPENMP = '201811'\n"
          "  [host] OMP_NUM_THREADS = '%d'\n"
          "  [host] OMP_THREAD_LIMIT = '%d'\n"
          "  [host] OMP_MAX_ACTIVE_LEVELS = '%d'\n"
          "  [host] OMP_CANCELLATION = '%s'\n"
          "  [host] OMP_DYNAMIC = '%s'\n"
          "  wsff: the team of a region is the runtime's workers (docs/openmp.md)\n"
          "OPENMP DISPLAY ENVIRONMENT END\n",
          ws_omp_max_threads(), ws_omp_icvs.thread_limit, omp_get_max_active_levels(),
          ws_omp_icvs.cancellation ? "TRUE" : "FALSE",
          itask()->dyn_var ? "TRUE" : "FALSE");
}
