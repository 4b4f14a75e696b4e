package io.kaas.domain.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * KIP-371 rules as Apache's documentation and its {@code SslPrincipalMapperTest} describe them; the
 * wire adapter's {@code SslPrincipalMappingMatchesApacheTest} runs the same inputs through Apache's own
 * mapper.
 */
class SslPrincipalMappingTest {
    /** The example of Apache's security documentation, "Customizing SSL User Name". */
    private static final SslPrincipalMapping DOCUMENTED = SslPrincipalMapping.parse(
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,"
                    + "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,"
                    + "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,"
                    + "DEFAULT");

    @Test
    void documentedExampleMapsServiceUsersAndAdmins() {
        assertThat(DOCUMENTED.map("CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown"))
                .hasValue("serviceuser");
        assertThat(DOCUMENTED.map("CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown"))
                .hasValue("adminuser@admin");
    }

    @Test
    void upperCaseFlagAsInTheDocumentation() {
        SslPrincipalMapping upper = SslPrincipalMapping.parse(
                "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/U");
        assertThat(upper.map("CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown"))
                .hasValue("ADMINUSER@ADMIN");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "CN=Duke,OU=ServiceUsers,O=Org,C=US | duke",
            "CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US | duke@sme",
            "cn=duke,ou=sme,dc=mycp,dc=com | DUKE@SME",
            "cN=duke,OU=JavaSoft,O=Sun Microsystems | DUKE",
            "OU=JavaSoft,O=Sun Microsystems,C=US | OU=JavaSoft,O=Sun Microsystems,C=US"})
    void firstMatchingRuleWinsAndDefaultGivesTheWholeDn(String dn, String expected) {
        SslPrincipalMapping rules = SslPrincipalMapping.parse(String.join(", ",
                "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L",
                "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L",
                "RULE:^cn=(.*?),ou=(.*?),dc=(.*?),dc=(.*?)$/$1@$2/U",
                "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U",
                "DEFAULT"));
        assertThat(rules.map(dn)).hasValue(expected);
    }

    @Test
    void defaultIsTheFullDnAsInApacheNotTheCn() {
        assertThat(SslPrincipalMapping.DEFAULT.map("CN=alice,OU=Eng,O=Example,C=DE"))
                .hasValue("CN=alice,OU=Eng,O=Example,C=DE");
        assertThat(SslPrincipalMapping.DEFAULT.principal("CN=alice,O=Example"))
                .hasValue(KafkaPrincipal.user("CN=alice,O=Example"));
    }

    @Test
    void theCnRuleTheDocsRecommendForKafkaUserNames() {
        SslPrincipalMapping cn = SslPrincipalMapping.parse("RULE:^CN=([^,]+).*$/$1/,DEFAULT");
        assertThat(cn.principal("CN=my-user,O=kaas")).hasValue(KafkaPrincipal.user("my-user"));
        assertThat(cn.principal("O=kaas,OU=no-cn")).hasValue(KafkaPrincipal.user("O=kaas,OU=no-cn"));
    }

    @Test
    void theKafkaUserNameRuleOfTheTlsDocs() {
        // docs/security-tls.md: principal = KafkaUser name for a CN-first DN, the full DN otherwise
        SslPrincipalMapping rules = SslPrincipalMapping.parse("RULE:^CN=([^,]+)(,.*)?$/$1/,DEFAULT");
        assertThat(rules.map("CN=my-user")).hasValue("my-user");
        assertThat(rules.map("CN=my-user,O=Example Corp,C=DE")).hasValue("my-user");
        assertThat(rules.map("O=Example Corp,CN=late")).hasValue("O=Example Corp,CN=late");
    }

    @Test
    void aDnNoRuleAppliesToMapsToNothing() {
        SslPrincipalMapping onlyServiceUsers = SslPrincipalMapping.parse("RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/");
        assertThat(onlyServiceUsers.map("CN=bob,OU=Humans")).isEmpty();
        assertThat(onlyServiceUsers.principal("CN=bob,OU=Humans")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", ",", " , ,"})
    void aBlankListHasNoRulesAndMapsNothing(String blank) {
        assertThat(SslPrincipalMapping.parse(blank).map("CN=alice")).isEmpty();
    }

    @Test
    void emptyEntriesBetweenCommasAreIgnored() {
        SslPrincipalMapping rules = SslPrincipalMapping.parse(",RULE:^CN=x$/y/,, ,DEFAULT,");
        assertThat(rules.map("CN=x")).hasValue("y");
        assertThat(rules.map("CN=z")).hasValue("CN=z");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "DEFAULT",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT",
            "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/",
            "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L",
            "RULE:^cn=(.?),ou=(.?),dc=(.?),dc=(.?)$/$1@$2/U",
            "RULE:^CN=([^,ADEFLTU,]+)(,.*|$)/$1/",
            "RULE:^CN=([^,DEFAULT,]+)(,.*|$)/$1/",
            "  RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L   ,   DEFAULT  "})
    void acceptsApachesValidRules(String rules) {
        assertThat(SslPrincipalMapping.parse(rules).toString()).isEqualTo(rules);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "default",
            "DEFAUL",
            "DEFAULT/L",
            "DEFAULT/U",
            "DEFAULTX",
            "DEFAULT x",
            "RULE:CN=(.*?),OU=ServiceUsers.*/$1",
            "rule:^CN=(.*?),OU=ServiceUsers.*$/$1/",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/L",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/U",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/LU",
            "RULE:^CN=(.*?)$/$1/ L",
            "RULE:^CN=(.*?)$/$1/x,DEFAULT",
            "DEFAULT,RULE:^CN=(.*?)$",
            "CN=alice"})
    void refusesApachesInvalidRulesNamingTheEntry(String rules) {
        assertThatThrownBy(() -> SslPrincipalMapping.parse(rules))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid ssl.principal.mapping.rules entry");
    }

    @Test
    void aBadRegexFailsAtParseWithTheRegexError() {
        assertThatThrownBy(() -> SslPrincipalMapping.parse("RULE:^CN=(.*$/$1/"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RULE:^CN=(.*$/$1/")
                .hasMessageContaining("not a valid regular expression");
    }

    @Test
    void aReplacementThatCanNeverApplyFailsAtParse() {
        // No group at all: Apache would throw on every certificate the rule matches.
        assertThatThrownBy(() -> SslPrincipalMapping.parse("RULE:^CN=alice$/$1/"))
                .hasMessageContaining("cannot be applied");
        assertThatThrownBy(() -> SslPrincipalMapping.parse("RULE:^CN=(?<cn>.*)$/${user}/"))
                .hasMessageContaining("cannot be applied");
        assertThatThrownBy(() -> SslPrincipalMapping.parse("RULE:^CN=(.*)$/$x/"))
                .hasMessageContaining("cannot be applied");
    }

    @Test
    void namedGroupsAndTheWholeMatchWork() {
        assertThat(SslPrincipalMapping.parse("RULE:^CN=(?<cn>[^,]*).*$/${cn}/").map("CN=carol,O=x"))
                .hasValue("carol");
        assertThat(SslPrincipalMapping.parse("RULE:^CN=[^,]*$/user-$0/").map("CN=dave")).hasValue("user-CN=dave");
    }

    @Test
    void aReferencePastTheLastGroupIsLiteralText() {
        SslPrincipalMapping rule = SslPrincipalMapping.parse("RULE:^CN=(.*?),O=(.*)$/$1@$3/");
        assertThat(rule.map("CN=erin,O=corp")).hasValue("erin@$3");
        // $12 with two groups is group 1 then "2", as Java reads it
        assertThat(SslPrincipalMapping.parse("RULE:^CN=(.*?),O=(.*)$/$12/").map("CN=erin,O=corp")).hasValue("erin2");
    }

    @Test
    void escapedSlashesBelongToThePatternAndReplacement() {
        SslPrincipalMapping rule = SslPrincipalMapping.parse("RULE:^CN=(.*?)\\/(.*?),O=.*$/$1\\/$2/");
        assertThat(rule.map("CN=team/svc,O=corp")).hasValue("team/svc");
    }

    @Test
    void escapedCommasInsideTheDnStayInTheName() {
        SslPrincipalMapping rule = SslPrincipalMapping.parse("RULE:^CN=((\\\\, *|\\w)+)(,.*|$)/$1/,DEFAULT");
        assertThat(rule.map("CN=Tkac\\, Adam,OU=ITZ,DC=geodis,DC=cz")).hasValue("Tkac\\, Adam");
    }

    @Test
    void everyMatchIsReplacedAsApacheDoes() {
        // Apache replaces every match of the pattern, so an unanchored (.*) also matches the empty tail.
        assertThat(SslPrincipalMapping.parse("RULE:(.*)/x$1/").map("CN=f")).hasValue("xCN=fx");
        assertThat(SslPrincipalMapping.parse("RULE:^(.*)$/x$1/").map("CN=f")).hasValue("xCN=f");
    }
}
