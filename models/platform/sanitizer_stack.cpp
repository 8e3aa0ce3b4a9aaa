// SPDX-License-Identifier: Apache-2.0
#include "models/platform/sanitizer_stack.h"

#if defined(__SANITIZE_ADDRESS__)
#define NPUSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPUSIM_ASAN 1
#endif
#endif

#ifdef NPUSIM_ASAN
#include <pthread.h>

#include <cstddef>

extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size);
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, size_t* size_old);
}
#endif

namespace npusim::platform {

void resyncSanitizerStack() {
#ifdef NPUSIM_ASAN
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) {
    return;
  }
  void* bottom = nullptr;
  size_t size = 0;
  const bool known = pthread_attr_getstack(&attr, &bottom, &size) == 0;
  pthread_attr_destroy(&attr);
  if (known) {
    // A "switch" from this stack to itself, with its true bounds.
    void* fakeStack = nullptr;
    __sanitizer_start_switch_fiber(&fakeStack, bottom, size);
    __sanitizer_finish_switch_fiber(fakeStack, nullptr, nullptr);
  }
#endif
}

} // namespace npusim::platform
