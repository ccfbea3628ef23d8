/* cpu_id.c — CPUID leaves 0, 1 and 0x80000002..4. */
#include <stdio.h>
#include <string.h>

#include "cpu_id.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static void trim(char *s) {
  size_t n = strlen(s);
  while (n && s[n - 1] == ' ')
    s[--n] = 0;
  size_t lead = strspn(s, " ");
  memmove(s, s + lead, n - lead + 1);
}

void ws_cpu_identify(ws_cpu *out) {
  memset(out, 0, sizeof *out);
  unsigned a, b, c, d;
  if (!__get_cpuid(0, &a, &b, &c, &d))
    return;
  memcpy(out->vendor, &b, 4);
  memcpy(out->vendor + 4, &d, 4);
  memcpy(out->vendor + 8, &c, 4);
  if (a < 1 || !__get_cpuid(1, &a, &b, &c, &d))
    return;
  /* Display family and model, as Intel SDM vol. 2A (CPUID) and AMD's
   * manuals define them. */
  unsigned base_family = (a >> 8) & 0xf, base_model = (a >> 4) & 0xf;
  out->family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
  out->model = base_family == 0x6 || base_family == 0xf
                   ? ((a >> 12) & 0xf0) | base_model
                   : base_model;
  out->stepping = a & 0xf;
  out->hypervisor = (c >> 31) & 1;
  out->known = 1;
  if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000004) {
    unsigned w[12];
    for (unsigned leaf = 0; leaf < 3; leaf++)
      __get_cpuid(0x80000002 + leaf, &w[4 * leaf], &w[4 * leaf + 1],
                  &w[4 * leaf + 2], &w[4 * leaf + 3]);
    memcpy(out->brand, w, 48);
    out->brand[48] = 0;
    trim(out->brand);
  }
}

#else

void ws_cpu_identify(ws_cpu *out) { memset(out, 0, sizeof *out); }

#endif

void ws_cpu_describe(const ws_cpu *c, char *buf, size_t n) {
  if (!c->known) {
    snprintf(buf, n, "a processor without CPUID");
    return;
  }
  snprintf(buf, n, "%s family 0x%x model 0x%x stepping %u (%s)%s", c->vendor,
           c->family, c->model, c->stepping, c->brand[0] ? c->brand : "no brand string",
           c->hypervisor ? " under a hypervisor" : "");
}
