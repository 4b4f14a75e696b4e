# kafka-acls.sh: add, list and remove literal and prefixed ACLs; list what applies to a topic (MATCH).
. "$(dirname "$0")/../lib.sh"
requires_api CreateAcls "ACLs (the security capability) are not built yet"
T=$(topic_name t)
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --add --allow-principal User:alice --operation Read --topic "$T"
grep -q "No Authorizer is configured" <<<"$OUT" && skip "the broker runs without an authorizer"
expect_ok
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --list --topic "$T"
expect "User:alice.*READ|principal=User:alice.*operation=READ"
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --add --deny-principal User:bob --operation Write \
  --topic "${T%-*}-" --resource-pattern-type prefixed
expect_ok
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --list --topic "$T" --resource-pattern-type match
expect "principal=User:alice.*operation=READ" "MATCH must list the literal ACL"
expect "principal=User:bob.*operation=WRITE.*permissionType=DENY" "MATCH must list the prefixed ACL covering the topic"
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --remove --allow-principal User:alice --operation Read --topic "$T" --force
expect_ok
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --remove --deny-principal User:bob --operation Write \
  --topic "${T%-*}-" --resource-pattern-type prefixed --force
expect_ok
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --list --topic "$T" --resource-pattern-type match
expect_not "User:alice|User:bob" "removed ACLs must be gone"
pass
