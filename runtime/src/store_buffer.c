/* store_buffer.c — resolving S in the order store_buffer.h gives. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cpu_calibration.h"
#include "cpu_table.h"
#include "store_buffer.h"
#include "ws/delta.h"

__attribute__((format(printf, 2, 3))) static void
warnf(const ws_sb_probe *p, const char *fmt, ...) {
  char line[PATH_MAX + 512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  p->warn(line, p->ctx);
}

/* 1 with *rec from the calibration file, else 0 (after any warning). */
static int from_calibration(const ws_env *env, const ws_sb_probe *p,
                            const ws_cpu *cpu, ws_calibration_record *rec) {
  char path[PATH_MAX], err[PATH_MAX + 256], who[160];
  int explicit_file = ws_calibration_path(p->lookup, p->ctx, path, sizeof path);
  if (explicit_file < 0)
    return 0;
  switch (ws_calibration_lookup(path, cpu, rec, err, sizeof err)) {
  case WS_CALIB_FOUND:
    return 1;
  case WS_CALIB_BAD:
    warnf(p, "ws: warning: %s; ignoring the calibration file", err);
    return 0;
  case WS_CALIB_UNVALIDATED:
    warnf(p, "ws: warning: %s; ignoring it", err);
    return 0;
  case WS_CALIB_NO_FILE:
    if (explicit_file)
      warnf(p, "ws: warning: WS_CALIBRATION_FILE=%s does not exist", path);
    return 0;
  case WS_CALIB_NO_RECORD:
    if (env->stats) {
      ws_cpu_describe(cpu, who, sizeof who);
      warnf(p, "ws: warning: %s has no record for %s", path, who);
    }
    return 0;
  }
  return 0;
}

ws_store_bound ws_resolve_store_buffer_with(const ws_env *env,
                                            const ws_sb_probe *p) {
  ws_store_bound b = {WS_DEFAULT_STORE_BUFFER, 0, "default"};
  if (env->s_set) {
    b.S = env->S;
    b.inf = env->S_inf;
    b.source = "env";
    const ws_cpu_row *smallest = ws_cpu_table_smallest();
    if (!b.inf && b.S < smallest->S)
      warnf(p,
            "ws: warning: WS_STORE_BUFFER=%u is below the store buffer of every "
            "CPU the runtime knows (the smallest, %s, needs S >= %u): a thief "
            "may then steal a task its owner has taken",
            (unsigned)b.S, smallest->source + strlen("cpu-table:"),
            smallest->S);
    return b;
  }
  ws_cpu cpu;
  p->identify(&cpu);
  ws_calibration_record rec;
  if (from_calibration(env, p, &cpu, &rec)) {
    b.S = rec.S;
    b.inf = rec.inf;
    b.source = "calibration";
    return b;
  }
  const ws_cpu_row *row = cpu.hypervisor ? NULL : ws_cpu_table_lookup(&cpu);
  if (row) {
    b.S = row->S;
    b.source = row->source;
    return b;
  }
  if (env->stats) {
    char who[160];
    ws_cpu_describe(&cpu, who, sizeof who);
    warnf(p,
          "ws: warning: S=%u (conservative default): no calibration record "
          "for %s%s; measure S with ws-calibrate or set WS_STORE_BUFFER",
          (unsigned)WS_DEFAULT_STORE_BUFFER, who,
          cpu.hypervisor ? ", where the CPU table is not used" : ", nor a CPU-table row");
  }
  return b;
}

static void warn_stderr(const char *line, void *ctx) {
  (void)ctx;
  fprintf(stderr, "%s\n", line);
}

ws_store_bound ws_resolve_store_buffer(const ws_env *env) {
#if !WS_TSO
  /* No bounded TSO (AArch64): no S bounds the owner's stores, whatever
   * WS_STORE_BUFFER says; delta is infinite and FF-MB's thieves take the
   * barrier (ws/variants.def WS_WEAK_MEMORY). */
  (void)env;
  return (ws_store_bound){0, 1, "no-tso"};
#endif
  const ws_sb_probe system = {ws_env_getenv, NULL, ws_cpu_identify, warn_stderr};
  return ws_resolve_store_buffer_with(env, &system);
}

int64_t ws_delta_for(const ws_store_bound *s, uint32_t x) {
  return s->inf ? INT64_MAX : (int64_t)ws_delta(s->S, x);
}
