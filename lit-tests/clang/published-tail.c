// With split and private deques (and "runtime", which may run them) the
// fast paths keep the tail out of memory, and ws-lower publishes it
// (__ws_publish_tail) before calls that may reach an entry point: one slot
// up while a spawn is outstanding.  The entry point gives its caller its
// own tail back when the clone returns, and a thief restores its tail
// after a stolen task.  (Nothing did: each call of g from main moved the
// tail up a slot, a 16-slot deque overflowed within 100 calls, and with
// thieves split and private handed out completed tasks again: 253019 and
// 209915 runs for 200000 tasks.)
// RUN: %ws-clang -fws-fencefree=split -O2 %S/Inputs/tail-drift.c -o %t.split
// RUN: %ws-clang -fws-fencefree=private -O2 %S/Inputs/tail-drift.c -o %t.private
// RUN: env WS_NUM_WORKERS=1 WS_DEQUE_SIZE=16 %t.split 100 | FileCheck %s
// RUN: env WS_NUM_WORKERS=1 WS_DEQUE_SIZE=16 %t.private 100 | FileCheck %s
// RUN: env WS_NUM_WORKERS=2 %t.split 200000 | FileCheck %s --check-prefix=MANY
// RUN: env WS_NUM_WORKERS=2 %t.private 200000 | FileCheck %s --check-prefix=MANY
// RUN: %ws-clang -fws-fencefree=runtime -O2 %S/Inputs/tail-drift.c -o %t.runtime
// RUN: env WS_NUM_WORKERS=1 WS_DEQUE=split WS_DEQUE_SIZE=16 %t.runtime 100 | FileCheck %s
// RUN: env WS_NUM_WORKERS=2 WS_DEQUE=private %t.runtime 200000 | FileCheck %s --check-prefix=MANY

// MANY: counter=200000 expected=200000 tail-moved=0
// CHECK: counter=100 expected=100 tail-moved=0
