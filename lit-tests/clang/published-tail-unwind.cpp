// An exception that leaves a spawning function through its entry point
// gives the caller its tail back too.  With split and private deques (and
// "runtime") the function publishes its tail one slot up before a call
// while a spawn is outstanding; the entry point restores the caller's on
// return and, in a cleanup, on unwind.  (Without the cleanup each throwing
// call from main moved the tail up a slot: a 16-slot deque overflowed
// within 100 calls.)
// RUN: %ws-clang++ -fws-fencefree=split -O2 %S/Inputs/tail-unwind.cpp -o %t.split
// RUN: %ws-clang++ -fws-fencefree=private -O2 %S/Inputs/tail-unwind.cpp -o %t.private
// RUN: %ws-clang++ -fws-fencefree=runtime -O2 %S/Inputs/tail-unwind.cpp -o %t.runtime
// RUN: env WS_NUM_WORKERS=1 WS_DEQUE_SIZE=16 %t.split 100 | FileCheck %s
// RUN: env WS_NUM_WORKERS=1 WS_DEQUE_SIZE=16 %t.private 100 | FileCheck %s
// RUN: env WS_NUM_WORKERS=1 WS_DEQUE=split WS_DEQUE_SIZE=16 %t.runtime 100 | FileCheck %s
// RUN: env WS_NUM_WORKERS=2 %t.split 100000 | FileCheck %s --check-prefix=MANY
// RUN: env WS_NUM_WORKERS=2 %t.private 100000 | FileCheck %s --check-prefix=MANY
// The entry point's cleanup in the IR (the clone is invoked; the pad stores
// the caller's tail and resumes).
// RUN: %ws-clang++ -fws-fencefree=split -O1 -S -emit-llvm %S/Inputs/tail-unwind.cpp -o - | FileCheck %s --check-prefix=IR

// CHECK: caught=50 tail-moved=0
// MANY: caught=50000 tail-moved=0
// IR-LABEL: define {{.*}}void @_Z1gl(
// IR: landingpad
// IR-NEXT: cleanup
// IR: store atomic i64
// IR: resume
