// SPDX-License-Identifier: Apache-2.0
#include "harness/report/inspect_report.h"

#include <algorithm>
#include <optional>
#include <string>

#include "harness/report/register_listing.h"
#include "sim/cmdstream/disassembler.h"
#include "sim/cmdstream/weight_codec.h"
#include "sim/cmdstream/weight_source.h"
#include "sim/common/error.h"

namespace npusim::report {
namespace {

using nlohmann::ordered_json;

std::string shapeText(const std::vector<int32_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    s += (i ? "," : "") + std::to_string(shape[i]);
  }
  return s + "]";
}

const io::DecodedNpuOp* findDecoded(const std::vector<io::DecodedNpuOp>& decoded, size_t operatorIndex) {
  for (const auto& d : decoded) {
    if (d.operatorIndex == operatorIndex) {
      return &d;
    }
  }
  return nullptr;
}

ordered_json shapeJson(const Shape3& s) { return ordered_json::array({s.height, s.width, s.depth}); }

ordered_json fmJson(const cmd::FeatureMap& fm) {
  const cmd::ByteSpan span = fm.footprint();
  return ordered_json{{"shape_hwc", shapeJson(fm.shape)},
                      {"region", fm.region},
                      {"format", std::string(cmd::dataFormatName(fm.format))},
                      {"bits", fm.elementBits},
                      {"signed", fm.isSigned},
                      {"zero_point", fm.zeroPoint},
                      {"base", fm.base},
                      {"tiles", {{"width0", fm.width0}, {"height0", fm.height0}, {"height1", fm.height1}}},
                      {"stride", {{"x", fm.strideX}, {"y", fm.strideY}, {"c", fm.strideC}}},
                      {"bytes", {span.begin, span.end}}};
}

ordered_json streamJson(const cmd::Stream& s) {
  return ordered_json{{"region", s.region}, {"base", s.base}, {"length", s.length}};
}

ordered_json tensorJson(const io::TensorInfo& t) {
  ordered_json j{{"index", t.index}, {"name", t.name}, {"shape", t.shape}, {"type", t.type}};
  if (!t.scale.empty()) j["scale"] = t.scale;
  if (!t.zeroPoint.empty()) j["zero_point"] = t.zeroPoint;
  if (t.arenaOffset) j["arena_offset"] = *t.arenaOffset;
  return j;
}

// Operation `index`'s weight stream decoded (stream order: OFM blocks, sub-kernels, micro-
// blocks, brick padding included), when it is read from the constant region.
void addDecodedWeights(ordered_json& j, const io::CompiledNetwork& net, const io::FileRange& flash,
                       const std::vector<cmd::Operation>& ops, size_t index) {
  const std::optional<uint64_t> offset = cmd::weightStreamInConstants(ops, index);
  if (!offset) {
    return;
  }
  const uint64_t length = ops[index].weights[0].length;
  if (*offset > flash.size || length > flash.size - *offset) {
    throwAtOffset(net.path, flash.offset + std::min(*offset, flash.size),
                  "weight stream of the operation at stream offset " + std::to_string(ops[index].byteOffset) +
                      " lies outside the constant tensor");
  }
  j["weights_constant_offset"] = *offset;
  j["decoded_weights"] = cmd::decodeWeightStream(net.at(flash) + *offset, length, net.path, flash.offset + *offset);
}

} // namespace

ordered_json operationJson(const cmd::Operation& op) {
  ordered_json j{{"kind", std::string(cmd::opKindName(op.kind))},
                 {"command_index", op.commandIndex},
                 {"offset", op.byteOffset}};
  switch (op.kind) {
  case cmd::OpKind::Conv:
  case cmd::OpKind::Depthwise:
  case cmd::OpKind::Pool:
  case cmd::OpKind::Elementwise:
    if (op.kind == cmd::OpKind::Pool) j["mode"] = std::string(cmd::poolModeName(op.poolMode));
    if (op.kind == cmd::OpKind::Elementwise) j["mode"] = std::string(cmd::elementwiseModeName(op.elementwiseMode));
    j["ifm"] = fmJson(op.ifm);
    if (op.hasIfm2()) {
      j["ifm2"] = fmJson(op.ifm2);
      j["broadcast"] = {{"h", op.ifm2.broadcast.height}, {"w", op.ifm2.broadcast.width}, {"c", op.ifm2.broadcast.depth}};
    } else if (op.isBinaryElementwise()) {
      j["ifm2_scalar"] = op.scalar;
    }
    j["ofm"] = fmJson(op.ofm);
    if (op.kind != cmd::OpKind::Elementwise) {
      j["kernel"] = {{"height", op.kernel.height}, {"width", op.kernel.width},
                     {"stride_y", op.kernel.strideY}, {"stride_x", op.kernel.strideX},
                     {"dilation_y", op.kernel.dilationY}, {"dilation_x", op.kernel.dilationX}};
      j["padding"] = {{"top", op.padding.top}, {"left", op.padding.left}, {"bottom", op.padding.bottom},
                      {"right", op.padding.right}};
    }
    if (op.kind == cmd::OpKind::Conv || op.kind == cmd::OpKind::Depthwise) {
      j["traversal"] = op.kernel.partKernelFirst ? "part_kernel_first" : "depth_first";
      j["weights"] = streamJson(op.weights[0]);
      if (op.scaling.perChannel) j["scales"] = streamJson(op.scales[0]);
    }
    j["upscale"] = static_cast<int>(op.upscale);
    j["ofm_block_hwc"] = shapeJson(op.ofmBlock);
    if (op.shram) {
      j["shram"] = {{"ib_end", op.shram->ibEnd}, {"ab_start", op.shram->abStart},
                    {"ifm2_ib_start", op.shram->ifm2IbStart}, {"acc_format", static_cast<int>(op.accFormat)}};
    }
    j["blockdep"] = op.blockDep;
    j["activation"] = {{"function", op.activation.code}, {"clip_range", op.activation.clipRange},
                       {"min", op.activation.min}, {"max", op.activation.max}};
    j["scaling"] = {{"per_channel", op.scaling.perChannel}, {"ofm_scale", op.scaling.ofmScale},
                    {"ofm_shift", op.scaling.ofmShift}, {"opa_scale", op.scaling.opaScale},
                    {"opa_shift", op.scaling.opaShift}, {"opb_scale", op.scaling.opbScale},
                    {"round_mode", static_cast<int>(op.scaling.roundMode)}};
    j["macs"] = op.macs();
    break;
  case cmd::OpKind::DmaStart:
    j["dma"] = {{"src_region", op.dma.srcRegion}, {"src", op.dma.src},
                {"dst", op.dma.dstInternal ? ordered_json("shram") : ordered_json(op.dma.dstRegion)},
                {"dst_offset", op.dma.dst}, {"length", op.dma.length}};
    break;
  case cmd::OpKind::DmaWait:
  case cmd::OpKind::KernelWait:
    j["count"] = op.waitCount;
    break;
  case cmd::OpKind::Stop:
  case cmd::OpKind::Irq:
  case cmd::OpKind::PmuMask:
    j["param"] = op.param;
    break;
  }
  return j;
}

void writeInspect(std::ostream& os, const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                  InspectFormat format, bool withWeights, config::VelaVersion listing) {
  switch (format) {
  case InspectFormat::Vela:
    for (const auto& d : decoded) {
      if (listing == config::VelaVersion::V5_0) {
        writeVela5Listing(os, d.commands, d.streamBytes());
      } else {
        cmd::writeVelaListing(os, d.commands, d.streamBytes());
      }
    }
    return;
  case InspectFormat::Text: {
    os << net.path << ": " << (net.description.empty() ? "(no description)" : net.description) << ", "
       << net.operators.size() << " operators (" << net.npuOperatorCount() << " ethos-u)\n";
    for (const io::Operator& op : net.operators) {
      os << "op " << op.index << ": " << op.opName;
      if (op.kind == io::OperatorKind::Cpu) {
        os << " (CPU)";
        for (int t : op.inputs) {
          if (t >= 0) os << " in " << shapeText(net.tensors[static_cast<size_t>(t)].shape) << ' ' << net.tensors[static_cast<size_t>(t)].type;
        }
        for (int t : op.outputs) {
          os << " out " << shapeText(net.tensors[static_cast<size_t>(t)].shape) << ' ' << net.tensors[static_cast<size_t>(t)].type;
        }
        os << '\n';
        continue;
      }
      const io::NpuOp& npu = op.npu;
      const io::DecodedNpuOp* d = findDecoded(decoded, op.index);
      os << " (NPU) " << npu.header.hardware->name << ", arch " << npu.header.archMajor << '.' << npu.header.archMinor
         << '.' << npu.header.archPatch << ", " << (d ? d->commands.size() : 0) << " commands, "
         << npu.commands.size << " stream bytes, flash " << npu.flashSize << " B, scratch " << npu.scratchSize
         << " B, scratch_fast " << npu.scratchFastSize << " B\n";
      if (d == nullptr) continue;
      for (size_t i = 0; i < d->operations.size(); ++i) {
        os << "  [" << i << "] @0x" << std::hex << d->operations[i].byteOffset << std::dec << ' '
           << cmd::describeOperation(d->operations[i]) << '\n';
      }
    }
    return;
  }
  case InspectFormat::Json: {
    ordered_json j;
    j["file"] = net.path;
    j["description"] = net.description;
    j["vela_version"] = net.velaVersion;
    j["subgraphs"] = net.subgraphCount;
    j["inputs"] = net.inputs;
    j["outputs"] = net.outputs;
    ordered_json tensors = ordered_json::array();
    for (const auto& t : net.tensors) tensors.push_back(tensorJson(t));
    j["tensors"] = tensors;
    ordered_json ops = ordered_json::array();
    for (const io::Operator& op : net.operators) {
      ordered_json o{{"index", op.index}, {"kind", op.kind == io::OperatorKind::Npu ? "npu" : "cpu"},
                     {"operator", op.opName}, {"inputs", op.inputs}, {"outputs", op.outputs}};
      if (op.kind == io::OperatorKind::Npu) {
        const io::NpuOp& npu = op.npu;
        o["cop1"] = {{"config_word", npu.header.configWord}, {"id_word", npu.header.idWord},
                     {"accelerator", std::string(npu.header.hardware->name)},
                     {"macs", npu.header.macs}, {"shram_kb", npu.header.shramKb},
                     {"arch", std::to_string(npu.header.archMajor) + "." + std::to_string(npu.header.archMinor) + "." +
                                  std::to_string(npu.header.archPatch)},
                     {"stream_bytes", npu.commands.size}};
        o["flash_bytes"] = npu.flashSize;
        o["scratch_bytes"] = npu.scratchSize;
        o["scratch_fast_bytes"] = npu.scratchFastSize;
        if (const io::DecodedNpuOp* d = findDecoded(decoded, op.index)) {
          o["commands"] = d->commands.size();
          ordered_json list = ordered_json::array();
          for (size_t i = 0; i < d->operations.size(); ++i) {
            list.push_back(operationJson(d->operations[i]));
            if (withWeights) {
              addDecodedWeights(list.back(), net, npu.flash, d->operations, i);
            }
          }
          o["operations"] = list;
        }
      }
      ops.push_back(o);
    }
    j["operators"] = ops;
    if (!net.offlineAllocation.empty()) j["offline_memory_allocation"] = net.offlineAllocation;
    os << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
    return;
  }
  }
}

} // namespace npusim::report
