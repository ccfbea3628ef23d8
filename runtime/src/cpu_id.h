/*
 * cpu_id.h — which processor this is, by CPUID: what the CPU table and the
 * calibration files of ws-calibrate are keyed by.
 */
#ifndef WS_CPU_ID_H
#define WS_CPU_ID_H

#include <stddef.h>

typedef struct ws_cpu {
  int known;          /* 0: not x86, or CPUID unavailable */
  char vendor[13];    /* "GenuineIntel", "AuthenticAMD", ... */
  unsigned family;    /* display family (base + extended) */
  unsigned model;     /* display model (extended model << 4 | base) */
  unsigned stepping;
  char brand[49];     /* brand string, leading and trailing blanks removed */
  int hypervisor;     /* CPUID.1:ECX[31]: family/model may be invented */
} ws_cpu;

/* Fills *out from CPUID of the calling CPU; out->known = 0 off x86. */
void ws_cpu_identify(ws_cpu *out);

/* "GenuineIntel family 6 model 0xa7 stepping 1 (Intel(R) Xeon(R) ...)" */
void ws_cpu_describe(const ws_cpu *c, char *buf, size_t n);

#endif
