package dev.nvidb.tui.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.ViewMode;
import dev.nvidb.tui.Input;
import java.util.List;
import java.util.stream.Stream;
import org.jline.utils.AttributedString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The monitor drawn from hand-built probes, as text, at small and wide sizes. */
class MonitorRendererTest {

    static Stream<Arguments> sizes() {
        return Stream.of(Arguments.of(80, 24), Arguments.of(160, 50), Arguments.of(200, 60), Arguments.of(100, 30));
    }

    private static void assertFits(ScreenDriver driver) {
        List<AttributedString> lines = driver.frame.lines();
        assertEquals(driver.height, lines.size(), driver.text());
        for (AttributedString line : lines) {
            assertEquals(driver.width, line.columnLength(), "every row is exactly the width: '" + line + "'");
        }
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void perNodeViewShowsEveryNodeItsGpusAndWhyANodeIsDown(int width, int height) {
        ScreenDriver driver = ScreenDriver.lab(width, height);
        String text = driver.text();
        assertFits(driver);
        assertTrue(text.contains("gpu-a  up"), text);
        assertTrue(text.contains("gpu-b  up"), text);
        assertTrue(text.contains("gpu-c  DOWN  connection refused"), text);
        assertTrue(text.contains("retry in 8s"), text);
        assertTrue(text.contains("NVIDIA H100 80GB HBM3"), text);
        assertTrue(text.contains("NVIDIA RTX A6000"), text);
        assertTrue(text.contains("error: GPU is lost"), text);
        assertTrue(text.contains("30.0G/79.6G"), text);
        assertTrue(text.lines().findFirst().orElseThrow().contains("2/3 nodes up"), text);
        assertTrue(text.lines().reduce((a, b) -> b).orElseThrow().contains("q quit"), text);
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void processPaneListsTheSelectedGpusProcessesWithTheFullCommand(int width, int height) {
        ScreenDriver driver = ScreenDriver.lab(width, height).keys("j", Input.Kind.ENTER);
        String text = driver.text();
        assertFits(driver);
        assertTrue(text.contains("processes · gpu-a GPU 0 · 2"), text);
        assertTrue(text.contains("4242"), text);
        assertTrue(text.contains("4343"), text);
        assertTrue(text.contains("pid 4242"), text);
        assertTrue(text.contains("$ python train.py --epochs 100 --lr 0.001"), text);
        assertTrue(text.contains("T SIGTERM"), text);
        assertTrue(text.indexOf("4242") < text.indexOf("4343"), "VRAM order, largest first:\n" + text);
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void unifiedGroupedTableHasABandPerNodeAndFlatTableNamesTheNode(int width, int height) {
        ViewSettings unified = ViewSettings.defaults().withMode(ViewMode.UNIFIED);
        ScreenDriver grouped = new ScreenDriver(MonitorSamples.lab(), unified, width, height);
        assertFits(grouped);
        String text = grouped.text();
        assertTrue(text.contains("gpu-a  10.0.0.5 (gpu-a.lab)  2 GPUs"), text);
        assertFalse(text.contains("NODE"), text);
        ScreenDriver flat = new ScreenDriver(MonitorSamples.lab(), unified.withGroup(false), width, height);
        assertFits(flat);
        assertTrue(flat.text().contains("NODE"), flat.text());
        assertTrue(flat.text().lines().anyMatch(line -> line.contains("gpu-b") && line.contains("RTX A6000")),
                flat.text());
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void detailedCardsHaveFourLabelledRows(int width, int height) {
        ViewSettings cards = ViewSettings.defaults().withMode(ViewMode.UNIFIED).withDetail(true);
        ScreenDriver driver = new ScreenDriver(MonitorSamples.lab(), cards, width, height);
        assertFits(driver);
        String text = driver.text();
        assertTrue(text.contains("gpu-a · GPU 0"), text);
        assertTrue(text.contains("LOAD"), text);
        assertTrue(text.contains("MEM/TEMP"), text);
        assertTrue(text.contains("I/O      power 250W / 700W"), text);
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void aClaimIsUnderItsGpuAndTheNodesPolicyAndWaitingUsersUnderItsGpusInEveryLayout(int width, int height) {
        List<NodeFeed> nodes = List.of(MonitorSamples.shared("gpu-s"), MonitorSamples.node("gpu-t",
                MonitorSamples.gpu(0, "NVIDIA RTX A6000", 49140, 0, 0, 30)));
        ViewSettings unified = ViewSettings.defaults().withMode(ViewMode.UNIFIED);
        for (ViewSettings view : List.of(ViewSettings.defaults(), unified, unified.withGroup(false))) {
            ScreenDriver driver = new ScreenDriver(nodes, view, width, height);
            assertFits(driver);
            List<String> lines = driver.text().lines().toList();
            int gpu0 = indexOf(lines, "L40S", 0);
            assertTrue(gpu0 >= 0, driver.text());
            assertTrue(lines.get(gpu0 + 1).contains("claimed by carol: 16.0G reserved, job 4 of queue laptop"),
                    view + "\n" + driver.text());
            assertFalse(lines.get(indexOf(lines, "L40S", gpu0 + 1) + 1).contains("claimed by"), driver.text());
            boolean nodeContext = view.mode() == ViewMode.PER_NODE || view.group();
            int policy = indexOf(lines, "policy: share fair", 0);
            assertEquals(nodeContext, policy >= 0, view + "\n" + driver.text());
            if (nodeContext) {
                assertTrue(policy > indexOf(lines, "L40S", gpu0 + 1) && policy < indexOf(lines, "gpu-t", 0),
                        "after gpu-s's last GPU, before gpu-t:\n" + driver.text());
                assertTrue(lines.get(policy + 1).contains("waiting: dave waits with 3 GPU jobs"), driver.text());
            }
        }
        ScreenDriver cards = new ScreenDriver(nodes, unified.withDetail(true), width, height);
        assertFits(cards);
        assertTrue(cards.text().contains("CLAIM    carol: 16.0G reserved, job 4 of queue laptop"), cards.text());
    }

    private static int indexOf(List<String> lines, String text, int from) {
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void barsAppearFromOneHundredColumns() {
        assertFalse(ScreenDriver.lab(99, 24).text().contains("█"));
        assertTrue(ScreenDriver.lab(100, 24).text().contains("█"));
    }

    @Test
    void aLongCommandIsCutAtTheWidthInTheTableAndWrappedInFull() {
        String command = "python " + "x".repeat(150) + " END";
        List<NodeFeed> nodes = List.of(MonitorSamples.node("gpu-a", MonitorSamples.gpu(0, "H100", 81559, 1000, 1, 30,
                MonitorSamples.process(7, "alice", 900, command))));
        ScreenDriver driver = new ScreenDriver(nodes, ViewSettings.defaults(), 80, 24).keys("j", Input.Kind.ENTER);
        assertFits(driver);
        String text = driver.text();
        assertTrue(text.lines().anyMatch(line -> line.contains("python xxx") && line.endsWith("…")), text);
        assertTrue(text.contains(" END"), "the wrapped command shows its end:\n" + text);
    }

    @Test
    void helpIsTailoredToTheFocusAndDrawnInsideTheScreen() {
        ScreenDriver driver = ScreenDriver.lab(80, 24).keys("?");
        assertFits(driver);
        assertTrue(driver.text().contains("help: per-node view"), driver.text());
        assertTrue(driver.text().contains("expand / collapse every node"), driver.text());
        driver.keys("?", "j", Input.Kind.ENTER, "?");
        assertTrue(driver.text().contains("help: process pane"), driver.text());
        assertTrue(driver.text().contains("arm SIGINT / SIGTERM / SIGKILL"), driver.text());
    }

    @Test
    void historyDrawsSparklinesOfTheSelectedGpuAndProcess() {
        ScreenDriver driver = ScreenDriver.lab(120, 40).keys("j", Input.Kind.ENTER, "t");
        String text = driver.text();
        assertTrue(text.contains("util "), text);
        assertTrue(text.lines().anyMatch(line -> line.contains("gpu-a GPU 0") && line.contains("88%")), text);
        assertTrue(text.lines().anyMatch(line -> line.contains("pid 4242") && line.contains("share")), text);
    }

    @Test
    void aTinyTerminalStillGetsExactlyItsSize() {
        for (int[] size : new int[][] {{20, 5}, {40, 10}, {1, 1}}) {
            ScreenDriver driver = ScreenDriver.lab(size[0], size[1]).keys("j", Input.Kind.ENTER);
            assertFits(driver);
        }
    }
}
