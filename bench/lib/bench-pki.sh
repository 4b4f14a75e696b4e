#!/usr/bin/env bash
# The benchmarks' certificates, in DIR: a CA (ca.crt), a server certificate for 127.0.0.1 and localhost (tls.crt,
# tls.key: the PEM files a kaas TLS listener reads) and a client certificate (client.crt, client.key); with
# STOREPASS also the server's PKCS12 key store (server.p12), which Apache reads.
#   bench/lib/bench-pki.sh DIR [STOREPASS]
set -e
mkdir -p "$1" && cd "$1"
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 30 -subj "/CN=kaas bench CA"
openssl req -newkey rsa:2048 -nodes -keyout tls.key -out server.csr -subj "/CN=localhost"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -extfile server.ext -out tls.crt
openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj "/CN=bench-client,O=kaas bench"
printf 'extendedKeyUsage=clientAuth\n' > client.ext
openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -extfile client.ext -out client.crt
if [ -n "${2:-}" ]; then
  openssl pkcs12 -export -in tls.crt -inkey tls.key -name server -out server.p12 -passout "pass:$2"
fi
