/* cli.h — command-line numbers and lists for the tools: a bad value is one
 * line naming the option, then exit status 2. */
#ifndef WS_CLI_H
#define WS_CLI_H

#include <stdint.h>

/* Set once by main: the tool's name for messages. */
extern const char *cli_tool;

__attribute__((noreturn, format(printf, 1, 2))) void cli_usage_error(const char *fmt, ...);

/* A decimal integer in [lo, hi], else a usage error naming opt. */
uint64_t cli_uint(const char *opt, const char *s, uint64_t lo, uint64_t hi);

/* "1-8,10,12" into a sorted list without repeats, values in [lo, hi];
 * returns its length.  A usage error naming opt if malformed or longer
 * than max. */
unsigned cli_list(const char *opt, const char *s, unsigned lo, unsigned hi,
                  unsigned *out, unsigned max);

/* "A,B": two different CPUs (the tools' worker and thief), else a usage
 * error naming opt. */
void cli_cpus(const char *opt, const char *s, int cpus[2]);

/* The first two CPUs this process may run on (-1 where there is none). */
void cli_default_cpus(int cpus[2]);


#endif
