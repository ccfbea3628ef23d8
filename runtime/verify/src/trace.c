/*
 * trace.c — prints an interleaving: for each step the thread, the line of
 * the paper's figure and the runtime's C statement it mirrors, the memory
 * access it made, then every non-empty store buffer (and B) and the deque's
 * words in memory after the step.
 */
#include <stdio.h>
#include <string.h>

#include "verify.h"

static const char *thread_name(int tid, char *buf, size_t n) {
  if (tid == 0)
    snprintf(buf, n, "worker");
  else
    snprintf(buf, n, "thief%d", tid);
  return buf;
}

static const char *op_name(const vf_config *cfg, const vf_thread *th, int tid,
                           char *buf, size_t n) {
  if (tid) {
    snprintf(buf, n, "steal#%d", th->op + 1);
    return buf;
  }
  if (th->phase == PH_FINISHED)
    return "-";
  vf_op op = cfg->worker[th->op];
  switch (op.kind) {
  case OP_PUT:
    snprintf(buf, n, "put(%d)", op.arg);
    break;
  case OP_TAKE:
    snprintf(buf, n, "take[%d]", op.arg);
    break;
  case OP_JOIN:
  case OP_JOIN_END:
    snprintf(buf, n, "join[%d]", op.arg);
    break;
  case OP_QUIESCE:
    snprintf(buf, n, "quiesce");
    break;
  default:
    snprintf(buf, n, "store");
  }
  return buf;
}

static void print_entry(const vf_store *e) {
  char a[24];
  if (e->addr == A_TS)
    printf(" (tail,split)=(%d,%d)", e->val % 16, e->val / 16);
  else
    printf(" %s=%d", vf_addr_name(e->addr, a, sizeof a), e->val);
  if (e->publishes & (VF_ST_REL | VF_ST_RMW))
    printf("(%s%s)", e->publishes & VF_ST_RMW ? "rmw" : "",
           (e->publishes & (VF_ST_REL | VF_ST_RMW)) == (VF_ST_REL | VF_ST_RMW) ? ",rel"
           : e->publishes & VF_ST_REL                                        ? "rel"
                                                                             : "");
}

static void print_machine(const vf_config *cfg, const vf_state *s) {
  printf("%14s", "");
  int any = 0;
  for (int tid = 0; tid < vf_nthreads(cfg); tid++) {
    const vf_thread *th = &s->th[tid];
    if (vf_drained(th))
      continue;
    char name[16];
    printf("%s%s buffer [", any ? "; " : "", thread_name(tid, name, sizeof name));
    for (int i = 0; i < th->nsb; i++)
      print_entry(&th->sb[i]);
    printf(" ]");
    if (th->b.addr != A_NONE) {
      printf(" B [");
      print_entry(&th->b);
      printf(" ]");
    }
    any = 1;
  }
  if (!any)
    printf("all buffers empty");
  cfg->v->show(s->mem);
}

/* Prints s left-aligned in `width` columns, counting UTF-8 characters (the
 * figures' δ and ⊥) as one column each. */
static void print_padded(const char *s, int width) {
  int cols = 0;
  for (const char *p = s; *p; p++)
    cols += ((unsigned char)*p & 0xc0) != 0x80;
  printf("%s%*s", s, width > cols ? width - cols : 0, "");
}

void vf_print_trace(const vf_config *cfg, const uint8_t *moves, int n,
                    const char *why) {
  vf_state s;
  char whybuf[VF_WHY];
  vf_initial_state(cfg, &s);
  char dropped[128], delta[16];
  vf_drop_names(cfg->drop, dropped, sizeof dropped);
  printf("counterexample, %d steps (%s, S=%d, x=%d, delta=%s, buffer=%s%s%s%s, "
         "script %s, %d thie%s x %d steal%s):\n",
         n, cfg->v->name, cfg->S, cfg->x, vf_delta_name(cfg->delta, delta, sizeof delta),
         cfg->buffer == BUF_PLAIN ? "plain" : cfg->buffer == BUF_B ? "b" : "coalesce",
         cfg->weak ? ", memory=weak" : "", *dropped ? ", left out:" : "", dropped, cfg->script, cfg->thieves,
         cfg->thieves > 1 ? "ves" : "f", cfg->steals, cfg->steals > 1 ? "s" : "");
  for (int i = 0; i < n; i++) {
    int tid = moves[i] / VF_MOVE_KINDS, kind = moves[i] % VF_MOVE_KINDS;
    vf_thread *th = &s.th[tid];
    vf_note note = {{0}, 0};
    char name[16], op[16];
    thread_name(tid, name, sizeof name);
    if (kind == 0) {
      const vf_step_info *info = vf_next_step_info(cfg, th, tid);
      op_name(cfg, th, tid, op, sizeof op);
      vf_ctx c = {cfg, &s, tid, th, &note, whybuf, 0};
      vf_thread_step(&c);
      if (note.continued_pc)
        info = &cfg->v->steps[note.continued_pc];
      if (!*note.access)
        snprintf(note.access, sizeof note.access, "(no access)");
      printf("%4d  %-7s %-9s ", i + 1, name, op);
      print_padded(info->fig, 58);
      printf(" %s\n", note.access);
      if (info->code)
        printf("%14s%s: %s%s%s%s%s%s\n", "", info->file, info->code,
               info->cond ? "  ...  " : "", info->cond ? info->cond : "",
               cfg->weak ? "  [weak: " : "",
               cfg->weak ? vf_order_name(vf_order_of(info->code, cfg->drop)) : "",
               cfg->weak ? "]" : "");
      if (info->also_file && info->also[0]) {
        printf("%14s%s: %s", "", info->also_file, info->also[0]);
        for (int q = 1; q < 3 && info->also[q]; q++)
          printf("  ...  %s", info->also[q]);
        printf("\n");
      }
    } else {
      if (kind == VF_MOVE_DRAIN)
        vf_drain(cfg, &s, tid, &note);
      else if (kind == VF_MOVE_FLUSH_B)
        vf_flush_b(&s, tid, &note);
      else
        vf_drain_at(cfg, &s, tid, kind - 2, &note);
      printf("%4d  %-7s %-9s [%s] %s\n", i + 1, "memory", "", name, note.access);
    }
    vf_after_step(cfg, &s);
    print_machine(cfg, &s);
  }
  printf("VIOLATION: %s\n", why);
}
