package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** The source of a password. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PasswordValueFrom {
    @Required
    @JsonPropertyDescription("A key of a Secret in the user's namespace.")
    private SecretKeyReference secretKeyRef;

    public SecretKeyReference getSecretKeyRef() {
        return secretKeyRef;
    }

    public void setSecretKeyRef(SecretKeyReference secretKeyRef) {
        this.secretKeyRef = secretKeyRef;
    }
}
