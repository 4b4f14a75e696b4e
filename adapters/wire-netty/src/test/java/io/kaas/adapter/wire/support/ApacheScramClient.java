package io.kaas.adapter.wire.support;

import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.apache.kafka.common.security.scram.ScramExtensionsCallback;
import org.apache.kafka.common.security.scram.internals.ScramSaslClient;

/** Apache's own SCRAM client (kafka-clients' ScramSaslClient), to drive the broker's exchange token by token. */
public final class ApacheScramClient {
    private final SaslClient client;

    public ApacheScramClient(String mechanism, String user, String password) {
        try {
            client = new ScramSaslClient.ScramSaslClientFactory().createSaslClient(new String[] {mechanism}, null,
                    "kafka", "localhost", Map.of(), callbacks -> {
                        for (Callback callback : callbacks) {
                            if (callback instanceof NameCallback name) {
                                name.setName(user);
                            } else if (callback instanceof PasswordCallback pw) {
                                pw.setPassword(password.toCharArray());
                            } else if (!(callback instanceof ScramExtensionsCallback)) {
                                throw new UnsupportedCallbackException(callback);
                            }
                        }
                    });
        } catch (SaslException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The client-first message. */
    public byte[] first() {
        return evaluate(new byte[0]);
    }

    /** The client's answer to a server message (client-final to server-first; nothing to server-final). */
    public byte[] evaluate(byte[] challenge) {
        try {
            return client.evaluateChallenge(challenge);
        } catch (SaslException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean isComplete() {
        return client.isComplete();
    }
}
