// Counts heap allocations of the whole test process, to hold STYLE.md's
// house rule 5 (no allocation in a step). Link allocation_counter.cc into the
// test executable: it replaces operator new/delete and interposes glibc's
// malloc family, since Eigen allocates with std::malloc, which a counting
// operator new alone never sees.
#ifndef MOREAU_TESTS_UNIT_TESTING_ALLOCATION_COUNTER_H_
#define MOREAU_TESTS_UNIT_TESTING_ALLOCATION_COUNTER_H_

namespace moreau::testing {

// operator new calls so far.
long OperatorNewCount();
// C allocator calls (malloc, calloc, realloc, memalign, posix_memalign) so far.
long MallocCount();
// Both.
inline long HeapAllocationCount() { return OperatorNewCount() + MallocCount(); }

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_UNIT_TESTING_ALLOCATION_COUNTER_H_
