/*
 * omp/invoke.c — calls a microtask with its arguments (invoke.h): up to
 * 15 through a switch, more by an x86-64 trampoline that passes the first
 * four in registers and the rest on the stack (System V).
 */
#include "../fatal.h"
#include "invoke.h"

#if defined(__x86_64__)
/* ws_omp_invoke_stack(fn, gtid, btid, argc, argv) */
void ws_omp_invoke_stack(kmpc_micro fn, int32_t *gtid, int32_t *btid, long argc,
                         void **argv);
__asm__(".text\n"
        ".p2align 4\n"
        ".type ws_omp_invoke_stack,@function\n"
        "ws_omp_invoke_stack:\n"
        "  pushq %rbp\n"
        "  movq %rsp, %rbp\n"
        "  pushq %rbx\n"          /* rsp = rbp - 8 */
        "  movq %rdi, %r11\n"     /* fn */
        "  movq %r8, %r10\n"      /* argv */
        "  movq %rcx, %rax\n"     /* argc (> 4) */
        "  movq %rax, %rbx\n"
        "  subq $4, %rbx\n"       /* arguments on the stack */
        "  testq $1, %rbx\n"      /* keep rsp 16-aligned at the call */
        "  jnz 1f\n"
        "  subq $8, %rsp\n"
        "1:\n"
        "  movq %rax, %rcx\n"
        "2:\n"
        "  decq %rcx\n"
        "  pushq (%r10,%rcx,8)\n"
        "  cmpq $4, %rcx\n"
        "  jne 2b\n"
        "  movq %rsi, %rdi\n"     /* gtid */
        "  movq %rdx, %rsi\n"     /* btid */
        "  movq (%r10), %rdx\n"
        "  movq 8(%r10), %rcx\n"
        "  movq 16(%r10), %r8\n"
        "  movq 24(%r10), %r9\n"
        "  xorl %eax, %eax\n"
        "  callq *%r11\n"
        "  movq -8(%rbp), %rbx\n"
        "  leave\n"
        "  ret\n"
        ".size ws_omp_invoke_stack, .-ws_omp_invoke_stack\n");
#endif

void ws_omp_invoke(kmpc_micro fn, int32_t *g, int32_t *b, int argc, void **a) {
  switch (argc) {
  case 0: fn(g, b); return;
  case 1: fn(g, b, a[0]); return;
  case 2: fn(g, b, a[0], a[1]); return;
  case 3: fn(g, b, a[0], a[1], a[2]); return;
  case 4: fn(g, b, a[0], a[1], a[2], a[3]); return;
  case 5: fn(g, b, a[0], a[1], a[2], a[3], a[4]); return;
  case 6: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5]); return;
  case 7: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6]); return;
  case 8: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); return;
  case 9: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); return;
  case 10: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]); return;
  case 11: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]); return;
  case 12: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]); return;
  case 13: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]); return;
  case 14: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]); return;
  case 15: fn(g, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]); return;
  default:
#if defined(__x86_64__)
    ws_omp_invoke_stack(fn, g, b, argc, a);
    return;
#else
    ws_fatal("a parallel region with %d shared variables: at most 15 on this "
             "processor",
             argc);
#endif
  }
}
