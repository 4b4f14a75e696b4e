package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/** A salted SCRAM credential (RFC 5802); the byte strings are base64. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ScramCredential {
    @Required
    @JsonPropertyDescription("The salt, base64.")
    private String salt;

    @Required
    @Min(4096)
    @JsonPropertyDescription("PBKDF2 iterations; at least 4096.")
    private Integer iterations;

    @Required
    @JsonPropertyDescription("H(ClientKey), base64.")
    private String storedKey;

    @Required
    @JsonPropertyDescription("ServerKey, base64.")
    private String serverKey;

    public String getSalt() {
        return salt;
    }

    public void setSalt(String salt) {
        this.salt = salt;
    }

    public Integer getIterations() {
        return iterations;
    }

    public void setIterations(Integer iterations) {
        this.iterations = iterations;
    }

    public String getStoredKey() {
        return storedKey;
    }

    public void setStoredKey(String storedKey) {
        this.storedKey = storedKey;
    }

    public String getServerKey() {
        return serverKey;
    }

    public void setServerKey(String serverKey) {
        this.serverKey = serverKey;
    }
}
