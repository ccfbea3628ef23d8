// The C library's functions used without a race are clean (issue 34, item
// 7, the other side): tasks that format, copy, compare and sort their own
// buffers (on their stacks and on the heap), or disjoint parts of a shared
// one, and read shared input in parallel; a continuation that prints
// through the C++ library (whose own calls of vsnprintf and memcpy, into
// its own stack and buffers, are not the program's) before the sync, while
// the tasks run where those frames were.  No report, exit status 0.
// RUN: %ws-clang++ -fws-race -std=c++17 -O0 %s -o %t.O0
// RUN: %ws-clang++ -fws-race -std=c++17 -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s --implicit-check-not=ws-race
// RUN: %t.O2 2>&1 | FileCheck %s --implicit-check-not=ws-race
// CHECK: 3.25 and 7
// CHECK: libc-clean sorted=ok text=ok halves=ok compare=ok

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <ws/ws.h>

static const char input[] = "the shared input, read by every task";
static char shared[256];

static int by_value(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

static long own_buffers(long k) {
  char text[128];
  snprintf(text, sizeof text, "task %ld of %s", k, input);
  char copy[128];
  strcpy(copy, text);
  strcat(copy, "!");
  long numbers[64];
  for (int i = 0; i < 64; i++)
    numbers[i] = (k * 7 + i * 13) % 64;
  qsort(numbers, 64, sizeof *numbers, by_value);
  long ok = numbers[0] <= numbers[63] && strlen(copy) == strlen(text) + 1;
  char *heap = (char *)malloc(256);
  memset(heap, 'h', 255);
  heap[255] = 0;
  memcpy(heap, copy, strlen(copy));
  ok &= strncmp(heap, "task", 4) == 0 && memcmp(input, "the", 3) == 0;
  std::ostringstream out;
  out << k << ' ' << 1.5 * (double)k;
  ok &= !out.str().empty() && strstr(heap, input) != nullptr;
  free(heap);
  return ok;
}

static void fill_half(int half) {
  memset(shared + 128 * half, 'a' + half, 127);
  shared[128 * half + 127] = 0;
  char piece[16];
  snprintf(piece, sizeof piece, "half%d", half);
  memcpy(shared + 128 * half, piece, strlen(piece));
}

static long sort_half(long *a, long n) {
  qsort(a, (size_t)n, sizeof *a, by_value);
  return a[0];
}

int main() {
  long oks[16];
  for (long k = 0; k < 16; k++)
    ws_spawn(oks[k], own_buffers, k);
  std::cout << 3.25 << " and " << 7 << std::endl; // the continuation, before the sync
  char line[64];
  snprintf(line, sizeof line, "%s", "continuation");
  ws_sync();
  long sorted = 1;
  for (long k = 0; k < 16; k++)
    sorted &= oks[k];
  ws_spawn_void(fill_half, 0);
  fill_half(1);
  ws_sync();
  long values[200], first_a, first_b;
  for (int i = 0; i < 200; i++)
    values[i] = 199 - i;
  ws_spawn(first_a, sort_half, values, 100L);
  first_b = sort_half(values + 100, 100);
  ws_sync();
  int compare_ok = strcmp(shared, "half0") > 0 && strcmp(shared + 128, "half1") > 0;
  std::printf("libc-clean sorted=%s text=%s halves=%s compare=%s\n", sorted ? "ok" : "bad",
              strcmp(line, "continuation") == 0 ? "ok" : "bad",
              first_a == 100 && first_b == 0 ? "ok" : "bad", compare_ok ? "ok" : "bad");
  return 0;
}
