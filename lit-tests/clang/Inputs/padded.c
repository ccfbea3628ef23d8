#include <ws/ws.h>
long padded_sum(long lo, long hi) {
  if (hi - lo < 2)
    return lo;
  long mid = (lo + hi) / 2, a, b;
  ws_spawn(a, padded_sum, lo, mid);
  b = padded_sum(mid, hi);
  ws_sync();
  return a + b;
}
