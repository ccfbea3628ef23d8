/* config.h — compile-time knobs of the runtime (override with -D). */
#ifndef WS_CONFIG_H
#define WS_CONFIG_H

#ifndef WS_CACHE_LINE
#define WS_CACHE_LINE 64
#endif

/* Deque capacity (tasks) when WS_DEQUE_SIZE is not set, and its bounds. */
#ifndef WS_DEFAULT_DEQUE_SIZE
#define WS_DEFAULT_DEQUE_SIZE 65536
#endif
#define WS_MIN_DEQUE_SIZE 16
#define WS_MAX_DEQUE_SIZE (1L << 26)

#define WS_MAX_WORKERS 1024

/* The largest S WS_STORE_BUFFER or a calibration may give; the default S
 * is in ws/cpus.def, which the compiler reads too. */
#define WS_MAX_STORE_BUFFER 65536

/* Worker thread stacks: spawn loops keep descriptors on the stack. */
#ifndef WS_WORKER_STACK_SIZE
#define WS_WORKER_STACK_SIZE (64UL << 20)
#endif

/* Bounded TSO is an x86 (and SPARC) property (paper 000 §7). */
#if defined(__x86_64__) || defined(__i386__)
#define WS_TSO 1
#else
#define WS_TSO 0
#endif

#endif
