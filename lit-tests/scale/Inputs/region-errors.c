/* The rules of regions, broken one at a time (argv[1] says which). */
#include <string.h>

#include <ws/scale.h>
#include <ws/ws.h>

#include "spin.h"

static unsigned long opens(void) {
  ws_scale_begin("left-open");
  unsigned long a;
  ws_spawn(a, spin, 10);
  ws_sync();
  return a;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  unsigned long a = 0;
  if (strcmp(what, "crossed") == 0) {
    ws_scale_begin("a");
    ws_scale_begin("b");
    ws_scale_end("a");
  } else if (strcmp(what, "unopened") == 0) {
    ws_scale_end("a");
  } else if (strcmp(what, "left-open") == 0) {
    a = opens();
  } else if (strcmp(what, "begin-outstanding") == 0) {
    ws_spawn(a, spin, 10);
    ws_scale_begin("a");
  } else if (strcmp(what, "end-outstanding") == 0) {
    ws_scale_begin("a");
    ws_spawn(a, spin, 10);
    ws_scale_end("a");
  }
  printf("survived %lu\n", a & 0);
  return 0;
}
