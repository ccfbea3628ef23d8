/*
 * ws/scale.h — work, span and parallelism of a wsff program (ws-scale).
 *
 *   ws-clang -fws-fencefree -fws-scale -O2 prog.c -o prog && ./prog
 *
 * instruments every function that spawns, and prints at exit, on stderr, the
 * work (T1), the span (Tinf, the longest path of the program's
 * series-parallel DAG), the parallelism T1/Tinf, the burdened span and
 * parallelism (each spawn charged WS_SCALE_BURDEN ns, the cost of a steal),
 * and the speedup to expect on 1..N workers; the same figures go to a CSV
 * file (WS_SCALE_OUT, default ws-scale.csv).  docs/scale.md says what they
 * mean.
 *
 * Regions measure one phase of the program:
 *
 *   ws_scale_begin("factor");
 *   ...spawns and syncs...
 *   ws_scale_end("factor");
 *
 * A region is a row of its own (instances with the same name add up), nests
 * in the region or function around it, and must end in the function
 * invocation that began it, with no spawn of its own outstanding (a
 * ws_sync() before ws_scale_end).  It must not begin while spawns of the
 * enclosing code are outstanding.  A broken rule stops the program with a
 * message (exit status 2).
 *
 * Without -fws-scale (WS_SCALE undefined) both calls compile to nothing.
 */
#ifndef WS_SCALE_H
#define WS_SCALE_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(WS_SCALE)

void ws_scale_begin(const char *name);
void ws_scale_end(const char *name);

#else

#define ws_scale_begin(name) ((void)0)
#define ws_scale_end(name) ((void)0)

#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WS_SCALE_H */
