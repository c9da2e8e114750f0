// Compiler-specific annotations, spelled once.
#ifndef MOREAU_ENGINE_UTIL_COMPILER_H_
#define MOREAU_ENGINE_UTIL_COMPILER_H_

// Keeps GCC from vectorizing a function's loops (for loops over at most the
// tree depth, where the vector set-up costs more than it saves). Other
// compilers have no such function attribute: nothing.
#if defined(__GNUC__) && !defined(__clang__)
#define MOREAU_NO_TREE_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#else
#define MOREAU_NO_TREE_VECTORIZE
#endif

#endif  // MOREAU_ENGINE_UTIL_COMPILER_H_
