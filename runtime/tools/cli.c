/* cli.c — strict parsing: no signs, no junk after the number. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "cli.h"

const char *cli_tool = "ws-tool";

void cli_usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", cli_tool);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (--help for usage)\n");
  va_end(ap);
  exit(2);
}

static int parse_u64(const char *s, const char **end, uint64_t *out) {
  if (*s < '0' || *s > '9')
    return -1;
  errno = 0;
  char *e;
  unsigned long long v = strtoull(s, &e, 10);
  if (errno)
    return -1;
  *end = e;
  *out = v;
  return 0;
}

uint64_t cli_uint(const char *opt, const char *s, uint64_t lo, uint64_t hi) {
  const char *end;
  uint64_t v;
  if (parse_u64(s, &end, &v) || *end || v < lo || v > hi)
    cli_usage_error("%s=%s is not valid: expected an integer from %llu to %llu",
                    opt, s, (unsigned long long)lo, (unsigned long long)hi);
  return v;
}

static int cmp_unsigned(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

unsigned cli_list(const char *opt, const char *s, unsigned lo, unsigned hi,
                  unsigned *out, unsigned max) {
  unsigned n = 0;
  const char *p = s;
  for (;;) {
    uint64_t a, b;
    if (parse_u64(p, &p, &a))
      goto bad;
    b = a;
    if (*p == '-' && parse_u64(p + 1, &p, &b))
      goto bad;
    if (a < lo || b > hi || a > b)
      goto bad;
    for (uint64_t v = a; v <= b; v++) {
      if (n == max)
        cli_usage_error("%s=%s has more than %u values", opt, s, max);
      out[n++] = (unsigned)v;
    }
    if (*p == 0)
      break;
    if (*p++ != ',')
      goto bad;
  }
  qsort(out, n, sizeof *out, cmp_unsigned);
  unsigned m = 0;
  for (unsigned i = 0; i < n; i++)
    if (m == 0 || out[i] != out[m - 1])
      out[m++] = out[i];
  return m;
bad:
  cli_usage_error("%s=%s is not valid: expected a list like 1-8,10,12 of "
                  "integers from %u to %u",
                  opt, s, lo, hi);
}

void cli_cpus(const char *opt, const char *s, int cpus[2]) {
  const char *comma = strchr(s, ',');
  if (!comma || comma == s || strchr(comma + 1, ','))
    cli_usage_error("%s=%s is not valid: expected two CPUs, A,B", opt, s);
  char a[32];
  snprintf(a, sizeof a, "%.*s", (int)(comma - s), s);
  cpus[0] = (int)cli_uint(opt, a, 0, 65535);
  cpus[1] = (int)cli_uint(opt, comma + 1, 0, 65535);
  if (cpus[0] == cpus[1])
    cli_usage_error("%s=%s: the worker and the thief need two CPUs", opt, s);
}

void cli_default_cpus(int cpus[2]) {
  cpus[0] = allowed_cpu(0);
  cpus[1] = allowed_cpu(1);
}
