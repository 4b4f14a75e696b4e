package io.kaas.bootstrap.testing;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Runs an {@link EmbeddedKaas} for a test class or for each test, over a fresh temporary data
 * directory on an ephemeral loopback port:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();       // one broker per class
 *
 * @RegisterExtension
 * final KaasBrokerExtension kaas = KaasBrokerExtension.create()               // one broker per test
 *         .withEnv("KAAS_STORAGE", "memory");
 *
 * @RegisterExtension
 * static final KaasBrokerExtension GROUPS = KaasBrokerExtension.create()      // consumer groups settle fast
 *         .withEnv(EmbeddedKaas.FAST_GROUPS);
 * }</pre>
 *
 * Clients made through the fixture during a test are closed after that test; the broker is
 * stopped and its data directory deleted after the class (static field) or the test (instance
 * field), and then any Netty buffer leak reported so far fails it ({@link NettyLeakWatch}). Test
 * methods may also take an {@link EmbeddedKaas} parameter.
 */
public final class KaasBrokerExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback, ParameterResolver {
    private final Map<String, String> env = new LinkedHashMap<>();
    private EmbeddedKaas kaas;
    private boolean perClass;

    private KaasBrokerExtension() {
    }

    public static KaasBrokerExtension create() {
        return new KaasBrokerExtension();
    }

    /** Sets a {@code KAAS_*} variable for the broker; call before the broker starts. */
    public KaasBrokerExtension withEnv(String name, String value) {
        return withEnv(Map.of(name, value));
    }

    /** Sets {@code KAAS_*} variables for the broker, such as {@link EmbeddedKaas#FAST_GROUPS}. */
    public KaasBrokerExtension withEnv(Map<String, String> variables) {
        if (kaas != null) {
            throw new IllegalStateException("the broker is already running");
        }
        env.putAll(variables);
        return this;
    }

    /** The running broker and its clients. */
    public EmbeddedKaas kaas() {
        if (kaas == null) {
            throw new IllegalStateException("the broker runs only inside a test (register with @RegisterExtension)");
        }
        return kaas;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
        kaas = EmbeddedKaas.inTempDir(env); // assigned before starting, so afterAll cleans up a failed start
        kaas.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (kaas == null) {
            kaas = EmbeddedKaas.inTempDir(env);
            kaas.start();
        } else if (!kaas.isRunning()) {
            kaas.start(); // a previous test stopped it
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perClass) {
            kaas.closeClients();
        } else {
            closeBroker();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeBroker();
    }

    private void closeBroker() {
        if (kaas != null) {
            try {
                kaas.close();
            } finally {
                kaas = null;
            }
            NettyLeakWatch.assertNoLeaks();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        return parameter.getParameter().getType() == EmbeddedKaas.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        return kaas();
    }

    // Shortcuts to the running fixture.

    public String bootstrapServers() {
        return kaas().bootstrapServers();
    }

    public int port() {
        return kaas().port();
    }
}
