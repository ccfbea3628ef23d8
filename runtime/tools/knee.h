/*
 * knee.h — where a curve that is flat and then rises starts to rise: the
 * store-buffer capacity in the curve of paper 000 Fig. 7.
 */
#ifndef WS_KNEE_H
#define WS_KNEE_H

typedef struct knee_fit {
  int clear;       /* a flat part, then a rise well above the noise */
  double at;       /* the last x of the flat part */
  double plateau;  /* mean y of the flat part */
  double step;     /* the rise's first y (fitted) above the plateau */
  double slope;    /* the rise's slope, y per x */
  double noise;    /* robust spread of the flat part (1.4826 * MAD) */
  const char *why; /* when not clear: why not */
} knee_fit;

/* Fits y = plateau for x <= at, a line for x > at, by least squares over
 * every split that leaves 3 points each side; x ascending, n >= 6. */
knee_fit knee_find(const double *x, const double *y, int n);

#endif
