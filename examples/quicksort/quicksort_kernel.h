/*
 * quicksort_kernel.h — the serial parts of quicksort, shared with the
 * peers: partition, the sort below the cut-off, the input, and the check
 * (sorted, and the same multiset: an order-free hash of the elements).
 */
#ifndef QUICKSORT_KERNEL_H
#define QUICKSORT_KERNEL_H

#include "../common/bench.h"

/* Below this many elements a range is sorted serially. */
#define QUICKSORT_CUTOFF 2048L

static inline void qs_swap(long *a, long i, long j) {
  long t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/* Hoare partition around the median of the first, middle and last element.
 * Returns p, 0 < p < n: a[0..p) <= a[p..n).  n >= 3. */
static inline long qs_partition(long *a, long n) {
  long m = n / 2;
  if (a[m] < a[0])
    qs_swap(a, m, 0);
  if (a[n - 1] < a[0])
    qs_swap(a, n - 1, 0);
  if (a[n - 1] < a[m])
    qs_swap(a, n - 1, m);
  long pivot = a[m];
  long i = -1, j = n;
  for (;;) {
    do
      i++;
    while (a[i] < pivot);
    do
      j--;
    while (a[j] > pivot);
    if (i >= j)
      return j + 1;
    qs_swap(a, i, j);
  }
}

static inline void qs_insertion(long *a, long n) {
  for (long i = 1; i < n; i++) {
    long v = a[i], j = i;
    for (; j > 0 && a[j - 1] > v; j--)
      a[j] = a[j - 1];
    a[j] = v;
  }
}

static inline void qs_serial(long *a, long n) {
  while (n > 16) {
    long p = qs_partition(a, n);
    /* recurse on the smaller side, loop on the larger: O(log n) stack */
    if (p < n - p) {
      qs_serial(a, p);
      a += p;
      n -= p;
    } else {
      qs_serial(a + p, n - p);
      n = p;
    }
  }
  qs_insertion(a, n);
}

static inline long *qs_input(long n) {
  long *a = (long *)bench_alloc("quicksort", (size_t)n * sizeof *a);
  unsigned long long seed = 42;
  for (long i = 0; i < n; i++)
    a[i] = (long)(bench_rand(&seed) >> 1);
  return a;
}

static inline unsigned long long qs_hash(const long *a, long n) {
  unsigned long long h = 0;
  for (long i = 0; i < n; i++) {
    unsigned long long s = (unsigned long long)a[i];
    h += bench_rand(&s); /* a sum of mixed elements ignores their order */
  }
  return h;
}

/* 1 when a[0..n) is sorted and hashes to `h`, the input's hash. */
static inline int qs_check(const long *a, long n, unsigned long long h) {
  for (long i = 1; i < n; i++)
    if (a[i - 1] > a[i])
      return 0;
  return qs_hash(a, n) == h;
}

#endif
