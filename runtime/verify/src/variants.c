/* variants.c — the deque models (the rows of ws/variants.def with
 * model = 1), and what each step is. */
#include <string.h>

#include "verify.h"

const vf_model vf_models[] = {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail, validated_only, summary) \
  VF_IF_MODEL_##model({&vf_##name, take_stores},)
#include "ws/variants.def"
#undef WS_VARIANT
    {NULL, 0}};

const vf_model *vf_model_by_name(const char *name) {
  for (const vf_model *m = vf_models; m->v; m++)
    if (!strcmp(m->v->name, name))
      return m;
  return NULL;
}

const vf_step_info *vf_next_step_info(const vf_config *cfg, const vf_thread *th,
                                      int tid) {
  const vf_variant *v = cfg->v;
  switch (th->phase) {
  case PH_IDLE:
    if (tid)
      return &v->steps[v->steal_pc];
    switch (cfg->worker[th->op].kind) {
    case OP_PUT:
      return &vf_client_steps[C_PUT_SLOT];
    case OP_TAKE:
      return &v->steps[v->take_pc];
    case OP_JOIN:
      return &vf_client_steps[C_JOIN_T];
    case OP_JOIN_END:
      return &vf_client_steps[C_JOIN_WAIT];
    case OP_QUIESCE:
      return &v->steps[v->quiesce_pc];
    default:
      return &vf_client_steps[C_STORE];
    }
  case PH_CLIENT:
    return &vf_client_steps[th->pc];
  default:
    return &v->steps[th->pc];
  }
}
