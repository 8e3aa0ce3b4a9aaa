// SPDX-License-Identifier: Apache-2.0
#pragma once
// Command-stream decoding: words -> commands (the architecture's command set) -> register
// state (by meaning) -> one architecture-neutral Operation per NPU_OP_*, by the decoder of the
// stream's format.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/arch/command_set.h"
#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"

namespace npusim::cmd {

// One command as it appears in the stream.
struct Command {
  uint32_t index = 0;     // position in the stream (0-based)
  uint32_t offset = 0;    // byte offset in the stream
  uint16_t key = 0;       // wire key: control << 14 | opcode
  uint16_t param = 0;
  uint32_t payload = 0;   // cmd1 only
  const arch::CommandInfo* info = nullptr; // its entry in the stream's command set
  bool hasPayload() const { return arch::isCmd1(key); }
  uint32_t sizeBytes() const { return hasPayload() ? 8u : 4u; }
  arch::CommandId id() const { return info->id; }
};

// Where the stream bytes came from, for error messages.
struct StreamOrigin {
  std::string file;            // file that holds the stream
  uint64_t fileOffset = 0;     // byte offset of the stream's first command word in that file
};

// Byte sizes the operations' addresses are checked against, per region (0 = unchecked).
struct RegionLimits {
  std::array<uint64_t, 8> size{};
};

// "0x..." (zero-padded to `width` digits) for messages about stream words and addresses.
std::string hexText(uint64_t value, int width = 0);
// Throws the InputError of a stream position: the origin's file, the byte offset in it and the
// command index (none for a position between commands).
[[noreturn]] void failAt(const StreamOrigin& origin, uint32_t streamOffset, std::optional<uint32_t> commandIndex,
                         const std::string& message);

// Splits a stream into commands of `set`. Throws InputError (file, byte offset, command index)
// on an opcode the set does not define, invalid control bits, a truncated cmd1, a stream
// without NPU_OP_STOP, or bytes after the STOP.
std::vector<Command> parseCommands(const arch::CommandSet& set, const uint8_t* data, size_t size,
                                   const StreamOrigin& origin);

// The sticky command-stream registers, by meaning: what the last command of each meaning wrote.
class RegisterFile {
public:
  void apply(const Command& command);
  // The value written (a cmd1's payload, a cmd0's parameter), 0 if never written.
  uint32_t read(arch::CommandId id) const { return value_[static_cast<size_t>(id)]; }
  // A cmd1's parameter (address bits above 32, or a shift), 0 if never written.
  uint32_t readHigh(arch::CommandId id) const { return high_[static_cast<size_t>(id)]; }

private:
  std::array<uint32_t, arch::kCommandIdCount> value_{};
  std::array<uint16_t, arch::kCommandIdCount> high_{};
};

// A decoded command stream, addressed by command index: its commands and one Operation per
// NPU_OP_* (each keeps its command's index and byte offset), so that a branch's target byte
// offset can be followed to a command and the operations from there.
struct Program {
  std::vector<Command> commands;
  std::vector<Operation> operations;

  uint32_t streamBytes() const;
  // Index of the command that starts at stream byte `offset`, or nullopt when none does.
  std::optional<uint32_t> commandAt(uint32_t offset) const;
  // Index of the first operation at or after command `commandIndex` (operations.size() if none).
  size_t operationFrom(uint32_t commandIndex) const;
};

// Turns commands into one Operation per NPU_OP_*, with the decoder of `hardware`'s command set.
// Validates what each operation uses against the hardware (its SHRAM, cores) and `limits`, and
// throws InputError naming the command on impossible values or out-of-region addresses.
std::vector<Operation> decodeOperations(const arch::NpuConfig& hardware, const std::vector<Command>& commands,
                                        const StreamOrigin& origin, const RegionLimits& limits);

// parseCommands with `hardware`'s command set, then decodeOperations.
Program decodeProgram(const arch::NpuConfig& hardware, const uint8_t* data, size_t size, const StreamOrigin& origin,
                      const RegionLimits& limits);

// Decodes a stream command by command as its bytes arrive: how the NPU's command processor reads
// a stream from memory (models/npu). The same commands, operations and InputErrors as
// decodeProgram, except that the stream ends at its NPU_OP_STOP (bytes after it are not read) and
// a BRANCH's target is checked against the stream's length only, the commands after the branch
// being unknown.
class StreamDecoder {
public:
  StreamDecoder(const arch::NpuConfig& hardware, uint32_t streamBytes, StreamOrigin origin, RegionLimits limits = {});
  ~StreamDecoder();
  StreamDecoder(const StreamDecoder&) = delete;
  StreamDecoder& operator=(const StreamDecoder&) = delete;

  // Byte offset of the next command in the stream.
  uint32_t offset() const;
  // The next command's size (4, or 8 for a cmd1), from its first word in `stream` (the stream's
  // bytes from its start, present up to offset() + 4).
  uint32_t nextBytes(const uint8_t* stream) const;
  // Parses and decodes the next command (its bytes present in `stream` up to offset() +
  // nextBytes()); returns the operation it starts, or null for a register write. Throws
  // InputError on a command parseCommands or decodeOperations refuses and on the end of the
  // stream without NPU_OP_STOP. Contract: !stopped().
  const Operation* next(const uint8_t* stream);
  // The last command parsed and the operation it started (null: none).
  const Command& command() const;
  const Operation* operation() const;
  // The last command was NPU_OP_STOP.
  bool stopped() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace npusim::cmd
