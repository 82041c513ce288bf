#!/usr/bin/env bash
# docs/scene-reference.md is the output of `sphreverb keys` (the key schema, src/config/schema.cpp).
#   scene_reference.sh SPHREVERB SOURCE_DIR
set -uo pipefail
exe=$1 src=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! diff -u "$src/docs/scene-reference.md" <("$exe" keys); then
  echo "docs/scene-reference.md differs from 'sphreverb keys' (the schema changed)."
  echo "Regenerate it: build/sphreverb keys > docs/scene-reference.md"
  exit 1
fi
echo "docs/scene-reference.md matches 'sphreverb keys'"
