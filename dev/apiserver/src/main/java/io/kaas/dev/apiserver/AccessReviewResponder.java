package io.kaas.dev.apiserver;

import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatusBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectRulesReviewStatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Allows everything, which is what this server does: a SelfSubjectRulesReview (java-operator-sdk posts one before it
 * starts leader election) lists every verb on every resource and URL; a SelfSubjectAccessReview is allowed. Neither
 * is stored.
 */
final class AccessReviewResponder {
    private static final String ROOT = "/apis/authorization.k8s.io/v1/";
    private static final String REASON = "the development API server has no RBAC: everything is allowed";

    /** The answer to a POST of {@code body} at {@code path} (without query), if it is a review. */
    Optional<MockResponse> answer(String path, byte[] body) {
        String json = new String(body, StandardCharsets.UTF_8);
        if (path.equals(ROOT + "selfsubjectrulesreviews")) {
            SelfSubjectRulesReview review = json.isBlank() ? new SelfSubjectRulesReview()
                    : Serialization.unmarshal(json, SelfSubjectRulesReview.class);
            review.setStatus(new SubjectRulesReviewStatusBuilder().withIncomplete(false)
                    .addNewResourceRule().withVerbs("*").withApiGroups("*").withResources("*").endResourceRule()
                    .addNewNonResourceRule().withVerbs("*").withNonResourceURLs("*").endNonResourceRule()
                    .build());
            return Optional.of(Responses.json(201, review));
        }
        if (path.equals(ROOT + "selfsubjectaccessreviews")) {
            SelfSubjectAccessReview review = json.isBlank() ? new SelfSubjectAccessReview()
                    : Serialization.unmarshal(json, SelfSubjectAccessReview.class);
            review.setStatus(new SubjectAccessReviewStatusBuilder().withAllowed(true).withReason(REASON).build());
            return Optional.of(Responses.json(201, review));
        }
        return Optional.empty();
    }
}
