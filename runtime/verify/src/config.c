/* config.c — the command line of ws-verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"

/* delta = ceil(S / (x + 1)) (paper 000 §4), x the stores between two takes,
 * the take's own included.  With B (§7.3) the observable capacity is S + 1
 * entries. */
int vf_delta_bound(const vf_config *cfg) {
  int cap = cfg->S + (cfg->buffer != BUF_PLAIN);
  return (cap + cfg->x) / (cfg->x + 1);
}

const char *vf_delta_name(int delta, char *buf, size_t n) {
  if (delta == VF_DELTA_INF)
    snprintf(buf, n, "inf");
  else
    snprintf(buf, n, "%d", delta);
  return buf;
}

static int number(const char *s, int lo, int hi, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < lo || v > hi)
    return -1;
  *out = (int)v;
  return 0;
}

/* The negative controls: what each --no-... option leaves out. */
static const struct {
  const char *option;
  unsigned drop;
  const char *what;
} drops[] = {
    {"--no-fence", DROP_FENCE, "the worker's fence"},
    {"--no-anticoalesce", DROP_ANTICOALESCE, "the take's anti-coalescing store"},
    {"--no-reset-tag", DROP_RESET_TAG, "the reset's new tag"},
    {"--no-take-tag", DROP_TAKE_TAG, "the new tag of the take's move down"},
    {"--no-reset-lock", DROP_RESET_LOCK, "the lock around the reset"},
    {"--no-reset-allstolen", DROP_RESET_ALLSTOLEN, "the reset's allstolen"},
    {"--no-reset", DROP_RESET, "the reset after a join"},
    {"--no-quiesce", DROP_QUIESCE, "quiesce when the worker stops"},
    {"--no-barrier", DROP_BARRIER, "barrier forced on the owner"},
    {"--no-fenced-peek", DROP_FENCED_PEEK, "seq_cst load of H after the take's exchange"},
    {"--no-claim", DROP_CLAIM, "the owner's claim of a request before it answers"},
    {"--no-take-back", DROP_TAKE_BACK, "a waiting thief's take-back of its request"},
};

/* --memory=weak: the order of a step's access is the one its quoted C
 * statement names: an explicit memory order, or a call of one of the
 * runtime's helpers below, whose definition --check-source finds in the
 * runtime (srccheck.c), so the order is checked against the source too. */
const vf_helper vf_helpers[] = {
    {"ws_th_peek_head_fenced(", VO_SC, "tailhead.h",
     "return (uint32_t)atomic_load_explicit(&q->H, ws_seq_cst);"},
    {"ws_th_peek_head(", VO_PLAIN, "tailhead.h",
     "static inline uint32_t ws_th_peek_head(const ws_dq *q) { return ws_peek32(&q->H); }"},
    {"ws_peek32(", VO_PLAIN, "atomics.h", "return *(const volatile uint32_t *)p;"},
    {"WS_STORE_FENCED(", VO_SC, "atomics.h",
     "#define WS_STORE_FENCED(p, v) ((void)atomic_exchange_explicit((p), (v), ws_seq_cst))"},
    {"ws_store_tail(", VO_REL, "deque.h",
     "void ws_store_tail(ws_dq *q, ws_slot *t) { atomic_store_explicit(&q->T, t, ws_release);"},
    {"ws_anticoalesce_store(", VO_PLAIN, "deque.h",
     "void ws_anticoalesce_store(ws_slot *t) { ws_tls_scratch[0] = (uint64_t)(uintptr_t)t;"},
    {"ws_th_lock(", VO_ACQ, "tailhead.h",
     "!atomic_exchange_explicit(&q->lock, 1, ws_acquire))"},
    {"ws_th_unlock(", VO_REL, "tailhead.h",
     "static inline void ws_th_unlock(ws_dq *q) { atomic_store_explicit(&q->lock, 0, ws_release);"},
    {"ws_barrier_victim(", VO_FULL, NULL, NULL}, /* membarrier.c, quoted by the step */
    {NULL, 0, NULL, NULL}};

static const struct {
  const char *token;
  int order;
} order_tokens[] = {
    {"ws_seq_cst", VO_SC},        {"memory_order_seq_cst", VO_SC},
    {"__ATOMIC_SEQ_CST", VO_SC},  {"ws_acq_rel", VO_ACQ_REL},
    {"__ATOMIC_ACQ_REL", VO_ACQ_REL}, {"ws_release", VO_REL},
    {"__ATOMIC_RELEASE", VO_REL}, {"ws_acquire", VO_ACQ},
    {"__ATOMIC_ACQUIRE", VO_ACQ}, {"ws_relaxed", VO_RLX},
    {"__ATOMIC_RELAXED", VO_RLX}};

/* The order the statement names first (a CAS: its success order); plain
 * when it names none (compiled code's and the runtime's plain accesses). */
int vf_order_of(const char *code, unsigned drop) {
  if (!code)
    return VO_PLAIN;
  if ((drop & DROP_FENCED_PEEK) && strstr(code, "ws_th_peek_head_fenced("))
    return VO_PLAIN; /* the take before dfa1a27: ws_th_peek_head(q) */
  const char *best = NULL;
  int order = VO_PLAIN;
  for (const vf_helper *h = vf_helpers; h->call; h++) {
    const char *at = strstr(code, h->call);
    if (at && (!best || at < best))
      best = at, order = h->order;
  }
  for (size_t i = 0; i < sizeof order_tokens / sizeof order_tokens[0]; i++) {
    const char *at = strstr(code, order_tokens[i].token);
    if (at && (!best || at < best))
      best = at, order = order_tokens[i].order;
  }
  return order;
}

const char *vf_order_name(int order) {
  static const char *const names[] = {"plain", "relaxed", "acquire", "release",
                                      "acq_rel", "seq_cst", "full barrier"};
  return names[order];
}
#define NDROPS (int)(sizeof drops / sizeof drops[0])

const char *vf_drop_names(unsigned drop, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = 0;
  for (int i = 0; i < NDROPS; i++)
    if (drop & drops[i].drop)
      used += (size_t)snprintf(buf + used, used < n ? n - used : 0, " %s",
                               drops[i].option + 2);
  return buf;
}

/* Compiles the worker's program from the script.
 *
 *   p       compiled code writes the next task into the tail slot and
 *           pushes it; the tail moves up
 *   t       take back the most recent outstanding push; then x - take_stores
 *           stores of the client (the take's own stores make up the rest of
 *           x), but after the last take
 *   t[...]  the same, and if the task was stolen and is not done at the
 *           join's first look, run the block meanwhile (leapfrogging: a
 *           stolen task's spawns and syncs, pushed above the stolen slot);
 *           a block takes back every task it pushes
 *
 * Slots are known from the script: a push uses the tail, a take the slot
 * below it, and after a take (kept, or stolen, joined and reset) the tail is
 * that slot again. */
typedef struct compiler {
  vf_config *cfg;
  const char *p;
  int puts, takes_left, client_stores;
  char *err;
  size_t n;
} compiler;

static int emit(compiler *k, vf_op op) {
  if (k->cfg->nworker == VF_MAX_OPS) {
    snprintf(k->err, k->n, "--script: too long (at most %d operations with "
                           "the client's stores)", VF_MAX_OPS);
    return -1;
  }
  k->cfg->worker[k->cfg->nworker] = op;
  return k->cfg->nworker++;
}

static int sequence(compiler *k, int tail, int nested) {
  vf_config *cfg = k->cfg;
  uint8_t task[VF_MAX_TASKS], slot[VF_MAX_TASKS];
  int depth = 0;
  while (*k->p && *k->p != ']') {
    char ch = *k->p++;
    if (ch == 'p') {
      if (k->puts == VF_MAX_TASKS) {
        snprintf(k->err, k->n, "--script: at most %d puts", VF_MAX_TASKS);
        return -1;
      }
      task[depth] = (uint8_t)++k->puts;
      slot[depth] = (uint8_t)tail++;
      cfg->slot_of[k->puts - 1] = slot[depth];
      if (emit(k, (vf_op){OP_PUT, task[depth], slot[depth], 0}) < 0)
        return -1;
      depth++;
    } else if (ch == 't') {
      if (!depth) {
        snprintf(k->err, k->n, "--script: a 't' with no outstanding put%s",
                 nested ? " of its block" : "");
        return -1;
      }
      depth--;
      tail = slot[depth];
      vf_op op = {OP_TAKE, task[depth], slot[depth], 0};
      int take = emit(k, op), join;
      op.kind = OP_JOIN;
      if (take < 0 || (join = emit(k, op)) < 0)
        return -1;
      if (*k->p == '[') {
        k->p++;
        if (sequence(k, tail + 1, 1))
          return -1;
        if (*k->p++ != ']') {
          snprintf(k->err, k->n, "--script: a '[' without its ']'");
          return -1;
        }
        op.kind = OP_JOIN_END;
        if (emit(k, op) < 0)
          return -1;
        cfg->worker[join].skip = (uint8_t)cfg->nworker;
      }
      cfg->worker[take].skip = (uint8_t)cfg->nworker;
      if (--k->takes_left)
        for (int i = 0; i < k->client_stores; i++)
          if (emit(k, (vf_op){OP_STORE, (uint8_t)i, 0, 0}) < 0)
            return -1;
    } else {
      snprintf(k->err, k->n, ch == '['
                                 ? "--script: a '[' must follow a 't'"
                                 : "--script: only 'p' (put), 't' (take) and "
                                   "'t[...]' (a take with work while it joins), "
                                   "got '%c'", ch);
      return -1;
    }
  }
  if (nested && depth) {
    snprintf(k->err, k->n, "--script: a block must take back every task it puts");
    return -1;
  }
  /* Tasks still outstanding at the end stay in the deque: the worker stops
   * without taking them back, which THEP's progress argument excludes. */
  cfg->left = 0;
  while (!nested && depth--)
    cfg->left |= (uint8_t)(1u << (task[depth] - 1));
  return 0;
}

static int compile_script(vf_config *cfg, char *err, size_t n) {
  compiler k = {cfg, cfg->script, 0, 0, cfg->x - cfg->take_stores, err, n};
  for (const char *p = cfg->script; *p; p++)
    k.takes_left += *p == 't';
  cfg->nworker = 0;
  if (sequence(&k, 0, 0))
    return -1;
  if (*k.p) {
    snprintf(err, n, "--script: a ']' without its '['");
    return -1;
  }
  if (!k.puts) {
    snprintf(err, n, "--script: no put");
    return -1;
  }
  if (cfg->v->quiesce_pc && !(cfg->drop & DROP_QUIESCE) &&
      emit(&k, (vf_op){OP_QUIESCE, 0, 0, 0}) < 0)
    return -1;
  cfg->tasks = k.puts;
  return 0;
}

static void usage_line(char *buf, size_t n) {
  size_t used = (size_t)snprintf(buf, n, "usage: ws-verify --variant=");
  for (const vf_model *m = vf_models; m->v; m++)
    used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s",
                             m == vf_models ? "" : "|", m->v->name);
  snprintf(buf + used, used < n ? n - used : 0,
           " [--S=1..8] [--x=0..4] [--delta=N|bound|bound-N|inf] [--tasks=1..6 | "
           "--script=pt[pt]..] [--thieves=1..3] [--steals=1..3] "
           "[--buffer=plain|b|coalesce] [--memory=tso|weak] [--no-fence] [--no-fenced-peek] [--no-anticoalesce] "
           "[--no-reset-tag] [--no-take-tag] [--no-reset-lock] "
           "[--no-reset-allstolen] [--no-reset] [--no-quiesce] [--no-claim] [--no-take-back] [--no-barrier] "
           "[--strict-peek] "
           "[--expect=safe|violation] [--max-states=N] [--quiet]\n"
           "       ws-verify --check-source=RUNTIME_SRC_DIR");
}

int vf_parse_args(int argc, char **argv, vf_config *cfg, int *expect,
                  const char **srcdir, char *err, size_t n) {
  char usage[1024];
  usage_line(usage, sizeof usage);
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
  const vf_model *model = NULL;
  for (int i = 1; i < argc; i++) {
    char *a = argv[i], *eq = strchr(a, '=');
    char key[32];
    size_t klen = eq ? (size_t)(eq - a) : strlen(a);
    const char *val = eq ? eq + 1 : "";
    if (klen >= sizeof key)
      klen = sizeof key - 1;
    memcpy(key, a, klen);
    key[klen] = 0;
    int bad = 0, known = 0;
    for (int d = 0; d < NDROPS; d++)
      if (!strcmp(a, drops[d].option)) {
        cfg->drop |= drops[d].drop;
        known = 1;
      }
    if (known)
      continue;
    if (!strcmp(key, "--variant"))
      bad = !(model = vf_model_by_name(val));
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
    else if (!strcmp(key, "--memory"))
      bad = !strcmp(val, "tso")    ? (cfg->weak = 0, 0)
            : !strcmp(val, "weak") ? (cfg->weak = 1, 0)
                                   : 1;
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
  if (!model) {
    snprintf(err, n, "--variant is required\n%s", usage);
    return -1;
  }
  cfg->v = model->v;
  for (int d = 0; d < NDROPS; d++)
    if ((cfg->drop & drops[d].drop) && !(cfg->v->drops & drops[d].drop)) {
      snprintf(err, n, "%s: the %s model has no %s to leave out",
               drops[d].option, cfg->v->name, drops[d].what);
      return -1;
    }
  if (cfg->weak && cfg->buffer != BUF_PLAIN) {
    snprintf(err, n, "--memory=weak: B and coalescing are TSO's (--buffer=plain)");
    return -1;
  }
  if (cfg->weak && !strcmp(cfg->v->name, "split")) {
    snprintf(err, n, "--memory=weak: the split model's mixed-size accesses "
                     "have no weak-memory model");
    return -1;
  }
  if (cfg->v->nsteps > VF_MAX_STEPS) {
    snprintf(err, n, "the %s model has more than %d steps", cfg->v->name, VF_MAX_STEPS);
    return -1;
  }
  for (int pc = 0; pc < cfg->v->nsteps; pc++)
    cfg->order[pc] = (uint8_t)vf_order_of(cfg->v->steps[pc].code, cfg->drop);
  for (int pc = 0; pc < C_NSTEPS; pc++)
    cfg->client_order[pc] = (uint8_t)vf_order_of(vf_client_steps[pc].code, cfg->drop);
  /* x counts the take's own stores between two takes (ws-storecount does). */
  cfg->take_stores = model->take_stores - !!(cfg->drop & DROP_ANTICOALESCE);
  if (cfg->x < cfg->take_stores) {
    snprintf(err, n, "--x=%d: %s's take() makes %d store%s of its own between "
                     "two takes, which x counts%s",
             cfg->x, cfg->v->name, cfg->take_stores, cfg->take_stores > 1 ? "s" : "",
             cfg->v->drops & DROP_ANTICOALESCE ? " (--no-anticoalesce leaves it out)" : "");
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
  } else if (!strcmp(delta, "inf")) {
    cfg->delta = VF_DELTA_INF; /* no S trusted: no T - delta > h */
  } else if (!strncmp(delta, "bound-", 6)) {
    int k;
    if (number(delta + 6, 0, bound, &k)) {
      snprintf(err, n, "--delta=%s: the bound is %d, delta cannot go below 0",
               delta, bound);
      return -1;
    }
    cfg->delta = bound - k;
  } else if (number(delta, 0, 64, &cfg->delta)) {
    snprintf(err, n, "bad value in '--delta=%s' (a number, bound, bound-N or inf)",
             delta);
    return -1;
  }
  return 0;
}
