// SPDX-License-Identifier: Apache-2.0
#include "harness/report/inspect_report.h"

#include <algorithm>
#include <optional>
#include <string>

#include "harness/report/register_listing.h"
#include "sim/cmdstream/disassembler.h"
#include "sim/cmdstream/fast_weight_codec.h"
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
  if (!cmd::inMemory(fm.storage)) {
    // In a chaining buffer (its index in `region`), or nowhere (a scalar operand, an OFM not written).
    ordered_json j{{"shape_hwc", shapeJson(fm.shape)}, {"storage", std::string(cmd::storageName(fm.storage))}};
    if (fm.storage == cmd::Storage::Chained) j["chaining_buffer"] = fm.region;
    j["format"] = std::string(cmd::dataFormatName(fm.format));
    j["bits"] = fm.elementBits;
    j["signed"] = fm.isSigned;
    j["zero_point"] = fm.zeroPoint;
    return j;
  }
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

ordered_json broadcastJson(const cmd::BroadcastAxes& b) {
  return {{"h", b.height}, {"w", b.width}, {"c", b.depth}};
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

// One weight stream of an operation, decoded when it comes from the constant region.
struct DecodedStream {
  size_t index = 0;
  const cmd::Stream* stream = nullptr;
  std::optional<uint64_t> constantOffset;   // none: written at run time (not from region 0)
  std::optional<cmd::FastWeights> fast;     // the fast format's header
  cmd::WeightValues values;                 // stream order, padding included
};

// The weight streams of operation `index` (none for an operation without weights). Throws
// InputError (file, byte offset) for a stream that lies outside the constant tensor or does not
// decode.
std::vector<DecodedStream> decodeStreams(const io::CompiledNetwork& net, const io::FileRange& flash,
                                         const std::vector<cmd::Operation>& ops, size_t index) {
  std::vector<DecodedStream> out;
  const cmd::Operation& op = ops[index];
  if (!cmd::hasWeightStream(op)) {
    return out;
  }
  for (size_t s = 0; s < op.weightStreamCount; ++s) {
    DecodedStream d;
    d.index = s;
    d.stream = &op.weights[s];
    if (d.stream->length == 0) continue;   // a weight decoder without channels
    d.constantOffset = cmd::weightStreamInConstants(ops, index, s);
    if (d.constantOffset) {
      const uint64_t offset = *d.constantOffset, length = d.stream->length;
      if (offset > flash.size || length > flash.size - offset) {
        throwAtOffset(net.path, flash.offset + std::min(offset, flash.size),
                      "weight stream " + std::to_string(s) + " of the operation at stream offset " +
                          std::to_string(op.byteOffset) + " lies outside the constant tensor");
      }
      const uint8_t* data = net.at(flash) + offset;
      if (op.weightFormat == arch::WeightFormat::Fast) {
        d.fast = cmd::decodeFastWeightStream(data, length, net.path, flash.offset + offset);
        d.values = std::move(d.fast->values);
      } else {
        d.values = cmd::decodeWeightStream(data, length, net.path, flash.offset + offset);
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string formatText(const cmd::Operation& op, const DecodedStream& d) {
  std::string s(cmd::weightFormatName(op.weightFormat));
  if (d.fast) {
    s += " (" + std::string(cmd::fastWeightModeName(d.fast->mode)) +
         (d.fast->mode == cmd::FastWeightMode::Raw ? ", zero adjust " + std::to_string(d.fast->zeroAdjust) : "") + ")";
  }
  return s + (op.sparse ? ", 2:4 sparse" : "");
}

// "weight stream 1 (weight decoder 1): SWD, 352 B at constant offset 0x2a0: 1024 weights, -127..127, 312 zeros"
void writeStreamSummary(std::ostream& os, const cmd::Operation& op, const DecodedStream& d,
                        const arch::Architecture& architecture) {
  os << "      weight stream " << d.index;
  if (op.weightStreamCount > 1) os << " (" << architecture.weightStreamOwner << ' ' << d.index << ')';
  os << ": " << formatText(op, d) << ", " << d.stream->length << " B ";
  if (!d.constantOffset) {
    os << "in region " << int{d.stream->region} << " at 0x" << std::hex << d.stream->base << std::dec
       << ": not copied from the constant region (written at run time)\n";
    return;
  }
  os << "at constant offset 0x" << std::hex << *d.constantOffset << std::dec << ": " << d.values.size() << " weights";
  if (!d.values.empty()) {
    const auto [lo, hi] = std::minmax_element(d.values.begin(), d.values.end());
    os << ", " << *lo << ".." << *hi << ", " << std::count(d.values.begin(), d.values.end(), 0) << " zeros";
  }
  os << '\n';
}

ordered_json streamWeightsJson(const cmd::Operation& op, const DecodedStream& d) {
  ordered_json j{{"stream", d.index},
                 {"format", std::string(cmd::weightFormatName(op.weightFormat))},
                 {"sparse", op.sparse},
                 {"length", d.stream->length}};
  if (d.fast) {
    j["fast_mode"] = std::string(cmd::fastWeightModeName(d.fast->mode));
    j["zero_adjust"] = d.fast->zeroAdjust;
    j["palette"] = d.fast->palette;
  }
  j["constant_offset"] = d.constantOffset ? ordered_json(*d.constantOffset) : ordered_json(nullptr);
  j["weights"] = d.values;
  return j;
}

} // namespace

ordered_json operationJson(const cmd::Operation& op, const arch::NpuConfig& hardware) {
  // Architectures without SHRAM (the U85) also report what their streams add: chaining, scalar
  // IFMs, transposition, the accumulator's settings, weight formats and streams.
  const bool internalBuffers = hardware.arch->buffers == arch::BufferModel::InternalBuffers;
  ordered_json j{{"kind", std::string(cmd::opKindName(op.kind))},
                 {"command_index", op.commandIndex},
                 {"offset", op.byteOffset}};
  switch (op.kind) {
  case cmd::OpKind::Conv:
  case cmd::OpKind::Depthwise:
  case cmd::OpKind::Pool:
  case cmd::OpKind::Elementwise:
  case cmd::OpKind::Resize:
    if (op.kind == cmd::OpKind::Pool) j["mode"] = std::string(cmd::poolModeName(op.poolMode));
    if (op.kind == cmd::OpKind::Elementwise) j["mode"] = std::string(cmd::elementwiseModeName(op.elementwiseMode));
    if (op.kind == cmd::OpKind::Resize) j["mode"] = std::string(cmd::resizeModeName(op.resize.mode));
    j["ifm"] = fmJson(op.ifm);
    if (op.ifm.storage == cmd::Storage::None) {
      j["ifm_scalar"] = op.scalar;
    } else if (op.ifm.broadcast.height || op.ifm.broadcast.width || op.ifm.broadcast.depth) {
      j["ifm_broadcast"] = broadcastJson(op.ifm.broadcast);
    }
    if (op.hasIfm2()) {
      j["ifm2"] = fmJson(op.ifm2);
      j["broadcast"] = broadcastJson(op.ifm2.broadcast);
    } else if (op.isBinaryElementwise() && op.ifm2.storage == cmd::Storage::None) {
      j["ifm2_scalar"] = op.scalar;
    }
    j["ofm"] = fmJson(op.ofm);
    if (op.kind != cmd::OpKind::Elementwise && op.kind != cmd::OpKind::Resize) {
      j["kernel"] = {{"height", op.kernel.height}, {"width", op.kernel.width},
                     {"stride_y", op.kernel.strideY}, {"stride_x", op.kernel.strideX},
                     {"dilation_y", op.kernel.dilationY}, {"dilation_x", op.kernel.dilationX}};
      j["padding"] = {{"top", op.padding.top}, {"left", op.padding.left}, {"bottom", op.padding.bottom},
                      {"right", op.padding.right}};
    }
    if (op.kind == cmd::OpKind::Resize) {
      const auto axis = [](const cmd::ResizeAxis& a) {
        return ordered_json{{"scale_numerator", a.scaleNumerator}, {"offset", a.offset},
                            {"step_int", a.stepInt},               {"step_mod", a.stepMod},
                            {"block_step_int", a.blockStepInt},    {"block_step_mod", a.blockStepMod}};
      };
      j["resize"] = {{"x", axis(op.resize.x)}, {"y", axis(op.resize.y)}};
    }
    if (op.kind == cmd::OpKind::Conv && op.weightsFromIfm2) {
      j["weights_from_ifm2"] = true;
    } else if (op.kind == cmd::OpKind::Conv || op.kind == cmd::OpKind::Depthwise) {
      j["traversal"] = op.kernel.partKernelFirst ? "part_kernel_first" : "depth_first";
      j["weights"] = streamJson(op.weights[0]);
      if (op.scaling.perChannel) j["scales"] = streamJson(op.scales[0]);
      if (internalBuffers) {
        j["weight_format"] = std::string(cmd::weightFormatName(op.weightFormat));
        j["sparse"] = op.sparse;
        ordered_json streams = ordered_json::array();
        for (size_t i = 0; i < op.weightStreamCount; ++i) streams.push_back(streamJson(op.weights[i]));
        j["weight_streams"] = streams;
      }
    }
    j["upscale"] = static_cast<int>(op.upscale);
    j["ofm_block_hwc"] = shapeJson(op.ofmBlock);
    if (op.shram) {
      j["shram"] = {{"ib_end", op.shram->ibEnd}, {"ab_start", op.shram->abStart},
                    {"ifm2_ib_start", op.shram->ifm2IbStart}, {"acc_format", static_cast<int>(op.accFormat)}};
    }
    if (internalBuffers) {
      j["accumulator"] = {{"format", std::string(cmd::accFormatName(op.accFormat))},
                          {"input", std::string(cmd::accInputName(op.accInput))},
                          {"ofm_written", op.ofmWritten},
                          {"ublock_hwc", shapeJson(op.ublock)}};
      j["ofm_transpose"] = std::string(cmd::transposeName(op.ofmTranspose));
      j["ofm_reverse"] = std::string(cmd::reverseName(op.ofmReverse));
    }
    j["blockdep"] = op.blockDep;
    j["activation"] = {{"function", op.activation.code}, {"clip_range", op.activation.clipRange},
                       {"min", op.activation.min}, {"max", op.activation.max}};
    if (internalBuffers && op.activation.function != cmd::ActivationFunction::Clamp) {
      j["activation"]["lut_bytes"] = {op.activation.lutSlot * op.activation.lutBytes,
                                      (op.activation.lutSlot + 1) * op.activation.lutBytes};
    }
    j["scaling"] = {{"per_channel", op.scaling.perChannel}, {"ofm_scale", op.scaling.ofmScale},
                    {"ofm_shift", op.scaling.ofmShift}, {"opa_scale", op.scaling.opaScale},
                    {"opa_shift", op.scaling.opaShift}, {"opb_scale", op.scaling.opbScale},
                    {"round_mode", static_cast<int>(op.scaling.roundMode)}};
    if (internalBuffers) {
      j["scaling"]["opb_shift"] = op.scaling.opbShift;
      j["scaling"]["double_round"] = {op.scaling.ofmDoubleRound, op.scaling.opaDoubleRound, op.scaling.opbDoubleRound};
    }
    j["macs"] = op.macs();
    break;
  case cmd::OpKind::DmaStart: {
    const std::string internal(hardware.arch->dmaInternalMemory);
    j["dma"] = {{"src_region", op.dma.srcRegion}, {"src", op.dma.src},
                {"dst", op.dma.dstInternal ? ordered_json(internal) : ordered_json(op.dma.dstRegion)},
                {"dst_offset", op.dma.dst}, {"length", op.dma.length}};
    if (op.dma.dimensions > 1) {
      j["dma"]["dimensions"] = op.dma.dimensions;
      j["dma"]["sizes"] = op.dma.sizes;
      j["dma"]["src_strides"] = op.dma.srcStrides;
      j["dma"]["dst_strides"] = op.dma.dstStrides;
    }
    if (op.dma.srcIndexed || op.dma.dstIndexed) {
      j["dma"]["indexed"] = op.dma.srcIndexed ? "source" : "destination";
      j["dma"]["index"] = {{"region", op.dma.indexRegion}, {"offset", op.dma.index}, {"max", op.dma.indexMax},
                           {"skip1", op.dma.indexSkip}};
    }
    break;
  }
  case cmd::OpKind::Branch:
    j["branch"] = {{"conditional", op.branch.conditional}, {"target_offset", op.branch.target},
                   {"target_command", op.branch.targetCommand}};
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
        const io::NpuOp& npu = net.operators[d.operatorIndex].npu;
        writeVela5Listing(os, d, {npu.header.hardware, npu.scratchFastTensorIndex == npu.scratchTensorIndex});
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
           << cmd::describeOperation(d->operations[i], *npu.header.hardware) << '\n';
        if (withWeights) {
          for (const DecodedStream& stream : decodeStreams(net, npu.flash, d->operations, i)) {
            writeStreamSummary(os, d->operations[i], stream, *npu.header.hardware->arch);
          }
        }
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
        const arch::ConfigWordLayout& layout = npu.header.hardware->arch->configWord;
        if (layout.log2SramPorts.present()) o["cop1"]["sram_ports"] = npu.header.sramPorts;
        if (layout.log2ExtPorts.present()) o["cop1"]["ext_ports"] = npu.header.extPorts;
        if (layout.log2WeightDecoders.present()) o["cop1"]["weight_decoders"] = npu.header.weightDecoders;
        o["flash_bytes"] = npu.flashSize;
        o["scratch_bytes"] = npu.scratchSize;
        o["scratch_fast_bytes"] = npu.scratchFastSize;
        if (const io::DecodedNpuOp* d = findDecoded(decoded, op.index)) {
          o["commands"] = d->commands.size();
          ordered_json list = ordered_json::array();
          for (size_t i = 0; i < d->operations.size(); ++i) {
            list.push_back(operationJson(d->operations[i], *npu.header.hardware));
            if (withWeights) {
              const std::vector<DecodedStream> streams = decodeStreams(net, npu.flash, d->operations, i);
              if (!streams.empty()) {
                ordered_json decodedStreams = ordered_json::array();
                for (const DecodedStream& stream : streams) {
                  decodedStreams.push_back(streamWeightsJson(d->operations[i], stream));
                }
                list.back()["decoded_weight_streams"] = decodedStreams;
              }
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
