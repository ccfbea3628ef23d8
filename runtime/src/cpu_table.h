/*
 * cpu_table.h — the processors the runtime knows (ws/cpus.def), by CPUID
 * vendor, family and model.
 */
#ifndef WS_CPU_TABLE_H
#define WS_CPU_TABLE_H

#include "cpu_id.h"
#include "ws/cpus.def" /* WS_DEFAULT_STORE_BUFFER */

typedef struct ws_cpu_row {
  const char *vendor;
  unsigned family, model_lo, model_hi;
  unsigned S;           /* the reordering bound the runtime uses */
  const char *source;   /* "cpu-table:<microarchitecture>" */
  const char *evidence; /* where S comes from */
} ws_cpu_row;

/* The row for c, or NULL. */
const ws_cpu_row *ws_cpu_table_lookup(const ws_cpu *c);

/* The row with the smallest S. */
const ws_cpu_row *ws_cpu_table_smallest(void);

/* All rows and their number. */
const ws_cpu_row *ws_cpu_table_rows(unsigned *count);

#endif
