// SPDX-License-Identifier: Apache-2.0
#pragma once
// AddressSanitizer and SystemC's coroutines. Debian's SystemC announces its stack switches to
// ASan (weak __sanitizer_*_switch_fiber references), but it does not know the bounds of the
// main stack: when sc_start() returns, ASan's idea of the main thread's stack is wrong, so the
// next exception thrown on it warns "ASan is ignoring requested __asan_handle_no_return" and
// reports a false stack-use-after-scope. Without ASan this is a no-op.

namespace npusim::platform {

// Tells ASan the real bounds of the calling thread's stack again; call it on the main stack
// after sc_start() returns.
void resyncSanitizerStack();

} // namespace npusim::platform
