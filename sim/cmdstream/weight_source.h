// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where an operation's encoded weights come from: read in place, or copied into a buffer by an
// earlier DMA whose source is in the constant region.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/arch/regions.h"
#include "sim/cmdstream/operation.h"

namespace npusim::cmd {

// True for convolutions with a weight stream (other kinds keep stale weight registers; a U85
// MatMul reads its weights from IFM2).
bool hasWeightStream(const Operation& op);

// Index of the most recent DMA before `before` whose destination covers [base, base + length).
std::optional<size_t> feedingDma(const std::vector<Operation>& ops, size_t before, uint8_t region, uint64_t base,
                                 uint64_t length);

// Offset in the constant region of operation `index`'s weight stream `stream` (one per core of
// a two-core NPU or per U85 weight decoder): its own address when it reads the constant region,
// else where the DMA that filled its buffer copied it from. nullopt when the operation has no
// such weight stream, the stream is empty, or it does not come from the constant region.
std::optional<uint64_t> weightStreamInConstants(const std::vector<Operation>& ops, size_t index, size_t stream = 0);

} // namespace npusim::cmd
