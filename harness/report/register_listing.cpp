// SPDX-License-Identifier: Apache-2.0
#include "harness/report/register_listing.h"

#include <cstdio>
#include <sstream>

#include "sim/arch/regions.h"

namespace npusim::report {

namespace {

// One field's text: decimal, an enumerated value's name, or an address in hex.
std::string fieldText(const arch::CommandField& f, uint64_t word) {
  using Kind = arch::CommandField::Kind;
  if (f.kind == Kind::Address) {
    std::ostringstream s;
    s << "0x" << std::hex << (((word >> 16) & 0xff) << 32 | (word >> 32));
    return s.str();
  }
  const uint64_t value = (word >> f.lsb) & ((uint64_t{1} << f.width) - 1);
  switch (f.kind) {
  case Kind::Unsigned: return std::to_string(value);
  case Kind::Signed:
    if (f.width < 32) {
      const int64_t sign = int64_t{1} << (f.width - 1);
      return std::to_string((static_cast<int64_t>(value) ^ sign) - sign);
    }
    // A 32-bit field: Vela 5.0's disassembler converts it through unsigned arithmetic, which
    // prints values from 2^31 up one less and unsigned (0xc3c3c3c4 as 3284386755).
    return std::to_string(value <= 0x7FFFFFFF ? value : value - 1);
  case Kind::Named:
    return value < f.names->size() && !(*f.names)[value].empty() ? std::string((*f.names)[value]) : "****";
  case Kind::Address: break;
  }
  return "****";
}

} // namespace

std::string vela5Line(const cmd::Command& c) {
  char head[128];
  if (c.hasPayload()) {
    std::snprintf(head, sizeof head, "0x%06x: %08x %04x %04x - %-30s %5u", c.offset, c.payload, c.param, c.key,
                  std::string(c.info->name).c_str(), c.param);
  } else {
    std::snprintf(head, sizeof head, "0x%06x:          %04x %04x - %-30s %5u", c.offset, c.param, c.key,
                  std::string(c.info->name).c_str(), c.param);
  }
  std::string line = head;
  const uint64_t word = uint64_t{c.key} | uint64_t{c.param} << 16 | uint64_t{c.payload} << 32;
  if (c.info->fields != nullptr) {
    for (const arch::CommandField& f : *c.info->fields) {
      line += ", " + std::string(f.name) + " = " + fieldText(f, word);
    }
  }
  return line;
}

std::string vela5Annotation(const cmd::Operation& op, const ListingContext& context) {
  std::ostringstream os;
  const auto where = [&](uint8_t region, bool internal) {
    if (internal) return std::string(context.hardware->arch->dmaInternalMemory) + ":LUT";
    std::string use;
    switch (arch::regionUse(region)) {
    case arch::RegionUse::Constants: use = "ReadOnly"; break;
    case arch::RegionUse::Arena:
      use = region == arch::kArenaRegion && context.stagingInArena ? "FeatureMap|Staging" : "FeatureMap";
      break;
    case arch::RegionUse::Cache: use = "Staging"; break;
    }
    return "region" + std::to_string(region) + ":" + use;
  };
  const auto shape = [](const Shape3& s) {
    return "[" + std::to_string(s.height) + ", " + std::to_string(s.width) + ", " + std::to_string(s.depth) + "]";
  };
  if (op.kind == cmd::OpKind::DmaStart) {
    const cmd::DmaTransfer& d = op.dma;
    os << "// DMA src: " << where(d.srcRegion, d.srcInternal) << ", address: 0x" << std::hex << d.src
       << ", dest: " << where(d.dstRegion, d.dstInternal) << ", address: 0x" << d.dst << std::dec << ", sizes: ";
    if (d.dimensions == 1) {
      os << "(N/A)";
    } else {
      os << '(' << (d.dimensions > 2 ? std::to_string(d.sizes[1]) + ", " : "") << d.sizes[0] << ')';
    }
    os << ", length: " << d.length;
    return os.str();
  }
  os << "// " << cmd::opKindName(op.kind);
  switch (op.kind) {
  case cmd::OpKind::Pool: os << ' ' << cmd::poolModeName(op.poolMode); break;
  case cmd::OpKind::Elementwise: os << ' ' << cmd::elementwiseModeName(op.elementwiseMode); break;
  case cmd::OpKind::Resize: os << ' ' << cmd::resizeModeName(op.resize.mode); break;
  default: break;
  }
  os << ',';
  // Kernel, strides, dilation and padding only where the operation uses them (the registers of
  // the others hold stale values, or the IFM's extent on a RESIZE).
  const bool kernel = op.kind == cmd::OpKind::Conv || op.kind == cmd::OpKind::Depthwise || op.kind == cmd::OpKind::Pool;
  if (kernel) {
    os << " size=" << op.kernel.width << ',' << op.kernel.height << " stride=" << op.kernel.strideX << ','
       << op.kernel.strideY << ", dilation=" << op.kernel.dilationX << ',' << op.kernel.dilationY << " padding=[t:"
       << op.padding.top << ",l:" << op.padding.left << ",b:" << op.padding.bottom << ",r:" << op.padding.right << ']';
  }
  os << " OFM Block=" << shape(op.ofmBlock);
  if (context.hardware->ofmUblocks.size() > 1) {
    os << ", OFM UBlock=" << shape(op.ublock);
  }
  if (kernel) {
    os << (context.hardware->ofmUblocks.size() > 1 ? " " : ", ") << "Traversal="
       << (op.kind == cmd::OpKind::Depthwise ? "Depthwise" : op.kernel.partKernelFirst ? "PartKernel" : "DepthFirst");
  }
  const std::string_view acc = cmd::accFormatName(op.accFormat); // INT32 -> Acc32, FP16 -> AccFP16
  os << ", AccType=Acc" << (acc.rfind("INT", 0) == 0 ? acc.substr(3) : acc);
  return os.str();
}

void writeVela5Listing(std::ostream& os, const cmd::Program& program, const ListingContext& context) {
  os << "Register command stream: " << program.streamBytes() / 4 << " words\n";
  os << "  Offset: Payload Param Code - Command                        Param, Fields\n";
  // Vela writes its annotation of a kernel or DMA operation before the first of its commands:
  // after the previous kernel or DMA operation's NPU_OP_* (or after the stream's initial register
  // setup, the U65's NPU_SET_PARALLEL_MODE, at the start).
  const auto annotated = [](const cmd::Operation& op) { return cmd::isKernel(op.kind) || op.kind == cmd::OpKind::DmaStart; };
  size_t next = 0;   // the next operation to annotate
  bool groupStart = true;
  for (const cmd::Command& c : program.commands) {
    const bool streamSetup = c.index == 0 && c.id() == arch::CommandId::ParallelMode;
    if (groupStart && !streamSetup) {
      while (next < program.operations.size() &&
             (program.operations[next].commandIndex < c.index || !annotated(program.operations[next]))) {
        ++next;
      }
      if (next < program.operations.size()) {
        os << vela5Annotation(program.operations[next], context) << '\n';
      }
      groupStart = false;
    }
    os << vela5Line(c) << '\n';
    if (next < program.operations.size() && program.operations[next].commandIndex == c.index) {
      groupStart = true;
      ++next;
    }
  }
}

} // namespace npusim::report
