package io.kaas.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The wire rule flags any kaas type outside port.in, domain and the wire itself, referenced or not. */
class WireRulesCatchViolationsTest {

    @Test
    void theWireReachingPastTheUseCasesIsFlagged() {
        var rule = KaasRules.wireDependsOnlyOnPortInAndDomain(Fixtures.ROOT);
        assertThat(Fixtures.flaggedBy(rule)).containsExactly("adapter.wire.handler.FilesystemUser",
                "adapter.wire.handler.OtherAdapter", "adapter.wire.handler.ServiceByReference",
                "adapter.wire.handler.SliceHandler");
        assertThat(Fixtures.report(rule)).contains(
                "references constructor <" + Fixtures.fixture("application.service.FetchService") + ".<init>()>",
                "<" + Fixtures.fixture("application.log.RecordsSlice") + ">",
                "references method <" + Fixtures.fixture("adapter.fs.NfsFilesystem") + ".fsyncs()>");
    }

    @Test
    void useCasesDomainTheWireItselfAndTheRecordSearchPortPass() {
        assertThat(Fixtures.flaggedBy(KaasRules.wireDependsOnlyOnPortInAndDomain(Fixtures.ROOT)))
                .doesNotContain("adapter.wire.handler.FetchHandler", "adapter.wire.codec.Frames",
                        "adapter.wire.codec.RecordSearch");
    }

    @Test
    void theConstantCoversTheRealWire() {
        assertThat(WireRulesTest.WIRE_DEPENDS_ONLY_ON_PORT_IN_AND_DOMAIN.getDescription())
                .contains("'io.kaas.adapter.wire..'", "'io.kaas.application.port.in..'", "'io.kaas.domain..'");
    }
}
