/* Many tasks in one loop before a taskwait, each with its data in the
 * creating frame on the fast path: 200000 tasks of about 1 KB, 200 MB if
 * every block stayed on the stack until the wait (ulimit -s is 8 MB; the
 * workers' stacks are smaller).  The blocks outstanding since the last
 * wait are bounded (passes/OmpTasks.cpp); a larger task (an untied task's
 * locals) takes the heap.  Unmodified BOTS alignment overflowed the main
 * thread's stack that way before. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  unsigned char b[1000];
} payload;

static long sum(const payload *p, int k) {
  long s = k;
  for (int i = 0; i < (int)sizeof p->b; i++)
    s += p->b[i];
  return s;
}

static long many(int n, long *out) {
  for (int k = 0; k < n; k++) {
    payload p;
    memset(p.b, k & 0xff, sizeof p.b);
#pragma omp task firstprivate(p, k) shared(out)
    out[k] = sum(&p, k);
  }
#pragma omp taskwait
  long t = 0;
  for (int k = 0; k < n; k++)
    t += out[k];
  return t;
}

static long big(int n) {
  long t = 0;
  for (int k = 0; k < n; k++) {
#pragma omp task untied shared(t) firstprivate(k)
    {
      int local[4096]; /* an untied task's locals live in its data */
      for (int i = 0; i < 4096; i++)
        local[i] = i ^ k;
      long s = 0;
      for (int i = 0; i < 4096; i++)
        s += local[i];
#pragma omp atomic
      t += s;
    }
  }
#pragma omp taskwait
  return t;
}

static long out[200000];

int main(void) {
  long a = 0, b = 0;
#pragma omp parallel
#pragma omp single
  {
    a = many(200000, out);
    b = big(5000);
  }
  printf("many: %ld\nbig: %ld\n", a, b);
  return 0;
}
