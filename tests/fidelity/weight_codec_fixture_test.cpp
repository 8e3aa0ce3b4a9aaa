// SPDX-License-Identifier: Apache-2.0
// The weight-stream codecs on every weight stream Vela wrote into the fixtures: each stream
// decodes, holds at least the operation's kernel x IFM x OFM weights, and re-encodes to the
// same bytes: the standard (mlw) streams, one per core or weight decoder, and the Ethos-U85's
// fast-weight-decoder streams.

#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/cmdstream/fast_weight_codec.h"
#include "sim/cmdstream/weight_codec.h"
#include "sim/cmdstream/weight_source.h"
#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"
#include "support/fixtures.h"
#include "support/skip.h"

namespace fs = std::filesystem;

namespace {

struct Counts {
  size_t models = 0, streams = 0, identical = 0, bytes = 0, weights = 0;
  size_t fastStreams = 0, sparseStreams = 0, untraced = 0;
};

void roundTripTree(const std::string& tree, npusim::cmd::WeightEncoder encoder) {
  const std::optional<fs::path> root = npusim::test::fixtureOrSkip(tree);
  if (!root) {
    return;
  }
  const std::vector<fs::path> models = npusim::test::compiledModels(*root);
  if (models.empty()) {
    npusim::test::skip("no compiled models (*_vela*.tflite) in " + root->string());
    return;
  }
  Counts counts;
  for (const fs::path& path : models) {
    INFO(path.string());
    const npusim::io::CompiledNetwork net = npusim::io::loadNetwork(path.string());
    for (const npusim::io::DecodedNpuOp& decoded : npusim::io::decodeAll(net)) {
      const npusim::io::FileRange& flash = net.operators[decoded.operatorIndex].npu.flash;
      std::set<uint64_t> seen;   // a stream shared by several operations (height stripes) once
      const auto& ops = decoded.operations;
      for (size_t i = 0; i < ops.size(); ++i) {
        // Each core of a two-core NPU (U65-512) has its own stream with its share of the OFM channels.
        for (size_t core = 0; core < ops[i].weightStreamCount; ++core) {
          const std::optional<uint64_t> offset = npusim::cmd::weightStreamInConstants(ops, i, core);
          if (!offset && npusim::cmd::hasWeightStream(ops[i]) && ops[i].weights[core].length > 0) {
            ++counts.untraced;   // not read from, nor copied from, the constant region
          }
          if (!offset || !seen.insert(*offset).second) {
            continue;
          }
          const uint64_t length = ops[i].weights[core].length;
          REQUIRE(*offset + length <= flash.size);
          const uint8_t* data = net.at(flash) + *offset;
          const auto& op = ops[i];
          const bool fast = op.weightFormat == npusim::arch::WeightFormat::Fast;
          // A fast stream is re-encoded with Vela's choice for 2:4-sparse weights (raw bytes):
          // the operation says it, not the stream.
          const npusim::cmd::WeightValues values =
              fast ? npusim::cmd::decodeFastWeightStream(data, length, net.path, flash.offset + *offset).values
                   : npusim::cmd::decodeWeightStream(data, length, net.path, flash.offset + *offset);
          // The stream holds every weight of its channels (brick padding adds zeros).
          const uint64_t kernel = uint64_t{op.kernel.width} * op.kernel.height;
          const uint64_t needed = op.kind == npusim::cmd::OpKind::Depthwise
                                      ? kernel * op.ofm.shape.depth
                                      : kernel * op.ifm.shape.depth * op.ofm.shape.depth;
          CHECK_MESSAGE(values.size() * op.weightStreamCount >= needed, "stream at constant offset " << *offset);
          const std::vector<uint8_t> encoded = fast ? npusim::cmd::encodeFastWeightStream(values, op.sparse)
                                                    : npusim::cmd::encodeWeightStream(values, encoder);
          const bool same = encoded.size() == length && std::equal(encoded.begin(), encoded.end(), data);
          CHECK_MESSAGE(same, "stream at constant offset " << *offset << " (" << length
                                                           << " bytes) re-encodes to " << encoded.size()
                                                           << " different bytes");
          ++counts.streams;
          counts.fastStreams += fast ? 1 : 0;
          counts.sparseStreams += op.sparse ? 1 : 0;
          counts.identical += same ? 1 : 0;
          counts.bytes += length;
          counts.weights += values.size();
        }
      }
    }
    ++counts.models;
  }
  CHECK(counts.streams > 0);
  CHECK(counts.untraced == 0);
  MESSAGE(tree << ": " << counts.models << " compiled models, " << counts.streams << " weight streams ("
               << counts.streams - counts.fastStreams << " standard, " << counts.fastStreams << " fast; "
               << counts.sparseStreams << " 2:4-sparse; " << counts.bytes << " bytes, " << counts.weights
               << " weights), " << counts.identical << " re-encoded byte for byte");
}

} // namespace

TEST_CASE("weight codec round-trips every weight stream of the vela fixtures") { roundTripTree("vela", npusim::cmd::WeightEncoder::Vela310); }

TEST_CASE("weight codec round-trips every weight stream of the vela-rnn fixtures") { roundTripTree("vela-rnn", npusim::cmd::WeightEncoder::Vela310); }

TEST_CASE("weight codec round-trips every weight stream of the vela-u65 fixtures") { roundTripTree("vela-u65", npusim::cmd::WeightEncoder::Vela310); }

TEST_CASE("weight codec round-trips every weight stream of the vela5 fixtures") { roundTripTree("vela5", npusim::cmd::WeightEncoder::Vela50); }

TEST_CASE("weight codec round-trips every weight stream of the vela-u85 fixtures (a standard stream per weight decoder, and the fast format)") {
  roundTripTree("vela-u85", npusim::cmd::WeightEncoder::Vela50);
}
