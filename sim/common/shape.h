// SPDX-License-Identifier: Apache-2.0
#pragma once
// A height x width x depth extent: feature maps, OFM blocks, micro-blocks.

#include <cstdint>
#include <string>

namespace npusim {

struct Shape3 {
  uint32_t height = 1, width = 1, depth = 1;
  uint64_t elements() const { return uint64_t{height} * width * depth; }
  bool operator==(const Shape3& o) const { return height == o.height && width == o.width && depth == o.depth; }
  // "HxWxD", as listings and errors print it.
  std::string text() const {
    return std::to_string(height) + "x" + std::to_string(width) + "x" + std::to_string(depth);
  }
};

} // namespace npusim
