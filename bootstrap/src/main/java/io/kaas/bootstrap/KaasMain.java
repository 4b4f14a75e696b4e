package io.kaas.bootstrap;

import java.net.BindException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar kaas.jar}: a standalone broker configured from the environment; stops on
 * SIGTERM/Ctrl-C. With arguments it runs a command and exits instead: {@code user add} (see
 * {@link UserCommand}).
 */
public final class KaasMain {
    private static final Logger LOG = LoggerFactory.getLogger(KaasMain.class);

    private KaasMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0) {
            System.exit(UserCommand.run(List.of(args), System.getenv(), LOG::info, LOG::error));
            return;
        }
        BrokerConfig config;
        try {
            config = BrokerConfig.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException e) {
            LOG.error("{}", e.getMessage());
            System.exit(2);
            return;
        }
        KaasBroker broker;
        try {
            broker = KaasBroker.start(config);
        } catch (Exception e) {
            // the expected refusals (port in use, data directory locked) read best without a stack trace
            boolean expected = e instanceof BindException || e instanceof IllegalStateException;
            LOG.error("kaas could not start: {}", e.getMessage(), expected ? null : e);
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping");
            broker.close();
            LOG.info("stopped");
            stopped.countDown();
        }, "kaas-shutdown"));
        LOG.info("kaas broker {} listening on {}:{} (advertised as {}), storage {}{}", config.brokerId(),
                config.bindHost(), broker.port(), broker.bootstrapServers(), config.storage().name().toLowerCase(),
                config.storage() == BrokerConfig.Storage.DISK ? " in " + config.dataDir().toAbsolutePath() : "");
        for (ListenerConfig listener : config.listeners()) {
            LOG.info("listener {} on port {}: {}", listener.name(), broker.port(listener.name()),
                    listener.securityProtocol() + (listener.saslMechanisms().isEmpty() ? "" : " " + listener.saslMechanisms())
                            + (listener.authentication() == ListenerConfig.Authentication.TLS ? ", client certificates" : ""));
        }
        stopped.await();
    }
}
