/*
 * cpu_table.c — the known processors.  Sources, abbreviated per row:
 *   IOM  Intel 64 and IA-32 Architectures Optimization Reference Manual
 *        (the microarchitecture chapters list "store buffer entries")
 *   SOG  AMD Software Optimization Guide for the core (Family 17h; Family
 *        17h Models 30h and greater; Zen 3 / Family 19h; Zen 4; Zen 5):
 *        "store queue entries"
 *   C&C  Chips and Cheese measurements
 *   000  the paper (Morrison & Afek, ASPLOS'14, §7.2)
 * "uncertain": the figure is carried over from the core the vendor says this
 * one derives from; no document gives it for this core itself.
 *
 * Not listed (they get the conservative default): Lion Cove and newer Intel
 * P-cores, the Atom line (Goldmont .. Crestmont, Sierra Forest), Xeon Phi,
 * Hygon, and any model number not below.  A hybrid part is listed with its
 * P-core: the E-cores' store buffers are the smaller ones.
 */
#include <string.h>

#include "cpu_table.h"

#define INTEL(m, n, name) {"GenuineIntel", 6, m, m, n, "cpu-table:" name}
#define AMD(f, lo, hi, n, name) {"AuthenticAMD", f, lo, hi, n, "cpu-table:" name}

static const ws_cpu_row rows[] = {
    /* Nehalem: 32 (IOM §Nehalem); 000 measured 32 on Westmere-EX. */
    INTEL(0x1a, 32, "nehalem"), INTEL(0x1e, 32, "nehalem"),
    INTEL(0x1f, 32, "nehalem"), INTEL(0x2e, 32, "nehalem"),
    /* Westmere: 32 (IOM, same core as Nehalem; 000 §7.2: E7-4870). */
    INTEL(0x25, 32, "westmere"), INTEL(0x2c, 32, "westmere"),
    INTEL(0x2f, 32, "westmere"),
    /* Sandy Bridge, Ivy Bridge: 36 (IOM §Sandy Bridge). */
    INTEL(0x2a, 36, "sandy-bridge"), INTEL(0x2d, 36, "sandy-bridge"),
    INTEL(0x3a, 36, "ivy-bridge"), INTEL(0x3e, 36, "ivy-bridge"),
    /* Haswell: 42 (IOM §Haswell; 000 measured 42 on a Core i7-4770). */
    INTEL(0x3c, 42, "haswell"), INTEL(0x3f, 42, "haswell"),
    INTEL(0x45, 42, "haswell"), INTEL(0x46, 42, "haswell"),
    /* Broadwell: 42 (IOM: Haswell's back end). */
    INTEL(0x3d, 42, "broadwell"), INTEL(0x47, 42, "broadwell"),
    INTEL(0x4f, 42, "broadwell"), INTEL(0x56, 42, "broadwell"),
    /* Skylake and its client refreshes (Kaby, Coffee, Whiskey, Comet Lake)
     * and Skylake-SP, Cascade Lake, Cooper Lake: 56 (IOM §Skylake). */
    INTEL(0x4e, 56, "skylake"), INTEL(0x5e, 56, "skylake"),
    INTEL(0x55, 56, "skylake-sp"), INTEL(0x8e, 56, "kaby-lake"),
    INTEL(0x9e, 56, "coffee-lake"), INTEL(0xa5, 56, "comet-lake"),
    INTEL(0xa6, 56, "comet-lake"),
    /* Sunny Cove (Ice Lake client and server): 72 (IOM §Ice Lake). */
    INTEL(0x7d, 72, "ice-lake"), INTEL(0x7e, 72, "ice-lake"),
    INTEL(0x6a, 72, "ice-lake-sp"), INTEL(0x6c, 72, "ice-lake-sp"),
    /* Willow Cove (Tiger Lake), Cypress Cove (Rocket Lake): 72, uncertain
     * (Sunny Cove's: Intel presents both as Sunny Cove derivatives). */
    INTEL(0x8c, 72, "tiger-lake"), INTEL(0x8d, 72, "tiger-lake"),
    INTEL(0xa7, 72, "rocket-lake"),
    /* Golden Cove (Alder Lake P-core, Sapphire Rapids): 114 (IOM §Golden
     * Cove).  Raptor Cove (Raptor Lake, Emerald Rapids): 114, uncertain
     * (IOM: Golden Cove with a larger L2). */
    INTEL(0x97, 114, "alder-lake"), INTEL(0x9a, 114, "alder-lake"),
    INTEL(0x8f, 114, "sapphire-rapids"), INTEL(0xb7, 114, "raptor-lake"),
    INTEL(0xba, 114, "raptor-lake"), INTEL(0xbf, 114, "raptor-lake"),
    INTEL(0xcf, 114, "emerald-rapids"),
    /* Redwood Cove (Meteor Lake P-core, Granite Rapids): 114, uncertain
     * (C&C "Intel's Redwood Cove": no major structure resized since Golden
     * Cove; ws-sbmeasure found 112 on a Granite Rapids vCPU, see
     * docs/bounded-tso.md). */
    INTEL(0xaa, 114, "meteor-lake"), INTEL(0xac, 114, "meteor-lake"),
    INTEL(0xad, 114, "granite-rapids"), INTEL(0xae, 114, "granite-rapids"),
    /* Zen, Zen+: 44 (SOG 17h). */
    AMD(0x17, 0x00, 0x2f, 44, "zen"),
    /* Zen 2: 48 (SOG 17h models 30h and greater). */
    AMD(0x17, 0x30, 0xff, 48, "zen2"),
    /* Zen 3, Zen 3+: 64 (SOG Zen 3). */
    AMD(0x19, 0x00, 0x0f, 64, "zen3"), AMD(0x19, 0x20, 0x5f, 64, "zen3"),
    /* Zen 4, Zen 4c: 64 (SOG Zen 4). */
    AMD(0x19, 0x10, 0x1f, 64, "zen4"), AMD(0x19, 0x60, 0x7f, 64, "zen4"),
    AMD(0x19, 0xa0, 0xaf, 64, "zen4"),
    /* Zen 5, Zen 5c: 104 (SOG Zen 5).  Only the model ranges shipped as
     * Zen 5; family 1Ah may hold later cores too. */
    AMD(0x1a, 0x00, 0x2f, 104, "zen5"), AMD(0x1a, 0x40, 0x4f, 104, "zen5"),
    AMD(0x1a, 0x60, 0x7f, 104, "zen5"),
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

const ws_cpu_row *ws_cpu_table_rows(unsigned *count) {
  *count = sizeof rows / sizeof rows[0];
  return rows;
}

const ws_cpu_row *ws_cpu_table_smallest(void) {
  const ws_cpu_row *min = &rows[0];
  for (unsigned i = 1; i < sizeof rows / sizeof rows[0]; i++)
    if (rows[i].entries < min->entries)
      min = &rows[i];
  return min;
}
