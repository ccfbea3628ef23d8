/*
 * scale_regions.h — ws/scale.h's regions, by name (scale_regions.c): the
 * hooks record each instance as it ends, the report reads the rows.
 */
#ifndef WS_SCALE_REGIONS_H
#define WS_SCALE_REGIONS_H

#include <stdint.h>

#include "scale_frame.h"

/* Instances with one name add up. */
typedef struct ws_scale_region_row {
  char *name;
  uint64_t count;
  ws_scale_figures f;
} ws_scale_region_row;

void ws_scale_region_record(const char *name, const ws_scale_figures *f);
/* The rows in order of first appearance; valid until the next record. */
const ws_scale_region_row *ws_scale_region_rows(int *n);

#endif
