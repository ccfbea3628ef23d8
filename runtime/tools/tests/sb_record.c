/* sb_record.c — prints this CPU's calibration record with the S given on
 * the command line: the tests' way to write a file the runtime will take
 * as this machine's calibration without measuring anything.  The record
 * says it was validated (with made-up figures), unless "unvalidated"
 * follows: then it is the older form ws-sbmeasure --save wrote. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_calibration.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "unvalidated"))) {
    fprintf(stderr, "usage: sb_record S|inf [unvalidated]\n");
    return 2;
  }
  ws_calibration_record r;
  memset(&r, 0, sizeof r);
  r.inf = strcmp(argv[1], "inf") == 0;
  r.S = r.inf ? 0 : (uint32_t)strtoul(argv[1], NULL, 10);
  r.validated = argc == 2;
  r.check = (ws_calibration_check){r.S / 2, 1, r.S / 2, 8, 1, 1};
  ws_cpu_identify(&r.cpu);
  char line[WS_CALIBRATION_LINE_MAX + 2];
  if (ws_calibration_format(&r, line, sizeof line)) {
    fprintf(stderr, "sb_record: this CPU cannot be written as a record\n");
    return 1;
  }
  fputs(line, stdout);
  return 0;
}
