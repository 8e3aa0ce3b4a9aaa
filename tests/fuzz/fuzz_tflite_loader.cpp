// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: a .tflite file through everything `npusim inspect` and `npusim estimate`
// and the pre-simulation checks of `npusim run` do with it: load (flatbuffer verification,
// COP1 header), decode every command stream, write every inspect format (with the weight streams
// decoded), refuse an architecture the simulator does not model as `run` does, check the
// simulation work, and estimate the network with the Vela-style model.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <streambuf>
#include <vector>

#include "harness/analytic/network_estimate.h"
#include "harness/report/inspect_report.h"
#include "sim/config/config.h"
#include "sim/io/decoded_network.h"
#include "models/platform/compile_target.h"
#include "models/platform/platform.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

// An ostream that discards everything (the writers' output is not checked, only that they run).
class NullBuffer : public std::streambuf {
protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = "fuzz.tflite";
  npusim::fuzz::acceptOnlyInputError(file, [&] {
    const npusim::io::CompiledNetwork net =
        npusim::io::loadNetworkFromBytes(std::vector<uint8_t>(data, data + size), file);
    const std::vector<npusim::io::DecodedNpuOp> decoded = npusim::io::decodeAll(net);
    NullBuffer buffer;
    std::ostream sink(&buffer);
    for (auto format : {npusim::report::InspectFormat::Text, npusim::report::InspectFormat::Vela,
                        npusim::report::InspectFormat::Json}) {
      npusim::report::writeInspect(sink, net, decoded, format);
    }
    // The weight streams (`inspect --weights`): a bad one must not keep the checks below from running.
    npusim::fuzz::acceptOnlyInputError(file, [&] {
      npusim::report::writeInspect(sink, net, decoded, npusim::report::InspectFormat::Text, true);
    });
    const npusim::config::SystemParams params = npusim::platform::resolveForModel({}, net);
    npusim::platform::checkSimulationWork(net, decoded, params);
    npusim::analytic::estimateNetwork(net, decoded, params, nullptr, npusim::platform::compiledBy(net));
  });
  return 0;
}
