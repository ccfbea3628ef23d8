#include <ws/ws.h>
long sum(long lo, long hi) {
  if (hi - lo == 1)
    return lo;
  long mid = (lo + hi) / 2, a, b;
  ws_spawn(a, sum, lo, mid);
  b = sum(mid, hi);
  ws_sync();
  return a + b;
}
