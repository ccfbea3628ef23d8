/*
 * sha1.h — SHA-1 (FIPS 180-4) of a message of at most 55 bytes, which fits
 * one 64-byte block: all UTS ever hashes is a 20-byte state plus a 4-byte
 * child number.  Written for this suite; checked against the FIPS "abc"
 * vector in sha1_selftest().
 */
#ifndef UTS_SHA1_H
#define UTS_SHA1_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SHA1_DIGEST 20
#define SHA1_MAX_SHORT 55

static inline uint32_t sha1_rol(uint32_t x, int n) {
  return (x << n) | (x >> (32 - n));
}

/* out = SHA-1(msg[0..len)), len <= SHA1_MAX_SHORT. */
static inline void sha1_short(const uint8_t *msg, size_t len,
                              uint8_t out[SHA1_DIGEST]) {
  uint8_t block[64] = {0};
  memcpy(block, msg, len);
  block[len] = 0x80; /* padding: a one bit, zeros, then the length in bits */
  uint64_t bits = (uint64_t)len * 8;
  for (int i = 0; i < 8; i++)
    block[63 - i] = (uint8_t)(bits >> (8 * i));

  uint32_t w[80];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
           (uint32_t)block[4 * i + 2] << 8 | (uint32_t)block[4 * i + 3];
  for (int i = 16; i < 80; i++)
    w[i] = sha1_rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);

  const uint32_t h0 = 0x67452301, h1 = 0xefcdab89, h2 = 0x98badcfe,
                 h3 = 0x10325476, h4 = 0xc3d2e1f0;
  uint32_t a = h0, b = h1, c = h2, d = h3, e = h4;
  for (int i = 0; i < 80; i++) {
    uint32_t f, k;
    if (i < 20) {
      f = (b & c) | (~b & d);
      k = 0x5a827999;
    } else if (i < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8f1bbcdc;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6;
    }
    uint32_t t = sha1_rol(a, 5) + f + e + k + w[i];
    e = d;
    d = c;
    c = sha1_rol(b, 30);
    b = a;
    a = t;
  }
  const uint32_t h[5] = {h0 + a, h1 + b, h2 + c, h3 + d, h4 + e};
  for (int i = 0; i < 5; i++) {
    out[4 * i] = (uint8_t)(h[i] >> 24);
    out[4 * i + 1] = (uint8_t)(h[i] >> 16);
    out[4 * i + 2] = (uint8_t)(h[i] >> 8);
    out[4 * i + 3] = (uint8_t)h[i];
  }
}

/* 1 when SHA-1("abc") is the FIPS 180 test vector. */
static inline int sha1_selftest(void) {
  static const uint8_t want[SHA1_DIGEST] = {
      0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
      0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d};
  uint8_t got[SHA1_DIGEST];
  sha1_short((const uint8_t *)"abc", 3, got);
  return memcmp(got, want, SHA1_DIGEST) == 0;
}

#endif
