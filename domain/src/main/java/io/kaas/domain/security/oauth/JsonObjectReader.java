package io.kaas.domain.security.oauth;

import java.util.Map;

/**
 * Reads a JSON object into maps, lists, strings, numbers and booleans: how a JWT's header and claims
 * and a JWKS document reach the domain, which has no JSON parser of its own.
 */
@FunctionalInterface
public interface JsonObjectReader {

    /** @throws IllegalArgumentException when the bytes are not one JSON object */
    Map<String, Object> read(byte[] json);
}
