/* variants.c — the table of deque variants. */
#include <string.h>

#include "deque.h"

static const ws_deque_ops *const ws_variants[WS_VARIANT_COUNT] = {
    [WS_VARIANT_THE] = &ws_ops_the,         [WS_VARIANT_CL] = &ws_ops_cl,
    [WS_VARIANT_FFTHE] = &ws_ops_ffthe,     [WS_VARIANT_FFCL] = &ws_ops_ffcl,
    [WS_VARIANT_THEP] = &ws_ops_thep,       [WS_VARIANT_SPLIT] = &ws_ops_split,
    [WS_VARIANT_PRIVATE] = &ws_ops_private,
};

const ws_deque_ops *ws_variant_by_id(unsigned id) {
  return id < WS_VARIANT_COUNT ? ws_variants[id] : NULL;
}

const ws_deque_ops *ws_variant_by_name(const char *name) {
  for (unsigned i = 0; i < WS_VARIANT_COUNT; i++)
    if (strcmp(ws_variants[i]->name, name) == 0)
      return ws_variants[i];
  return NULL;
}

const char *ws_variant_names(void) {
  return "the|cl|ffthe|ffcl|thep|split|private";
}
