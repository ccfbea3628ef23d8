/* handcomp.h — what the hand-lowered test programs share. */
#ifndef WS_HANDCOMP_H
#define WS_HANDCOMP_H

#include <stdio.h>
#include <stdlib.h>

/* argv[i] as an integer in [lo, hi], or the usage line and exit status 2. */
static inline long hc_arg(int argc, char **argv, int i, long lo, long hi,
                          const char *usage) {
  char *end;
  long v = i < argc ? strtol(argv[i], &end, 10) : 0;
  if (i >= argc || *argv[i] == '\0' || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "usage: %s %s\n", argv[0], usage);
    exit(2);
  }
  return v;
}

/* Prints the result line and returns the exit status: 1 on a mismatch. */
static inline int hc_report(const char *what, long got, long want) {
  printf("%s = %ld\n", what, got);
  if (got != want) {
    fprintf(stderr, "%s: got %ld, expected %ld\n", what, got, want);
    return 1;
  }
  return 0;
}

#endif
