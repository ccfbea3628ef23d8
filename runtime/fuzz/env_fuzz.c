/*
 * env_fuzz.c — libFuzzer target of ws_env_parse (env.c): arbitrary values
 * for each variable, judged against docs/runtime.md, not against env.c:
 *
 *   - it returns 0 or -1, and 0 exactly when every variable set is valid
 *     (ranges and words as documented; a decimal integer is digits only);
 *   - on -1, err holds one line, NUL-terminated within errlen (a short
 *     buffer gets a prefix of the full line), starting "VAR=" for a
 *     variable that is set and invalid and saying what it accepts;
 *   - on 0, every field says what was set: the number itself, the variant
 *     of that name, inf, the size rounded up to a power of two, 0 or 1.
 *
 * Input: byte 0 says which variables are set (bit i: names[i]); byte 1 is
 * errlen (0 to 255); the rest are the values, separated by NUL bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "deque.h"
#include "env.h"

enum { NVARS = 5 };
static const char *const names[NVARS] = {"WS_NUM_WORKERS", "WS_DEQUE",
                                         "WS_STORE_BUFFER", "WS_DEQUE_SIZE",
                                         "WS_STATS"};
enum { WORKERS, DEQUE, STORE_BUFFER, DEQUE_SIZE, STATS };

typedef struct table {
  const char *value[NVARS]; /* NULL: unset */
} table;

/* Variables the documentation does not list read as unset. */
static const char *lookup(const char *name, void *ctx) {
  const table *t = ctx;
  for (int i = 0; i < NVARS; i++)
    if (strcmp(name, names[i]) == 0)
      return t->value[i];
  return NULL;
}

static _Noreturn void fail(const table *t, const char *what) {
  fprintf(stderr, "env_fuzz: %s\n", what);
  for (int i = 0; i < NVARS; i++)
    if (t->value[i])
      fprintf(stderr, "  %s=\"%s\"\n", names[i], t->value[i]);
  abort();
}

/* Digits only, as an integer in [lo, hi]. */
static int decimal_in(const char *s, unsigned long long lo,
                      unsigned long long hi, unsigned long long *out) {
  if (!*s)
    return 0;
  for (const char *p = s; *p; p++)
    if (*p < '0' || *p > '9')
      return 0;
  while (*s == '0' && s[1])
    s++;
  if (strlen(s) > 19) /* more than any bound here */
    return 0;
  unsigned long long v = strtoull(s, NULL, 10);
  *out = v;
  return v >= lo && v <= hi;
}

static int valid(int var, const char *v) {
  unsigned long long x;
  /* docs/runtime.md: WS_DEQUE is a row of ws/variants.def. */
  static const char *const variants[] = {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail,   \
                   validated_only, summary)                                    \
  #name,
#include "ws/variants.def"
#undef WS_VARIANT
  };
  switch (var) {
  case WORKERS:
    return decimal_in(v, 1, WS_MAX_WORKERS, &x);
  case DEQUE:
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++)
      if (strcmp(v, variants[i]) == 0)
        return 1;
    return 0;
  case STORE_BUFFER:
    return strcmp(v, "inf") == 0 || decimal_in(v, 1, WS_MAX_STORE_BUFFER, &x);
  case DEQUE_SIZE:
    return decimal_in(v, WS_MIN_DEQUE_SIZE, WS_MAX_DEQUE_SIZE, &x);
  default:
    return strcmp(v, "0") == 0 || strcmp(v, "1") == 0;
  }
}

static void check_accepted(const table *t, const ws_env *e) {
  const char *const *v = t->value;
  unsigned long long x = 0;
  if (v[WORKERS] ? (decimal_in(v[WORKERS], 1, WS_MAX_WORKERS, &x),
                    (unsigned long long)e->nworkers != x)
                 : e->nworkers != 0)
    fail(t, "nworkers is not the number given (0 when unset)");
  if (v[DEQUE] ? !e->deque || strcmp(e->deque->name, v[DEQUE]) != 0
               : e->deque != NULL)
    fail(t, "deque is not the variant named (NULL when unset)");
  if (!!v[STORE_BUFFER] != !!e->s_set)
    fail(t, "s_set does not say whether WS_STORE_BUFFER is set");
  if (v[STORE_BUFFER]) {
    int inf = strcmp(v[STORE_BUFFER], "inf") == 0;
    if (!inf)
      decimal_in(v[STORE_BUFFER], 1, WS_MAX_STORE_BUFFER, &x);
    if (e->S_inf != inf || e->S != (inf ? 0 : x))
      fail(t, "S and S_inf are not the bound given");
  }
  if (v[DEQUE_SIZE]) {
    decimal_in(v[DEQUE_SIZE], WS_MIN_DEQUE_SIZE, WS_MAX_DEQUE_SIZE, &x);
    size_t n = e->deque_size;
    if (n < x || n >= 2 * x || (n & (n - 1)) != 0)
      fail(t, "deque_size is not the size rounded up to a power of two");
  } else if (e->deque_size != 0) {
    fail(t, "deque_size is set, but WS_DEQUE_SIZE is not");
  }
  if (e->stats != (v[STATS] && strcmp(v[STATS], "1") == 0))
    fail(t, "stats is not what WS_STATS says");
}

static void check_rejected(const table *t, const char *err, size_t errlen,
                           const char *full) {
  if (strpbrk(full, "\n\r"))
    fail(t, "the message is more than one line");
  if (!strstr(full, ": expected "))
    fail(t, "the message does not say what the variable accepts");
  int named = 0;
  for (int i = 0; i < NVARS; i++) {
    size_t n = strlen(names[i]);
    if (t->value[i] && !valid(i, t->value[i]) &&
        strncmp(full, names[i], n) == 0 && full[n] == '=')
      named = 1;
  }
  if (!named)
    fail(t, "the message does not start with VAR= of a variable set wrong");
  if (errlen == 0)
    return;
  if (!memchr(err, '\0', errlen))
    fail(t, "the message is not NUL-terminated within errlen");
  if (strncmp(full, err, strlen(err)) != 0)
    fail(t, "a short buffer does not get a prefix of the message");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return -1;
  unsigned set = data[0];
  size_t errlen = data[1];
  size_t n = size - 2;
  char *values = malloc(n + 1);
  memcpy(values, data + 2, n);
  values[n] = '\0';
  table t = {{0}};
  const char *p = values;
  for (int i = 0; i < NVARS; i++) {
    if (set & (1u << i))
      t.value[i] = p;
    p += strlen(p); /* to the separator, or the end of the values */
    if (p < values + n)
      p++;
  }

  int all_valid = 1;
  for (int i = 0; i < NVARS; i++)
    if (t.value[i] && !valid(i, t.value[i]))
      all_valid = 0;

  /* The exact size, so that ASan sees a write past it. */
  char *err = malloc(errlen ? errlen : 1);
  memset(err, 'x', errlen);
  ws_env e;
  int rc = ws_env_parse(lookup, &t, &e, err, errlen);
  if (rc == 0) {
    if (!all_valid)
      fail(&t, "accepted a value the documentation rules out");
    check_accepted(&t, &e);
  } else if (rc == -1) {
    if (all_valid)
      fail(&t, "rejected values the documentation allows");
    size_t fulllen = n + 512; /* room for every value */
    char *full = malloc(fulllen);
    if (ws_env_parse(lookup, &t, &e, full, fulllen) != -1)
      fail(&t, "the same values are accepted the second time");
    check_rejected(&t, err, errlen, full);
    free(full);
  } else {
    fail(&t, "returned neither 0 nor -1");
  }
  free(err);
  free(values);
  return 0;
}
