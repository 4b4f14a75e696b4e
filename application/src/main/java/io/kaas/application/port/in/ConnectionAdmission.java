package io.kaas.application.port.in;

/**
 * Whether the listeners may serve a connection they accepted, by Apache Kafka 3.7's connection limits
 * ({@code max.connections}, {@code max.connections.per.ip} and its overrides, {@code max.connection.creation.rate},
 * each listener's own) and KIP-612's per-IP {@code connection_creation_rate}. Every call answers at once; a
 * connection that must wait is told so, and the listener asks again later. Safe from any thread; cheap enough for
 * the accepting event loop.
 */
public interface ConnectionAdmission {
    /** No limits: every connection is served at once. */
    ConnectionAdmission UNLIMITED = new ConnectionAdmission() {
        @Override
        public Attempt attempt(String listener, String ip) {
            return new Attempt() {
                @Override
                public Decision proceed() {
                    return Decision.ACCEPT;
                }

                @Override
                public void closed() {
                }
            };
        }

        @Override
        public void whenSlotsMayHaveFreed(Runnable watcher) {
        }
    };

    /** What to do with an accepted connection now. */
    enum Verdict {
        /** Serve it: it is counted until {@link Attempt#closed()}. */
        ACCEPT,
        /** The broker's or the listener's creation rate is exceeded: hold it unread and stop accepting for
         * {@link Decision#ms()}, then {@link Attempt#proceed() proceed} again. */
        DELAY,
        /** No free slot ({@code max.connections}): hold it unread and stop accepting until slots may have freed. */
        WAIT,
        /** Its IP's creation rate is exceeded: never serve it; close it after {@link Decision#ms()}. */
        THROTTLE,
        /** Its IP holds its maximum connections already: close it at once. */
        REFUSE
    }

    /**
     * @param ms    for DELAY and THROTTLE, how long, in milliseconds
     * @param limit the config that decided, as Apache names it (for logs and metrics); null for ACCEPT
     * @param bound that config's value
     */
    record Decision(Verdict verdict, long ms, String limit, int bound) {
        public static final Decision ACCEPT = new Decision(Verdict.ACCEPT, 0, null, 0);
    }

    /** One accepted connection on its way to being served. */
    interface Attempt {
        /**
         * Where the connection stands now. Each call after a DELAY or WAIT goes on from there: the creation rates
         * count a connection once.
         */
        Decision proceed();

        /** The connection, once ACCEPTED, is closed: its slot is free. */
        void closed();
    }

    /** Starts admitting a connection accepted on {@code listener} from {@code ip} (its address literal). */
    Attempt attempt(String listener, String ip);

    /**
     * Calls {@code watcher} whenever a waiting connection might now find a slot: one closed, or the limits changed.
     * It runs on the thread that freed the slot and must only hand the retry over to the listener's own thread.
     */
    void whenSlotsMayHaveFreed(Runnable watcher);
}
