/* affinity.h — pinning the tools' threads to one CPU each. */
#ifndef WS_AFFINITY_H
#define WS_AFFINITY_H

/* 0, or -1 with errno (EINVAL: no such CPU, or not allowed to us). */
int pin_self_to_cpu(int cpu);

/* The n-th CPU (0-based) this process may run on, or -1. */
int allowed_cpu(int n);

#endif
