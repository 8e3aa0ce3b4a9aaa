// SPDX-License-Identifier: Apache-2.0
#pragma once
// Command-stream builder: writes the commands of an architecture's command set by meaning, and
// operations as the inverse of the architecture 1.x (U55, U65) decoder. Used by tests and the
// demo network.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/decoder.h"

namespace npusim::cmd {

class CommandStreamBuilder {
public:
  // A builder of `set`'s commands; emit() writes architecture 1.x (U55/U65) semantics only.
  explicit CommandStreamBuilder(const arch::CommandSet& set = arch::ethosU55CommandSet()) : set_(&set) {}

  // Raw commands, always emitted. Contract: `id` is a cmd0 (cmd1) command of the builder's set.
  void cmd0(arch::CommandId id, uint16_t param);
  void cmd1(arch::CommandId id, uint32_t payload, uint16_t param = 0);
  void append(const Command& command);
  // One raw word, whatever key it holds (streams with opcodes the command set lacks).
  void word(uint32_t value) { words_.push_back(value); }

  // Register write that, like Vela, is emitted only when it changes the register's value.
  void set(arch::CommandId id, uint32_t value, uint16_t param = 0);

  // Programs every register `op` uses (suppressing unchanged ones) and emits its NPU_OP_*, in
  // architecture 1.x semantics. Contract: the builder writes the U55/U65 command set.
  void emit(const Operation& op);

  const std::vector<uint32_t>& words() const { return words_; }
  std::vector<uint8_t> bytes() const;

private:
  void setFeatureMap(const FeatureMap& fm, const arch::FeatureMapRegisters& registers, uint32_t precisionExtra,
                     bool ofmPrecision);
  uint16_t keyOf(arch::CommandId id) const { return set_->info(id).key; }
  const arch::CommandSet* set_;
  std::vector<uint32_t> words_;
  std::array<std::optional<uint64_t>, arch::kCommandIdCount> shadow_{}; // indexed by meaning
};

// Encodes parsed commands back into stream bytes.
std::vector<uint8_t> encodeCommands(const std::vector<Command>& commands);

// Wraps a command stream in the 32-byte COP1 driver header Vela emits (`npu`'s CONFIG word, its
// architecture's ID word).
std::vector<uint8_t> buildCop1Payload(const arch::NpuConfig& npu, const std::vector<uint8_t>& stream);

} // namespace npusim::cmd
