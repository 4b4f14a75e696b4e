package io.kaas.domain.quota;

/**
 * Which clients share one quota sensor (Apache's quota metric tags): a user quota is shared by all the user's
 * client ids, a client-id quota by all users of that client id, a (user, client-id) quota by neither. An empty
 * part is one the sensor does not distinguish.
 */
public record SensorKey(String user, String clientId) {
}
