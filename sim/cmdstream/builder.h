// SPDX-License-Identifier: Apache-2.0
#pragma once
// Command-stream builder: the inverse of the architecture 1.x (U55, U65) decoder, writing the
// commands of that command set by meaning. Used by tests and the demo network.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/decoder.h"

namespace npusim::cmd {

class CommandStreamBuilder {
public:
  // Raw commands, always emitted. Contract: `id` is a cmd0 (cmd1) command of the U55/U65 set.
  void cmd0(arch::CommandId id, uint16_t param);
  void cmd1(arch::CommandId id, uint32_t payload, uint16_t param = 0);
  void append(const Command& command);
  // One raw word, whatever key it holds (streams with opcodes the command set lacks).
  void word(uint32_t value) { words_.push_back(value); }

  // Register write that, like Vela, is emitted only when it changes the register's value.
  void set(arch::CommandId id, uint32_t value, uint16_t param = 0);

  // Programs every register `op` uses (suppressing unchanged ones) and emits its NPU_OP_*.
  void emit(const Operation& op);

  const std::vector<uint32_t>& words() const { return words_; }
  std::vector<uint8_t> bytes() const;

private:
  void setFeatureMap(const FeatureMap& fm, const arch::FeatureMapRegisters& registers, uint32_t precisionExtra,
                     bool ofmPrecision);
  uint16_t keyOf(arch::CommandId id) const { return set_->info(id).key; }
  const arch::CommandSet* set_ = &arch::ethosU55CommandSet();
  std::vector<uint32_t> words_;
  std::array<std::optional<uint64_t>, arch::kCommandIdCount> shadow_{}; // indexed by meaning
};

// Encodes parsed commands back into stream bytes.
std::vector<uint8_t> encodeCommands(const std::vector<Command>& commands);

// ID word of architecture 1.0.6, as Vela 3.10 writes it.
constexpr uint32_t kVelaIdWord = 0x10060000;

// Wraps a command stream in the 32-byte COP1 driver header Vela emits.
std::vector<uint8_t> buildCop1Payload(const arch::NpuConfig& npu, const std::vector<uint8_t>& stream);

} // namespace npusim::cmd
