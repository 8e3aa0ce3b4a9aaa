// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: raw bytes through the compressed weight-stream decoder; a stream that
// decodes must re-encode to a stream that decodes to the same weights.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sim/cmdstream/weight_codec.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

// Streams decoding to more weights than this are not re-encoded: the encoder's parameter
// search is linear but slow on the long zero runs a few fuzzed bytes can describe.
constexpr size_t kMaxReencodedWeights = 1 << 16;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = "fuzz.weights";
  npusim::fuzz::acceptOnlyInputError(file, [&] {
    const npusim::cmd::WeightValues weights = npusim::cmd::decodeWeightStream(data, size, file, 0);
    if (weights.size() > kMaxReencodedWeights) {
      return;
    }
    const std::vector<uint8_t> again = npusim::cmd::encodeWeightStream(weights);
    if (npusim::cmd::decodeWeightStream(again.data(), again.size(), file, 0) != weights) {
      std::fprintf(stderr, "re-encoded weights decode differently\n");
      std::abort();
    }
  });
  return 0;
}
