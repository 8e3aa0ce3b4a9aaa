// SPDX-License-Identifier: Apache-2.0
#include "models/mem/backing_store.h"

#include <algorithm>
#include <cstring>

namespace npusim::mem {

void BackingStore::write(uint64_t address, const uint8_t* data, size_t bytes) {
  while (bytes > 0) {
    const uint64_t offset = address % kPageBytes;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(bytes, kPageBytes - offset));
    std::unique_ptr<uint8_t[]>& page = pages_[address / kPageBytes];
    if (!page) {
      page = std::make_unique<uint8_t[]>(kPageBytes);  // zero-initialised
    }
    std::memcpy(page.get() + offset, data, n);
    address += n;
    data += n;
    bytes -= n;
  }
}

void BackingStore::read(uint64_t address, uint8_t* data, size_t bytes) const {
  while (bytes > 0) {
    const uint64_t offset = address % kPageBytes;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(bytes, kPageBytes - offset));
    const auto page = pages_.find(address / kPageBytes);
    if (page == pages_.end()) {
      std::memset(data, 0, n);
    } else {
      std::memcpy(data, page->second.get() + offset, n);
    }
    address += n;
    data += n;
    bytes -= n;
  }
}

} // namespace npusim::mem
