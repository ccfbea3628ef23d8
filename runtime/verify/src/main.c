/*
 * ws-verify — exhaustive TSO[S] model checking of the wsff deques.
 * See docs/verification.md.
 *
 * Exit status: 0 the outcome is the expected one (without --expect: no
 * violation), 1 it is not, 2 bad usage, 3 the state limit stopped the
 * search before it was complete.
 */
#include <stdio.h>

#include "verify.h"

int main(int argc, char **argv) {
  vf_config cfg;
  int expect;
  const char *srcdir;
  char err[2048];
  int rc = vf_parse_args(argc, argv, &cfg, &expect, &srcdir, err, sizeof err);
  if (rc) {
    fprintf(rc < 0 ? stderr : stdout, "%s%s\n", rc < 0 ? "ws-verify: " : "", err);
    return rc < 0 ? 2 : 0;
  }
  if (srcdir)
    return vf_check_source(srcdir);

  vf_result r = vf_explore(&cfg);
  /* A run in which no steal ever succeeds proves nothing about stealing. */
  int vacuous = !r.violation && !r.limit_hit && !vf_saw_steal;
  char dropped[128], delta[16];
  vf_drop_names(cfg.drop, dropped, sizeof dropped);
  printf("%s S=%d x=%d delta=%s buffer=%s%s%s%s script=%s thieves=%d steals=%d "
         "expect=%s: %s, %ld states, %ld transitions, %ld final states, %.2f s\n",
         cfg.v->name, cfg.S, cfg.x, vf_delta_name(cfg.delta, delta, sizeof delta),
         cfg.buffer == BUF_PLAIN ? "plain" : cfg.buffer == BUF_B ? "b" : "coalesce",
         cfg.weak ? " memory=weak" : "", dropped, cfg.strict_peek ? " strict-peek" : "",
         cfg.script, cfg.thieves, cfg.steals,
         expect < 0 ? "-" : expect ? "violation" : "safe",
         r.violation   ? "VIOLATION"
         : r.limit_hit ? "INCOMPLETE (state limit)"
         : vacuous     ? "safe but vacuous (no steal ever succeeded)"
                       : "safe",
         r.states, r.transitions, r.finals, r.seconds);
  if (r.limit_hit && !r.violation)
    return 3;
  if (expect < 0)
    return r.violation;
  if (r.violation != expect || vacuous) {
    printf("ws-verify: expected %s\n",
           expect ? "a violation" : "no violation, with some steal succeeding");
    return 1;
  }
  return 0;
}
