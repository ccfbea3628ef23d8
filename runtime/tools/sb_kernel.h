/*
 * sb_kernel.h — the measuring loop of paper 000 Fig. 6, generated as
 * machine code so that no compiler can reorder, merge or drop its stores:
 *
 *   again: store to line 1 .. store to line k      (or k times to one line)
 *          c dependent sqrtsd xmm0, xmm0           (the "long latency
 *          dec rsi; jnz again                       instruction sequence")
 *
 * The sqrtsd chain runs through xmm0 from one iteration to the next, so
 * iterations cannot overlap: a stall in one is not hidden behind the next.
 * It is few instructions with long latency so that it fills neither the
 * reorder buffer nor the scheduler before the store buffer.  The stores'
 * addresses and data do not depend on it.
 */
#ifndef WS_SB_KERNEL_H
#define WS_SB_KERNEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct sb_kernels sb_kernels;

/* Kernels for k = 0..kmax stores, both to distinct lines and to one
 * location, each with a chain of `chain` sqrtsd (k = 0: the chain alone).
 * NULL with a message in err if the code cannot be mapped executable. */
sb_kernels *sb_kernels_new(unsigned kmax, unsigned chain, char *err,
                           size_t errlen);
void sb_kernels_free(sb_kernels *ks);

/* TSC ticks per iteration of the k-store kernel over `iters` iterations,
 * after a warm-up that brings its lines into L1. */
double sb_kernels_time(sb_kernels *ks, unsigned k, int same_location,
                       uint64_t iters);

#endif
