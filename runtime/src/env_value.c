/* env_value.c — the environment variables' lookup and value parsers
 * (env_value.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_value.h"
#include "fatal.h"

static const char *const listed[] = {
#define WS_ENV(name, library, parser) #name,
#include "ws/env.def"
};

int ws_env_listed(const char *name) {
  for (size_t i = 0; i < sizeof listed / sizeof *listed; i++)
    if (strcmp(listed[i], name) == 0)
      return 1;
  return 0;
}

const char *ws_env_getenv(const char *name, void *ctx) {
  (void)ctx;
  if (strncmp(name, "WS_", 3) == 0 && !ws_env_listed(name))
    ws_fatal("internal error: %s is read but ws/env.def does not list it", name);
  return getenv(name);
}

int ws_env_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (!*s)
    return -1;
  for (const char *p = s; *p; p++)
    if (*p < '0' || *p > '9')
      return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

int ws_env_size(const char *s, size_t lo, size_t hi, size_t *out) {
  char digits[32];
  size_t n = strlen(s);
  unsigned shift = 0;
  if (n > 0) {
    switch (s[n - 1]) {
    case 'K': shift = 10; n--; break;
    case 'M': shift = 20; n--; break;
    case 'G': shift = 30; n--; break;
    }
  }
  uint64_t v;
  if (n == 0 || n >= sizeof digits)
    return -1;
  memcpy(digits, s, n);
  digits[n] = 0;
  if (ws_env_uint(digits, 1, hi >> shift, &v))
    return -1;
  size_t bytes = (size_t)v << shift;
  if (bytes < lo)
    return -1;
  *out = bytes;
  return 0;
}

int ws_env_choice(const char *s, const char *const *words) {
  for (int i = 0; words[i]; i++)
    if (strcmp(s, words[i]) == 0)
      return i;
  return -1;
}

void ws_env_refuse(const char *var, const char *val, const char *accepts) {
  char err[512];
  ws_env_bad(err, sizeof err, var, val, accepts);
  ws_fatal("%s", err);
}

int ws_env_bad(char *err, size_t n, const char *var, const char *val, const char *accepts) {
  snprintf(err, n, "%s=\"%s\" is not valid: expected %s", var, val, accepts);
  /* One line, whatever the value holds. */
  for (char *p = err; n && *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      *p = '?';
  return -1;
}
