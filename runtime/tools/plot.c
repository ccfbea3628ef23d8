/* plot.c — one gnuplot process per plot, the script on its stdin. */
#include <stdio.h>
#include <sys/wait.h>

#include "plot.h"

int plot_run(const char *script, char *err, size_t errlen) {
  FILE *p = popen("gnuplot", "w");
  if (!p) {
    snprintf(err, errlen, "cannot start gnuplot");
    return -1;
  }
  fputs(script, p);
  int status = pclose(p);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127) {
    snprintf(err, errlen,
             "gnuplot is not installed (Debian: apt-get install gnuplot-nox)");
    return -1;
  }
  if (WEXITSTATUS(status) != 0) {
    snprintf(err, errlen, "gnuplot failed (status %d); see its message above",
             WEXITSTATUS(status));
    return -1;
  }
  return 0;
}
