#!/usr/bin/env bash
# Creates the parity SCRAM user (SASL_USERNAME, SASL_PASSWORD of DIR/scenario.env from setup.sh) on a running Apache
# Kafka broker, one credential per mechanism (Apache refuses two for one user in one request):
#   parity/security/scram-user.sh BOOTSTRAP DIR      (KAFKA_CP: Apache Kafka 3.7.2's classpath; JAVA, default java)
set -euo pipefail
[ $# = 2 ] || { sed -n '2,5p' "$0" >&2; exit 2; }
: "${KAFKA_CP:?the classpath of Apache Kafka 3.7.2}"
user="$(sed -n 's/^SASL_USERNAME=//p' "$2/scenario.env")"
password="$(sed -n 's/^SASL_PASSWORD=//p' "$2/scenario.env")"
for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do
  "${JAVA:-java}" -cp "$KAFKA_CP" kafka.admin.ConfigCommand --bootstrap-server "$1" --alter --entity-type users \
    --entity-name "$user" --add-config "$mechanism=[password=$password]"
done
