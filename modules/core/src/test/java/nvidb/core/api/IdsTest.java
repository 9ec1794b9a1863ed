package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdsTest {
    @Test
    void parsesOneId() {
        assertEquals(12, Ids.parse("12"));
        assertEquals(7, Ids.parse(" 7 "));
        assertEquals(Long.MAX_VALUE, Ids.parse(String.valueOf(Long.MAX_VALUE)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "0", "-3", "1.5", "", "12a", "99999999999999999999"})
    void anythingButAPositiveWholeNumberIsAUsageError(String text) {
        NvidbException e = assertThrows(NvidbException.class, () -> Ids.parse(text));
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals("invalid id '" + text + "' (ids are positive whole numbers, e.g. 12)", e.getMessage());
    }

    @Test
    void eachArgumentMayBeACommaList() {
        // `job cancel 1,2 3` arrives as two arguments
        assertEquals(List.of(1L, 2L, 3L), Ids.parseLists(List.of("1,2", "3")));
        assertEquals(List.of(4L, 5L), Ids.parseLists(List.of("4,,5,")));
        assertEquals(List.of(6L, 7L), Ids.parseLists(List.of(" 6 , 7 ")));
        assertEquals(List.of(8L, 8L), Ids.parseLists(List.of("8", "8")), "repeats are the caller's business");
        assertEquals(List.of(), Ids.parseLists(List.of()));
        assertEquals(List.of(), Ids.parseLists(null));
        assertEquals(List.of(), Ids.parseLists(List.of(",", " ")));
    }

    @Test
    void aBadPartNamesItself() {
        NvidbException e = assertThrows(NvidbException.class, () -> Ids.parseLists(List.of("1,2", "x")));
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals("invalid id 'x' (ids are positive whole numbers, e.g. 12)", e.getMessage());
        e = assertThrows(NvidbException.class, () -> Ids.parseLists(List.of("1,x,3")));
        assertEquals("invalid id 'x' (ids are positive whole numbers, e.g. 12)", e.getMessage());
    }
}
