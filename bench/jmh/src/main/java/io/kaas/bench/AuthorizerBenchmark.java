package io.kaas.bench;

import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.AclRules;
import io.kaas.domain.security.KafkaPrincipal;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One ACL check, as every Produce and Fetch makes per topic under {@code KAAS_AUTHORIZATION_TYPE=simple}:
 * among {@code acls} ACLs of up to 1000 users, each on its own team's topics (half literal, half prefixed, one in
 * ten a denial), the topic is allowed through a prefixed ACL.
 */
public class AuthorizerBenchmark extends BenchmarkDefaults {
    private static final KafkaPrincipal USER = KafkaPrincipal.user("user-7");

    @Param({"10", "10000"})
    int acls;

    private AclRules rules;

    @Setup
    public void setUp() {
        List<AclBinding> bindings = new ArrayList<>();
        for (int i = 0; i < acls; i++) {
            KafkaPrincipal who = KafkaPrincipal.user("user-" + (i % 1000));
            AclPatternType pattern = i % 2 == 0 ? AclPatternType.LITERAL : AclPatternType.PREFIXED;
            String name = "team-" + i + (pattern == AclPatternType.PREFIXED ? "-" : "-orders");
            bindings.add(new AclBinding(who, "*", AclResourceType.TOPIC, name, pattern,
                    i % 10 == 3 ? AclOperation.READ : AclOperation.WRITE, i % 10 == 3 ? AclPermission.DENY : AclPermission.ALLOW));
        }
        rules = AclRules.of(bindings);
        if (!rules.allows(USER, "10.0.0.1", AclOperation.WRITE, AclResourceType.TOPIC, "team-7-payments")) {
            throw new IllegalStateException("the benchmark's ACLs must allow what it measures");
        }
    }

    @Benchmark
    public boolean allowedByPrefix() {
        return rules.allows(USER, "10.0.0.1", AclOperation.WRITE, AclResourceType.TOPIC, "team-7-payments");
    }
}
