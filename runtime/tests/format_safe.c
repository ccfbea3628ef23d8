/*
 * format_safe.c — ws_format_safe (fatal.c), the formatter of the runtime's
 * signal-handler exit, against vsnprintf on every conversion it knows, at
 * the limits of each type, truncated to small buffers; and an unknown
 * conversion copied as it stands.  Exits 1 naming the first difference.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "fatal.h"

static int failures;

static void same(size_t n, const char *fmt, ...) {
  char want[256], got[256];
  va_list a, b;
  va_start(a, fmt);
  va_copy(b, a);
  vsnprintf(want, n, fmt, a);
  size_t len = ws_format_safe(got, n, fmt, b);
  va_end(b);
  va_end(a);
  if (strcmp(want, got) != 0 || len != strlen(want)) {
    printf("FAIL \"%s\" in %zu: \"%s\" (%zu), vsnprintf \"%s\"\n", fmt, n, got,
           len, want);
    failures++;
  }
}

static void raw(const char *fmt, const char *want, ...) {
  char got[64];
  va_list ap;
  va_start(ap, want);
  ws_format_safe(got, sizeof got, fmt, ap);
  va_end(ap);
  if (strcmp(got, want) != 0) {
    printf("FAIL \"%s\": \"%s\", expected \"%s\"\n", fmt, got, want);
    failures++;
  }
}

static size_t format(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t len = ws_format_safe(buf, n, fmt, ap);
  va_end(ap);
  return len;
}

int main(void) {
  size_t sizes[] = {256, 1, 2, 5, 12};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    size_t n = sizes[i];
    same(n, "plain text, no conversion");
    same(n, "worker %d of %d", 3, -17);
    same(n, "%d %d %i", INT_MIN, INT_MAX, 0);
    same(n, "%u %x %x", UINT_MAX, 0xdeadbeefu, 0u);
    same(n, "%ld %lu %lx", LONG_MIN, ULONG_MAX, 0x7fffffffffffffffUL);
    same(n, "%lld %llu", LLONG_MIN, ULLONG_MAX);
    same(n, "%zu %zd", (size_t)SIZE_MAX, (ssize_t)-5);
    same(n, "signal %d%s%s here", 11, ", SIG", "SEGV");
    same(n, "%s|%c|%%|%s", "", 'x', "end");
    same(n, "%p", (void *)0x1234abcdUL);
    same(n, "stack overflow on worker %d: raise WS_STACK_SIZE (now %zuK)", 7,
         (size_t)8192);
  }
  char tiny[1] = {'z'};
  raw("%q stays", "%q stays");
  raw("ends with %", "ends with %");
  raw("%s", "(null)", (const char *)NULL);
  if (format(tiny, 0, "x") != 0 || tiny[0] != 'z') {
    printf("FAIL n = 0 wrote\n");
    failures++;
  }
  if (failures)
    return 1;
  printf("format_safe: ok\n");
  return 0;
}
