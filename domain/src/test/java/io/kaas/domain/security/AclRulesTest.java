package io.kaas.domain.security;

import static io.kaas.domain.security.AclOperation.ALL;
import static io.kaas.domain.security.AclOperation.ALTER;
import static io.kaas.domain.security.AclOperation.ALTER_CONFIGS;
import static io.kaas.domain.security.AclOperation.CREATE;
import static io.kaas.domain.security.AclOperation.DELETE;
import static io.kaas.domain.security.AclOperation.DESCRIBE;
import static io.kaas.domain.security.AclOperation.DESCRIBE_CONFIGS;
import static io.kaas.domain.security.AclOperation.IDEMPOTENT_WRITE;
import static io.kaas.domain.security.AclOperation.READ;
import static io.kaas.domain.security.AclOperation.WRITE;
import static io.kaas.domain.security.AclPatternType.LITERAL;
import static io.kaas.domain.security.AclPatternType.PREFIXED;
import static io.kaas.domain.security.AclPermission.ALLOW;
import static io.kaas.domain.security.AclPermission.DENY;
import static io.kaas.domain.security.AclResourceType.CLUSTER;
import static io.kaas.domain.security.AclResourceType.GROUP;
import static io.kaas.domain.security.AclResourceType.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AclRulesTest {
    private static final KafkaPrincipal ALICE = KafkaPrincipal.user("alice");
    private static final KafkaPrincipal BOB = KafkaPrincipal.user("bob");
    private static final String HOST = "10.0.0.1";

    private static AclBinding acl(KafkaPrincipal who, AclResourceType type, String name, AclPatternType pattern,
                                  AclOperation operation, AclPermission permission) {
        return new AclBinding(who, AclBinding.WILDCARD, type, name, pattern, operation, permission);
    }

    private static AclBinding allow(KafkaPrincipal who, AclResourceType type, String name, AclPatternType pattern,
                                    AclOperation operation) {
        return acl(who, type, name, pattern, operation, ALLOW);
    }

    private static AclBinding deny(KafkaPrincipal who, AclResourceType type, String name, AclPatternType pattern,
                                   AclOperation operation) {
        return acl(who, type, name, pattern, operation, DENY);
    }

    private static boolean allows(List<AclBinding> acls, KafkaPrincipal who, AclOperation operation,
                                  AclResourceType type, String name) {
        return AclRules.of(acls).allows(who, HOST, operation, type, name);
    }

    @ParameterizedTest
    @EnumSource(AclOperation.class)
    void withoutAnyAclEverythingIsDenied(AclOperation operation) {
        for (AclResourceType type : AclResourceType.values()) {
            assertThat(AclRules.EMPTY.allows(ALICE, HOST, operation, type, "x")).isFalse();
        }
    }

    @Test
    void aLiteralAclCoversExactlyItsName() {
        List<AclBinding> acls = List.of(allow(ALICE, TOPIC, "orders", LITERAL, READ));

        assertThat(allows(acls, ALICE, READ, TOPIC, "orders")).isTrue();
        assertThat(allows(acls, ALICE, READ, TOPIC, "orders-eu")).isFalse();
        assertThat(allows(acls, ALICE, READ, TOPIC, "order")).isFalse();
        assertThat(allows(acls, ALICE, READ, GROUP, "orders")).as("another resource type").isFalse();
        assertThat(allows(acls, ALICE, WRITE, TOPIC, "orders")).as("another operation").isFalse();
        assertThat(allows(acls, BOB, READ, TOPIC, "orders")).as("another principal").isFalse();
    }

    @Test
    void aPrefixedAclCoversEveryNameStartingWithIt() {
        List<AclBinding> acls = List.of(allow(ALICE, TOPIC, "orders-", PREFIXED, READ));

        assertThat(allows(acls, ALICE, READ, TOPIC, "orders-")).isTrue();
        assertThat(allows(acls, ALICE, READ, TOPIC, "orders-eu")).isTrue();
        assertThat(allows(acls, ALICE, READ, TOPIC, "orders")).isFalse();
        assertThat(allows(acls, ALICE, READ, TOPIC, "my-orders-eu")).isFalse();
    }

    @Test
    void aLiteralAclNamedLikeAPrefixIsNoPrefix() {
        assertThat(allows(List.of(allow(ALICE, TOPIC, "orders-", LITERAL, READ)), ALICE, READ, TOPIC, "orders-eu"))
                .isFalse();
    }

    @Test
    void theLiteralWildcardCoversEveryNameButAPrefixedStarIsAPrefix() {
        assertThat(allows(List.of(allow(ALICE, TOPIC, "*", LITERAL, READ)), ALICE, READ, TOPIC, "anything")).isTrue();
        assertThat(allows(List.of(allow(ALICE, TOPIC, "*", PREFIXED, READ)), ALICE, READ, TOPIC, "anything"))
                .as("a prefixed '*' matches only names starting with '*'").isFalse();
        assertThat(allows(List.of(allow(ALICE, TOPIC, "*", PREFIXED, READ)), ALICE, READ, TOPIC, "*x")).isTrue();
    }

    @Test
    void theWildcardPrincipalCoversEveryPrincipal() {
        List<AclBinding> acls = List.of(allow(KafkaPrincipal.user("*"), TOPIC, "orders", LITERAL, READ));

        assertThat(allows(acls, ALICE, READ, TOPIC, "orders")).isTrue();
        assertThat(allows(acls, KafkaPrincipal.ANONYMOUS, READ, TOPIC, "orders")).isTrue();
        assertThat(allows(acls, new KafkaPrincipal("Group", "ops"), READ, TOPIC, "orders"))
                .as("User:* stands for every principal, of any type, as in Apache").isTrue();
    }

    @Test
    void anAclForOneHostCoversOnlyThatClientAddress() {
        AclRules rules = AclRules.of(List.of(
                new AclBinding(ALICE, "10.0.0.1", TOPIC, "orders", LITERAL, READ, ALLOW)));

        assertThat(rules.allows(ALICE, "10.0.0.1", READ, TOPIC, "orders")).isTrue();
        assertThat(rules.allows(ALICE, "10.0.0.2", READ, TOPIC, "orders")).isFalse();
    }

    @Test
    void aDenyFromOneHostDeniesOnlyThere() {
        AclRules rules = AclRules.of(List.of(allow(ALICE, TOPIC, "orders", LITERAL, READ),
                new AclBinding(ALICE, "10.0.0.9", TOPIC, "orders", LITERAL, READ, DENY)));

        assertThat(rules.allows(ALICE, "10.0.0.1", READ, TOPIC, "orders")).isTrue();
        assertThat(rules.allows(ALICE, "10.0.0.9", READ, TOPIC, "orders")).isFalse();
    }

    @Test
    void denyWinsOverAllowWhereverEachComesFrom() {
        AclBinding allowLiteral = allow(ALICE, TOPIC, "orders-eu", LITERAL, READ);
        for (AclBinding denial : List.of(deny(ALICE, TOPIC, "orders-eu", LITERAL, READ),
                deny(ALICE, TOPIC, "orders-", PREFIXED, READ), deny(ALICE, TOPIC, "*", LITERAL, READ),
                deny(KafkaPrincipal.user("*"), TOPIC, "orders-eu", LITERAL, READ),
                deny(ALICE, TOPIC, "o", PREFIXED, ALL))) {
            assertThat(allows(List.of(allowLiteral, denial), ALICE, READ, TOPIC, "orders-eu")).as("%s", denial).isFalse();
            assertThat(allows(List.of(denial, allowLiteral), ALICE, READ, TOPIC, "orders-eu")).as("order-free").isFalse();
        }
        assertThat(allows(List.of(allow(ALICE, TOPIC, "*", LITERAL, ALL), deny(ALICE, TOPIC, "orders-eu", LITERAL, READ)),
                ALICE, READ, TOPIC, "orders-eu")).isFalse();
    }

    @Test
    void aDenyOfAnotherOperationOrResourceDeniesNothing() {
        List<AclBinding> acls = List.of(allow(ALICE, TOPIC, "orders", LITERAL, READ),
                deny(ALICE, TOPIC, "orders", LITERAL, WRITE), deny(ALICE, TOPIC, "orders-", PREFIXED, READ),
                deny(BOB, TOPIC, "orders", LITERAL, READ), deny(ALICE, GROUP, "orders", LITERAL, READ));

        assertThat(allows(acls, ALICE, READ, TOPIC, "orders")).isTrue();
    }

    @Test
    void readWriteDeleteAndAlterImplyDescribe() {
        for (AclOperation implying : List.of(READ, WRITE, DELETE, ALTER, DESCRIBE, ALL)) {
            assertThat(allows(List.of(allow(ALICE, TOPIC, "t", LITERAL, implying)), ALICE, DESCRIBE, TOPIC, "t"))
                    .as("%s implies DESCRIBE", implying).isTrue();
        }
        for (AclOperation notImplying : List.of(CREATE, ALTER_CONFIGS, DESCRIBE_CONFIGS)) {
            assertThat(allows(List.of(allow(ALICE, TOPIC, "t", LITERAL, notImplying)), ALICE, DESCRIBE, TOPIC, "t"))
                    .as("%s does not imply DESCRIBE", notImplying).isFalse();
        }
    }

    @Test
    void alterConfigsImpliesDescribeConfigs() {
        assertThat(allows(List.of(allow(ALICE, TOPIC, "t", LITERAL, ALTER_CONFIGS)), ALICE, DESCRIBE_CONFIGS, TOPIC, "t"))
                .isTrue();
        assertThat(allows(List.of(allow(ALICE, TOPIC, "t", LITERAL, DESCRIBE_CONFIGS)), ALICE, ALTER_CONFIGS, TOPIC, "t"))
                .isFalse();
        assertThat(allows(List.of(allow(ALICE, TOPIC, "t", LITERAL, ALTER)), ALICE, DESCRIBE_CONFIGS, TOPIC, "t"))
                .isFalse();
    }

    @Test
    void aDenyImpliesNothing() {
        List<AclBinding> acls = List.of(allow(ALICE, TOPIC, "t", LITERAL, ALL), deny(ALICE, TOPIC, "t", LITERAL, READ));

        assertThat(allows(acls, ALICE, DESCRIBE, TOPIC, "t")).as("a denied READ leaves DESCRIBE allowed").isTrue();
        assertThat(allows(acls, ALICE, WRITE, TOPIC, "t")).isTrue();
        assertThat(allows(acls, ALICE, READ, TOPIC, "t")).isFalse();
    }

    @ParameterizedTest
    @EnumSource(AclOperation.class)
    void allAllowsAndDeniesEveryOperation(AclOperation operation) {
        assertThat(allows(List.of(allow(ALICE, CLUSTER, "kafka-cluster", LITERAL, ALL)), ALICE, operation, CLUSTER,
                "kafka-cluster")).isTrue();
        assertThat(allows(List.of(allow(ALICE, CLUSTER, "kafka-cluster", LITERAL, ALL),
                deny(ALICE, CLUSTER, "kafka-cluster", LITERAL, ALL)), ALICE, operation, CLUSTER, "kafka-cluster")).isFalse();
    }

    @Test
    void manyPrefixesOfDifferentLengthsAreAllConsulted() {
        List<AclBinding> acls = List.of(allow(ALICE, TOPIC, "a", PREFIXED, READ), allow(ALICE, TOPIC, "ab", PREFIXED, WRITE),
                allow(ALICE, TOPIC, "abcdef", PREFIXED, DELETE), deny(ALICE, TOPIC, "abc", PREFIXED, WRITE),
                allow(ALICE, TOPIC, "zz", PREFIXED, ALTER));

        assertThat(allows(acls, ALICE, READ, TOPIC, "abcd")).isTrue();
        assertThat(allows(acls, ALICE, WRITE, TOPIC, "abx")).isTrue();
        assertThat(allows(acls, ALICE, WRITE, TOPIC, "abcd")).isFalse();
        assertThat(allows(acls, ALICE, DELETE, TOPIC, "abcd")).as("the longer prefix does not match").isFalse();
        assertThat(allows(acls, ALICE, DELETE, TOPIC, "abcdefg")).isTrue();
        assertThat(allows(acls, ALICE, ALTER, TOPIC, "abcd")).isFalse();
    }

    @Test
    void anyResourceOfATypeIsAllowedByAnAllowNoDenyCovers() {
        KafkaPrincipal any = KafkaPrincipal.user("*");
        assertThat(AclRules.EMPTY.allowsAny(ALICE, HOST, WRITE, TOPIC)).isFalse();
        assertThat(AclRules.of(List.of(allow(ALICE, TOPIC, "t", LITERAL, WRITE))).allowsAny(ALICE, HOST, WRITE, TOPIC))
                .isTrue();
        assertThat(AclRules.of(List.of(allow(any, TOPIC, "t-", PREFIXED, ALL))).allowsAny(ALICE, HOST, WRITE, TOPIC))
                .isTrue();
        assertThat(AclRules.of(List.of(allow(ALICE, TOPIC, "t", LITERAL, READ))).allowsAny(ALICE, HOST, WRITE, TOPIC))
                .as("only the operation itself or ALL counts").isFalse();
        assertThat(AclRules.of(List.of(allow(ALICE, GROUP, "t", LITERAL, WRITE))).allowsAny(ALICE, HOST, WRITE, TOPIC))
                .isFalse();
        assertThat(AclRules.of(List.of(allow(BOB, TOPIC, "t", LITERAL, WRITE))).allowsAny(ALICE, HOST, WRITE, TOPIC))
                .isFalse();
    }

    @Test
    void anyResourceIsDeniedWhenTheDeniesCoverEveryAllow() {
        AclBinding allowT = allow(ALICE, TOPIC, "team-a", LITERAL, WRITE);
        AclBinding allowPrefix = allow(ALICE, TOPIC, "team-", PREFIXED, WRITE);

        assertThat(rules(allowT, deny(ALICE, TOPIC, "team-a", LITERAL, WRITE)).allowsAny(ALICE, HOST, WRITE, TOPIC)).isFalse();
        assertThat(rules(allowT, deny(ALICE, TOPIC, "team", PREFIXED, WRITE)).allowsAny(ALICE, HOST, WRITE, TOPIC)).isFalse();
        assertThat(rules(allowT, allow(ALICE, TOPIC, "*", LITERAL, WRITE), deny(ALICE, TOPIC, "*", LITERAL, ALL))
                .allowsAny(ALICE, HOST, WRITE, TOPIC)).as("a wildcard deny denies all").isFalse();
        assertThat(rules(allowPrefix, deny(ALICE, TOPIC, "team-", LITERAL, WRITE)).allowsAny(ALICE, HOST, WRITE, TOPIC))
                .as("a literal deny does not cover a prefix allow").isTrue();
        assertThat(rules(allowPrefix, deny(ALICE, TOPIC, "team-a", PREFIXED, WRITE)).allowsAny(ALICE, HOST, WRITE, TOPIC))
                .as("a longer prefix deny leaves team-b").isTrue();
        assertThat(rules(allowT, deny(BOB, TOPIC, "*", LITERAL, WRITE)).allowsAny(ALICE, HOST, WRITE, TOPIC)).isTrue();
    }

    @Test
    void describedAclsFollowTheFilter() {
        AclBinding literal = allow(ALICE, TOPIC, "orders", LITERAL, READ);
        AclBinding prefixed = allow(BOB, TOPIC, "ord", PREFIXED, WRITE);
        AclBinding group = allow(ALICE, GROUP, "g", LITERAL, READ);
        AclRules rules = rules(literal, prefixed, group);

        assertThat(rules.matching(AclFilter.ANY)).containsExactly(literal, prefixed, group);
        assertThat(rules.matching(new AclFilter(TOPIC, "orders", AclFilter.PatternFilter.MATCH, null, null, null, null)))
                .containsExactly(literal, prefixed);
        assertThat(rules.matching(new AclFilter(TOPIC, "orders", AclFilter.PatternFilter.ANY, null, null, null, null)))
                .containsExactly(literal);
        assertThat(rules.matching(new AclFilter(null, null, AclFilter.PatternFilter.ANY, ALICE, null, null, null)))
                .containsExactly(literal, group);
    }

    @Test
    void supportedOperationsAreApachesPerResourceType() {
        assertThat(TOPIC.supportedOperations()).containsExactlyInAnyOrder(READ, WRITE, CREATE, DESCRIBE, DELETE, ALTER,
                DESCRIBE_CONFIGS, ALTER_CONFIGS);
        assertThat(GROUP.supportedOperations()).containsExactlyInAnyOrder(READ, DESCRIBE, DELETE);
        Set<AclOperation> cluster = EnumSet.of(CREATE, AclOperation.CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS,
                IDEMPOTENT_WRITE, ALTER, DESCRIBE);
        assertThat(CLUSTER.supportedOperations()).isEqualTo(cluster);
    }

    private static AclRules rules(AclBinding... acls) {
        return AclRules.of(List.of(acls));
    }
}
