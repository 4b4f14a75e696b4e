package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Required;

/** A user's credential, as Strimzi's {@code spec.authentication}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UserAuthentication {
    @PrinterColumn(name = "Authentication")
    @Required
    @JsonPropertyDescription("scram-sha-512, scram-sha-256 or tls.")
    private AuthenticationType type;

    @JsonPropertyDescription("scram-sha-*: the Secret key holding the password. Unset: the operator generates one.")
    private PasswordSource password;

    @JsonPropertyDescription("A pre-derived SCRAM credential (RFC 5802), passed to credentials.json as is: written "
            + "by AlterUserScramCredentials (KIP-554), or by hand to rotate without the operator "
            + "seeing a password.")
    private ScramCredential scram;

    @JsonPropertyDescription("scram-sha-*: a pre-derived credential for the other SCRAM mechanism (SCRAM-SHA-256 "
            + "beside scram-sha-512, and the reverse), as Apache keeps one credential per mechanism: written by "
            + "AlterUserScramCredentials.")
    private ScramCredential additionalScram;

    public AuthenticationType getType() {
        return type;
    }

    public void setType(AuthenticationType type) {
        this.type = type;
    }

    public PasswordSource getPassword() {
        return password;
    }

    public void setPassword(PasswordSource password) {
        this.password = password;
    }

    public ScramCredential getScram() {
        return scram;
    }

    public void setScram(ScramCredential scram) {
        this.scram = scram;
    }

    public ScramCredential getAdditionalScram() {
        return additionalScram;
    }

    public void setAdditionalScram(ScramCredential additionalScram) {
        this.additionalScram = additionalScram;
    }
}
