// SPDX-License-Identifier: Apache-2.0
// The stream decoder (command by command, as the NPU reads its stream from memory) against the
// whole-stream decoder: the same commands and operations on every generation's fixtures, and the
// same refusals.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/cmdstream/decoder.h"
#include "sim/common/error.h"
#include "sim/io/decoded_network.h"
#include "support/fixtures.h"
#include "support/skip.h"
#include "support/npu_model.h"

namespace npusim {
namespace {

// Decodes `stream` command by command; each command is parsed from a copy that holds only the
// bytes up to its end (the NPU's command FIFO has no more), so a decoder that read ahead fails.
cmd::Program decodeInPieces(const arch::NpuConfig& hardware, const std::vector<uint8_t>& stream) {
  cmd::StreamDecoder decoder(hardware, static_cast<uint32_t>(stream.size()), test::testOrigin());
  cmd::Program p;
  std::vector<uint8_t> fetched(stream.size(), 0xEE);
  while (!decoder.stopped()) {
    const uint32_t at = decoder.offset();
    std::copy(stream.begin() + at, stream.begin() + at + 4, fetched.begin() + at);
    const uint32_t size = decoder.nextBytes(fetched.data());
    std::copy(stream.begin() + at, stream.begin() + at + size, fetched.begin() + at);
    const cmd::Operation* op = decoder.next(fetched.data());
    p.commands.push_back(decoder.command());
    if (op != nullptr) {
      CHECK(decoder.operation() == op);
      p.operations.push_back(*op);
    }
  }
  return p;
}

// The same commands, and operations that agree in what places their traffic.
void checkSameProgram(const cmd::Program& want, const cmd::Program& got) {
  REQUIRE(got.commands.size() == want.commands.size());
  for (size_t i = 0; i < want.commands.size(); ++i) {
    CHECK(got.commands[i].key == want.commands[i].key);
    CHECK(got.commands[i].param == want.commands[i].param);
    CHECK(got.commands[i].payload == want.commands[i].payload);
    CHECK(got.commands[i].offset == want.commands[i].offset);
  }
  REQUIRE(got.operations.size() == want.operations.size());
  for (size_t i = 0; i < want.operations.size(); ++i) {
    const cmd::Operation& a = want.operations[i];
    const cmd::Operation& b = got.operations[i];
    INFO("operation ", i, " ", cmd::opKindName(a.kind));
    CHECK(b.kind == a.kind);
    CHECK(b.commandIndex == a.commandIndex);
    CHECK(b.byteOffset == a.byteOffset);
    CHECK(b.macs() == a.macs());
    CHECK(b.ifm.region == a.ifm.region);
    CHECK(b.ofm.region == a.ofm.region);
    CHECK(b.ofm.shape == a.ofm.shape);
    CHECK(b.ofmBlock == a.ofmBlock);
    CHECK(b.weightStreamCount == a.weightStreamCount);
    CHECK(b.weights[0].base == a.weights[0].base);
    CHECK(b.weights[0].length == a.weights[0].length);
    CHECK(b.dma.src == a.dma.src);
    CHECK(b.dma.dst == a.dma.dst);
    CHECK(b.dma.length == a.dma.length);
    CHECK(b.blockDep == a.blockDep);
  }
}

} // namespace

TEST_CASE("stream decoder: command by command gives decodeProgram's commands and operations (U55, U65, U85)") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) return;
  size_t streams = 0;
  for (const std::string tree : {"vela", "vela-u65", "vela-u85"}) {
    const std::vector<test::VelaFolder> folders = test::velaFolders(*root, tree);
    // One model per tree keeps the test short: the first one with several operations.
    for (const test::VelaFolder& folder : folders) {
      if (folder.model != "kws_ref_model") continue;
      INFO(folder.name());
      const io::CompiledNetwork net = test::loadModel(folder);
      for (const io::DecodedNpuOp& d : io::decodeAll(net)) {
        const io::Operator& op = net.operators.at(d.operatorIndex);
        const std::vector<uint8_t> stream(net.at(op.npu.commands), net.at(op.npu.commands) + op.npu.commands.size);
        checkSameProgram(d, decodeInPieces(*op.npu.header.hardware, stream));
        ++streams;
      }
      break;
    }
  }
  if (streams == 0) test::skip("no kws_ref_model in the vela, vela-u65 or vela-u85 trees");
  CHECK(streams >= 3);
}

TEST_CASE("stream decoder: the end without NPU_OP_STOP, a truncated cmd1 and an unknown opcode are refused") {
  const arch::NpuConfig& hw = *arch::findNpuConfig("ethos-u55-128");
  // A DMA_WAIT only: the stream ends before a STOP.
  {
    const std::vector<uint8_t> stream{0x11, 0x00, 0x00, 0x00};
    cmd::StreamDecoder decoder(hw, 4, test::testOrigin());
    decoder.next(stream.data());
    CHECK_FALSE(decoder.stopped());
    CHECK_THROWS_WITH_AS(decoder.next(stream.data()), doctest::Contains("ends without NPU_OP_STOP"), InputError);
  }
  // A cmd1 (control bit 14) whose payload word lies past the stream's 4 bytes.
  {
    const std::vector<uint8_t> stream{0x00, 0x40, 0x00, 0x00};
    cmd::StreamDecoder decoder(hw, 4, test::testOrigin());
    CHECK(decoder.nextBytes(stream.data()) == 8);
    CHECK_THROWS_WITH_AS(decoder.next(stream.data()), doctest::Contains("truncated"), InputError);
  }
  {
    const std::vector<uint8_t> stream{0xFF, 0x03, 0x00, 0x00};
    cmd::StreamDecoder decoder(hw, 4, test::testOrigin());
    CHECK_THROWS_WITH_AS(decoder.next(stream.data()), doctest::Contains("unknown cmd0 opcode"), InputError);
  }
}

TEST_CASE("stream decoder: bytes after NPU_OP_STOP are not read") {
  // decodeProgram refuses them; the NPU stops at the STOP and never fetches them.
  const std::vector<uint8_t> stop = test::encodeOps({});
  std::vector<uint8_t> stream = stop;
  stream.insert(stream.end(), {0xFF, 0xFF, 0xFF, 0xFF});
  const arch::NpuConfig& hw = *arch::findNpuConfig("ethos-u55-128");
  CHECK_THROWS_AS(cmd::decodeProgram(hw, stream.data(), stream.size(), test::testOrigin(), {}), InputError);
  const cmd::Program p = decodeInPieces(hw, stream);
  REQUIRE(p.operations.size() == 1);
  CHECK(p.operations[0].kind == cmd::OpKind::Stop);
}

} // namespace npusim
