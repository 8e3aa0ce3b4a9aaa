// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/decoder.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "sim/cmdstream/decoder_common.h"
#include "sim/cmdstream/decoder_u55.h"
#include "sim/cmdstream/decoder_u85.h"
#include "sim/common/error.h"

namespace npusim::cmd {
namespace {

uint32_t loadWord(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

} // namespace

std::string hexText(uint64_t v, int width) {
  std::ostringstream os;
  os << "0x" << std::hex;
  if (width > 0) {
    os.width(width);
    os.fill('0');
  }
  os << v;
  return os.str();
}

void failAt(const StreamOrigin& origin, uint32_t streamOffset, std::optional<uint32_t> commandIndex,
            const std::string& message) {
  InputError::Location loc;
  loc.file = origin.file;
  loc.byteOffset = origin.fileOffset + streamOffset;
  loc.commandIndex = commandIndex;
  throw InputError(loc, message);
}

namespace {

// The command at byte `pos` of a stream of `size` bytes, the stream's command `index`. Throws the
// InputError of an invalid command word, an opcode `set` lacks or a truncated cmd1.
Command parseCommand(const arch::CommandSet& set, const uint8_t* data, size_t size, size_t pos, uint32_t index,
                     const StreamOrigin& origin) {
  const auto offset = static_cast<uint32_t>(pos);
  const uint32_t word = loadWord(data + pos);
  const auto key = static_cast<uint16_t>(word & 0xFFFF);
  const uint32_t control = (word >> 14) & 3;
  if (control > 1 || (word & 0x3C00) != 0) {
    failAt(origin, offset, index, "invalid command word " + hexText(word, 8) + " (reserved control bits set)");
  }
  const arch::CommandInfo* info = set.find(key);
  if (info == nullptr) {
    failAt(origin, offset, index, std::string("unknown ") + (control ? "cmd1" : "cmd0") + " opcode " +
                                      hexText(key & 0x3FF, 3) + " in word " + hexText(word, 8));
  }
  Command c;
  c.index = index;
  c.offset = offset;
  c.key = key;
  c.param = static_cast<uint16_t>(word >> 16);
  c.info = info;
  if (c.hasPayload()) {
    if (pos + 8 > size) {
      failAt(origin, offset, index, std::string("truncated: ") + "cmd1." + std::string(info->name) +
                                        " has no payload word");
    }
    c.payload = loadWord(data + pos + 4);
  }
  return c;
}

void checkStreamLength(size_t size, const StreamOrigin& origin) {
  if (size % 4 != 0) {
    failAt(origin, static_cast<uint32_t>(size - size % 4), std::nullopt,
           "command stream length " + std::to_string(size) + " is not a multiple of 4 bytes");
  }
}

[[noreturn]] void failNoStop(const StreamOrigin& origin, size_t size, size_t commands) {
  failAt(origin, static_cast<uint32_t>(size), static_cast<uint32_t>(commands), "command stream ends without NPU_OP_STOP");
}

// The decoder of `context.hardware`'s stream format.
std::unique_ptr<detail::OperationDecoder> operationDecoder(const detail::DecoderContext& context) {
  switch (context.hardware.arch->commands->format()) {
  case arch::CommandSet::Format::EthosU55: return u55Decoder(context);
  case arch::CommandSet::Format::EthosU85: return u85Decoder(context);
  }
  throw std::logic_error("operationDecoder: unknown command-set format");
}

// Contract of every decoder: its operations stay within what the architecture describes.
void checkDecoderContract(const arch::NpuConfig& hardware, const Operation& op) {
  const arch::Architecture& a = *hardware.arch;
  if (op.weightStreamCount > a.maxWeightStreams || op.scaleStreamCount > a.maxScaleStreams ||
      !a.hasWeightFormat(op.weightFormat)) {
    throw std::logic_error("the " + std::string(a.name) + " decoder made an operation with " +
                           std::to_string(op.weightStreamCount) + " weight and " + std::to_string(op.scaleStreamCount) +
                           " scale streams or a weight format the " + std::string(a.name) + " lacks");
  }
}

} // namespace

std::vector<Command> parseCommands(const arch::CommandSet& set, const uint8_t* data, size_t size,
                                   const StreamOrigin& origin) {
  std::vector<Command> commands;
  checkStreamLength(size, origin);
  commands.reserve(size / 6);
  size_t pos = 0;
  bool stopped = false;
  while (pos < size) {
    const auto index = static_cast<uint32_t>(commands.size());
    if (stopped) {
      failAt(origin, static_cast<uint32_t>(pos), index, std::to_string(size - pos) + " bytes follow NPU_OP_STOP");
    }
    const Command c = parseCommand(set, data, size, pos, index, origin);
    pos += c.sizeBytes();
    stopped = c.id() == arch::CommandId::OpStop;
    commands.push_back(c);
  }
  if (!stopped) {
    failNoStop(origin, size, commands.size());
  }
  return commands;
}

void RegisterFile::apply(const Command& command) {
  if (command.info->isOperation) {
    return;
  }
  const auto slot = static_cast<size_t>(command.id());
  if (command.hasPayload()) {
    value_[slot] = command.payload;
    high_[slot] = command.param; // address extension / shift
  } else {
    value_[slot] = command.param;
  }
}

uint32_t Program::streamBytes() const {
  return commands.empty() ? 0 : commands.back().offset + commands.back().sizeBytes();
}

std::optional<uint32_t> Program::commandAt(uint32_t offset) const {
  const auto it = std::lower_bound(commands.begin(), commands.end(), offset,
                                   [](const Command& c, uint32_t o) { return c.offset < o; });
  if (it == commands.end() || it->offset != offset) {
    return std::nullopt;
  }
  return it->index;
}

size_t Program::operationFrom(uint32_t commandIndex) const {
  const auto it = std::lower_bound(operations.begin(), operations.end(), commandIndex,
                                   [](const Operation& op, uint32_t i) { return op.commandIndex < i; });
  return static_cast<size_t>(it - operations.begin());
}

std::vector<Operation> decodeOperations(const arch::NpuConfig& hardware, const std::vector<Command>& commands,
                                        const StreamOrigin& origin, const RegionLimits& limits) {
  const uint32_t streamBytes = commands.empty() ? 0 : commands.back().offset + commands.back().sizeBytes();
  const std::unique_ptr<detail::OperationDecoder> decoder =
      operationDecoder({hardware, origin, limits, &commands, streamBytes});
  std::vector<Operation> ops;
  ops.reserve(static_cast<size_t>(
      std::count_if(commands.begin(), commands.end(), [](const Command& c) { return c.info->isOperation; })));
  for (const Command& c : commands) {
    if (decoder->step(c, ops)) {
      checkDecoderContract(hardware, ops.back());
    }
  }
  return ops;
}

Program decodeProgram(const arch::NpuConfig& hardware, const uint8_t* data, size_t size, const StreamOrigin& origin,
                      const RegionLimits& limits) {
  Program p;
  p.commands = parseCommands(*hardware.arch->commands, data, size, origin);
  p.operations = decodeOperations(hardware, p.commands, origin, limits);
  return p;
}

struct StreamDecoder::State {
  const arch::NpuConfig& hardware;
  uint32_t streamBytes;
  StreamOrigin origin;
  RegionLimits limits;
  std::unique_ptr<detail::OperationDecoder> decoder;
  Command command;
  std::vector<Operation> operation;   // the last command's operation, if it started one
  uint32_t offset = 0;
  uint32_t index = 0;
  bool stopped = false;
};

StreamDecoder::StreamDecoder(const arch::NpuConfig& hardware, uint32_t streamBytes, StreamOrigin origin,
                             RegionLimits limits)
    : state_(new State{hardware, streamBytes, std::move(origin), limits, nullptr, {}, {}}) {
  state_->decoder = operationDecoder({hardware, state_->origin, state_->limits, nullptr, streamBytes});
}

StreamDecoder::~StreamDecoder() = default;

uint32_t StreamDecoder::offset() const { return state_->offset; }

bool StreamDecoder::stopped() const { return state_->stopped; }

const Command& StreamDecoder::command() const { return state_->command; }

const Operation* StreamDecoder::operation() const {
  return state_->operation.empty() ? nullptr : &state_->operation.front();
}

uint32_t StreamDecoder::nextBytes(const uint8_t* stream) const {
  return arch::isCmd1(static_cast<uint16_t>(loadWord(stream + state_->offset) & 0xFFFF)) ? 8 : 4;
}

const Operation* StreamDecoder::next(const uint8_t* stream) {
  State& s = *state_;
  if (s.stopped) {
    throw std::logic_error("StreamDecoder::next after NPU_OP_STOP");
  }
  checkStreamLength(s.streamBytes, s.origin);
  if (s.offset + 4 > s.streamBytes) {
    failNoStop(s.origin, s.streamBytes, s.index);
  }
  s.command = parseCommand(*s.hardware.arch->commands, stream, s.streamBytes, s.offset, s.index, s.origin);
  s.operation.clear();
  if (s.decoder->step(s.command, s.operation)) {
    checkDecoderContract(s.hardware, s.operation.front());
  }
  s.offset += s.command.sizeBytes();
  ++s.index;
  s.stopped = s.command.id() == arch::CommandId::OpStop;
  return operation();
}

} // namespace npusim::cmd
