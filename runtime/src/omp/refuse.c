/*
 * omp/refuse.c — the constructs outside the OpenMP module's subset: every
 * entry point of clang 19's OpenMP code generation (the list of
 * llvm/Frontend/OpenMP/OMPKinds.def, and libomptarget's offloading calls)
 * that the module does not implement is defined here and stops the
 * program with one line naming the construct, exit status 2, when it is
 * reached.  A program that uses such a construct links (no undefined
 * symbol) and never gives a silently wrong answer.  (docs/openmp.md; the
 * compiler may refuse some of them earlier.)
 */
#include "../fatal.h"
#include "refuse.h"

void ws_omp_refuse(const char *construct, const char *entry) {
  ws_fatal("OpenMP %s is not supported by wsff's runtime (the program called "
           "%s); see docs/openmp.md for the supported constructs, or build "
           "without -fws-fencefree to run it on libomp",
           construct, entry);
}

#define WS_OMP_REFUSED(name, construct)                                        \
  __attribute__((noreturn)) void name(void);                                   \
  void name(void) { ws_omp_refuse(construct, #name); }

/* task depend */
WS_OMP_REFUSED(__kmpc_omp_task_with_deps, "task depend")
WS_OMP_REFUSED(__kmpc_omp_wait_deps, "task depend")

/* taskwait depend */
WS_OMP_REFUSED(__kmpc_omp_taskwait_deps_51, "taskwait depend")

/* task detach */
WS_OMP_REFUSED(__kmpc_task_allow_completion_event, "task detach")
WS_OMP_REFUSED(omp_fulfill_event, "task detach")

/* ordered */
WS_OMP_REFUSED(__kmpc_ordered, "ordered")
WS_OMP_REFUSED(__kmpc_end_ordered, "ordered")

/* ordered depend (doacross loops) */
WS_OMP_REFUSED(__kmpc_doacross_init, "ordered depend (doacross loops)")
WS_OMP_REFUSED(__kmpc_doacross_wait, "ordered depend (doacross loops)")
WS_OMP_REFUSED(__kmpc_doacross_post, "ordered depend (doacross loops)")
WS_OMP_REFUSED(__kmpc_doacross_fini, "ordered depend (doacross loops)")

/* teams */
WS_OMP_REFUSED(__kmpc_fork_teams, "teams")
WS_OMP_REFUSED(__kmpc_push_num_teams, "teams")
WS_OMP_REFUSED(__kmpc_push_num_teams_51, "teams")
WS_OMP_REFUSED(__kmpc_set_thread_limit, "teams")

/* distribute */
WS_OMP_REFUSED(__kmpc_dist_dispatch_init_4, "distribute")
WS_OMP_REFUSED(__kmpc_dist_dispatch_init_4u, "distribute")
WS_OMP_REFUSED(__kmpc_dist_dispatch_init_8, "distribute")
WS_OMP_REFUSED(__kmpc_dist_dispatch_init_8u, "distribute")
WS_OMP_REFUSED(__kmpc_dist_for_static_init_4, "distribute")
WS_OMP_REFUSED(__kmpc_dist_for_static_init_4u, "distribute")
WS_OMP_REFUSED(__kmpc_dist_for_static_init_8, "distribute")
WS_OMP_REFUSED(__kmpc_dist_for_static_init_8u, "distribute")
WS_OMP_REFUSED(__kmpc_distribute_static_init_4, "distribute")
WS_OMP_REFUSED(__kmpc_distribute_static_init_4u, "distribute")
WS_OMP_REFUSED(__kmpc_distribute_static_init_8, "distribute")
WS_OMP_REFUSED(__kmpc_distribute_static_init_8u, "distribute")
WS_OMP_REFUSED(__kmpc_team_static_init_4, "distribute")
WS_OMP_REFUSED(__kmpc_team_static_init_4u, "distribute")
WS_OMP_REFUSED(__kmpc_team_static_init_8, "distribute")
WS_OMP_REFUSED(__kmpc_team_static_init_8u, "distribute")
WS_OMP_REFUSED(__kmpc_distribute_static_fini, "distribute")

/* reduction with the task modifier */
WS_OMP_REFUSED(__kmpc_taskred_modifier_init, "reduction with the task modifier")
WS_OMP_REFUSED(__kmpc_task_reduction_modifier_init, "reduction with the task modifier")
WS_OMP_REFUSED(__kmpc_task_reduction_modifier_fini, "reduction with the task modifier")

/* task_reduction (the pre-5.0 interface) */
WS_OMP_REFUSED(__kmpc_task_reduction_init, "task_reduction (the pre-5.0 interface)")

/* threadprivate without thread-local storage (-fno-openmp-use-tls) */
WS_OMP_REFUSED(__kmpc_threadprivate_cached, "threadprivate without thread-local storage (-fno-openmp-use-tls)")
WS_OMP_REFUSED(__kmpc_threadprivate_register, "threadprivate without thread-local storage (-fno-openmp-use-tls)")
WS_OMP_REFUSED(__kmpc_threadprivate_register_vec, "threadprivate without thread-local storage (-fno-openmp-use-tls)")

/* target */
WS_OMP_REFUSED(__kmpc_alloc_shared, "target")
WS_OMP_REFUSED(__kmpc_free_shared, "target")
WS_OMP_REFUSED(__kmpc_barrier_simple_generic, "target")
WS_OMP_REFUSED(__kmpc_barrier_simple_spmd, "target")
WS_OMP_REFUSED(__kmpc_begin_sharing_variables, "target")
WS_OMP_REFUSED(__kmpc_end_sharing_variables, "target")
WS_OMP_REFUSED(__kmpc_get_shared_variables, "target")
WS_OMP_REFUSED(__kmpc_get_hardware_num_blocks, "target")
WS_OMP_REFUSED(__kmpc_get_hardware_num_threads_in_block, "target")
WS_OMP_REFUSED(__kmpc_get_hardware_thread_id_in_block, "target")
WS_OMP_REFUSED(__kmpc_get_warp_size, "target")
WS_OMP_REFUSED(__kmpc_is_spmd_exec_mode, "target")
WS_OMP_REFUSED(__kmpc_kernel_end_parallel, "target")
WS_OMP_REFUSED(__kmpc_kernel_parallel, "target")
WS_OMP_REFUSED(__kmpc_kernel_prepare_parallel, "target")
WS_OMP_REFUSED(__kmpc_nvptx_parallel_reduce_nowait_v2, "target")
WS_OMP_REFUSED(__kmpc_nvptx_teams_reduce_nowait_v2, "target")
WS_OMP_REFUSED(__kmpc_omp_target_task_alloc, "target")
WS_OMP_REFUSED(__kmpc_parallel_51, "target")
WS_OMP_REFUSED(__kmpc_parallel_level, "target")
WS_OMP_REFUSED(__kmpc_proxy_task_completed_ooo, "target")
WS_OMP_REFUSED(__kmpc_push_target_tripcount_mapper, "target")
WS_OMP_REFUSED(__kmpc_reduction_get_fixed_buffer, "target")
WS_OMP_REFUSED(__kmpc_shuffle_int32, "target")
WS_OMP_REFUSED(__kmpc_shuffle_int64, "target")
WS_OMP_REFUSED(__kmpc_syncwarp, "target")
WS_OMP_REFUSED(__kmpc_target_deinit, "target")
WS_OMP_REFUSED(__kmpc_target_init, "target")
WS_OMP_REFUSED(__kmpc_warp_active_thread_mask, "target")
WS_OMP_REFUSED(__kmpc_for_static_loop_4, "target")
WS_OMP_REFUSED(__kmpc_for_static_loop_4u, "target")
WS_OMP_REFUSED(__kmpc_for_static_loop_8, "target")
WS_OMP_REFUSED(__kmpc_for_static_loop_8u, "target")
WS_OMP_REFUSED(__kmpc_distribute_for_static_loop_4, "target")
WS_OMP_REFUSED(__kmpc_distribute_for_static_loop_4u, "target")
WS_OMP_REFUSED(__kmpc_distribute_for_static_loop_8, "target")
WS_OMP_REFUSED(__kmpc_distribute_for_static_loop_8u, "target")
WS_OMP_REFUSED(__kmpc_distribute_static_loop_4, "target")
WS_OMP_REFUSED(__kmpc_distribute_static_loop_4u, "target")
WS_OMP_REFUSED(__kmpc_distribute_static_loop_8, "target")
WS_OMP_REFUSED(__kmpc_distribute_static_loop_8u, "target")
WS_OMP_REFUSED(__tgt_interop_destroy, "target")
WS_OMP_REFUSED(__tgt_interop_init, "target")
WS_OMP_REFUSED(__tgt_interop_use, "target")
WS_OMP_REFUSED(__tgt_mapper_num_components, "target")
WS_OMP_REFUSED(__tgt_push_mapper_component, "target")
WS_OMP_REFUSED(__tgt_target_data_begin_mapper, "target")
WS_OMP_REFUSED(__tgt_target_data_begin_mapper_issue, "target")
WS_OMP_REFUSED(__tgt_target_data_begin_mapper_wait, "target")
WS_OMP_REFUSED(__tgt_target_data_begin_nowait_mapper, "target")
WS_OMP_REFUSED(__tgt_target_data_end_mapper, "target")
WS_OMP_REFUSED(__tgt_target_data_end_nowait_mapper, "target")
WS_OMP_REFUSED(__tgt_target_data_update_mapper, "target")
WS_OMP_REFUSED(__tgt_target_data_update_nowait_mapper, "target")
WS_OMP_REFUSED(__tgt_target_kernel, "target")
WS_OMP_REFUSED(__tgt_target_kernel_nowait, "target")
WS_OMP_REFUSED(__tgt_target_mapper, "target")
WS_OMP_REFUSED(__tgt_target_nowait_mapper, "target")
WS_OMP_REFUSED(__tgt_target_teams_mapper, "target")
WS_OMP_REFUSED(__tgt_target_teams_nowait_mapper, "target")
