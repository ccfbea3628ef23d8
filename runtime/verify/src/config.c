/* config.c — the command line of ws-verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"

/* delta = ceil(S / (x + 1)) (paper 000 §4).  With B (§7.3) the observable
 * capacity is S + 1 entries. */
int vf_delta_bound(const vf_config *cfg) {
  int cap = cfg->S + (cfg->buffer != BUF_PLAIN);
  return (cap + cfg->x) / (cfg->x + 1);
}

static int number(const char *s, int lo, int hi, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < lo || v > hi)
    return -1;
  *out = (int)v;
  return 0;
}

/* The worker's program: p = put the next task, t = take the most recent
 * outstanding one; between two takes, x - 1 stores of the client.  Puts
 * without a take are left in the deque when the worker stops. */
static int compile_script(vf_config *cfg, char *err, size_t n) {
  int stack[VF_MAX_TASKS], depth = 0, puts = 0, takes_left = 0;
  for (const char *p = cfg->script; *p; p++)
    takes_left += *p == 't';
  cfg->nworker = 0;
  for (const char *p = cfg->script; *p; p++) {
    if (cfg->nworker + VF_MAX_X > VF_MAX_OPS) {
      snprintf(err, n, "--script: too long (at most %d operations)", VF_MAX_OPS / VF_MAX_X);
      return -1;
    }
    if (*p == 'p') {
      if (puts == VF_MAX_TASKS) {
        snprintf(err, n, "--script: at most %d puts", VF_MAX_TASKS);
        return -1;
      }
      stack[depth++] = ++puts;
      cfg->worker[cfg->nworker++] = (vf_op){OP_PUT, (uint8_t)puts};
    } else if (*p == 't') {
      if (!depth) {
        snprintf(err, n, "--script: a 't' with no outstanding put");
        return -1;
      }
      cfg->worker[cfg->nworker++] = (vf_op){OP_TAKE, (uint8_t)stack[--depth]};
      if (--takes_left)
        for (int i = 0; i + 1 < cfg->x; i++)
          cfg->worker[cfg->nworker++] = (vf_op){OP_STORE, (uint8_t)i};
    } else {
      snprintf(err, n, "--script: only 'p' (put) and 't' (take), got '%c'", *p);
      return -1;
    }
  }
  if (!puts) {
    snprintf(err, n, "--script: no put");
    return -1;
  }
  /* Tasks still outstanding at the end stay in the deque: the worker stops
   * without taking them back, which THEP's progress argument excludes. */
  cfg->left = 0;
  while (depth)
    cfg->left |= (uint8_t)(1u << (stack[--depth] - 1));
  cfg->tasks = puts;
  return 0;
}

static const char usage[] =
    "usage: ws-verify --variant=the|cl|ffthe|ffcl|thep|split [--S=1..8] "
    "[--x=0..4] [--delta=N|bound|bound-N] [--tasks=1..6 | --script=ppt..] "
    "[--thieves=1..3] [--steals=1..3] [--buffer=plain|b|coalesce] "
    "[--no-fence] [--strict-peek] [--expect=safe|violation] [--max-states=N] [--quiet]\n"
    "       ws-verify --check-source=RUNTIME_SRC_DIR";

int vf_parse_args(int argc, char **argv, vf_config *cfg, int *expect,
                  const char **srcdir, char *err, size_t n) {
  memset(cfg, 0, sizeof *cfg);
  cfg->S = 2;
  cfg->x = 1;
  cfg->tasks = 3;
  cfg->thieves = 1;
  cfg->steals = 1;
  cfg->max_states = 40000000;
  *expect = -1;
  *srcdir = NULL;
  const char *delta = "bound";
  for (int i = 1; i < argc; i++) {
    char *a = argv[i], *eq = strchr(a, '=');
    char key[32];
    size_t klen = eq ? (size_t)(eq - a) : strlen(a);
    const char *val = eq ? eq + 1 : "";
    if (klen >= sizeof key)
      klen = sizeof key - 1;
    memcpy(key, a, klen);
    key[klen] = 0;
    int bad = 0;
    if (!strcmp(key, "--variant"))
      bad = !(cfg->v = vf_variant_by_name(val));
    else if (!strcmp(key, "--S"))
      bad = number(val, 1, VF_MAX_S, &cfg->S);
    else if (!strcmp(key, "--x"))
      bad = number(val, 0, VF_MAX_X, &cfg->x);
    else if (!strcmp(key, "--delta"))
      delta = val;
    else if (!strcmp(key, "--tasks"))
      bad = number(val, 1, VF_MAX_TASKS, &cfg->tasks);
    else if (!strcmp(key, "--script")) {
      bad = !*val || strlen(val) > VF_MAX_OPS;
      if (!bad)
        strcpy(cfg->script, val);
    }
    else if (!strcmp(key, "--thieves"))
      bad = number(val, 1, VF_MAX_THIEVES, &cfg->thieves);
    else if (!strcmp(key, "--steals"))
      bad = number(val, 1, 3, &cfg->steals);
    else if (!strcmp(key, "--buffer"))
      bad = !strcmp(val, "plain")    ? (cfg->buffer = BUF_PLAIN, 0)
            : !strcmp(val, "b")        ? (cfg->buffer = BUF_B, 0)
            : !strcmp(val, "coalesce") ? (cfg->buffer = BUF_COALESCE, 0)
                                       : 1;
    else if (!strcmp(a, "--no-fence"))
      cfg->no_fence = 1;
    else if (!strcmp(a, "--strict-peek"))
      cfg->strict_peek = 1;
    else if (!strcmp(key, "--expect"))
      bad = !strcmp(val, "safe")        ? (*expect = 0, 0)
            : !strcmp(val, "violation") ? (*expect = 1, 0)
                                        : 1;
    else if (!strcmp(key, "--max-states")) {
      char *end;
      cfg->max_states = strtol(val, &end, 10);
      bad = end == val || *end || cfg->max_states < 1;
    } else if (!strcmp(a, "--quiet"))
      cfg->quiet = 1;
    else if (!strcmp(key, "--check-source"))
      bad = !*(*srcdir = val);
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      snprintf(err, n, "%s", usage);
      return 1;
    } else {
      snprintf(err, n, "unknown option '%s'\n%s", a, usage);
      return -1;
    }
    if (bad) {
      snprintf(err, n, "bad value in '%s'\n%s", a, usage);
      return -1;
    }
  }
  if (*srcdir)
    return 0;
  if (!cfg->v) {
    snprintf(err, n, "--variant is required\n%s", usage);
    return -1;
  }
  if (cfg->no_fence && !cfg->v->has_fence) {
    snprintf(err, n, "--no-fence: the %s deque has no fence to remove",
             cfg->v->name);
    return -1;
  }
  if (!*cfg->script) {
    for (int i = 0; i < cfg->tasks; i++)
      cfg->script[i] = 'p';
    for (int i = 0; i < cfg->tasks; i++)
      cfg->script[cfg->tasks + i] = 't';
    cfg->script[2 * cfg->tasks] = 0;
  }
  if (compile_script(cfg, err, n))
    return -1;
  int bound = vf_delta_bound(cfg);
  if (!strcmp(delta, "bound")) {
    cfg->delta = bound;
  } else if (!strncmp(delta, "bound-", 6)) {
    int k;
    if (number(delta + 6, 0, bound, &k)) {
      snprintf(err, n, "--delta=%s: the bound is %d, delta cannot go below 0",
               delta, bound);
      return -1;
    }
    cfg->delta = bound - k;
  } else if (number(delta, 0, 64, &cfg->delta)) {
    snprintf(err, n, "bad value in '--delta=%s' (a number, bound or bound-N)",
             delta);
    return -1;
  }
  return 0;
}
