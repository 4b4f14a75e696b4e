package io.kaas.application.quota;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * IP quota entities' names and the connections they apply to: a name that is an address literal is matched in its
 * canonical form ({@code ::1} and {@code 0:0:0:0:0:0:0:1} are one entity), as Apache matches by {@code InetAddress}.
 * Names are never resolved here (quotas are read on the accept path, which must not wait on DNS): a host name
 * entity is kept and described, but matches no connection.
 */
final class IpAddresses {
    /** Apache's QuotaConfigs.ipConfigs: the one key an IP entity takes. */
    static final String CONNECTION_CREATION_RATE = "connection_creation_rate";
    /** Dotted IPv4 (octets checked below) or anything with a colon, which Java parses and never looks up. */
    private static final Pattern LITERAL = Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}"
            + "|[0-9a-fA-F.]*:[0-9a-fA-F:.]*(%\\w+)?");

    private IpAddresses() {
    }

    /** Whether {@code name} is an address literal rather than a host name. */
    static boolean isLiteral(String name) {
        return LITERAL.matcher(name).matches();
    }

    /** The form connections are matched by: the canonical address for a literal, the name itself otherwise. */
    static String key(String name) {
        if (!LITERAL.matcher(name).matches()) {
            return name;
        }
        try {
            return InetAddress.getByName(name).getHostAddress(); // a literal: parsed, never looked up
        } catch (UnknownHostException e) {
            return name;
        }
    }
}
