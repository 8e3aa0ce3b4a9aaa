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

std::string shapeText(const Shape3& s) {
  return std::to_string(s.height) + "x" + std::to_string(s.width) + "x" + std::to_string(s.depth);
}

std::string fmText(const char* label, const FeatureMap& fm) {
  std::ostringstream os;
  const ByteSpan span = fm.footprint();
  os << ' ' << label << ' ' << shapeText(fm.shape) << ' ' << (fm.isSigned ? "s" : "u") << int{fm.elementBits} << ' '
     << dataFormatName(fm.format) << " r" << int{fm.region} << " [0x" << std::hex << span.begin << ",0x" << span.end
     << ')' << std::dec;
  return os.str();
}

std::string streamText(const char* label, const Stream& s) {
  std::ostringstream os;
  os << ' ' << label << " r" << int{s.region} << " [0x" << std::hex << s.base << ",0x" << s.base + s.length << ')'
     << std::dec;
  return os.str();
}

} // namespace

std::string describeOperation(const Operation& op) {
  std::ostringstream os;
  os << opKindName(op.kind);
  switch (op.kind) {
  case OpKind::Conv:
  case OpKind::Depthwise:
  case OpKind::Pool:
    if (op.kind == OpKind::Pool) {
      os << ' ' << poolModeName(op.poolMode);
    }
    os << fmText("ifm", op.ifm) << " ->" << fmText("ofm", op.ofm) << " kernel " << op.kernel.height << 'x'
       << op.kernel.width << " stride " << op.kernel.strideY << 'x' << op.kernel.strideX;
    if (op.kernel.dilationX > 1 || op.kernel.dilationY > 1) {
      os << " dilation " << op.kernel.dilationY << 'x' << op.kernel.dilationX;
    }
    os << " pad " << op.padding.top << ',' << op.padding.left << ',' << op.padding.bottom << ',' << op.padding.right
       << " block " << shapeText(op.ofmBlock);
    if (op.kind != OpKind::Pool) {
      os << (op.kernel.partKernelFirst ? " part-kernel-first" : " depth-first") << streamText("weights", op.weights[0]);
      if (op.scaling.perChannel) {
        os << streamText("scales", op.scales[0]);
      }
    }
    os << " blockdep " << op.blockDep;
    break;
  case OpKind::Elementwise:
    os << ' ' << elementwiseModeName(op.elementwiseMode) << fmText("ifm", op.ifm);
    if (op.hasIfm2()) {
      os << fmText("ifm2", op.ifm2);
    } else if (op.isBinaryElementwise()) {
      os << " scalar " << op.scalar;
    }
    os << " ->" << fmText("ofm", op.ofm) << " block " << shapeText(op.ofmBlock) << " blockdep " << op.blockDep;
    break;
  case OpKind::DmaStart:
    os << " " << op.dma.length << " B r" << int{op.dma.srcRegion} << ":0x" << std::hex << op.dma.src << " -> "
       << (op.dma.dstInternal ? "shram" : "r" + std::to_string(op.dma.dstRegion)) << ":0x" << op.dma.dst << std::dec;
    break;
  case OpKind::DmaWait:
  case OpKind::KernelWait:
    os << ' ' << op.waitCount;
    break;
  case OpKind::Stop:
  case OpKind::Irq:
  case OpKind::PmuMask:
    os << " 0x" << std::hex << op.param << std::dec;
    break;
  }
  return os.str();
}

} // namespace npusim::cmd
