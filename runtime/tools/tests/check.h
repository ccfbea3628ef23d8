/* check.h — the few assertions of the tso unit tests: a failed check
 * prints where and why, and the test exits non-zero at the end. */
#ifndef WS_TSO_CHECK_H
#define WS_TSO_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      check_failures++;                                                        \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

static inline int check_report(const char *name) {
  if (check_failures)
    fprintf(stderr, "%s: %d checks failed\n", name, check_failures);
  else
    printf("%s: all checks passed\n", name);
  return check_failures != 0;
}

#endif
