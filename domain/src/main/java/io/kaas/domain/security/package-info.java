/**
 * Who may connect and what they may do: principals, SCRAM credentials, quotas and ACLs — the content of
 * {@code __cluster/credentials.json} and {@code __cluster/acls.json}, which the operator writes from
 * KafkaUser resources (or {@code ./kaas user add} and the admin APIs in standalone) and every broker
 * reads.
 */
package io.kaas.domain.security;
