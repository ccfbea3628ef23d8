/* variants.c — the deque models by name, and what each step is. */
#include <string.h>

#include "verify.h"

const vf_variant *const vf_variants[] = {&vf_the,  &vf_cl,   &vf_ffthe,
                                         &vf_ffcl, &vf_thep, &vf_split, NULL};

const vf_variant *vf_variant_by_name(const char *name) {
  for (int i = 0; vf_variants[i]; i++)
    if (!strcmp(vf_variants[i]->name, name))
      return vf_variants[i];
  return NULL;
}

static const vf_step_info client_store = {
    .fig = "(client) one of the x-1 other stores between two takes"};
static const vf_step_info join = {
    .fig = "(runtime) __ws_join_stolen: wait until the thief marks the task DONE"};
static const vf_step_info run = {
    .fig = "(client) run the stolen task, then mark it DONE"};

const vf_step_info *vf_next_step_info(const vf_config *cfg, const vf_thread *th,
                                      int tid) {
  const vf_variant *v = cfg->v;
  switch (th->phase) {
  case PH_IDLE:
    if (tid)
      return &v->steps[v->steal_pc];
    switch (cfg->worker[th->op].kind) {
    case OP_PUT:
      return &v->steps[v->put_pc];
    case OP_TAKE:
      return &v->steps[v->take_pc];
    default:
      return &client_store;
    }
  case PH_JOIN:
    return &join;
  case PH_RUN:
    return &run;
  default:
    return &v->steps[th->pc];
  }
}
