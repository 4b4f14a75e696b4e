package io.kaas.bootstrap;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * One broker for all tests of a class (starting one per test would dominate the run time); tests
 * keep apart by naming their topics and groups after themselves ({@link #unique}).
 */
abstract class GroupBrokerTestBase {
    @TempDir
    static Path data;
    static GroupBrokerFixture broker;

    @BeforeAll
    static void startBroker() {
        broker = new GroupBrokerFixture(data);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** A topic or group name no other test uses: the test's name and {@code what}. */
    static String unique(TestInfo test, String what) {
        return test.getTestMethod().orElseThrow().getName() + "-" + what;
    }
}
