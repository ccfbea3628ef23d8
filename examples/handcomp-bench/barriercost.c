/*
 * barriercost.c — what FF-MB's thief pays for one forced barrier
 * (runtime/src/membarrier.c), against the number of other threads:
 *
 *   barriercost [busy|idle] N...   for each N: N other threads that spin
 *                                  (busy) or sleep (idle), then 20000
 *                                  membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)
 *                                  calls and 20000 signal round trips to
 *                                  one of them (the fallback); prints the
 *                                  median over 5 batches, ns per barrier
 *
 * membarrier interrupts every CPU running a thread of the process; a
 * thread that is not running has nothing to drain.  With more threads than
 * CPUs, only those on a CPU at the moment count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CALLS 20000
#define BATCHES 5
#define MAX_THREADS 256

static _Atomic int stop;
static int busy;
static _Atomic unsigned long answered;

static long membarrier(int cmd) { return syscall(__NR_membarrier, cmd, 0, 0); }

static void on_signal(int sig) {
  (void)sig;
  atomic_thread_fence(memory_order_seq_cst);
  atomic_fetch_add(&answered, 1);
}

static void *other(void *arg) {
  (void)arg;
  while (!atomic_load_explicit(&stop, memory_order_relaxed))
    if (!busy) {
      struct timespec ts = {0, 1000000};
      nanosleep(&ts, NULL);
    }
  return NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v) {
  qsort(v, BATCHES, sizeof *v, cmp);
  return v[BATCHES / 2];
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "busy") && strcmp(argv[1], "idle"))) {
    fprintf(stderr, "usage: %s busy|idle N...\n", argv[0]);
    return 2;
  }
  busy = strcmp(argv[1], "busy") == 0;
  if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED)) {
    fprintf(stderr, "%s: membarrier: %s\n", argv[0], strerror(errno));
    return 1;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGRTMIN + 7, &sa, NULL);
  printf("threads other than the caller (%s) | membarrier ns | signal ns\n",
         busy ? "spinning" : "sleeping");
  for (int a = 2; a < argc; a++) {
    int n = atoi(argv[a]);
    if (n < 0 || n > MAX_THREADS) {
      fprintf(stderr, "%s: N must be 0..%d\n", argv[0], MAX_THREADS);
      return 2;
    }
    pthread_t th[MAX_THREADS];
    atomic_store(&stop, 0);
    for (int i = 0; i < n; i++)
      pthread_create(&th[i], NULL, other, NULL);
    double mb[BATCHES], sg[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
      double t0 = now();
      for (int i = 0; i < CALLS; i++)
        membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
      mb[b] = (now() - t0) / CALLS * 1e9;
      sg[b] = 0;
      if (n > 0) {
        t0 = now();
        for (int i = 0; i < CALLS; i++) {
          unsigned long before = atomic_load(&answered);
          pthread_kill(th[0], SIGRTMIN + 7);
          while (atomic_load(&answered) == before)
            ;
        }
        sg[b] = (now() - t0) / CALLS * 1e9;
      }
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < n; i++)
      pthread_join(th[i], NULL);
    printf("%d | %.0f | %.0f\n", n, median(mb), n ? median(sg) : 0.0);
    fflush(stdout);
  }
  return 0;
}
