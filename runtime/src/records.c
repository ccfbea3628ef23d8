/* records.c — walking the ws_delta section. */
#include <stdio.h>

#include "deque.h"
#include "records.h"

extern const ws_module_record __start_ws_delta[] __attribute__((weak));
extern const ws_module_record __stop_ws_delta[] __attribute__((weak));

void ws_records_of_program(const ws_module_record **begin,
                           const ws_module_record **end) {
  *begin = __start_ws_delta;
  *end = __stop_ws_delta;
}

int ws_records_scan(const ws_module_record *begin, const ws_module_record *end,
                    ws_records_summary *out, char *err, size_t n) {
  out->count = 0;
  out->x = 1; /* the ops tables' takes make the anti-coalescing store */
  out->x_module = "runtime";
  out->variant = -1;
  out->variant_module = NULL;
  out->counts_spawns = 0;
  int all_count = 1;
  for (const ws_module_record *r = begin; r && r < end; r++) {
    const char *mod = r->module ? r->module : "?";
    if (r->magic != WS_RECORD_MAGIC || r->version != WS_RECORD_VERSION ||
        r->abi != WS_ABI_VERSION) {
      snprintf(err, n,
               "module %s carries a ws_delta record this runtime does not "
               "understand (version %u, expected %u; ABI %u, expected %u); "
               "rebuild it with the matching ws-clang",
               mod, r->version, WS_RECORD_VERSION,
               r->version == WS_RECORD_VERSION ? r->abi : 0, WS_ABI_VERSION);
      return -1;
    }
    if (out->count == 0 || r->x < out->x) {
      out->x = r->x;
      out->x_module = mod;
    }
    out->count++;
    if (r->variant == WS_VARIANT_RUNTIME)
      continue;
    all_count &= (r->flags & WS_RECORD_COUNTS_SPAWNS) != 0;
    if (!ws_variant_by_id(r->variant)) {
      snprintf(err, n, "module %s was compiled for unknown deque variant %u",
               mod, r->variant);
      return -1;
    }
    if (out->variant >= 0 && (uint32_t)out->variant != r->variant) {
      snprintf(err, n,
               "modules %s and %s were compiled for different deque variants "
               "(%s and %s); compile every file with the same -fws-fencefree=",
               out->variant_module, mod, ws_variant_by_id(out->variant)->name,
               ws_variant_by_id(r->variant)->name);
      return -1;
    }
    out->variant = (int)r->variant;
    out->variant_module = mod;
  }
  out->counts_spawns = out->variant >= 0 && all_count;
  return 0;
}
