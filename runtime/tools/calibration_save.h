/* calibration_save.h — ws-calibrate: put this CPU's record into the
 * calibration file the runtime reads (runtime/src/cpu_calibration.h). */
#ifndef WS_CALIBRATION_SAVE_H
#define WS_CALIBRATION_SAVE_H

#include <stddef.h>

#include "cpu_calibration.h"

/* Replaces the record for rec->cpu, or adds it, keeping every other line;
 * creates the file and its directory if needed.  Refuses to touch a file
 * with a malformed line.  0, or -1 with one line in err. */
int calibration_save(const char *path, const ws_calibration_record *rec,
                     char *err, size_t errlen);

#endif
