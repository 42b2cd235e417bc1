package dev.nvidb.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CanvasTest {

    @Test
    void rowsAreCutWithAnEllipsisPaddedAndTheFrameHasExactlyItsHeight() {
        Canvas canvas = new Canvas(10, 3);
        canvas.line("a long line of text", Palette.PLAIN);
        canvas.line("short", Palette.DIM);
        Frame frame = canvas.frame();
        assertEquals("a long li…\nshort     \n          \n", frame.text());
    }

    @Test
    void rowsPastTheHeightAreDroppedWithTheirTargets() {
        Canvas canvas = new Canvas(5, 1);
        canvas.text("one", Palette.PLAIN, "first").newline();
        canvas.text("two", Palette.PLAIN, "second").newline();
        Frame frame = canvas.frame();
        assertEquals(1, frame.lines().size());
        assertEquals(Optional.of("first"), frame.targetAt(1, 0));
        assertEquals(Optional.empty(), frame.targetAt(1, 1));
        assertEquals(Optional.empty(), frame.targetAt(4, 0), "past the text");
    }

    @Test
    void controlCharactersFromJobOutputCannotMoveTheCursor() {
        assertEquals("a?[2Jb c", Canvas.clean("a\033[2Jb\tc"));
        assertEquals("ab…", Canvas.cell("abcdef", 3));
        assertEquals("  7", Canvas.right("7", 3));
        assertEquals("界…", Canvas.cell("界界界", 3), "wide characters count two columns");
    }
}
