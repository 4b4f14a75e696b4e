package io.kaas.operator.model.user;

import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.SaslException;
import org.apache.kafka.common.security.scram.ScramCredentialCallback;
import org.apache.kafka.common.security.scram.ScramExtensionsCallback;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramSaslClient;
import org.apache.kafka.common.security.scram.internals.ScramSaslServer;

/**
 * Apache Kafka's own SCRAM implementation (kafka-clients, test scope), to prove a stored credential is what Kafka
 * derives and accepts: a full RFC 5802 exchange between Kafka's SCRAM client, given the password, and Kafka's SCRAM
 * server, given the stored credential.
 */
public final class KafkaScram {
    private KafkaScram() {
    }

    /** Whether Kafka's client, logging in as {@code user} with {@code password}, authenticates against {@code stored}. */
    public static boolean authenticates(ScramMechanism mechanism, String user, String password, ScramCredential stored)
            throws NoSuchAlgorithmException {
        var kafkaMechanism = kafka(mechanism);
        ScramSaslClient client = new ScramSaslClient(kafkaMechanism, callbacks -> {
            for (Callback callback : callbacks) {
                if (callback instanceof NameCallback name) {
                    name.setName(user);
                } else if (callback instanceof PasswordCallback secret) {
                    secret.setPassword(password.toCharArray());
                } else if (!(callback instanceof ScramExtensionsCallback)) {
                    throw new UnsupportedCallbackException(callback);
                }
            }
        });
        CallbackHandler credentials = callbacks -> {
            String name = null;
            for (Callback callback : callbacks) {
                if (callback instanceof NameCallback nameCallback) {
                    name = nameCallback.getDefaultName();
                } else if (callback instanceof ScramCredentialCallback credential) {
                    credential.scramCredential(user.equals(name) ? kafka(stored) : null);
                } else {
                    throw new UnsupportedCallbackException(callback);
                }
            }
        };
        ScramSaslServer server = new ScramSaslServer(kafkaMechanism, Map.of(), credentials);
        try {
            byte[] clientFirst = client.evaluateChallenge(new byte[0]);
            byte[] serverFirst = server.evaluateResponse(clientFirst);
            byte[] clientFinal = client.evaluateChallenge(serverFirst);
            byte[] serverFinal = server.evaluateResponse(clientFinal);
            client.evaluateChallenge(serverFinal); // the client verifies the server's signature too
            return server.isComplete() && client.isComplete();
        } catch (SaslException | RuntimeException refused) {
            return false;
        }
    }

    /** The credential Kafka's ScramFormatter derives from {@code password} with {@code stored}'s salt and iterations. */
    public static org.apache.kafka.common.security.scram.ScramCredential derive(ScramMechanism mechanism,
                                                                                 String password, ScramCredential stored)
            throws GeneralSecurityException {
        ScramFormatter formatter = new ScramFormatter(kafka(mechanism));
        byte[] salted = formatter.saltedPassword(password, stored.salt(), stored.iterations());
        return formatter.generateCredential(stored.salt(), salted, stored.iterations());
    }

    private static org.apache.kafka.common.security.scram.internals.ScramMechanism kafka(ScramMechanism mechanism) {
        return org.apache.kafka.common.security.scram.internals.ScramMechanism.forMechanismName(
                mechanism.mechanismName());
    }

    private static org.apache.kafka.common.security.scram.ScramCredential kafka(ScramCredential credential) {
        return new org.apache.kafka.common.security.scram.ScramCredential(credential.salt(), credential.storedKey(),
                credential.serverKey(), credential.iterations());
    }
}
