// Writes and reads made by libc on the program's behalf race like the
// program's own (issue 34, item 7): each pair below is a task and its
// parent's continuation, one of them through a C library function called
// as a function (through a pointer, so that the compiler does not replace
// it with its own code), the other through a plain access or another libc
// call.  Each race is reported once, at the two calls' lines.
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 > %t.O0.out 2>&1 || echo "exit status $?" >> %t.O0.out
// RUN: %t.O2 > %t.O2.out 2>&1 || echo "exit status $?" >> %t.O2.out
// RUN: FileCheck %s < %t.O0.out
// RUN: FileCheck %s < %t.O2.out

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>

static char text[64];
static char *volatile source = "from a task";
static void *(*volatile copy)(void *, const void *, size_t) = memcpy;
static void *(*volatile move)(void *, const void *, size_t) = memmove;
static void *(*volatile fill)(void *, int, size_t) = memset;
static char *(*volatile string_copy)(char *, const char *) = strcpy;
static char *(*volatile string_cat)(char *, const char *) = strcat;
static size_t (*volatile length)(const char *) = strlen;
static int (*volatile compare)(const char *, const char *) = strcmp;
static long numbers[32];

static int by_value(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

static void t_strcpy(void) { string_copy(text, source); } // CHECK-DAG: #0 t_strcpy {{.*}}libc.c:[[@LINE]]:
static void t_strcat(void) { string_cat(text, "!"); } // CHECK-DAG: #0 t_strcat {{.*}}libc.c:[[@LINE]]:
static void t_memcpy(void) { copy(text + 8, source, 8); } // CHECK-DAG: #0 t_memcpy {{.*}}libc.c:[[@LINE]]:
static void t_memset(void) { fill(text, 'x', 16); } // CHECK-DAG: #0 t_memset {{.*}}libc.c:[[@LINE]]:
static void t_memmove(void) { move(text + 1, text, 8); } // CHECK-DAG: #0 t_memmove {{.*}}libc.c:[[@LINE]]:
static void t_sprintf(void) { sprintf(text, "%d", 12345); } // CHECK-DAG: #0 t_sprintf {{.*}}libc.c:[[@LINE]]:
static void t_snprintf(void) { snprintf(text, sizeof text, "%s", source); } // CHECK-DAG: #0 t_snprintf {{.*}}libc.c:[[@LINE]]:
static void t_qsort(void) { qsort(numbers, 32, sizeof *numbers, by_value); } // CHECK-DAG: #0 t_qsort {{.*}}libc.c:[[@LINE]]:
static void t_write(void) { text[2] = 'w'; } // CHECK-DAG: #0 t_write {{.*}}libc.c:[[@LINE]]:

int main(void) {
  ws_spawn_void(t_strcpy);
  text[0] = 'c'; // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  ws_spawn_void(t_strcat);
  printf("length %zu\n", length(text)); // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  ws_spawn_void(t_memcpy);
  text[9] = 'c'; // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  ws_spawn_void(t_memset);
  char c = text[3]; // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  ws_spawn_void(t_memmove);
  text[4] = c; // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  ws_spawn_void(t_sprintf);
  printf("sprintf %d\n", compare(text, "12")); // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  ws_spawn_void(t_snprintf);
  string_copy(text + 4, "xy"); // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  for (int i = 0; i < 32; i++)
    numbers[i] = 31 - i;
  ws_spawn_void(t_qsort);
  printf("first %ld\n", numbers[5]); // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  ws_spawn_void(t_write);
  printf("compare %d\n", compare(text, "fr") != 0); // CHECK-DAG: #0 main {{.*}}libc.c:[[@LINE]]:
  ws_sync();
  return 0;
}
// CHECK: ws-race: 9 determinacy races found in this run
// CHECK-NEXT: exit status 66
