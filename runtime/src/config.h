/* config.h — compile-time knobs of the runtime (override with -D). */
#ifndef WS_CONFIG_H
#define WS_CONFIG_H

#ifndef WS_CACHE_LINE
#define WS_CACHE_LINE 64
#endif

/* Deque capacity (tasks) when WS_DEQUE_SIZE is not set, and its bounds.
 * A task takes a 64-byte slot (ws/abi.h), reserved, not committed, until a
 * spawn reaches it; a stolen slot stays taken until its join, so a loop of
 * n spawns before a sync needs n slots however many are stolen.  The
 * slots of one deque must span less than 2^31 bytes (tailhead.h). */
#ifndef WS_DEFAULT_DEQUE_SIZE
#define WS_DEFAULT_DEQUE_SIZE (1L << 20)
#endif
#define WS_MIN_DEQUE_SIZE 16
#define WS_MAX_DEQUE_SIZE (1L << 24)

#define WS_MAX_WORKERS 1024

/* The largest S WS_STORE_BUFFER or a calibration may give; the default S
 * is in ws/cpus.def, which the compiler reads too. */
#define WS_MAX_STORE_BUFFER 65536

/* Worker thread stacks when WS_STACK_SIZE is not set, and its bounds;
 * below each a guard of WS_STACK_GUARD bytes the process may not touch
 * (address space only), so that an overflow faults there, and the runtime
 * says which stack to raise. */
#ifndef WS_DEFAULT_STACK_SIZE
#define WS_DEFAULT_STACK_SIZE ((size_t)64 << 20)
#endif
#define WS_MIN_STACK_SIZE ((size_t)64 << 10)
#define WS_MAX_STACK_SIZE ((size_t)64 << 30)
#define WS_STACK_GUARD ((size_t)1 << 20)

/* Bounded TSO is an x86 (and SPARC) property (paper 000 §7). */
#if defined(__x86_64__) || defined(__i386__)
#define WS_TSO 1
#else
#define WS_TSO 0
#endif

#endif
