# kafka-acls.sh: add, list and remove an ACL.
. "$(dirname "$0")/../lib.sh"
requires_api CreateAcls "ACLs (the security capability) are not built yet"
T=$(topic_name t)
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --add --allow-principal User:alice --operation Read --topic "$T"
grep -q "No Authorizer is configured" <<<"$OUT" && skip "the broker runs without an authorizer"
expect_ok
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --list --topic "$T"
expect "User:alice.*READ|principal=User:alice.*operation=READ"
tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --remove --allow-principal User:alice --operation Read --topic "$T" --force
expect_ok
pass
