// SPDX-License-Identifier: Apache-2.0
// npusim's replacement of the global `operator new` (a replaceable allocation function of the
// C++ standard): blocks of at least one huge page are placed on transparent huge pages.
//
// Why: loading Debian's libsystemc runs a static initialiser that allocates and zero-fills a
// 3 MB heap. glibc maps so large a block freshly, and the zero fill then takes one page fault
// per 4 KiB page, about 770 of them: the largest part of every npusim process's start-up
// (docs/validation.md "Start-up"). The dynamic linker binds the library's calls of `operator new`
// to this definition, since the executable defines it, and it needs no initialisation of its
// own, so it is in place before any library initialiser runs. Asked with MADV_HUGEPAGE
// (transparent huge pages are often enabled for `madvise` only), the kernel backs that block
// with two 2 MiB pages: two faults instead of about 770. What the program computes is
// unchanged: it is only where the memory comes from.
//
// Blocks are still allocated by malloc (posix_memalign), so the standard `operator delete`,
// which calls free, releases them. Under AddressSanitizer this file defines nothing: ASan
// replaces `operator new` itself to check every allocation against its deallocation.

#include <sys/mman.h>

#include <cstdlib>
#include <limits>
#include <new>

#include "sim/common/int_math.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPUSIM_HUGE_PAGE_NEW 0
#endif
#endif
#if !defined(NPUSIM_HUGE_PAGE_NEW)
#if defined(__SANITIZE_ADDRESS__) || !defined(MADV_HUGEPAGE)
#define NPUSIM_HUGE_PAGE_NEW 0
#else
#define NPUSIM_HUGE_PAGE_NEW 1
#endif
#endif

#if NPUSIM_HUGE_PAGE_NEW

namespace {

// A transparent huge page on x86-64 and on AArch64 with 4 KiB pages (the PMD size).
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// A block of `size` (>= one huge page) bytes on whole huge pages, or null when malloc has none.
void* allocateOnHugePages(std::size_t size) {
  if (size > std::numeric_limits<std::size_t>::max() - kHugePageBytes) {
    return nullptr; // rounding up would wrap: no such block exists
  }
  const std::size_t bytes = npusim::roundUp(size, kHugePageBytes);
  void* block = nullptr;
  if (posix_memalign(&block, kHugePageBytes, bytes) != 0) {
    return nullptr;
  }
  // A hint: without huge pages (disabled, or none free) the block is simply on small pages.
  madvise(block, bytes, MADV_HUGEPAGE);
  return block;
}

} // namespace

// The standard's contract: retry through the new-handler, throw std::bad_alloc without one.
void* operator new(std::size_t size) {
  const std::size_t bytes = size == 0 ? 1 : size;
  for (;;) {
    void* block = bytes >= kHugePageBytes ? allocateOnHugePages(bytes) : std::malloc(bytes);
    if (block != nullptr) {
      return block;
    }
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) {
      throw std::bad_alloc();
    }
    handler();
  }
}

#endif
