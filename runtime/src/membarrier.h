/*
 * membarrier.h — the thief's half of an asymmetric Dekker handshake (FF-MB,
 * deque_ffmb.c): a full memory barrier forced on another thread, so the
 * owner's take needs none of its own.  The operating-system form of the
 * victim-thief handshake of paper 004 (Kumar et al.: the thief stops the
 * victim; the victim's path carries no synchronisation).
 *
 * When ws_barrier_victim(w) returns, worker w's thread has passed a full
 * memory barrier since the call began (or was not running, which drains
 * its store buffer too): every store it made before that point is in
 * memory, and every load it makes after it sees what the caller stored
 * before the call.
 */
#ifndef WS_MEMBARRIER_H
#define WS_MEMBARRIER_H

typedef struct ws_worker ws_worker;

typedef enum ws_barrier_mode {
  WS_BARRIER_NONE,       /* not set up: no variant asked for it */
  WS_BARRIER_MEMBARRIER, /* membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) */
  WS_BARRIER_SIGNAL,     /* a signal whose handler fences and answers */
} ws_barrier_mode;

/* Called at start-up, before the worker threads start (registering later
 * waits for an RCU grace period): membarrier where the kernel allows it
 * (it is missing under gVisor, refused by old seccomp profiles), else the
 * signal.  force_signal: the fallback even where membarrier works (tests). */
void ws_barrier_init(int force_signal);
ws_barrier_mode ws_barrier_mode_now(void);
const char *ws_barrier_name(void);

void ws_barrier_victim(ws_worker *victim);

#endif
