//===- StoreCount.cpp - ws-storecount: stores between take() calls --------===//

#include "StoreCount.h"

#include "AbiNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <queue>

using namespace llvm;

namespace wsff {

AnalysisKey StoreCountAnalysis::Key;

namespace {

constexpr unsigned Inf = UnboundedStores;

unsigned add(unsigned A, unsigned B) {
  if (A == Inf || B == Inf)
    return Inf;
  return A + B >= Inf ? Inf - 1 : A + B;
}

/// What an instruction means on a path between two takes.
enum class ItemKind : uint8_t {
  Store,         ///< one counted store
  Take,          ///< a take() site (its T store is just before it)
  TakeThenStore, ///< a take the runtime makes out of line (it stores after)
  Unknown,       ///< an unknown call: 0 stores and a possible take
  Call,          ///< a call of a function of the module: its summary
  Barrier,       ///< drains the store buffer (locked instruction, fence)
  Exit,          ///< return or resume
};

struct Item {
  ItemKind K;
  Instruction *I;
  Function *Callee = nullptr;
};

struct Summary {
  unsigned EntryToTake = Inf; ///< E2T: entry to a take, through callees
  unsigned EntryToExit = Inf; ///< E2X: entry to return without a take
  unsigned TakeToExit = Inf;  ///< T2X: after a take in it to its return
};

struct Position {
  BasicBlock *BB;
  unsigned Index;
  unsigned Cost;
};

/// The end of a shortest path: a target (next take) or an exit.
struct Found {
  unsigned Cost = Inf;
  const Item *At = nullptr;
};

struct FunctionItems {
  Function *F = nullptr;
  DenseMap<BasicBlock *, SmallVector<Item, 8>> Blocks;
  /// Layout position of each block: ties in the search are broken by it,
  /// so equally short paths are reported the same way on every run.
  DenseMap<BasicBlock *, unsigned> Order;
  /// (block, index) of the take sites and of all calls, for sources.
  SmallVector<std::pair<BasicBlock *, unsigned>, 4> Takes;
  SmallVector<std::pair<BasicBlock *, unsigned>, 8> Calls;
};

/// How a call of a declaration counts.  The runtime's entry points are
/// described by its own table (ws/abi.def); anything else that may call
/// back into the program is an unknown call.
std::optional<ItemKind> classifyDeclaration(Function &F,
                                            const TargetLibraryInfo &TLI) {
  unsigned TakeStores = 0;
  if (std::optional<AbiEffect> E = abiCallEffect(F.getName(), &TakeStores)) {
    switch (*E) {
    case AbiEffect::Take: // a take not inlined: its own stores after its T store
      return TakeStores ? ItemKind::TakeThenStore : ItemKind::Take;
    case AbiEffect::Barrier:
      return ItemKind::Barrier;
    case AbiEffect::None:
      // Joining runs other tasks, but each after a successful steal (a CAS
      // or a lock), so no take of theirs follows ours without a barrier.
      return std::nullopt;
    }
  }
  if (F.isIntrinsic() || F.hasFnAttribute(Attribute::NoCallback))
    return std::nullopt;
  LibFunc LF;
  if (TLI.getLibFunc(F, LF) && TLI.has(LF) && LF != LibFunc_qsort &&
      LF != LibFunc_atexit)
    return std::nullopt; // a C library function without callbacks
  return ItemKind::Unknown;
}

bool isTakeMarker(const CallBase &CB) {
  const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
  return IA && IA->getAsmString() == TakeMarkerAsm;
}

class Analyzer {
public:
  Analyzer(Module &M, ModuleAnalysisManager &MAM)
      : M(M),
        FAM(MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager()) {}
  StoreCountResult run(ModuleAnalysisManager &MAM);

private:
  void buildItems(Function &F);
  void search(const FunctionItems &FI, ArrayRef<Position> Sources,
              Found &Target, Found &Exit, unsigned ExitExtra,
              bool EarlyStop) const;
  Summary summarize(const FunctionItems &FI) const;
  void computeSummaries();
  void computeReturnCosts();
  std::string describe(const Item &It, const FunctionItems &FI) const;
  /// Not summarized yet (later in its SCC's first round): no path at all.
  Summary summaryOf(Function *F) const {
    auto It = Sums.find(F);
    return It == Sums.end() ? Summary{} : It->second;
  }

  Module &M;
  FunctionAnalysisManager &FAM;
  DenseMap<Function *, FunctionItems> Items;
  DenseMap<Function *, Summary> Sums;
  /// R(F): stores from F's return to the next take, 0 at the boundary.
  DenseMap<Function *, unsigned> ReturnCost;
  DenseMap<Function *, std::string> ReturnWhere;
  /// Callers of each function: (caller, block, index of the call item).
  DenseMap<Function *, SmallVector<std::tuple<Function *, BasicBlock *, unsigned>, 4>>
      CallSites;
};

void Analyzer::buildItems(Function &F) {
  FunctionItems &FI = Items[&F];
  FI.F = &F;
  const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
  AAResults &AA = FAM.getResult<AAManager>(F);
  for (BasicBlock &BB : F) {
    FI.Order[&BB] = FI.Order.size();
    SmallVector<Item, 8> &Out = FI.Blocks[&BB];
    // A user volatile or atomic store counts once the next store in the
    // block is known to go elsewhere: then the two cannot coalesce.
    StoreInst *Pending = nullptr;
    auto Push = [&](ItemKind K, Instruction *I, Function *Callee = nullptr) {
      if (K == ItemKind::Take || K == ItemKind::TakeThenStore)
        FI.Takes.push_back({&BB, unsigned(Out.size())});
      if (K == ItemKind::Call)
        FI.Calls.push_back({&BB, unsigned(Out.size())});
      Out.push_back({K, I, Callee});
    };
    for (Instruction &I : BB) {
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (Pending &&
            AA.isNoAlias(MemoryLocation::get(Pending), MemoryLocation::get(SI)))
          Push(ItemKind::Store, Pending);
        Pending = nullptr;
        if (SI->getMetadata(CountedStoreMD))
          Push(ItemKind::Store, SI);
        else if (SI->getMetadata(TailStoreMD))
          continue;
        else if (SI->isAtomic() &&
                 SI->getOrdering() == AtomicOrdering::SequentiallyConsistent)
          Push(ItemKind::Barrier, SI); // xchg on x86
        else if (SI->isVolatile() || SI->isAtomic())
          Pending = SI;
        continue;
      }
      if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
        Pending = nullptr;
        Push(ItemKind::Barrier, &I); // lock-prefixed on x86
        continue;
      }
      if (auto *Fence = dyn_cast<FenceInst>(&I)) {
        if (Fence->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
            Fence->getSyncScopeID() == SyncScope::System) {
          Pending = nullptr;
          Push(ItemKind::Barrier, &I);
        }
        continue;
      }
      if (isa<ReturnInst>(I) || isa<ResumeInst>(I)) {
        Push(ItemKind::Exit, &I);
        continue;
      }
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB) {
        if (I.mayWriteToMemory())
          Pending = nullptr;
        continue;
      }
      if (isa<DbgInfoIntrinsic>(CB))
        continue;
      Pending = nullptr;
      if (CB->isInlineAsm()) {
        if (isTakeMarker(*CB))
          Push(ItemKind::Take, CB);
        continue;
      }
      Function *Callee = CB->getCalledFunction();
      if (!Callee) {
        Push(ItemKind::Unknown, CB);
        continue;
      }
      if (!Callee->isDeclaration() && !Callee->isInterposable()) {
        Push(ItemKind::Call, CB, Callee);
        continue;
      }
      if (std::optional<ItemKind> K = classifyDeclaration(*Callee, TLI))
        Push(*K, CB, Callee);
    }
  }
}

/// Dijkstra over blocks.  Costs only grow along a block, so the cost at a
/// block's start is all a block needs; sources may start inside a block.
/// With EarlyStop it stops once nothing cheaper than the best answer,
/// min(target, exit + ExitExtra), remains; otherwise it finds both minima.
void Analyzer::search(const FunctionItems &FI, ArrayRef<Position> Sources,
                      Found &Target, Found &Exit, unsigned ExitExtra,
                      bool EarlyStop) const {
  DenseMap<BasicBlock *, unsigned> Dist;
  using QItem = std::tuple<unsigned, unsigned, BasicBlock *>; // cost, order
  std::priority_queue<QItem, std::vector<QItem>, std::greater<QItem>> Queue;
  auto Best = [&] {
    return EarlyStop ? std::min(Target.Cost, add(Exit.Cost, ExitExtra)) : Inf;
  };
  auto Scan = [&](BasicBlock *BB, unsigned From, unsigned C) {
    const SmallVector<Item, 8> &Its = FI.Blocks.find(BB)->second;
    for (unsigned K = From; K < Its.size(); ++K) {
      const Item &It = Its[K];
      switch (It.K) {
      case ItemKind::Store:
        C = add(C, 1);
        break;
      case ItemKind::Take:
      case ItemKind::TakeThenStore:
      case ItemKind::Unknown:
        if (C < Target.Cost)
          Target = {C, &It};
        return;
      case ItemKind::Call: {
        Summary S = summaryOf(It.Callee);
        unsigned In = add(C, S.EntryToTake);
        if (In < Target.Cost)
          Target = {In, &It};
        C = add(C, S.EntryToExit);
        if (C == Inf)
          return;
        break;
      }
      case ItemKind::Barrier:
        return;
      case ItemKind::Exit:
        if (C < Exit.Cost)
          Exit = {C, &It};
        return;
      }
    }
    for (BasicBlock *Succ : successors(BB)) {
      auto [It, New] = Dist.try_emplace(Succ, C);
      if (New || C < It->second) {
        It->second = C;
        Queue.push({C, FI.Order.find(Succ)->second, Succ});
      }
    }
  };
  for (const Position &P : Sources)
    if (P.Cost < Best())
      Scan(P.BB, P.Index, P.Cost);
  while (!Queue.empty()) {
    auto [C, Pos, BB] = Queue.top();
    Queue.pop();
    if (C >= Best())
      break;
    if (C > Dist[BB])
      continue;
    Scan(BB, 0, C);
  }
}

Summary Analyzer::summarize(const FunctionItems &FI) const {
  Summary S;
  Found T, X;
  search(FI, {{&FI.F->getEntryBlock(), 0, 0}}, T, X, 0, /*EarlyStop=*/false);
  S.EntryToTake = T.Cost;
  S.EntryToExit = X.Cost;
  // After a take (ours, a callee's, or an unknown call's) to our return.
  SmallVector<Position, 8> Sources;
  for (auto [BB, K] : FI.Takes) {
    const Item &It = FI.Blocks.find(BB)->second[K];
    Sources.push_back({BB, K + 1, It.K == ItemKind::TakeThenStore ? 1u : 0u});
  }
  for (auto [BB, K] : FI.Calls) {
    const Item &It = FI.Blocks.find(BB)->second[K];
    unsigned C = summaryOf(It.Callee).TakeToExit;
    if (C != Inf)
      Sources.push_back({BB, K + 1, C});
  }
  for (auto &[BB, Its] : FI.Blocks)
    for (unsigned K = 0; K < Its.size(); ++K)
      if (Its[K].K == ItemKind::Unknown)
        Sources.push_back({BB, K + 1, 0});
  Found T3, X3;
  // Targets end paths without ending the search: only exits matter here.
  search(FI, Sources, T3, X3, 0, /*EarlyStop=*/false);
  S.TakeToExit = X3.Cost;
  return S;
}

/// Bottom-up: every function after its callees (a depth-first post-order
/// from every function, so functions nobody calls are included), then
/// rounds until nothing changes, which recursion needs.  Summaries start at
/// "no path" and only decrease, as in Bellman-Ford.
void Analyzer::computeSummaries() {
  SmallVector<Function *, 32> Order;
  DenseSet<Function *> Seen;
  for (Function &Root : M) {
    if (!Items.count(&Root) || !Seen.insert(&Root).second)
      continue;
    // Iterative DFS: (function, next call to look at).
    SmallVector<std::pair<Function *, unsigned>, 16> Stack{{&Root, 0}};
    while (!Stack.empty()) {
      auto &[F, Next] = Stack.back();
      const FunctionItems &FI = Items.find(F)->second;
      if (Next < FI.Calls.size()) {
        auto [BB, K] = FI.Calls[Next++];
        Function *Callee = FI.Blocks.find(BB)->second[K].Callee;
        if (Seen.insert(Callee).second)
          Stack.push_back({Callee, 0});
        continue;
      }
      Order.push_back(F);
      Stack.pop_back();
    }
  }
  for (unsigned Round = 0;; ++Round) {
    bool Changed = false;
    for (Function *F : Order) {
      Summary S = summarize(Items.find(F)->second);
      Summary &Old = Sums[F];
      if (S.EntryToTake != Old.EntryToTake || S.EntryToExit != Old.EntryToExit ||
          S.TakeToExit != Old.TakeToExit) {
        Old = S;
        Changed = true;
      }
    }
    if (!Changed)
      return;
    if (Round > 256) { // not reached with non-negative weights; stay sound
      for (Function *F : Order)
        Sums[F] = Summary{0, 0, 0};
      return;
    }
  }
}

/// Top-down: R(F) is 0 where F may be called from outside the module (the
/// boundary counts as 0 stores and a possible take), else the cheapest
/// continuation after any of its call sites.
void Analyzer::computeReturnCosts() {
  for (Function &F : M) {
    if (!Items.count(&F))
      continue;
    bool Boundary = !F.hasLocalLinkage() || F.hasAddressTaken();
    ReturnCost[&F] = Boundary ? 0 : Inf;
    ReturnWhere[&F] = Boundary ? "a return to a caller outside the module" : "";
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &Fn : M) {
      Function *F = &Fn;
      auto CS = CallSites.find(F);
      if (CS == CallSites.end() || ReturnCost[F] == 0)
        continue;
      for (auto [G, BB, K] : CS->second) {
        Found T, X;
        search(Items[G], {{BB, K + 1, 0}}, T, X, ReturnCost[G], true);
        unsigned Up = add(X.Cost, ReturnCost[G]);
        unsigned C = std::min(T.Cost, Up);
        if (C < ReturnCost[F]) {
          ReturnCost[F] = C;
          ReturnWhere[F] = T.Cost <= Up ? describe(*T.At, Items[G])
                                        : ReturnWhere[G];
          Changed = true;
        }
      }
    }
  }
}

std::string Analyzer::describe(const Item &It, const FunctionItems &FI) const {
  std::string Where = describeLocation(It.I->getDebugLoc());
  std::string In = FI.F->getName().str();
  switch (It.K) {
  case ItemKind::Take:
  case ItemKind::TakeThenStore:
    return "the take at " + Where + " in " + In;
  case ItemKind::Unknown: {
    auto *CB = cast<CallBase>(It.I);
    Function *Callee = CB->getCalledFunction();
    return "a call that may take (" +
           (Callee ? Callee->getName().str() : std::string("indirect")) +
           ") at " + Where + " in " + In;
  }
  case ItemKind::Call:
    return "a take inside " + It.Callee->getName().str() + ", called at " +
           Where + " in " + In;
  default:
    return "a return from " + In;
  }
}

StoreCountResult Analyzer::run(ModuleAnalysisManager &MAM) {
  StoreCountResult R;
  bool Any = false;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (isTakeMarker(*CB) ||
            (CB->getCalledFunction() &&
             abiCallEffect(CB->getCalledFunction()->getName()) == AbiEffect::Take))
          Any = true;
  if (!Any)
    return R; // no work at all in a module without takes

  for (Function &F : M)
    if (!F.isDeclaration())
      buildItems(F);
  for (Function &Fn : M) {
    auto It = Items.find(&Fn);
    if (It == Items.end())
      continue;
    for (auto [BB, K] : It->second.Calls)
      CallSites[It->second.Blocks[BB][K].Callee].push_back({&Fn, BB, K});
  }
  computeSummaries();
  computeReturnCosts();

  for (Function &Fn : M) {
    auto FIt = Items.find(&Fn);
    if (FIt == Items.end())
      continue;
    Function *F = &Fn;
    FunctionItems &FI = FIt->second;
    for (auto [BB, K] : FI.Takes) {
      const Item &Site = FI.Blocks[BB][K];
      Found T, X;
      unsigned Start = Site.K == ItemKind::TakeThenStore ? 1 : 0;
      search(FI, {{BB, K + 1, Start}}, T, X, ReturnCost[F], true);
      TakeSiteInfo Info;
      Info.Take = Site.I;
      unsigned Up = add(X.Cost, ReturnCost[F]);
      if (T.Cost <= Up && T.At) {
        Info.MinStores = T.Cost;
        Info.NextWhat = describe(*T.At, FI);
        Info.NextLoc = T.At->I->getDebugLoc();
        Info.NextFunction = F->getName().str();
      } else if (Up != Inf) {
        Info.MinStores = Up;
        Info.NextWhat = "a return from " + F->getName().str() + ", then " +
                        ReturnWhere[F];
      }
      R.ModuleX = std::min(R.ModuleX, Info.MinStores);
      R.Sites.push_back(std::move(Info));
    }
  }
  return R;
}

} // namespace

std::string describeLocation(const DebugLoc &DL) {
  if (!DL)
    return "?";
  return (DL->getFilename() + ":" + Twine(DL.getLine())).str();
}

StoreCountResult StoreCountAnalysis::run(Module &M, ModuleAnalysisManager &MAM) {
  return Analyzer(M, MAM).run(MAM);
}

void StoreCountResult::print(raw_ostream &OS) const {
  auto Num = [](unsigned N) {
    return N == UnboundedStores ? std::string("unbounded") : std::to_string(N);
  };
  OS << "ws-storecount: " << Sites.size() << " take site(s), x = "
     << Num(ModuleX) << "\n";
  for (const TakeSiteInfo &S : Sites) {
    OS << "  take in " << S.Take->getFunction()->getName() << " at "
       << describeLocation(S.Take->getDebugLoc()) << ": x = "
       << Num(S.MinStores);
    if (!S.NextWhat.empty())
      OS << ", to " << S.NextWhat;
    if (S.MinStores == 0)
      OS << " [needs an anti-coalescing store]";
    OS << "\n";
  }
}

PreservedAnalyses StoreCountPrinterPass::run(Module &M,
                                             ModuleAnalysisManager &MAM) {
  MAM.getResult<StoreCountAnalysis>(M).print(OS);
  return PreservedAnalyses::all();
}

} // namespace wsff
