/*
 * omp/refuse.h — how the OpenMP module stops at a construct outside its
 * subset (refuse.c): one line naming the construct and the entry point
 * clang called for it, exit status 2.
 */
#ifndef WS_OMP_REFUSE_H
#define WS_OMP_REFUSE_H

__attribute__((noreturn, cold)) void ws_omp_refuse(const char *construct,
                                                    const char *entry);

#endif
