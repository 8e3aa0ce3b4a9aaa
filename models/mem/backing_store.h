// SPDX-License-Identifier: Apache-2.0
#pragma once
// The bytes of a memory, kept only where they were written: 64 KiB pages allocated on first write,
// so a 256 MiB memory window holding a 3 MB model costs 3 MB. Unwritten bytes read as zero.
// Plain C++.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace npusim::mem {

class BackingStore {
public:
  void write(uint64_t address, const uint8_t* data, size_t bytes);
  void read(uint64_t address, uint8_t* data, size_t bytes) const;

private:
  static constexpr uint64_t kPageBytes = 64 * 1024;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;  // page index -> its bytes
};

} // namespace npusim::mem
