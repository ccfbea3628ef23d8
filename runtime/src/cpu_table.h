/*
 * cpu_table.h — store-buffer sizes of processors we know, by CPUID vendor,
 * family and model.  S = entries + 1: paper 000 §7.3 measured one more
 * store in flight than the documented entries (a retired store waiting to
 * be written behaves as one more entry).
 */
#ifndef WS_CPU_TABLE_H
#define WS_CPU_TABLE_H

#include "cpu_id.h"

typedef struct ws_cpu_row {
  const char *vendor;
  unsigned family, model_lo, model_hi;
  unsigned entries; /* store buffer (Intel) / store queue (AMD) entries */
  const char *source; /* "cpu-table:<microarchitecture>" */
} ws_cpu_row;

/* The row for c, or NULL. */
const ws_cpu_row *ws_cpu_table_lookup(const ws_cpu *c);

/* The row with the smallest store buffer. */
const ws_cpu_row *ws_cpu_table_smallest(void);

/* All rows and their number, for listing (ws-sbmeasure --table). */
const ws_cpu_row *ws_cpu_table_rows(unsigned *count);

#endif
