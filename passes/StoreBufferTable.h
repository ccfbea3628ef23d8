//===- StoreBufferTable.h - S at compile time ------------------*- C++ -*-===//
//
// The S the compiler assumes (recorded in ws_delta records, and the target
// of -fws-fencefree-delta padding): ws-store-buffer=N, else the S of the
// CPU the module is compiled for (-march/-mtune), else the default; both
// from the runtime's table, ws/cpus.def.  The runtime resolves S for the
// CPU it runs on and never trusts this one.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_STOREBUFFERTABLE_H
#define WSFF_STOREBUFFERTABLE_H

namespace llvm {
class Module;
}

namespace wsff {

/// S for the CPUs M's functions are compiled for (the largest), and
/// whether it came from the table (false: the conservative default).
unsigned compileTimeStoreBuffer(const llvm::Module &M, unsigned Option,
                                bool *FromTable = nullptr);

} // namespace wsff

#endif
