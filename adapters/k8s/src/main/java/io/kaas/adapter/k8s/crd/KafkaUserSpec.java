package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** What a {@link KafkaUser} asks for: Strimzi's KafkaUser shape, with per-broker quota names. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KafkaUserSpec {
    @JsonPropertyDescription("How the user authenticates. Unset: an authorization-only principal (e.g. OAuth) with "
            + "no stored credential.")
    private UserAuthentication authentication;

    @JsonPropertyDescription("The user's ACLs.")
    private UserAuthorization authorization;

    @JsonPropertyDescription("The user's quotas, enforced per broker (KIP-13).")
    private UserQuotas quotas;

    public UserAuthentication getAuthentication() {
        return authentication;
    }

    public void setAuthentication(UserAuthentication authentication) {
        this.authentication = authentication;
    }

    public UserAuthorization getAuthorization() {
        return authorization;
    }

    public void setAuthorization(UserAuthorization authorization) {
        this.authorization = authorization;
    }

    public UserQuotas getQuotas() {
        return quotas;
    }

    public void setQuotas(UserQuotas quotas) {
        this.quotas = quotas;
    }
}
