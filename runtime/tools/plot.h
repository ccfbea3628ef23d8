/* plot.h — drawing a PNG with gnuplot (Debian: gnuplot-nox). */
#ifndef WS_PLOT_H
#define WS_PLOT_H

#include <stddef.h>

/* Feeds `script` to gnuplot.  0, or -1 with one line in err (gnuplot
 * missing or failing). */
int plot_run(const char *script, char *err, size_t errlen);

#endif
