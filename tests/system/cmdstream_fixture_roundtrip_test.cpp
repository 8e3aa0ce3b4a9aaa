// SPDX-License-Identifier: Apache-2.0
// Vela-compiled command streams survive decode -> encode unchanged, and every decoded
// operation re-emitted by the builder decodes to the same operation.

#include <doctest/doctest.h>

#include "sim/cmdstream/builder.h"
#include "sim/io/decoded_network.h"
#include "support/fixtures.h"
#include "support/npu_model.h"

namespace npusim {

TEST_CASE("fixture round trip: decoding and re-encoding every stream gives the same bytes") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  const std::vector<test::VelaFolder> folders = test::velaFoldersOrSkip(*root);
  size_t streams = 0, bytes = 0;
  for (const test::VelaFolder& folder : folders) {
    INFO("fixture folder ", folder.name());
    const io::CompiledNetwork net = test::loadModel(folder);
    for (const io::DecodedNpuOp& d : io::decodeAll(net)) {
      INFO("operator ", d.operatorIndex);
      const io::FileRange range = net.operators[d.operatorIndex].npu.commands;
      const std::vector<uint8_t> original(net.at(range), net.at(range) + range.size);
      CHECK(cmd::encodeCommands(d.commands) == original);
      CHECK(d.streamBytes() == range.size);
      size_t npuOps = 0;
      for (const cmd::Command& c : d.commands) {
        npuOps += c.info->isOperation ? 1 : 0;
      }
      CHECK(d.operations.size() == npuOps);
      CHECK(d.operations.back().kind == cmd::OpKind::Stop);
      ++streams;
      bytes += original.size();
    }
  }
  MESSAGE("re-encoded " << streams << " streams, " << bytes << " bytes");
}

TEST_CASE("fixture round trip: the builder re-emits every decoded Vela operation faithfully") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  for (const test::VelaFolder& folder : test::velaFoldersOrSkip(*root)) {
    INFO("fixture folder ", folder.name());
    const io::CompiledNetwork net = test::loadModel(folder);
    for (const io::DecodedNpuOp& d : io::decodeAll(net)) {
      const std::vector<cmd::Operation> again = test::decodeStream(
          test::encodeOps(std::vector<cmd::Operation>(d.operations.begin(), d.operations.end() - 1)), // without the STOP
          *net.operators[d.operatorIndex].npu.header.hardware);
      REQUIRE(again.size() == d.operations.size());
      for (size_t i = 0; i < again.size(); ++i) {
        INFO("operation ", i, " of operator ", d.operatorIndex);
        test::checkSameOperation(d.operations[i], again[i]);
      }
    }
  }
}

} // namespace npusim
