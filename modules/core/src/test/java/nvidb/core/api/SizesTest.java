package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SizesTest {
    @ParameterizedTest(name = "''{0}'' = {1} MiB")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "1.5G      | 1536",
            "512M      | 512",
            "20480     | 20480",
            "1T        | 1048576",
            "\" 2 g \" | 2048",
            "20G       | 20480",
            "20g       | 20480",
            "512MB     | 512",
            "512MiB    | 512",
            "1GB       | 1024",
            "1GiB      | 1024",
            "1tb       | 1048576",
            ".5G       | 512",
            "0         | 0",
            "0.5       | 0",
            "1.5       | 2",
            "2.5       | 2",
            "3.5       | 4",
            "\"20 G\"  | 20480",
    })
    void parsesToMib(String text, long mib) {
        assertEquals(mib, Sizes.parseMb(text));
    }

    @Test
    void blankMeansZero() {
        assertEquals(0, Sizes.parseMb(null));
        assertEquals(0, Sizes.parseMb(""));
        assertEquals(0, Sizes.parseMb("   "));
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
            "20X   | unknown size unit 'X' in '20X' (use M, G or T, e.g. 20G)",
            "5kb   | unknown size unit 'kb' in '5kb' (use M, G or T, e.g. 20G)",
            "-1G   | invalid size '-1G' (try 20G, 512M, or 20480)",
            "abc   | invalid size 'abc' (try 20G, 512M, or 20480)",
            "1.2.3 | invalid size '1.2.3' (try 20G, 512M, or 20480)",
            "G     | invalid size 'G' (try 20G, 512M, or 20480)",
            "1e3   | invalid size '1e3' (try 20G, 512M, or 20480)",
            "9999999999999999T | size '9999999999999999T' is too large",
            "99999999999999999999 | size '99999999999999999999' is too large",
    })
    void refusesWithTheExactSentence(String text, String sentence) {
        NvidbException e = assertThrows(NvidbException.class, () -> Sizes.parseMb(text));
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals(sentence, e.getMessage());
    }

    @ParameterizedTest(name = "{0} MiB prints {1}")
    @CsvSource({
            "0, 0M",
            "512, 512M",
            "1023, 1023M",
            "1024, 1.0G",
            "1536, 1.5G",
            "20480, 20.0G",
            "81920, 80.0G",
            "102400, 100G",
            "144384, 141G",
            "1048576, 1024G",
    })
    void formats(long mib, String text) {
        assertEquals(text, Sizes.format(mib));
    }

    @Test
    void formatsNullAsADash() {
        assertEquals("-", Sizes.format(null));
    }
}
