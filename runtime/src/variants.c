/* variants.c — the table of deque variants (ws/variants.def). */
#include <string.h>

#include "deque.h"

static const ws_deque_ops *const ws_variants[WS_VARIANT_COUNT] = {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail, validated_only, summary) [id] = &ws_ops_##name,
#include "ws/variants.def"
#undef WS_VARIANT
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

static const char ws_names[] = ""
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail, validated_only, summary) "|" #name
#include "ws/variants.def"
#undef WS_VARIANT
    ;

const char *ws_variant_names(void) { return &ws_names[1]; }
