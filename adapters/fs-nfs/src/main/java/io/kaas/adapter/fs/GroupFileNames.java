package io.kaas.adapter.fs;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * File names for group ids, which may hold any character ({@code /}, {@code ..}, spaces, non-ASCII)
 * or be empty. Letters, digits, {@code -} and {@code _} stay as they are; every other UTF-8 byte
 * becomes {@code %XX}, so ordinary ids keep readable names and no name starts with a dot (temp
 * files do). The empty id is {@code %}, which no encoding produces otherwise. Names are reversible
 * except for ids whose encoding is too long for a file system: those keep a prefix and end in
 * {@code ~} and a hash, and the id is read from the file itself.
 */
final class GroupFileNames {
    static final String SUFFIX = ".json";
    private static final String EMPTY_ID = "%";
    private static final char HASHED = '~';
    /** Well under the usual 255-byte limit on a file name, with room for the suffix. */
    private static final int MAX_STEM = 200;
    private static final int HASHED_PREFIX = 150;
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private GroupFileNames() {
    }

    static String fileName(String groupId) {
        if (groupId.isEmpty()) {
            return EMPTY_ID + SUFFIX;
        }
        StringBuilder stem = new StringBuilder();
        for (byte b : groupId.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '-' || c == '_')) {
                stem.append(c);
            } else {
                stem.append('%').append(HEX.toHexDigits(b));
            }
        }
        if (stem.length() > MAX_STEM) {
            String prefix = stem.substring(0, HASHED_PREFIX);
            int cut = prefix.lastIndexOf('%');
            if (cut > HASHED_PREFIX - 3) {
                prefix = prefix.substring(0, cut); // never split an escape
            }
            return prefix + HASHED + sha256(groupId).substring(0, 32) + SUFFIX;
        }
        return stem + SUFFIX;
    }

    /** Whether a directory entry is a group file (not a temp file or something else). */
    static boolean isGroupFile(String fileName) {
        return fileName.endsWith(SUFFIX) && !fileName.startsWith(".");
    }

    /** The group id a file name encodes; empty for hashed names, whose id is only in the file. */
    static Optional<String> groupId(String fileName) {
        String stem = fileName.substring(0, fileName.length() - SUFFIX.length());
        if (stem.equals(EMPTY_ID)) {
            return Optional.of("");
        }
        if (stem.indexOf(HASHED) >= 0) {
            return Optional.empty();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < stem.length(); i++) {
            char c = stem.charAt(i);
            if (c == '%') {
                bytes.write(HexFormat.fromHexDigits(stem, i + 1, i + 3));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return Optional.of(bytes.toString(StandardCharsets.UTF_8));
    }

    private static String sha256(String text) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
