/*
 * omp.h — the OpenMP API of wsff's runtime.  ws-clang -fopenmp
 * -fws-fencefree puts this directory before clang's own headers, so that
 * programs see the routines libws implements, and only those: a routine
 * of libomp's that is missing here (device memory, interop, affinity
 * display, the kmp_ extensions) is a compile-time error, never an
 * undefined symbol at link time.  Types and values are libomp's, so that
 * code built against either header agrees.  docs/openmp.md says what each
 * routine answers here and where that differs from libomp.
 */
#ifndef WS_OMP_H
#define WS_OMP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4,
  omp_sched_monotonic = (int)0x80000000
} omp_sched_t;

typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_master = 2,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4,
  omp_proc_bind_primary = 2
} omp_proc_bind_t;

typedef enum omp_sync_hint_t {
  omp_sync_hint_none = 0,
  omp_lock_hint_none = omp_sync_hint_none,
  omp_sync_hint_uncontended = 1,
  omp_lock_hint_uncontended = omp_sync_hint_uncontended,
  omp_sync_hint_contended = (1 << 1),
  omp_lock_hint_contended = omp_sync_hint_contended,
  omp_sync_hint_nonspeculative = (1 << 2),
  omp_lock_hint_nonspeculative = omp_sync_hint_nonspeculative,
  omp_sync_hint_speculative = (1 << 3),
  omp_lock_hint_speculative = omp_sync_hint_speculative
} omp_sync_hint_t;
typedef omp_sync_hint_t omp_lock_hint_t;

typedef enum omp_pause_resource_t {
  omp_pause_soft = 1,
  omp_pause_hard = 2
} omp_pause_resource_t;

typedef enum omp_control_tool_result_t {
  omp_control_tool_notool = -2,
  omp_control_tool_nocallback = -1,
  omp_control_tool_success = 0,
  omp_control_tool_ignored = 1
} omp_control_tool_result_t;

/* Locks: one pointer each, as libomp's. */
typedef struct omp_lock_t {
  void *_lk;
} omp_lock_t;
typedef struct omp_nest_lock_t {
  void *_lk;
} omp_nest_lock_t;

/* Memory allocators: the predefined ones (traits are accepted and
 * ignored; every allocator is the default one). */
typedef uintptr_t omp_uintptr_t;
typedef enum omp_alloctrait_key_t {
  omp_atk_sync_hint = 1,
  omp_atk_alignment = 2,
  omp_atk_access = 3,
  omp_atk_pool_size = 4,
  omp_atk_fallback = 5,
  omp_atk_fb_data = 6,
  omp_atk_pinned = 7,
  omp_atk_partition = 8
} omp_alloctrait_key_t;
typedef struct omp_alloctrait_t {
  omp_alloctrait_key_t key;
  omp_uintptr_t value;
} omp_alloctrait_t;
typedef enum omp_allocator_handle_t {
  omp_null_allocator = 0,
  omp_default_mem_alloc = 1,
  omp_large_cap_mem_alloc = 2,
  omp_const_mem_alloc = 3,
  omp_high_bw_mem_alloc = 4,
  omp_low_lat_mem_alloc = 5,
  omp_cgroup_mem_alloc = 6,
  omp_pteam_mem_alloc = 7,
  omp_thread_mem_alloc = 8,
  KMP_ALLOCATOR_MAX_HANDLE = UINTPTR_MAX
} omp_allocator_handle_t;
typedef enum omp_memspace_handle_t {
  omp_default_mem_space = 0,
  omp_large_cap_mem_space = 1,
  omp_const_mem_space = 2,
  omp_high_bw_mem_space = 3,
  omp_low_lat_mem_space = 4,
  KMP_MEMSPACE_MAX_HANDLE = UINTPTR_MAX
} omp_memspace_handle_t;

/* detach and depobj compile; their constructs stop the program when they
 * run (docs/openmp.md). */
typedef enum omp_event_handle_t { KMP_EVENT_MAX_HANDLE = UINTPTR_MAX } omp_event_handle_t;
typedef void *omp_depend_t;

/* Threads and teams.  A team is at most the worker count (WS_NUM_WORKERS;
 * OMP_NUM_THREADS sets it where WS_NUM_WORKERS does not). */
void omp_set_num_threads(int num_threads);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int dynamic_threads);
int omp_get_dynamic(void);
int omp_get_cancellation(void);
void omp_set_nested(int nested);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t kind, int chunk_size);
void omp_get_schedule(omp_sched_t *kind, int *chunk_size);
int omp_get_thread_limit(void);
int omp_get_supported_active_levels(void);
void omp_set_max_active_levels(int max_levels);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int level);
int omp_get_team_size(int level);
int omp_get_active_level(void);

/* Tasks. */
int omp_in_final(void);
int omp_in_explicit_task(void);
int omp_get_max_task_priority(void);
void omp_fulfill_event(omp_event_handle_t event);

/* Places, devices, teams: a host with none of them. */
omp_proc_bind_t omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_place_num_procs(int place_num);
void omp_get_place_proc_ids(int place_num, int *ids);
int omp_get_place_num(void);
int omp_get_partition_num_places(void);
void omp_get_partition_place_nums(int *place_nums);
void omp_set_default_device(int device_num);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_device_num(void);
int omp_get_num_teams(void);
int omp_get_team_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);
void omp_set_num_teams(int num_teams);
int omp_get_max_teams(void);
void omp_set_teams_thread_limit(int thread_limit);
int omp_get_teams_thread_limit(void);
int omp_pause_resource(omp_pause_resource_t kind, int device_num);
int omp_pause_resource_all(omp_pause_resource_t kind);
int omp_control_tool(int command, int modifier, void *arg);
void omp_display_env(int verbose);

/* Locks. */
void omp_init_lock(omp_lock_t *lock);
void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_sync_hint_t hint);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
int omp_test_nest_lock(omp_nest_lock_t *lock);

/* Timing. */
double omp_get_wtime(void);
double omp_get_wtick(void);

/* Memory. */
omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t m, int ntraits,
                                          const omp_alloctrait_t traits[]);
void omp_destroy_allocator(omp_allocator_handle_t allocator);
void omp_set_default_allocator(omp_allocator_handle_t a);
omp_allocator_handle_t omp_get_default_allocator(void);
#ifdef __cplusplus
void *omp_alloc(size_t size, omp_allocator_handle_t a = omp_null_allocator);
void *omp_aligned_alloc(size_t align, size_t size,
                        omp_allocator_handle_t a = omp_null_allocator);
void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t a = omp_null_allocator);
void *omp_aligned_calloc(size_t align, size_t nmemb, size_t size,
                         omp_allocator_handle_t a = omp_null_allocator);
void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t a = omp_null_allocator,
                  omp_allocator_handle_t free_a = omp_null_allocator);
void omp_free(void *ptr, omp_allocator_handle_t a = omp_null_allocator);
#else
void *omp_alloc(size_t size, omp_allocator_handle_t a);
void *omp_aligned_alloc(size_t align, size_t size, omp_allocator_handle_t a);
void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t a);
void *omp_aligned_calloc(size_t align, size_t nmemb, size_t size, omp_allocator_handle_t a);
void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t a,
                  omp_allocator_handle_t free_a);
void omp_free(void *ptr, omp_allocator_handle_t a);
#endif

#ifdef __cplusplus
}
#endif

#endif /* WS_OMP_H */
