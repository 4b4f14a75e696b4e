package io.kaas.adapter.wire.tls;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Just enough DER to wrap a PKCS#1 or SEC1 private key into the PKCS#8 {@code PrivateKeyInfo} the JDK
 * reads (RFC 5208): {@code SEQUENCE { INTEGER 0, AlgorithmIdentifier, OCTET STRING key }}.
 */
final class Der {
    private static final int INTEGER = 0x02;
    private static final int OCTET_STRING = 0x04;
    private static final int NULL = 0x05;
    private static final int OBJECT_IDENTIFIER = 0x06;
    private static final int SEQUENCE = 0x30;
    /** SEC1's {@code [0] ECParameters}: the named curve. */
    private static final int CONTEXT_0 = 0xA0;

    /** 1.2.840.113549.1.1.1 */
    private static final byte[] RSA_ENCRYPTION = {0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x01};
    /** 1.2.840.10045.2.1 */
    private static final byte[] EC_PUBLIC_KEY = {0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x02, 0x01};

    private Der() {
    }

    static byte[] pkcs8FromPkcs1(byte[] rsaPrivateKey) {
        return privateKeyInfo(tlv(SEQUENCE, concat(tlv(OBJECT_IDENTIFIER, RSA_ENCRYPTION), tlv(NULL, new byte[0]))),
                rsaPrivateKey);
    }

    /** SEC1 names its curve in {@code [0]}; PKCS#8 wants it in the algorithm identifier. */
    static byte[] pkcs8FromSec1(byte[] ecPrivateKey, String source) {
        byte[] curve = null;
        Reader sequence = new Reader(ecPrivateKey, source).enter(SEQUENCE);
        while (sequence.hasMore()) {
            int tag = sequence.tag();
            byte[] content = sequence.content();
            if (tag == CONTEXT_0) {
                curve = content; // the OBJECT IDENTIFIER TLV, as the algorithm identifier wants it
            }
        }
        if (curve == null) {
            throw new IllegalArgumentException(source + ": the EC PRIVATE KEY does not name its curve");
        }
        return privateKeyInfo(tlv(SEQUENCE, concat(tlv(OBJECT_IDENTIFIER, EC_PUBLIC_KEY), curve)), ecPrivateKey);
    }

    private static byte[] privateKeyInfo(byte[] algorithm, byte[] key) {
        return tlv(SEQUENCE, concat(tlv(INTEGER, new byte[] {0}), algorithm, tlv(OCTET_STRING, key)));
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** Reads the TLVs of one level. */
    private static final class Reader {
        private final byte[] der;
        private final String source;
        private final int end;
        private int pos;

        Reader(byte[] der, String source) {
            this(der, source, 0, der.length);
        }

        private Reader(byte[] der, String source, int from, int end) {
            this.der = der;
            this.source = source;
            this.pos = from;
            this.end = end;
        }

        /** The content of the constructed TLV with {@code tag} here, as a reader of its children. */
        Reader enter(int tag) {
            if (!hasMore() || tag() != tag) {
                throw new IllegalArgumentException(source + ": not a DER structure of the expected shape");
            }
            int length = length();
            return new Reader(der, source, pos, pos + length);
        }

        boolean hasMore() {
            return pos < end;
        }

        int tag() {
            return der[pos++] & 0xFF;
        }

        byte[] content() {
            int length = length();
            byte[] content = Arrays.copyOfRange(der, pos, pos + length);
            pos += length;
            return content;
        }

        private int length() {
            if (pos >= end) {
                throw new IllegalArgumentException(source + ": truncated DER");
            }
            int first = der[pos++] & 0xFF;
            if (first < 0x80) {
                return checked(first);
            }
            int bytes = first & 0x7F;
            if (bytes == 0 || bytes > 3 || pos + bytes > end) {
                throw new IllegalArgumentException(source + ": unsupported DER length");
            }
            int length = 0;
            for (int i = 0; i < bytes; i++) {
                length = (length << 8) | (der[pos++] & 0xFF);
            }
            return checked(length);
        }

        private int checked(int length) {
            if (pos + length > end) {
                throw new IllegalArgumentException(source + ": truncated DER");
            }
            return length;
        }
    }
}
