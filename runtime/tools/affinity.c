/* affinity.c — sched_setaffinity for the calling thread. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>

#include "affinity.h"

int pin_self_to_cpu(int cpu) {
  if (cpu < 0 || cpu >= CPU_SETSIZE) {
    errno = EINVAL;
    return -1;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set);
}

int allowed_cpu(int n) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set))
    return -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, &set) && n-- == 0)
      return cpu;
  return -1;
}
