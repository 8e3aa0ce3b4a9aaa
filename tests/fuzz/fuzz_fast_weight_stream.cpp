// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: raw bytes through the Ethos-U85's fast-weight-decoder stream decoder; a
// stream that decodes must re-encode to a stream that decodes to the same weights (the padding
// of the new stream may add more).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sim/cmdstream/fast_weight_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = "fuzz.fwd";
  npusim::fuzz::acceptOnlyInputError(file, [&] {
    const npusim::cmd::FastWeights decoded = npusim::cmd::decodeFastWeightStream(data, size, file, 0);
    // Vela's own choice of mode (palette or raw) holds any decoded weights faithfully; forced raw
    // mode (2:4 sparsity) keeps no zero adjust and would wrap weights outside int8.
    const std::vector<uint8_t> again = npusim::cmd::encodeFastWeightStream(decoded.values, false);
    const npusim::cmd::FastWeights back = npusim::cmd::decodeFastWeightStream(again.data(), again.size(), file, 0);
    if (back.values.size() < decoded.values.size() ||
        !std::equal(decoded.values.begin(), decoded.values.end(), back.values.begin())) {
      std::fprintf(stderr, "re-encoded fast weights decode differently\n");
      std::abort();
    }
  });
  return 0;
}
