// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/disassembler.h"

#include <cstdio>
#include <sstream>

namespace npusim::cmd {

std::string velaLine(const Command& c) {
  char buf[160];
  const std::string name = std::string(c.hasPayload() ? "cmd1." : "cmd0.") + std::string(c.info->name);
  if (c.hasPayload()) {
    std::snprintf(buf, sizeof buf, "0x%06x: %08x %04x %04x - %-30s %5u", c.offset, c.payload, c.param, c.key,
                  name.c_str(), c.param);
  } else {
    std::snprintf(buf, sizeof buf, "0x%06x:          %04x %04x - %-30s %5u", c.offset, c.param, c.key, name.c_str(),
                  c.param);
  }
  return buf;
}

void writeVelaListing(std::ostream& os, const std::vector<Command>& commands, uint32_t streamBytes) {
  os << "Register-Level Command Stream: Output\n";
  os << "  Offset: Payload Param Code - Command                        Param\n";
  for (const Command& c : commands) {
    os << velaLine(c) << '\n';
  }
  os << "Number of commands = " << commands.size() << '\n';
  os << "Command stream length = " << streamBytes << " bytes\n";
}

namespace {

std::string fmText(const char* label, const FeatureMap& fm) {
  std::ostringstream os;
  os << ' ' << label << ' ' << fm.shape.text() << ' ' << (fm.isSigned ? "s" : "u") << int{fm.elementBits} << ' '
     << dataFormatName(fm.format);
  switch (fm.storage) {
  case Storage::Tile2x2: {
    const ByteSpan span = fm.footprint();
    os << " r" << int{fm.region} << " [0x" << std::hex << span.begin << ",0x" << span.end << ')' << std::dec;
    break;
  }
  case Storage::Chained: os << " chaining buffer " << int{fm.region}; break;
  case Storage::None: os << " not stored"; break;
  }
  return os.str();
}

std::string streamText(const char* label, const Stream& s) {
  std::ostringstream os;
  os << ' ' << label << " r" << int{s.region} << " [0x" << std::hex << s.base << ",0x" << s.base + s.length << ')'
     << std::dec;
  return os.str();
}

} // namespace

std::string describeOperation(const Operation& op, const arch::NpuConfig& hardware) {
  const bool internalBuffers = hardware.arch->buffers == arch::BufferModel::InternalBuffers;
  std::ostringstream os;
  os << opKindName(op.kind);
  switch (op.kind) {
  case OpKind::Conv:
  case OpKind::Depthwise:
  case OpKind::Pool:
  case OpKind::Resize:
    if (op.kind == OpKind::Pool) {
      os << ' ' << poolModeName(op.poolMode);
    }
    if (op.kind == OpKind::Resize) {
      os << ' ' << resizeModeName(op.resize.mode);
    }
    os << fmText("ifm", op.ifm) << " ->" << fmText("ofm", op.ofm);
    if (op.kind != OpKind::Resize) {
      os << " kernel " << op.kernel.height << 'x' << op.kernel.width << " stride " << op.kernel.strideY << 'x'
         << op.kernel.strideX;
      if (op.kernel.dilationX > 1 || op.kernel.dilationY > 1) {
        os << " dilation " << op.kernel.dilationY << 'x' << op.kernel.dilationX;
      }
      os << " pad " << op.padding.top << ',' << op.padding.left << ',' << op.padding.bottom << ',' << op.padding.right;
    }
    os << " block " << op.ofmBlock.text();
    if (op.kind == OpKind::Conv && op.weightsFromIfm2) {
      os << fmText("weights from ifm2", op.ifm2);
    } else if (op.kind == OpKind::Conv || op.kind == OpKind::Depthwise) {
      os << (op.kernel.partKernelFirst ? " part-kernel-first" : " depth-first");
      if (internalBuffers) {
        os << ' ' << weightFormatName(op.weightFormat) << (op.sparse ? " 2:4-sparse" : "");
      }
      for (size_t i = 0; i < op.weightStreamCount; ++i) {
        os << streamText(i == 0 ? "weights" : "+", op.weights[i]);
      }
      if (op.scaling.perChannel) {
        os << streamText("scales", op.scales[0]);
      }
    }
    break;
  case OpKind::Elementwise:
    os << ' ' << elementwiseModeName(op.elementwiseMode);
    if (op.ifm.storage == Storage::None) {
      os << " scalar " << op.scalar;
    } else {
      os << fmText("ifm", op.ifm);
    }
    if (op.hasIfm2()) {
      os << fmText("ifm2", op.ifm2);
    } else if (op.isBinaryElementwise() && op.ifm2.storage == Storage::None) {
      os << " scalar " << op.scalar;
    }
    os << " ->" << fmText("ofm", op.ofm) << " block " << op.ofmBlock.text();
    break;
  case OpKind::DmaStart:
    os << " " << op.dma.length << " B";
    if (op.dma.dimensions > 1) {
      os << " x " << op.dma.sizes[0] << (op.dma.dimensions > 2 ? " x " + std::to_string(op.dma.sizes[1]) : "");
    }
    os << " r" << int{op.dma.srcRegion} << ":0x" << std::hex << op.dma.src << " -> "
       << (op.dma.dstInternal ? std::string(hardware.arch->dmaInternalMemory) : "r" + std::to_string(op.dma.dstRegion))
       << ":0x"
       << op.dma.dst << std::dec;
    if (op.dma.srcIndexed || op.dma.dstIndexed) {
      os << (op.dma.srcIndexed ? " gather" : " scatter") << " indices r" << int{op.dma.indexRegion} << ":0x"
         << std::hex << op.dma.index << std::dec << " max " << op.dma.indexMax;
    }
    return os.str();
  case OpKind::DmaWait:
  case OpKind::KernelWait:
    os << ' ' << op.waitCount;
    return os.str();
  case OpKind::Branch:
    os << (op.branch.conditional ? " if flag" : " always") << " to command " << op.branch.targetCommand << " (0x"
       << std::hex << op.branch.target << std::dec << ')';
    return os.str();
  case OpKind::Stop:
  case OpKind::Irq:
  case OpKind::PmuMask:
    os << " 0x" << std::hex << op.param << std::dec;
    return os.str();
  }
  if (internalBuffers) {
    os << " ublock " << op.ublock.text() << ' ' << accFormatName(op.accFormat);
    if (op.ofmTranspose != Transpose::Hwc) os << " transpose " << transposeName(op.ofmTranspose);
    if (op.ofmReverse != Reverse::None) os << " reverse " << reverseName(op.ofmReverse);
  }
  os << " blockdep " << op.blockDep;
  return os.str();
}

} // namespace npusim::cmd
