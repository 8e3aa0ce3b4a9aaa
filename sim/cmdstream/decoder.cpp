// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/decoder.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/common/error.h"

namespace npusim::cmd {
namespace {

uint32_t loadWord(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

std::string hex(uint64_t v, int width = 0) {
  std::ostringstream os;
  os << "0x" << std::hex;
  if (width > 0) {
    os.width(width);
    os.fill('0');
  }
  os << v;
  return os.str();
}

[[noreturn]] void fail(const StreamOrigin& origin, uint32_t streamOffset, std::optional<uint32_t> index,
                       const std::string& message) {
  InputError::Location loc;
  loc.file = origin.file;
  loc.byteOffset = origin.fileOffset + streamOffset;
  loc.commandIndex = index;
  throw InputError(loc, message);
}

int32_t signed16(uint32_t v) { return static_cast<int16_t>(static_cast<uint16_t>(v & 0xFFFF)); }

} // namespace

std::vector<Command> parseCommands(const uint8_t* data, size_t size, const StreamOrigin& origin) {
  std::vector<Command> commands;
  if (size % 4 != 0) {
    fail(origin, static_cast<uint32_t>(size - size % 4), std::nullopt,
         "command stream length " + std::to_string(size) + " is not a multiple of 4 bytes");
  }
  commands.reserve(size / 6);
  size_t pos = 0;
  bool stopped = false;
  while (pos < size) {
    const auto offset = static_cast<uint32_t>(pos);
    const auto index = static_cast<uint32_t>(commands.size());
    if (stopped) {
      fail(origin, offset, index, std::to_string(size - pos) + " bytes follow NPU_OP_STOP");
    }
    const uint32_t word = loadWord(data + pos);
    const auto key = static_cast<uint16_t>(word & 0xFFFF);
    const uint32_t control = (word >> 14) & 3;
    if (control > 1 || (word & 0x3C00) != 0) {
      fail(origin, offset, index, "invalid command word " + hex(word, 8) + " (reserved control bits set)");
    }
    const CommandInfo* info = findCommand(key);
    if (info == nullptr) {
      fail(origin, offset, index, std::string("unknown ") + (control ? "cmd1" : "cmd0") + " opcode " +
                                      hex(key & 0x3FF, 3) + " in word " + hex(word, 8));
    }
    Command c;
    c.index = index;
    c.offset = offset;
    c.key = key;
    c.param = static_cast<uint16_t>(word >> 16);
    c.info = info;
    pos += 4;
    if (c.hasPayload()) {
      if (pos + 4 > size) {
        fail(origin, offset, index, std::string("truncated: ") + "cmd1." + std::string(info->name) +
                                        " has no payload word");
      }
      c.payload = loadWord(data + pos);
      pos += 4;
    }
    if (info->code == CommandCode::OpStop) {
      stopped = true;
    }
    commands.push_back(c);
  }
  if (!stopped) {
    fail(origin, static_cast<uint32_t>(size), static_cast<uint32_t>(commands.size()),
         "command stream ends without NPU_OP_STOP");
  }
  return commands;
}

void RegisterFile::apply(const Command& command) {
  const uint16_t reg = command.info->registerOffset;
  if (command.info->isOperation || reg < kFirst) {
    return;
  }
  const size_t slot = (reg - kFirst) / 4;
  if (command.hasPayload()) {
    regs_[slot] = command.payload;
    regs_[slot + 1] = command.param; // address extension / shift
  } else {
    regs_[slot] = command.param;
  }
}

uint32_t RegisterFile::read(uint16_t registerOffset) const {
  if (registerOffset < kFirst || registerOffset >= kFirst + regs_.size() * 4) {
    return 0;
  }
  return regs_[(registerOffset - kFirst) / 4];
}

namespace {

// Field decoding helpers; each returns false for a reserved encoding.
bool decodePrecision(uint32_t v, uint32_t sizeShift, FeatureMap& fm) {
  fm.isSigned = (v & 1) != 0;
  const uint32_t size = (v >> sizeShift) & 3;
  if (size == 3) {
    return false;
  }
  fm.elementBits = static_cast<uint8_t>(8u << size);
  const uint32_t format = (v >> 6) & 3;
  if (format > 1) {
    return false;
  }
  fm.format = format == 0 ? DataFormat::Nhwc : DataFormat::Nhcwb16;
  return true;
}

struct Snapshot {
  const RegisterFile& r;
  uint32_t get(CommandCode c) const { return r.read(c); }
  uint32_t high(CommandCode c) const { return r.readHigh(c); }
};

void readTiles(const Snapshot& s, FeatureMap& fm, CommandCode base0, CommandCode stride, CommandCode w0,
               CommandCode h0, CommandCode h1, CommandCode region, CommandCode zeroPoint) {
  const auto b = static_cast<uint16_t>(base0);
  for (uint16_t t = 0; t < 4; ++t) {
    fm.base[t] = uint64_t{s.get(static_cast<CommandCode>(b + t))} |
                 uint64_t{s.high(static_cast<CommandCode>(b + t)) & 0xFF} << 32;
  }
  const auto st = static_cast<uint16_t>(stride);
  fm.strideX = s.get(static_cast<CommandCode>(st));
  fm.strideY = s.get(static_cast<CommandCode>(st + 1));
  fm.strideC = s.get(static_cast<CommandCode>(st + 2));
  fm.width0 = (s.get(w0) & 0xFFFF) + 1;
  fm.height0 = (s.get(h0) & 0xFFFF) + 1;
  fm.height1 = (s.get(h1) & 0xFFFF) + 1;
  fm.region = static_cast<uint8_t>(s.get(region) & 7);
  fm.zeroPoint = signed16(s.get(zeroPoint));
}

uint32_t convExtent(uint32_t ofm, uint32_t stride, uint32_t dilatedKernel, uint32_t padA, uint32_t padB,
                    Upscale upscale) {
  int64_t ext = int64_t{ofm - 1} * stride + dilatedKernel - padA - padB;
  if (upscale != Upscale::None) {
    ext = (ext + 1) / 2;
  }
  return static_cast<uint32_t>(std::max<int64_t>(ext, 1));
}

// The operation kind of each NPU_OP_* command.
constexpr std::pair<CommandCode, OpKind> kOperationKinds[] = {
    {CommandCode::OpStop, OpKind::Stop},           {CommandCode::OpIrq, OpKind::Irq},
    {CommandCode::OpConv, OpKind::Conv},           {CommandCode::OpDepthwise, OpKind::Depthwise},
    {CommandCode::OpPool, OpKind::Pool},           {CommandCode::OpElementwise, OpKind::Elementwise},
    {CommandCode::OpDmaStart, OpKind::DmaStart},   {CommandCode::OpDmaWait, OpKind::DmaWait},
    {CommandCode::OpKernelWait, OpKind::KernelWait}, {CommandCode::OpPmuMask, OpKind::PmuMask},
};

OpKind operationKind(CommandCode code) {
  for (const auto& [operation, kind] : kOperationKinds) {
    if (operation == code) {
      return kind;
    }
  }
  throw std::logic_error("snapshotOperation: command " + std::string(commandInfo(code).name) +
                         " is not an NPU_OP_*");
}

} // namespace

Operation snapshotOperation(const RegisterFile& regs, const Command& command) {
  const Snapshot s{regs};
  Operation op;
  op.commandIndex = command.index;
  op.byteOffset = command.offset;
  op.param = command.param;
  op.kind = operationKind(command.code());
  op.waitCount = command.param & (op.kind == OpKind::KernelWait ? 0x3u : 0xFu);
  op.irqMask = command.param;

  // Feature maps (raw; shapes are completed below per kind).
  readTiles(s, op.ifm, CommandCode::IfmBase0, CommandCode::IfmStrideX, CommandCode::IfmWidth0M1,
            CommandCode::IfmHeight0M1, CommandCode::IfmHeight1M1, CommandCode::IfmRegion, CommandCode::IfmZeroPoint);
  readTiles(s, op.ofm, CommandCode::OfmBase0, CommandCode::OfmStrideX, CommandCode::OfmWidth0M1,
            CommandCode::OfmHeight0M1, CommandCode::OfmHeight1M1, CommandCode::OfmRegion, CommandCode::OfmZeroPoint);
  readTiles(s, op.ifm2, CommandCode::Ifm2Base0, CommandCode::Ifm2StrideX, CommandCode::Ifm2Width0M1,
            CommandCode::Ifm2Height0M1, CommandCode::Ifm2Height1M1, CommandCode::Ifm2Region,
            CommandCode::Ifm2ZeroPoint);
  decodePrecision(s.get(CommandCode::IfmPrecision), 2, op.ifm);
  decodePrecision(s.get(CommandCode::OfmPrecision), 1, op.ofm);
  decodePrecision(s.get(CommandCode::Ifm2Precision), 2, op.ifm2);
  op.ofm.shape = {(s.get(CommandCode::OfmHeightM1) & 0xFFFF) + 1, (s.get(CommandCode::OfmWidthM1) & 0xFFFF) + 1,
                  (s.get(CommandCode::OfmDepthM1) & 0xFFFF) + 1};

  // Kernel, stride, dilation, padding, upscale.
  const uint32_t ks = s.get(CommandCode::KernelStride);
  op.kernel.strideX = ((ks & 1) | ((ks >> 6) & 1) << 1) + 1;
  op.kernel.strideY = (((ks >> 1) & 1) | ((ks >> 9) & 1) << 1) + 1;
  op.kernel.partKernelFirst = (ks >> 2) & 1;
  op.kernel.dilationX = ((ks >> 3) & 1) + 1;
  op.kernel.dilationY = ((ks >> 4) & 1) + 1;
  op.kernel.width = (s.get(CommandCode::KernelWidthM1) & 0xFFFF) / op.kernel.dilationX + 1;
  op.kernel.height = (s.get(CommandCode::KernelHeightM1) & 0xFFFF) / op.kernel.dilationY + 1;
  op.padding = {s.get(CommandCode::IfmPadTop) & 0x7F, s.get(CommandCode::IfmPadLeft) & 0x7F,
                s.get(CommandCode::IfmPadBottom) & 0xFF, s.get(CommandCode::IfmPadRight) & 0xFF};
  switch (s.get(CommandCode::IfmUpscale) & 3) {
  case 1: op.upscale = Upscale::Nearest; break;
  case 2: op.upscale = Upscale::Zeros; break;
  default: op.upscale = Upscale::None; break;
  }

  op.ofmBlock = {(s.get(CommandCode::OfmBlkHeightM1) & 0x1F) + 1, (s.get(CommandCode::OfmBlkWidthM1) & 0x3F) + 1,
                 (s.get(CommandCode::OfmBlkDepthM1) & 0x7F) + 1};
  op.shram.ibEnd = s.get(CommandCode::IfmIbEnd) & 0x3F;
  op.shram.abStart = s.get(CommandCode::AbStart) & 0x3F;
  op.shram.ifm2IbStart = s.get(CommandCode::Ifm2IbStart) & 0x3F;
  switch (s.get(CommandCode::AccFormat) & 3) {
  case 1: op.shram.accFormat = AccFormat::Int40; break;
  case 2: op.shram.accFormat = AccFormat::Fp16; break;
  default: op.shram.accFormat = AccFormat::Int32; break;
  }
  op.blockDep = s.get(CommandCode::Blockdep) & 3;

  op.weights = {static_cast<uint8_t>(s.get(CommandCode::WeightRegion) & 7),
                uint64_t{s.get(CommandCode::WeightBase)} | uint64_t{s.high(CommandCode::WeightBase) & 0xFF} << 32,
                s.get(CommandCode::WeightLength)};
  op.scales = {static_cast<uint8_t>(s.get(CommandCode::ScaleRegion) & 7),
               uint64_t{s.get(CommandCode::ScaleBase)} | uint64_t{s.high(CommandCode::ScaleBase) & 0xFF} << 32,
               s.get(CommandCode::ScaleLength)};
  op.cores = (s.get(CommandCode::ParallelMode) & 1) + 1;
  if (op.cores > 1) {
    op.weights1 = {op.weights.region,
                   uint64_t{s.get(CommandCode::Weight1Base)} | uint64_t{s.high(CommandCode::Weight1Base) & 0xFF} << 32,
                   s.get(CommandCode::Weight1Length)};
    op.scales1 = {op.scales.region,
                  uint64_t{s.get(CommandCode::Scale1Base)} | uint64_t{s.high(CommandCode::Scale1Base) & 0xFF} << 32,
                  s.get(CommandCode::Scale1Length)};
  }

  const uint32_t act = s.get(CommandCode::Activation);
  op.activation.function = static_cast<uint8_t>(act & 0x1F);
  op.activation.clipRange = static_cast<uint8_t>((act >> 12) & 7);
  op.activation.min = signed16(s.get(CommandCode::ActivationMin));
  op.activation.max = signed16(s.get(CommandCode::ActivationMax));

  const uint32_t ofmPrec = s.get(CommandCode::OfmPrecision);
  op.scaling.perChannel = ((ofmPrec >> 8) & 1) == 0;
  switch ((ofmPrec >> 14) & 3) {
  case 1: op.scaling.roundMode = RoundMode::Truncate; break;
  case 2: op.scaling.roundMode = RoundMode::Natural; break;
  default: op.scaling.roundMode = RoundMode::Tfl; break;
  }
  op.scaling.ifmScaleMode = static_cast<uint8_t>((s.get(CommandCode::IfmPrecision) >> 8) & 3);
  op.scaling.ofmScale = s.get(CommandCode::OfmScale);
  op.scaling.ofmShift = static_cast<uint8_t>(s.high(CommandCode::OfmScale) & 0x3F);
  op.scaling.opaScale = s.get(CommandCode::OpaScale);
  op.scaling.opaShift = static_cast<uint8_t>(s.high(CommandCode::OpaScale) & 0x3F);
  op.scaling.opbScale = s.get(CommandCode::OpbScale);

  const uint32_t bc = s.get(CommandCode::Ifm2Broadcast);
  op.broadcast = {(bc & 1) != 0, (bc & 2) != 0, (bc & 4) != 0, (bc & 0x40) != 0, (bc & 0x80) != 0,
                  signed16(s.get(CommandCode::Ifm2Scalar))};

  const uint32_t srcReg = s.get(CommandCode::Dma0SrcRegion), dstReg = s.get(CommandCode::Dma0DstRegion);
  op.dma = {static_cast<uint8_t>(srcReg & 7), static_cast<uint8_t>(dstReg & 7), ((srcReg >> 8) & 1) != 0,
            ((dstReg >> 8) & 1) != 0, s.get(CommandCode::Dma0Src), s.get(CommandCode::Dma0Dst),
            s.get(CommandCode::Dma0Len)};

  // Operation-specific shapes.
  const uint32_t ifmDepth = (s.get(CommandCode::IfmDepthM1) & 0xFFFF) + 1;
  switch (op.kind) {
  case OpKind::Pool:
    op.poolMode = static_cast<PoolMode>(std::min<uint32_t>(command.param & 7, 2));
    [[fallthrough]];
  case OpKind::Conv:
  case OpKind::Depthwise:
    op.ifm.shape = {convExtent(op.ofm.shape.height, op.kernel.strideY, op.kernel.dilatedHeight(), op.padding.top,
                               op.padding.bottom, op.upscale),
                    convExtent(op.ofm.shape.width, op.kernel.strideX, op.kernel.dilatedWidth(), op.padding.left,
                               op.padding.right, op.upscale),
                    ifmDepth};
    break;
  case OpKind::Elementwise:
    op.elementwiseMode = static_cast<ElementwiseMode>(std::min<uint32_t>(command.param & 0x3F, 9));
    op.ifm.shape = op.ofm.shape;
    op.ifm.shape.depth = ifmDepth;
    op.ifm2.shape = op.ofm.shape;
    if (op.broadcast.height) op.ifm2.shape.height = 1;
    if (op.broadcast.width) op.ifm2.shape.width = 1;
    if (op.broadcast.depth) op.ifm2.shape.depth = 1;
    break;
  case OpKind::DmaStart: case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq:
  case OpKind::PmuMask:
    break;
  }
  return op;
}

namespace {

void checkSpan(const StreamOrigin& origin, const Command& c, const RegionLimits& limits, uint8_t region,
               ByteSpan span, const char* what) {
  const uint64_t size = limits.size[region];
  if (size == 0 || span.empty()) {
    return;
  }
  if (span.end > size) {
    fail(origin, c.offset, c.index,
         std::string(what) + " bytes [" + hex(span.begin) + ", " + hex(span.end) + ") lie outside region " +
             std::to_string(region) + " (" + std::to_string(size) + " bytes)");
  }
}

// Checks the encodings and address ranges an operation depends on.
void validate(const Operation& op, const RegisterFile& regs, const Command& c, const StreamOrigin& origin,
              const RegionLimits& limits) {
  auto bad = [&](const std::string& m) { fail(origin, c.offset, c.index, std::string(c.info->name) + ": " + m); };
  FeatureMap scratch;
  switch (op.kind) {
  case OpKind::Conv: case OpKind::Depthwise: case OpKind::Pool: case OpKind::Elementwise: {
    if (op.cores > limits.cores) {
      bad("NPU_SET_PARALLEL_MODE " + std::to_string(op.cores - 1) + " splits the work between " +
          std::to_string(op.cores) + " cores, but the stream was compiled for a " + std::to_string(limits.cores) +
          "-core NPU (only ethos-u65-512 has two)");
    }
    if (!decodePrecision(regs.read(CommandCode::IfmPrecision), 2, scratch)) bad("reserved IFM_PRECISION encoding");
    if (!decodePrecision(regs.read(CommandCode::OfmPrecision), 1, scratch)) bad("reserved OFM_PRECISION encoding");
    if (op.kind == OpKind::Pool && (c.param & 7) > 2) bad("unknown pooling mode " + std::to_string(c.param & 7));
    if (op.kind == OpKind::Elementwise && (c.param & 0x3F) > 9) {
      bad("unknown elementwise mode " + std::to_string(c.param & 0x3F));
    }
    if (op.hasIfm2() && !decodePrecision(regs.read(CommandCode::Ifm2Precision), 2, scratch)) {
      bad("reserved IFM2_PRECISION encoding");
    }
    if ((regs.read(CommandCode::IfmUpscale) & 3) == 3) bad("reserved IFM_UPSCALE mode 3");
    checkSpan(origin, c, limits, op.ifm.region, op.ifm.footprint(), "IFM");
    checkSpan(origin, c, limits, op.ofm.region, op.ofm.footprint(), "OFM");
    if (op.hasIfm2()) checkSpan(origin, c, limits, op.ifm2.region, op.ifm2.footprint(), "IFM2");
    if (op.kind == OpKind::Conv || op.kind == OpKind::Depthwise) {
      checkSpan(origin, c, limits, op.weights.region, {op.weights.base, op.weights.base + op.weights.length},
                "weight stream");
      if (op.scaling.perChannel) {
        checkSpan(origin, c, limits, op.scales.region, {op.scales.base, op.scales.base + op.scales.length},
                  "scale stream");
      }
      if (op.cores > 1) {
        checkSpan(origin, c, limits, op.weights1.region, {op.weights1.base, op.weights1.base + op.weights1.length},
                  "second core's weight stream");
        if (op.scaling.perChannel) {
          checkSpan(origin, c, limits, op.scales1.region, {op.scales1.base, op.scales1.base + op.scales1.length},
                    "second core's scale stream");
        }
      }
    }
    break;
  }
  case OpKind::DmaStart:
    if (op.dma.srcInternal) bad("DMA from internal SHRAM is not supported on Ethos-U55");
    checkSpan(origin, c, limits, op.dma.srcRegion, {op.dma.src, op.dma.src + op.dma.length}, "DMA source");
    if (op.dma.dstInternal) {
      if (limits.shramBytes != 0 && op.dma.dst + op.dma.length > limits.shramBytes) {
        bad("DMA destination [" + hex(op.dma.dst) + ", " + hex(op.dma.dst + op.dma.length) + ") lies outside SHRAM (" +
            std::to_string(limits.shramBytes) + " bytes)");
      }
    } else {
      checkSpan(origin, c, limits, op.dma.dstRegion, {op.dma.dst, op.dma.dst + op.dma.length}, "DMA destination");
    }
    break;
  case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq: case OpKind::PmuMask:
    break;
  }
}

} // namespace

std::vector<Operation> decodeOperations(const std::vector<Command>& commands, const StreamOrigin& origin,
                                        const RegionLimits& limits) {
  std::vector<Operation> ops;
  RegisterFile regs;
  for (const Command& c : commands) {
    if (!c.info->isOperation) {
      regs.apply(c);
      continue;
    }
    Operation op = snapshotOperation(regs, c);
    validate(op, regs, c, origin, limits);
    ops.push_back(op);
  }
  return ops;
}

} // namespace npusim::cmd
