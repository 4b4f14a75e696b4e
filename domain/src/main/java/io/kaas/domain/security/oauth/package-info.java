/**
 * OAuth 2 bearer tokens checked locally, as Apache's {@code OAuthBearerValidatorCallbackHandler} and
 * Strimzi's fast-local-JWKS validation do: a JWT's signature against the issuer's published JSON Web Key
 * Set, its lifetime and issuer and audience, and the claim that names the principal. Parsing JSON is
 * left to the caller ({@link io.kaas.domain.security.oauth.JsonObjectReader}); fetching the key set too.
 */
package io.kaas.domain.security.oauth;
