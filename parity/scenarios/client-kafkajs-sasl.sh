# client-kafkajs-sasl.sh: KafkaJS over SASL_SSL with SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER (a JWT this
# scenario signs, lib.sh's mint_jwt): CreateTopics, 100 records read back by a committing group, a topic outside
# the principal's ACLs refused, a wrong password and an expired token refused; the broker's answers compared with
# Apache 3.7.2's (parity/clients/kafkajs/secured.js, parity/outcomes/).
. "$(dirname "$0")/../lib.sh"
requires_secure_listener SASL_SSL_SCRAM_SHA_256_BOOTSTRAP SASL_SSL_SCRAM_SHA_512_BOOTSTRAP SASL_SSL_OAUTHBEARER_BOOTSTRAP \
  SSL_CA_PEM SASL_USERNAME SASL_PASSWORD OAUTH_SIGNING_KEY OAUTH_KEY_ID OAUTH_ISSUER
requires_program node "apt-get install nodejs"
[ -d "$PARITY_DIR/clients/kafkajs/node_modules/kafkajs" ] \
  || absent "KafkaJS is not installed here (npm ci --prefix parity/clients/kafkajs)"
subject="parity-oauth-client-$$"
allow_prefix "User:$SASL_USERNAME" "parity-secured-$$"
allow_prefix "User:$subject" "parity-secured-$$"
export OAUTH_TOKEN OAUTH_EXPIRED_TOKEN
OAUTH_TOKEN="$(mint_jwt "$subject" 3600)"
OAUTH_EXPIRED_TOKEN="$(mint_jwt "$subject" -600)"
SHOW_LINES=60 program node "$PARITY_DIR/clients/kafkajs/secured.js" "$$" SCRAM-SHA-256 SCRAM-SHA-512 OAUTHBEARER
expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
expect "^ALL CHECKS PASSED$"
same_as_apache
pass
