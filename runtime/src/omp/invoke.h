/*
 * omp/invoke.h — calling a parallel region's outlined function with its
 * shared variables, as many as the region has (invoke.c).
 */
#ifndef WS_OMP_INVOKE_H
#define WS_OMP_INVOKE_H

#include "kmp.h"

/* fn(gtid, btid, argv[0], ..., argv[argc - 1]); every argument is a
 * pointer or a pointer-sized value. */
void ws_omp_invoke(kmpc_micro fn, int32_t *gtid, int32_t *btid, int argc, void **argv);

#endif
