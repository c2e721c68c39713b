#!/usr/bin/env bash
# Analyses one rendered corpus capture on the biometrics backend and prints the backend, the device
# TensorFlow placed its ops on and per-frame timings (scripts/gpu-check.ts). Without a GPU it is a
# dry run on the CPU. On a GPU host: `bash scripts/tfjs-native.sh gpu && scripts/gpu-check.sh node-gpu`
# (exits 1 when the ops did not land on the GPU).
#
#   scripts/gpu-check.sh [auto|node-gpu|node|wasm|cpu]      (default: $TF_BACKEND, else auto)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-1}"
exec node --conditions=@signet/source --import tsx scripts/gpu-check.ts "$@"
