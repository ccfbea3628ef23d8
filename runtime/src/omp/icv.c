/*
 * omp/icv.c — the OpenMP environment (icv.h).
 */
#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../config.h"
#include "../env_value.h"
#include "icv.h"
#include "kmp.h"

int ws_set_num_workers(int n); /* startup.c (ws/ws.h) */

ws_omp_icv ws_omp_icvs = {
    .sched = kmp_sch_static,
    .max_active_levels = 1,
    .thread_limit = INT_MAX,
    .linger_ns = 20000000L,
};

/* A copy of `s` in lower case, without blanks, for comparing words. */
static void lower(char *out, size_t n, const char *s) {
  size_t j = 0;
  for (; *s && j + 1 < n; s++)
    if (!isspace((unsigned char)*s))
      out[j++] = (char)tolower((unsigned char)*s);
  out[j] = 0;
}

static int boolean(const char *var) {
  const char *s = getenv(var);
  if (!s)
    return -1;
  static const char *const words[] = {"false", "true", "0", "1", NULL};
  char b[16];
  lower(b, sizeof b, s);
  int i = ws_env_choice(b, words);
  if (i < 0)
    ws_env_refuse(var, s, "true or false");
  return i & 1;
}

static int number(const char *var, uint64_t lo, uint64_t hi, const char *what) {
  const char *s = getenv(var);
  if (!s)
    return -1;
  char b[32];
  lower(b, sizeof b, s);
  uint64_t v;
  if (ws_env_uint(b, lo, hi, &v))
    ws_env_refuse(var, s, what);
  return (int)v;
}

/* OMP_NUM_THREADS: a list of positive numbers, one per nesting level;
 * nested regions run serialized, so only the first counts. */
static void num_threads(void) {
  const char *s = getenv("OMP_NUM_THREADS");
  if (!s)
    return;
  char b[256];
  lower(b, sizeof b, s);
  char *comma = strchr(b, ',');
  if (comma)
    *comma = 0;
  uint64_t v;
  if (ws_env_uint(b, 1, INT_MAX, &v))
    ws_env_refuse("OMP_NUM_THREADS", s, "a positive number, or a list of them separated by commas");
  ws_omp_icvs.nthreads = (int)v;
}

/* OMP_SCHEDULE: [monotonic:|nonmonotonic:]static|dynamic|guided|auto[,chunk] */
static void schedule(void) {
  const char *s = getenv("OMP_SCHEDULE");
  if (!s)
    return;
  static const char *accepts =
      "[monotonic:|nonmonotonic:]static|dynamic|guided|auto[,chunk], chunk a positive number";
  char b[128];
  lower(b, sizeof b, s);
  char *kind = b;
  char *colon = strchr(b, ':');
  if (colon) {
    *colon = 0;
    if (strcmp(b, "monotonic") && strcmp(b, "nonmonotonic"))
      ws_env_refuse("OMP_SCHEDULE", s, accepts);
    kind = colon + 1;
  }
  char *comma = strchr(kind, ',');
  uint64_t chunk = 0;
  if (comma) {
    *comma = 0;
    if (ws_env_uint(comma + 1, 1, INT_MAX, &chunk))
      ws_env_refuse("OMP_SCHEDULE", s, accepts);
  }
  static const char *const kinds[] = {"static", "dynamic", "guided", "auto", NULL};
  static const int sched[] = {kmp_sch_static, kmp_sch_dynamic_chunked,
                              kmp_sch_guided_chunked, kmp_sch_auto};
  int i = ws_env_choice(kind, kinds);
  if (i < 0)
    ws_env_refuse("OMP_SCHEDULE", s, accepts);
  ws_omp_icvs.sched = sched[i];
  ws_omp_icvs.chunk = (int64_t)chunk;
}

static void choices(void) {
  const char *s = getenv("OMP_WAIT_POLICY");
  if (s) {
    static const char *const words[] = {"active", "passive", NULL};
    char b[16];
    lower(b, sizeof b, s);
    int i = ws_env_choice(b, words);
    if (i < 0)
      ws_env_refuse("OMP_WAIT_POLICY", s, "active or passive");
    ws_omp_icvs.linger_ns = i == 0 ? 200000000L : 0;
  }
  s = getenv("KMP_FORCE_REDUCTION");
  if (s) {
    static const char *const words[] = {"critical", "atomic", "tree", NULL};
    char b[16];
    lower(b, sizeof b, s);
    int i = ws_env_choice(b, words);
    if (i < 0)
      ws_env_refuse("KMP_FORCE_REDUCTION", s, "critical, atomic or tree");
    ws_omp_icvs.force_reduction = i == 1 ? 2 : 1; /* tree: one thread at a time */
  }
}

static void read_environment(void) {
  num_threads();
  schedule();
  int v;
  if ((v = boolean("OMP_DYNAMIC")) >= 0)
    ws_omp_icvs.dynamic = v;
  if ((v = boolean("OMP_NESTED")) >= 0)
    ws_omp_icvs.max_active_levels = v ? INT_MAX : 1;
  if ((v = number("OMP_MAX_ACTIVE_LEVELS", 0, INT_MAX, "a number")) >= 0)
    ws_omp_icvs.max_active_levels = v;
  if ((v = number("OMP_THREAD_LIMIT", 1, INT_MAX, "a positive number")) >= 0)
    ws_omp_icvs.thread_limit = v;
  if ((v = boolean("OMP_CANCELLATION")) >= 0)
    ws_omp_icvs.cancellation = v;
  choices();
  /* The team of a region is the workers: OMP_NUM_THREADS sizes them
   * where WS_NUM_WORKERS does not (before the start; a count the program
   * sets later wins). */
  int n = ws_omp_icvs.nthreads;
  if (n > ws_omp_icvs.thread_limit)
    n = ws_omp_icvs.thread_limit;
  if (n && !ws_env_getenv("WS_NUM_WORKERS", NULL))
    ws_set_num_workers(n > WS_MAX_WORKERS ? WS_MAX_WORKERS : n);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

void ws_omp_init(void) { pthread_once(&once, read_environment); }

/* Before main: a bad value stops the program before it runs anything, and
 * the worker count is set before the workers start. */
__attribute__((constructor)) static void ws_omp_env_constructor(void) { ws_omp_init(); }
