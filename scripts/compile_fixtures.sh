#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds a fixture tree like ../shared/fixtures/vela for users who have Arm's Vela compiler
# (`pip install ethos-u-vela`, on your own machine): downloads public int8 models and compiles
# each for ethos-u55-32/64/128/256 x {High_End_Embedded, Deep_Embedded} x {Shared_Sram,
# Sram_Only}, keeping Vela's summary and per-layer CSVs, its debug database and its register
# listing next to each compiled model.
#
#   scripts/compile_fixtures.sh OUT_DIR [VELA_INI]
#
# VELA_INI defaults to the vela.ini shipped inside the installed Vela package.
set -euo pipefail

out=${1:?usage: compile_fixtures.sh OUT_DIR [VELA_INI]}
ini=${2:-$(python3 -c 'import ethosu.vela, os; print(os.path.join(os.path.dirname(ethosu.vela.__file__), "..", "config_files", "Arm", "vela.ini"))')}
command -v vela >/dev/null || { echo "vela not found: install Arm's Vela compiler first" >&2; exit 2; }
[[ -f $ini ]] || { echo "vela.ini not found: $ini" >&2; exit 2; }

tiny=https://raw.githubusercontent.com/mlcommons/tiny/1afd2c9820f795965a6134facd0b4dfae41ef23f/benchmark/training
micro=https://raw.githubusercontent.com/tensorflow/tflite-micro/90b983c2b3f1480642e040bbd2ddb37b998f3424/tensorflow/lite/micro
models=(
  "kws_ref_model $tiny/keyword_spotting/trained_models/kws_ref_model.tflite"
  "vww_96_int8 $tiny/visual_wake_words/trained_models/vww_96_int8.tflite"
  "ad01_int8 $tiny/anomaly_detection/trained_models/ad01_int8.tflite"
  "pretrainedResnet_quant $tiny/image_classification/trained_models/pretrainedResnet_quant.tflite"
  "str_ww_ref_model $tiny/streaming_wakeword/trained_models/str_ww_ref_model.tflite"
  "person_detect $micro/models/person_detect.tflite"
  "hello_world_int8 $micro/examples/hello_world/models/hello_world_int8.tflite"
  "micro_speech_quantized $micro/examples/micro_speech/models/micro_speech_quantized.tflite"
  "keyword_scrambled_8bit $micro/models/keyword_scrambled_8bit.tflite"
)

mkdir -p "$out/vela"
cp "$ini" "$out/vela/vela.ini"
for entry in "${models[@]}"; do
  read -r name url <<<"$entry"
  dir="$out/vela/$name"
  mkdir -p "$dir"
  [[ -f $dir/$name.tflite ]] || curl -fsSL "$url" -o "$dir/$name.tflite"
  for accel in ethos-u55-32 ethos-u55-64 ethos-u55-128 ethos-u55-256; do
    for system in Ethos_U55_High_End_Embedded Ethos_U55_Deep_Embedded; do
      for mode in Shared_Sram Sram_Only; do
        folder=${accel}_${system}_${mode}
        common=(--config ../vela.ini --accelerator-config "$accel" --system-config "$system"
                --memory-mode "$mode" --arena-cache-size 393216)
        (cd "$dir" &&
         vela "${common[@]}" --verbose-performance --enable-debug-db --output-dir "$folder" "$name.tflite" \
           > "$folder.perf.txt" &&
         mv "$folder.perf.txt" "$folder/vela_verbose_performance.txt" &&
         vela "${common[@]}" --verbose-register-command-stream --output-dir "$(mktemp -d)" "$name.tflite" \
           > "$folder/register_command_stream.txt")
        echo "compiled $name/$folder"
      done
    done
  done
done
echo "done: export NPUSIM_FIXTURES=$out"
