#!/usr/bin/env bash
# Installs the non-Java clients of the parity suite's client-* scenarios: librdkafka (Debian's kcat
# and python3-confluent-kafka, as root through apt-get) and KafkaJS (npm, pinned by package-lock.json).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
if ! command -v kcat >/dev/null || ! /usr/bin/python3 -c 'import confluent_kafka' 2>/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kcat python3-confluent-kafka >/dev/null
fi
npm ci --prefix "$HERE/kafkajs" --no-audit --no-fund --loglevel=error
