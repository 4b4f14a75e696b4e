package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.UserScramCredentialsUseCase;
import io.kaas.domain.security.AclOperation;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsRequest;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsResponse;

/**
 * DescribeUserScramCredentials (key 50, KIP-554; {@code kafka-configs --describe --entity-type users}):
 * each user's SCRAM mechanisms and iteration counts, never key material; null or no users means
 * every user with a credential. Answered from the cached credentials. Apache requires cluster
 * DESCRIBE; the authorization check belongs here, before the use case, once ACLs exist.
 */
public final class DescribeUserScramCredentialsHandler implements ApiHandler<DescribeUserScramCredentialsRequest> {
    private final UserScramCredentialsUseCase users;
    private final Access access;

    public DescribeUserScramCredentialsHandler(UserScramCredentialsUseCase users, Access access) {
        this.users = users;
        this.access = access;
    }

    @Override
    public CompletionStage<DescribeUserScramCredentialsResponse> handle(RequestContext context,
                                                                        DescribeUserScramCredentialsRequest request) {
        if (!access.cluster(context, AclOperation.DESCRIBE)) {
            return CompletableFuture.completedFuture(new DescribeUserScramCredentialsResponse(
                    new DescribeUserScramCredentialsResponseData().setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())
                            .setErrorMessage(Errors.CLUSTER_AUTHORIZATION_FAILED.message())));
        }
        List<DescribeUserScramCredentialsRequestData.UserName> named = request.data().users();
        List<String> names = named == null ? List.of()
                : named.stream().map(DescribeUserScramCredentialsRequestData.UserName::name).toList();
        DescribeUserScramCredentialsResponseData data = new DescribeUserScramCredentialsResponseData()
                .setErrorCode(Errors.NONE.code());
        for (UserScramCredentialsUseCase.Described described : users.describe(names)) {
            DescribeUserScramCredentialsResult result = new DescribeUserScramCredentialsResult()
                    .setUser(described.user())
                    .setErrorCode(described.outcome().error().code())
                    .setErrorMessage(described.outcome().message());
            described.credentials().forEach(c -> result.credentialInfos().add(new CredentialInfo()
                    .setMechanism(ScramMechanisms.toWire(c.mechanism())).setIterations(c.iterations())));
            data.results().add(result);
        }
        return CompletableFuture.completedFuture(new DescribeUserScramCredentialsResponse(data));
    }
}
