package nvidb.core.api;

import java.util.List;
import java.util.Random;

/**
 * Random JSON text for the property tests of the codec's streamed readers: nesting, unicode
 * (supplementary characters too), control characters (escaped, and sometimes raw, which makes the
 * text invalid), numbers of every size and sign, nulls, repeated keys, odd white space, and now
 * and then a broken document (cut short, trailing text).
 */
public final class RandomJson {
    private static final String[] NUMBERS = {"0", "-0", "7", "-12", "2147483647", "-2147483648", "2147483648",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-99999999999999999999999",
        "1e-4", "1E-4", "0.0001", "-0.0", "1.5e300", "1e400", "3.0", "2.5E+3", "123456789012345678901234567890.5"};
    private static final String[] WHITE = {"", "", "", " ", "\n", "\t", " \r\n "};

    private final Random random;

    public RandomJson(Random random) {
        this.random = random;
    }

    public Random random() {
        return random;
    }

    /** Any JSON value, at most {@code depth} containers deep. */
    public String value(int depth) {
        int kind = random.nextInt(depth > 0 ? 9 : 6);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2, 3 -> number();
            case 4, 5 -> string();
            case 6, 7 -> array(depth - 1);
            default -> object(depth - 1);
        };
    }

    public String number() {
        return switch (random.nextInt(3)) {
            case 0 -> NUMBERS[random.nextInt(NUMBERS.length)];
            case 1 -> Long.toString(random.nextLong() >> random.nextInt(64));
            default -> Double.toString(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
        };
    }

    /** An integer literal, from small to beyond a long, either sign. */
    public String integer() {
        return random.nextInt(6) == 0 ? NUMBERS[random.nextInt(9)] : Long.toString(random.nextLong() >> random.nextInt(64));
    }

    /** A string literal of random characters, each written plainly or escaped (rarely: raw control characters). */
    public String string() {
        StringBuilder sb = new StringBuilder("\"");
        int n = random.nextInt(4) == 0 ? 0 : random.nextInt(12);
        for (int i = 0; i < n; i++) {
            int c = codePoint();
            boolean mustEscape = c == '"' || c == '\\' || c < 0x20;
            if (mustEscape && random.nextInt(200) == 0) {
                sb.appendCodePoint(c); // invalid JSON now and then: the readers must agree it is unreadable
            } else if (mustEscape || random.nextInt(8) == 0) {
                escape(sb, c);
            } else {
                sb.appendCodePoint(c);
            }
        }
        return sb.append('"').toString();
    }

    private int codePoint() {
        return switch (random.nextInt(8)) {
            case 0 -> random.nextInt(0x20);
            case 1 -> "\"\\/'{}[],:".charAt(random.nextInt(10));
            case 2 -> 0x80 + random.nextInt(0x780);
            case 3 -> 0x800 + random.nextInt(0xD000 - 0x800);
            case 4 -> 0x10000 + random.nextInt(0x10FFFF - 0x10000);
            default -> 0x20 + random.nextInt(0x5F);
        };
    }

    private void escape(StringBuilder sb, int c) {
        String shortForm = switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '/' -> "\\/";
            case '\n' -> "\\n";
            case '\t' -> "\\t";
            case '\r' -> "\\r";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            default -> null;
        };
        if (shortForm != null && random.nextBoolean()) {
            sb.append(shortForm);
            return;
        }
        for (char unit : Character.toChars(c)) {
            sb.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) unit));
        }
    }

    public String array(int depth) {
        return array(random.nextInt(5), () -> value(depth));
    }

    /** An array of {@code n} elements that {@code element} writes. */
    public String array(int n, java.util.function.Supplier<String> element) {
        StringBuilder sb = new StringBuilder("[").append(white());
        for (int i = 0; i < n; i++) {
            sb.append(i > 0 ? "," + white() : "").append(element.get()).append(white());
        }
        return sb.append(']').toString();
    }

    public String object(int depth) {
        return object(random.nextInt(5), this::string, () -> value(depth));
    }

    /** An object of {@code n} members (keys may repeat). */
    public String object(int n, java.util.function.Supplier<String> key, java.util.function.Supplier<String> value) {
        StringBuilder sb = new StringBuilder("{").append(white());
        List<String> keys = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String k = !keys.isEmpty() && random.nextInt(10) == 0 ? keys.get(random.nextInt(keys.size())) : key.get();
            keys.add(k);
            sb.append(i > 0 ? "," + white() : "").append(k).append(white()).append(':').append(white())
                    .append(value.get()).append(white());
        }
        return sb.append('}').toString();
    }

    public String white() {
        return WHITE[random.nextInt(WHITE.length)];
    }

    /** {@code text} as it is, mostly; otherwise wrapped in white space, cut short or followed by more text. */
    public String damage(String text) {
        return switch (random.nextInt(12)) {
            case 0 -> white() + text + white();
            case 1 -> text.substring(0, random.nextInt(text.length() + 1));
            case 2 -> text + (random.nextInt(3) == 0 ? "x" : " " + value(1));
            case 3 -> text + " " + text;
            default -> text;
        };
    }
}
