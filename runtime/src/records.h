/* records.h — the ws_delta records of all linked modules (paper 000 §4,
 * "Determining delta"): the smallest x, and the variant they were
 * compiled for. */
#ifndef WS_RECORDS_H
#define WS_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "ws/abi.h"

typedef struct ws_records_summary {
  size_t count;         /* valid records */
  uint32_t x;           /* min x over records; 1 (runtime's own) if none */
  const char *x_module; /* the module holding that x, or "runtime" */
  int variant;          /* compiled-in variant, or -1 if none */
  int counts_spawns;    /* every record with a variant counts spawns */
  const char *variant_module;
} ws_records_summary;

/* Returns 0, or -1 with a one-line message (two modules compiled for
 * different variants, a record of an unknown version). */
int ws_records_scan(const ws_module_record *begin, const ws_module_record *end,
                    ws_records_summary *out, char *err, size_t errlen);

/* The records of this program (section ws_delta). */
void ws_records_of_program(const ws_module_record **begin,
                           const ws_module_record **end);

#endif
