/*
 * fft — radix-2 decimation-in-time FFT of 2^k complex points, out of place
 * (paper 000 Table 1: 2^26).  The two half-size transforms run in
 * parallel, the butterflies of a level run as a parallel loop; below 2^12
 * points a transform is serial.
 *
 * Check: the input is a sum of three complex exponentials, so its
 * transform is three spikes of known height at known bins and zero
 * elsewhere; every bin is checked.
 */
#include <math.h>
#include <ws/ws.h>

#include "../common/bench.h"

#define SERIAL_BELOW 4096L
#define BUTTERFLIES_PER_TASK 4096L

typedef struct cplx {
  double re, im;
} cplx;

/* w[j] = e^{-2 pi i j / N}, j < N/2. */
static cplx *w;
static long N;

typedef struct level {
  cplx *out;
  long half, wstep;
} level;

/* Combine the two half transforms in out[0..2 half). */
static void butterflies(long lo, long hi, void *ctx) {
  const level *l = ctx;
  cplx *even = l->out, *odd = l->out + l->half;
  for (long k = lo; k < hi; k++) {
    cplx t = w[k * l->wstep], o = odd[k];
    cplx p = {t.re * o.re - t.im * o.im, t.re * o.im + t.im * o.re};
    odd[k] = (cplx){even[k].re - p.re, even[k].im - p.im};
    even[k] = (cplx){even[k].re + p.re, even[k].im + p.im};
  }
}

/* out[0..n) = DFT of in[0], in[s], ..., in[(n-1) s]. */
static void fft_serial(const cplx *in, cplx *out, long n, long s) {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  fft_serial(in, out, n / 2, 2 * s);
  fft_serial(in + s, out + n / 2, n / 2, 2 * s);
  level l = {out, n / 2, N / n};
  butterflies(0, n / 2, &l);
}

static void fft(const cplx *in, cplx *out, long n, long s) {
  if (n < SERIAL_BELOW) {
    fft_serial(in, out, n, s);
    return;
  }
  ws_spawn_void(fft, in, out, n / 2, 2 * s);
  fft(in + s, out + n / 2, n / 2, 2 * s);
  ws_sync();
  level l = {out, n / 2, N / n};
  ws_for(0, n / 2, BUTTERFLIES_PER_TASK, butterflies, &l);
}

/* e^{+2 pi i m / N} from the table. */
static cplx root(long m) {
  m %= N;
  cplx r = m < N / 2 ? w[m] : (cplx){-w[m - N / 2].re, -w[m - N / 2].im};
  return (cplx){r.re, -r.im};
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"log2n", 22, 26, 1, 30}};
  long k;
  bench_args(argc, argv, params, 1, &k);
  N = 1L << k;

  w = bench_alloc("fft", (size_t)(N / 2 + 1) * sizeof *w);
  for (long j = 0; j < N / 2; j++)
    w[j] = (cplx){cos(2 * M_PI * j / N), -sin(2 * M_PI * j / N)};
  /* x_j = e^{2 pi i f1 j/N} + 0.5 e^{2 pi i f2 j/N} + 0.25 */
  const long f1 = N / 3, f2 = 5 * N / 7;
  cplx *in = bench_alloc("fft", (size_t)N * sizeof *in);
  cplx *out = bench_alloc("fft", (size_t)N * sizeof *out);
  for (long j = 0; j < N; j++) {
    cplx a = root(f1 * j % N), b = root(f2 * j % N);
    in[j] = (cplx){a.re + 0.5 * b.re + 0.25, a.im + 0.5 * b.im};
  }

  bench_clock t0 = bench_start();
  fft(in, out, N, 1);
  bench_clock t = bench_stop(t0);

  double err = 0;
  for (long j = 0; j < N; j++) {
    double want = (j == f1 ? 1.0 : 0) + (j == f2 ? 0.5 : 0) + (j == 0 ? 0.25 : 0);
    err = fmax(err, hypot(out[j].re - want * N, out[j].im));
  }
  printf("fft(2^%ld): max error %.3g\n", k, err);
  if (!(err <= 1e-9 * N))
    bench_fail("fft", "max error %g against the three spikes", err);
  bench_time(t);
  free(w);
  free(in);
  free(out);
  return 0;
}
