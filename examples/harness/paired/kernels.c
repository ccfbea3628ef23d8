/*
 * kernels.c — skynet's and fib's recursions for paired.py, compiled twice
 * into one program: as the serial elision (clang-19, SUFFIX _ser) and
 * lowered (ws-clang, SUFFIX _par).  The same shapes as examples/skynet and
 * examples/fib.
 */
#include <ws/ws.h>

#define PAIRED_CAT2(a, b) a##b
#define PAIRED_CAT(a, b) PAIRED_CAT2(a, b)
#define SKYNET PAIRED_CAT(paired_skynet, SUFFIX)
#define FIB PAIRED_CAT(paired_fib, SUFFIX)

long SKYNET(long first, long leaves) {
  if (leaves == 1)
    return first;
  long child = leaves / 10;
  long sum[10];
  for (int i = 0; i < 9; i++)
    ws_spawn(sum[i], SKYNET, first + i * child, child);
  sum[9] = SKYNET(first + 9 * child, child);
  ws_sync();
  long total = 0;
  for (int i = 0; i < 10; i++)
    total += sum[i];
  return total;
}

long FIB(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, FIB, n - 1);
  b = FIB(n - 2);
  ws_sync();
  return a + b;
}
