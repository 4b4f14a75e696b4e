package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.UserScramCredentialsUseCase;
import io.kaas.application.port.in.UserScramCredentialsUseCase.Deletion;
import io.kaas.application.port.in.UserScramCredentialsUseCase.Upsertion;
import io.kaas.domain.security.AclOperation;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterUserScramCredentialsRequest;
import org.apache.kafka.common.requests.AlterUserScramCredentialsResponse;

/**
 * AlterUserScramCredentials (key 51, KIP-554; {@code kafka-configs --alter --add-config
 * 'SCRAM-SHA-512=[password=..]' --entity-type users}): deletions and upsertions, the latter carrying
 * salt, iterations and SaltedPassword derived by the client. One result per user named. Blocking: it
 * writes the broker's user store ({@code credentials.json}, or KafkaUsers in a cluster). As Apache, cluster
 * ALTER comes first.
 */
public final class AlterUserScramCredentialsHandler implements ApiHandler<AlterUserScramCredentialsRequest> {
    private final UserScramCredentialsUseCase users;
    private final Access access;

    public AlterUserScramCredentialsHandler(UserScramCredentialsUseCase users, Access access) {
        this.users = users;
        this.access = access;
    }

    @Override
    public CompletionStage<AlterUserScramCredentialsResponse> handle(RequestContext context,
                                                                     AlterUserScramCredentialsRequest request) {
        if (!access.cluster(context, AclOperation.ALTER)) {
            return CompletableFuture.completedFuture(refusedPerUser(request));
        }
        List<Deletion> deletions = request.data().deletions().stream()
                .map(d -> new Deletion(d.name(), ScramMechanisms.fromWire(d.mechanism()))).toList();
        List<Upsertion> upsertions = request.data().upsertions().stream()
                .map(u -> new Upsertion(u.name(), ScramMechanisms.fromWire(u.mechanism()), u.iterations(), u.salt(),
                        u.saltedPassword())).toList();
        AlterUserScramCredentialsResponseData data = new AlterUserScramCredentialsResponseData();
        users.alter(deletions, upsertions).forEach(altered -> data.results().add(
                new AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult()
                        .setUser(altered.user())
                        .setErrorCode(altered.outcome().error().code())
                        .setErrorMessage(altered.outcome().message())));
        return CompletableFuture.completedFuture(new AlterUserScramCredentialsResponse(data));
    }

    /** Apache refuses every named user with CLUSTER_AUTHORIZATION_FAILED, each once. */
    private static AlterUserScramCredentialsResponse refusedPerUser(AlterUserScramCredentialsRequest request) {
        AlterUserScramCredentialsResponseData data = new AlterUserScramCredentialsResponseData();
        Set<String> users = new LinkedHashSet<>();
        request.data().deletions().forEach(d -> users.add(d.name()));
        request.data().upsertions().forEach(u -> users.add(u.name()));
        users.forEach(user -> data.results().add(new AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult()
                .setUser(user).setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())
                .setErrorMessage(Errors.CLUSTER_AUTHORIZATION_FAILED.message())));
        return new AlterUserScramCredentialsResponse(data);
    }
}
