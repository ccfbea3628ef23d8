/*
 * env_value.c — the shared parsers of the environment (env_value.h): every
 * row of ws/env.def is listed and readable; integers are digits only, with
 * leading zeros, overflow refused; sizes with K/M/G; words exact; a bad
 * value's line has no control characters.  `env_value unlisted` reads a
 * WS_ variable the table does not list: the program must stop (status 2).
 * Exits 1 naming the first failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_value.h"

static int failures;
#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("FAIL line %d: %s\n", __LINE__, #c);                              \
      failures++;                                                              \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "unlisted") == 0) {
    ws_env_getenv("WS_NOT_A_VARIABLE", NULL);
    printf("read an unlisted variable\n");
    return 0;
  }
  static const char *const rows[] = {
#define WS_ENV(name, library, parser) #name,
#include "ws/env.def"
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    EXPECT(ws_env_listed(rows[i]));
    setenv(rows[i], "x", 1);
    EXPECT(ws_env_getenv(rows[i], NULL) && strcmp(ws_env_getenv(rows[i], NULL), "x") == 0);
    unsetenv(rows[i]);
  }
  EXPECT(!ws_env_listed("WS_NOT_A_VARIABLE"));
  EXPECT(ws_env_getenv("HOME", NULL) == getenv("HOME")); /* not ours: not checked */

  uint64_t v = 0;
  EXPECT(ws_env_uint("0000000000000000000000000000000042", 1, 100, &v) == 0 && v == 42);
  EXPECT(ws_env_uint("18446744073709551615", 0, UINT64_MAX, &v) == 0 && v == UINT64_MAX);
  EXPECT(ws_env_uint("18446744073709551616", 0, UINT64_MAX, &v) == -1);
  EXPECT(ws_env_uint("", 0, 9, &v) == -1);
  EXPECT(ws_env_uint("-1", 0, 9, &v) == -1);
  EXPECT(ws_env_uint("+1", 0, 9, &v) == -1);
  EXPECT(ws_env_uint(" 1", 0, 9, &v) == -1);
  EXPECT(ws_env_uint("1 ", 0, 9, &v) == -1);
  EXPECT(ws_env_uint("10", 0, 9, &v) == -1);
  EXPECT(ws_env_uint("0", 1, 9, &v) == -1);

  size_t z = 0;
  EXPECT(ws_env_size("64K", 1, 1ul << 40, &z) == 0 && z == 64ul << 10);
  EXPECT(ws_env_size("2G", 1, 1ul << 40, &z) == 0 && z == 2ul << 30);
  EXPECT(ws_env_size("3", 1, 1ul << 40, &z) == 0 && z == 3);
  EXPECT(ws_env_size("K", 1, 1ul << 40, &z) == -1);
  EXPECT(ws_env_size("1k", 1, 1ul << 40, &z) == -1);
  EXPECT(ws_env_size("1KK", 1, 1ul << 40, &z) == -1);
  EXPECT(ws_env_size("2G", 1, 1ul << 30, &z) == -1);
  EXPECT(ws_env_size("1K", 2048, 1ul << 30, &z) == -1);

  static const char *const words[] = {"auto", "signal", NULL};
  EXPECT(ws_env_choice("auto", words) == 0);
  EXPECT(ws_env_choice("signal", words) == 1);
  EXPECT(ws_env_choice("Signal", words) == -1);
  EXPECT(ws_env_choice("", words) == -1);

  char err[64];
  EXPECT(ws_env_bad(err, sizeof err, "WS_X", "a\nb\tc", "0 or 1") == -1);
  EXPECT(strcmp(err, "WS_X=\"a?b?c\" is not valid: expected 0 or 1") == 0);
  char tiny[8];
  ws_env_bad(tiny, sizeof tiny, "WS_X", "1", "0");
  EXPECT(strcmp(tiny, "WS_X=\"1") == 0);

  if (failures)
    return 1;
  printf("env_value: ok\n");
  return 0;
}
