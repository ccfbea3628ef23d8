/* cpu_table.c — the rows of ws/cpus.def, looked up by CPUID. */
#include <string.h>

#include "cpu_table.h"

static const ws_cpu_row rows[] = {
#define WS_CPU(vendor, family, lo, hi, S, name, march, evidence)               \
  {vendor, family, lo, hi, S, "cpu-table:" name, evidence},
#include "ws/cpus.def"
};

const ws_cpu_row *ws_cpu_table_lookup(const ws_cpu *c) {
  if (!c->known)
    return NULL;
  for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const ws_cpu_row *r = &rows[i];
    if (strcmp(r->vendor, c->vendor) == 0 && r->family == c->family &&
        r->model_lo <= c->model && c->model <= r->model_hi)
      return r;
  }
  return NULL;
}

const ws_cpu_row *ws_cpu_table_smallest(void) {
  const ws_cpu_row *min = &rows[0];
  for (unsigned i = 1; i < sizeof rows / sizeof rows[0]; i++)
    if (rows[i].S < min->S)
      min = &rows[i];
  return min;
}

const ws_cpu_row *ws_cpu_table_rows(unsigned *count) {
  *count = sizeof rows / sizeof rows[0];
  return rows;
}
