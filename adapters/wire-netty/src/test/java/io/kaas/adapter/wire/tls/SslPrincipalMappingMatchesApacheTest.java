package io.kaas.adapter.wire.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.security.SslPrincipalMapping;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.junit.jupiter.api.Test;

/**
 * The domain's {@link SslPrincipalMapping} against Apache's own {@link SslPrincipalMapper} (kafka-clients
 * 3.7.2): the same rule lists accepted, the same names for the same DNs, the same DNs refused. One
 * deliberate difference: a replacement that can never be applied (a group reference when the pattern has
 * no groups, an unknown named group, a malformed {@code $}) fails kaas at parse; Apache accepts it and
 * fails each connection the rule matches.
 */
class SslPrincipalMappingMatchesApacheTest {
    private static final List<String> DNS = List.of(
            "CN=Duke,OU=ServiceUsers,O=Org,C=US",
            "CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US",
            "cn=duke,ou=sme,dc=mycp,dc=com",
            "cN=duke,OU=JavaSoft,O=Sun Microsystems",
            "OU=JavaSoft,O=Sun Microsystems,C=US",
            "CN=Tkac\\, Adam,OU=ITZ,DC=geodis,DC=cz",
            "CN=team/svc,O=corp",
            "CN=alice",
            "CN=x",
            "CN=my-user.kafka,O=kaas",
            "");

    private static final List<String> RULE_LISTS = List.of(
            "DEFAULT",
            "",
            " , ",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT",
            "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/",
            "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L",
            "RULE:^cn=(.?),ou=(.?),dc=(.?),dc=(.?)$/$1@$2/U",
            "RULE:^CN=([^,ADEFLTU,]+)(,.*|$)/$1/",
            "RULE:^CN=([^,DEFAULT,]+)(,.*|$)/$1/",
            "  RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L   ,   DEFAULT  ",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L,RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,"
                    + "RULE:^cn=(.*?),ou=(.*?),dc=(.*?),dc=(.*?)$/$1@$2/U,RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U,DEFAULT",
            "RULE:^CN=((\\\\, *|\\w)+)(,.*|$)/$1/,DEFAULT",
            "RULE:^CN=(.*?)\\/(.*?),O=.*$/$1\\/$2/",
            "RULE:^CN=([^,]+).*$/$1/,DEFAULT",
            "RULE:^CN=(.*?),O=(.*)$/$1@$3/",
            "RULE:^CN=(.*?),O=(.*)$/$12/",
            "RULE:(.*)/x$1/",
            "RULE:^(.*)$/x$1/",
            "RULE:^CN=(?<cn>[^,]*).*$/${cn}/",
            "RULE:^CN=[^,]*$/user-$0/",
            ",RULE:^CN=x$/y/,, ,DEFAULT,",
            "default",
            "DEFAUL",
            "DEFAULT/L",
            "DEFAULTX",
            "RULE:CN=(.*?),OU=ServiceUsers.*/$1",
            "rule:^CN=(.*?),OU=ServiceUsers.*$/$1/",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/L",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/LU",
            "RULE:^CN=(.*?)$/$1/ L",
            "RULE:^CN=(.*$/$1/",
            "CN=alice");

    @Test
    void acceptsAndMapsAsApacheDoes() {
        for (String rules : RULE_LISTS) {
            assertSameAsApache(rules);
        }
    }

    /** Rule lists assembled at random from the syntax's pieces: the parser's edges, seeded. */
    @Test
    void randomRuleListsParseAndMapAsApache() {
        List<String> pieces = List.of("RULE:", "DEFAULT", ",", ", ", " ", "/", "\\/", "^CN=(.*?)", "([^,]+)", ".*",
                "$", "$1", "$2", "L", "U", "x", "CN=alice", "\\", "(,.*|$)", "=");
        Random random = new Random(371);
        int accepted = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder rules = new StringBuilder();
            int length = 1 + random.nextInt(9);
            for (int p = 0; p < length; p++) {
                rules.append(pieces.get(random.nextInt(pieces.size())));
            }
            if (assertSameAsApache(rules.toString())) {
                accepted++;
            }
        }
        assertThat(accepted).as("rule lists both accepted, then mapped alike").isGreaterThan(200);
    }

    /** @return whether both accepted the list */
    private static boolean assertSameAsApache(String rules) {
        SslPrincipalMapper apache;
        try {
            apache = SslPrincipalMapper.fromRules(rules);
        } catch (IllegalArgumentException apacheRefused) {
            assertRefused(rules);
            return false;
        }
        SslPrincipalMapping kaas;
        try {
            kaas = SslPrincipalMapping.parse(rules);
        } catch (IllegalArgumentException kaasRefused) {
            assertThat(kaasRefused.getMessage()).as("kaas refused what Apache accepts: %s", rules)
                    .contains("cannot be applied");
            return false;
        }
        for (String dn : DNS) {
            assertThat(kaas.map(dn)).as("rules %s, DN %s", rules, dn).isEqualTo(apacheName(apache, dn));
        }
        return true;
    }

    private static void assertRefused(String rules) {
        List<String> failures = new ArrayList<>();
        try {
            SslPrincipalMapping.parse(rules);
            failures.add("kaas accepted what Apache refuses: '" + rules + "'");
        } catch (IllegalArgumentException expected) {
            assertThat(expected.getMessage()).startsWith("invalid ssl.principal.mapping.rules entry");
        }
        assertThat(failures).isEmpty();
    }

    private static Optional<String> apacheName(SslPrincipalMapper apache, String dn) {
        try {
            return Optional.of(apache.getName(dn));
        } catch (IOException noMatchingRule) {
            return Optional.empty();
        }
    }
}
