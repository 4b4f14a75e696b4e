package io.kaas.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The file I/O rule flags direct disk access in the application, and spares the Filesystem port and path values. */
class PortRulesCatchViolationsTest {

    @Test
    void directFileIoIsFlaggedWhetherCalledOrReferenced() {
        var rule = KaasRules.applicationDoesFileIoOnlyThroughTheFilesystemPort(Fixtures.ROOT);
        assertThat(Fixtures.flaggedBy(rule)).containsExactly("application.log.FileIo", "application.log.FilesByReference");
        assertThat(Fixtures.report(rule)).contains(
                "<java.nio.file.Files.writeString(",
                "<java.nio.channels.FileChannel.open(",
                "calls constructor <java.io.File.<init>(java.lang.String, java.lang.String)>",
                "<java.io.FileOutputStream.<init>(java.io.File)>",
                "<java.io.FileInputStream.<init>(java.io.File)>",
                "<java.io.RandomAccessFile.<init>(java.io.File, java.lang.String)>",
                "<" + Fixtures.fixture("application.log.FilesByReference") + ".sizes()> references method <java.nio.file.Files.size(java.nio.file.Path)>");
    }

    @Test
    void theFilesystemPortAndPathValuesPass() {
        var flagged = Fixtures.flaggedBy(KaasRules.applicationDoesFileIoOnlyThroughTheFilesystemPort(Fixtures.ROOT));
        assertThat(flagged).doesNotContain("application.port.out.Filesystem", "application.log.RecordsSlice");
    }
}
