#include <stdio.h>
long padded_sum(long lo, long hi);
int main(void) {
  printf("sum = %ld\n", padded_sum(0, 1000));
  return 0;
}
