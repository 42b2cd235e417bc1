package dev.nvidb.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.tui.Input.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputDecoderTest {

    private static List<Input> decode(String chars, boolean quiet) {
        InputDecoder decoder = new InputDecoder();
        decoder.feed(chars);
        return decoder.drain(quiet);
    }

    @Test
    void charactersAndControlKeys() {
        assertEquals(List.of(Input.character('j'), Input.character('é'), Input.key(Kind.ENTER), Input.key(Kind.TAB),
                Input.key(Kind.BACKSPACE), Input.key(Kind.CTRL_C)), decode("jé\r\t\u007f\u0003", false));
    }

    @Test
    void cursorAndPagingKeysInEveryEncoding() {
        assertEquals(List.of(Input.key(Kind.UP), Input.key(Kind.DOWN), Input.key(Kind.RIGHT), Input.key(Kind.LEFT)),
                decode("\033[A\033OB\033[1;5C\033OD", false));
        assertEquals(List.of(Input.key(Kind.PAGE_UP), Input.key(Kind.PAGE_DOWN), Input.key(Kind.HOME),
                        Input.key(Kind.END), Input.key(Kind.F6), Input.key(Kind.BACK_TAB), Input.key(Kind.DELETE)),
                decode("\033[5~\033[6~\033[1~\033[F\033[17~\033[Z\033[3~", false));
    }

    @Test
    void aLoneEscapeIsTheEscapeKeyOnlyOnceTheLineIsQuiet() {
        InputDecoder decoder = new InputDecoder();
        decoder.feed("\033");
        assertEquals(List.of(), decoder.drain(false), "the start of a sequence waits for its rest");
        assertEquals(List.of(Input.key(Kind.ESCAPE)), decoder.drain(true));
        decoder.feed("\033[");
        assertEquals(List.of(), decoder.drain(false));
        decoder.feed("B");
        assertEquals(List.of(Input.key(Kind.DOWN)), decoder.drain(false), "a sequence split across reads");
    }

    @Test
    void mouseReportsInSgrAndX10() {
        assertEquals(List.of(Input.mouse(Kind.CLICK, 9, 4)), decode("\033[<0;10;5M", false));
        assertEquals(List.of(), decode("\033[<0;10;5m", false), "a release is not acted on");
        assertEquals(List.of(Input.mouse(Kind.WHEEL_UP, 0, 0), Input.mouse(Kind.WHEEL_DOWN, 119, 39)),
                decode("\033[<64;1;1M\033[<65;120;40M", false));
        assertEquals(List.of(Input.mouse(Kind.CLICK, 2, 3)), decode("\033[M" + (char) 32 + (char) 35 + (char) 36, false));
        assertEquals(List.of(), decode("\033[<32;4;4M", false), "a drag is not acted on");
    }

    @Test
    void unknownSequencesAreDroppedWithoutLosingWhatFollows() {
        assertEquals(List.of(Input.character('q')), decode("\033[99xq", false));
        assertEquals(List.of(Input.key(Kind.ESCAPE), Input.character('x')), decode("\033x", false),
                "Alt+x: Esc, then x");
    }
}
