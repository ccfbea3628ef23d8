/* variants.c — the table of deque variants (ws/variants.def). */
#include <stdio.h>
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

static const char *const ws_weak_why[WS_VARIANT_COUNT] = {
#define WS_WEAK_MEMORY(name, sound, why) [WS_VARIANT_ID_##name] = why,
#include "ws/variants.def"
#undef WS_WEAK_MEMORY
};

const char *ws_variant_weak_memory_why(const ws_deque_ops *ops) {
  return ws_weak_why[ops->id];
}

enum {
  ws_weak_rows = 0
#define WS_WEAK_MEMORY(name, sound, why) +1
#include "ws/variants.def"
#undef WS_WEAK_MEMORY
};
_Static_assert((int)ws_weak_rows == (int)WS_VARIANT_COUNT,
               "ws/variants.def: one WS_WEAK_MEMORY row per variant");

static const int ws_weak_sound[WS_VARIANT_COUNT] = {
#define WS_WEAK_MEMORY(name, sound, why) [WS_VARIANT_ID_##name] = sound,
#include "ws/variants.def"
#undef WS_WEAK_MEMORY
};

const char *ws_variant_weak_memory_names(void) {
  static char buf[sizeof ws_names + 2 * WS_VARIANT_COUNT];
  size_t n = 0;
  buf[0] = 0;
  for (unsigned i = 0; i < WS_VARIANT_COUNT; i++)
    if (ws_weak_sound[i])
      n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? ", " : "",
                            ws_variants[i]->name);
  return buf;
}
