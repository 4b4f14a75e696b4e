# client-confluent-kafka-oauthbearer.sh: librdkafka through confluent-kafka-python over SASL_SSL with
# OAUTHBEARER: its oauth_cb hands over JWTs this scenario signs with the issuer's key (whose public half the
# broker fetched from the JWKS the parity run serves). A token's subject is the principal: AdminClient, a
# producer and a committing group under that principal's ACLs; an expired token refused; another subject,
# without ACLs, refused a topic; the broker's answers compared with Apache 3.7.2's
# (parity/clients/confluent_kafka_secured.py, parity/outcomes/).
. "$(dirname "$0")/../lib.sh"
requires_secure_listener SASL_SSL_OAUTHBEARER_BOOTSTRAP SSL_CA_PEM OAUTH_SIGNING_KEY OAUTH_KEY_ID OAUTH_ISSUER
requires_confluent_kafka
subject="parity-oauth-client-$$"
allow_prefix "User:$subject" "parity-secured-$$"
export OAUTH_TOKEN OAUTH_EXPIRED_TOKEN OAUTH_OTHER_TOKEN
OAUTH_TOKEN="$(mint_jwt "$subject" 3600)"
OAUTH_EXPIRED_TOKEN="$(mint_jwt "$subject" -600)"
OAUTH_OTHER_TOKEN="$(mint_jwt "parity-oauth-stranger-$$" 3600)"
SHOW_LINES=60 program "$PY" "$PARITY_DIR/clients/confluent_kafka_secured.py" "$$" oauthbearer
expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
expect "^ALL CHECKS PASSED$"
same_as_apache
pass
