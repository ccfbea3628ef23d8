/* sb_record.c — prints this CPU's calibration record with the S given on
 * the command line: the tests' way to write a file the runtime will take
 * as this machine's calibration without timing anything. */
#include <stdio.h>
#include <stdlib.h>

#include "cpu_calibration.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: sb_record S\n");
    return 2;
  }
  ws_calibration_record r = {(uint32_t)strtoul(argv[1], NULL, 10), {0}};
  ws_cpu_identify(&r.cpu);
  char line[WS_CALIBRATION_LINE_MAX + 2];
  if (ws_calibration_format(&r, line, sizeof line)) {
    fprintf(stderr, "sb_record: this CPU cannot be written as a record\n");
    return 1;
  }
  fputs(line, stdout);
  return 0;
}
