package io.kaas.dev.apiserver;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' API version priority: {@code v2 > v1 > v1beta2 > v1beta1 > v1alpha1}, then anything that does not look
 * like a Kubernetes version, alphabetically. Decides which version of a group discovery calls preferred.
 */
final class KubeVersionOrder {
    static final Comparator<String> PREFERRED_FIRST = KubeVersionOrder::compare;
    private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

    private KubeVersionOrder() {
    }

    private static int compare(String a, String b) {
        Matcher ma = KUBE_VERSION.matcher(a);
        Matcher mb = KUBE_VERSION.matcher(b);
        boolean ka = ma.matches();
        boolean kb = mb.matches();
        if (!ka || !kb) {
            return ka == kb ? a.compareTo(b) : ka ? -1 : 1;
        }
        int stability = Integer.compare(stability(mb.group(2)), stability(ma.group(2)));
        if (stability != 0) {
            return stability;
        }
        int major = Integer.compare(Integer.parseInt(mb.group(1)), Integer.parseInt(ma.group(1)));
        if (major != 0 || ma.group(3) == null) {
            return major;
        }
        return Integer.compare(Integer.parseInt(mb.group(3)), Integer.parseInt(ma.group(3)));
    }

    /** GA 2, beta 1, alpha 0. */
    private static int stability(String level) {
        return level == null ? 2 : level.equals("beta") ? 1 : 0;
    }
}
