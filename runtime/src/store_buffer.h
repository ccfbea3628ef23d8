/* store_buffer.h — S, the bound on how many stores a load can pass (paper
 * 000 §2, TSO[S]), as the runtime resolves it at start-up:
 *
 *   1. WS_STORE_BUFFER (a number, or inf)                 source "env"
 *   2. the calibration file's validated record for this   "calibration"
 *      exact CPU (cpu_calibration.h says where; ws-calibrate writes it)
 *   3. the table of known CPUs (ws/cpus.def), except     "cpu-table:<name>"
 *      under a hypervisor, whose CPUID may name another CPU
 *   4. WS_DEFAULT_STORE_BUFFER (256), with a warning     "default"
 *      when WS_STATS=1
 */
#ifndef WS_STORE_BUFFER_H
#define WS_STORE_BUFFER_H

#include <stdint.h>

#include "cpu_id.h"
#include "env.h"

typedef struct ws_store_bound {
  uint32_t S;
  int inf;            /* WS_STORE_BUFFER=inf, or a calibration that saved inf */
  const char *source; /* as above: a string constant */
} ws_store_bound;

/* What resolution looks at besides the parsed environment: a seam for
 * tests, which inject variables, a CPU and collect the warnings. */
typedef struct ws_sb_probe {
  ws_env_lookup lookup; /* WS_CALIBRATION_FILE, XDG_CONFIG_HOME, HOME */
  void *ctx;
  void (*identify)(ws_cpu *out);
  void (*warn)(const char *line, void *ctx); /* "ws: warning: ...", no newline */
} ws_sb_probe;

/* With getenv, CPUID and stderr. */
ws_store_bound ws_resolve_store_buffer(const ws_env *env);
ws_store_bound ws_resolve_store_buffer_with(const ws_env *env,
                                            const ws_sb_probe *probe);

/* ceil(S / (x + 1)); INT64_MAX for an infinite S. */
int64_t ws_delta_for(const ws_store_bound *s, uint32_t x);

#endif
