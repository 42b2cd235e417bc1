package dev.nvidb.tui.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.ViewMode;
import dev.nvidb.tui.Input;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keys and clicks against the screen state, with a clock the test moves. */
class MonitorKeysTest {

    /** The lab with the cursor on gpu-a GPU 0 and the process pane focused. */
    private static ScreenDriver inProcesses() {
        return ScreenDriver.lab(120, 40).keys("j", Input.Kind.ENTER);
    }

    @Test
    void aSignalNeedsASecondIdenticalPressWithinFiveSecondsAndGoesToTheOwningNode() {
        ScreenDriver driver = inProcesses();
        driver.keys("T");
        assertTrue(driver.source.signals.isEmpty(), "one press only arms");
        assertTrue(driver.text().contains("press T again or Enter within 5s to send SIGTERM to 4242 (python) on gpu-a"),
                driver.text());
        driver.clock.advance(Duration.ofSeconds(4));
        driver.keys("T");
        assertEquals(List.of(new SignalRequest(ProcessSignal.TERM, "gpu-a", 4242, "python")), driver.source.signals);
        assertTrue(driver.text().contains("sent SIGTERM to 4242 (python) on gpu-a"), driver.text());
    }

    @Test
    void enterConfirmsTooButADifferentSignalKeyDoesNot() {
        ScreenDriver driver = inProcesses().keys("K", Input.Kind.ENTER);
        assertEquals(ProcessSignal.KILL, driver.source.signals.get(0).signal());
        driver.keys("i", "T");
        assertEquals(1, driver.source.signals.size(), "i then T is two different signals, neither confirmed");
    }

    @Test
    void anArmedSignalExpiresAfterFiveSecondsAndEscCancelsIt() {
        ScreenDriver driver = inProcesses().keys("T");
        driver.clock.advance(Duration.ofMillis(5001));
        driver.keys("T");
        assertTrue(driver.source.signals.isEmpty(), "a late second press arms again instead of sending");
        assertTrue(driver.text().contains("press T again"), driver.text());
        driver.keys(Input.Kind.ESCAPE);
        assertNull(driver.state().armed());
        assertTrue(driver.text().contains("SIGTERM cancelled"), driver.text());
        driver.keys("T");
        assertTrue(driver.source.signals.isEmpty());
    }

    @Test
    void theFirstSignalKeyInTheGpuPaneOnlyMovesFocusToTheProcesses() {
        ScreenDriver driver = ScreenDriver.lab(120, 40).keys("j", "T");
        assertEquals(MonitorState.Focus.PROCESSES, driver.state().focus());
        assertNull(driver.state().armed());
        driver.keys("T", "T");
        assertEquals(1, driver.source.signals.size());
    }

    @Test
    void clickingTheArmedButtonAgainSendsTheSignal() {
        ScreenDriver driver = inProcesses().click("T SIGTERM");
        assertTrue(driver.text().contains("SIGTERM? 5s"), driver.text());
        driver.click("T SIGTERM");
        assertEquals(1, driver.source.signals.size());
    }

    @Test
    void theLiveFilterNarrowsTheListAsYouTypeAndEscClearsIt() {
        ScreenDriver driver = inProcesses().keys("/", "sle");
        assertTrue(driver.text().contains("4343"), driver.text());
        assertFalse(driver.text().contains("4242"), driver.text());
        assertTrue(driver.text().contains("filter: sle"), driver.text());
        driver.keys(Input.Kind.ENTER);
        assertFalse(driver.state().editingFilter());
        assertEquals("sle", driver.state().processFilter());
        driver.keys("T", "T");
        assertEquals(4343, driver.source.signals.get(0).pid(), "the signal goes to the process the filter left");
        driver.keys(Input.Kind.ESCAPE);
        assertEquals("", driver.state().processFilter());
        assertTrue(driver.text().contains("4242"), driver.text());
    }

    @Test
    void filterMatchesUserPidAndCommand() {
        assertTrue(inProcesses().keys("/", "bob").text().contains("4343"));
        assertFalse(inProcesses().keys("/", "4343").text().contains("4242"));
        assertTrue(inProcesses().keys("/", "--lr").text().contains("4242"));
    }

    @Test
    void oCyclesTheSortAndUpperCaseOReversesIt() {
        ScreenDriver driver = inProcesses();
        assertEquals(ProcessColumns.VRAM, driver.state().processSort());
        driver.keys("o");
        assertEquals(ProcessColumns.CPU, driver.state().processSort(), "VRAM, CPU, host memory, RSS, time, PID, command");
        driver.keys("o", "o", "o", "o");
        assertEquals(ProcessColumns.PID, driver.state().processSort());
        String text = driver.text();
        assertTrue(text.indexOf("  4242 ") < text.indexOf("  4343 "), text);
        driver.keys("O");
        text = driver.text();
        assertTrue(driver.state().processReversed());
        assertTrue(text.indexOf("  4343 ") < text.indexOf("  4242 "), text);
    }

    @Test
    void clickingAHeaderSortsByItAndClickingAgainReverses() {
        ScreenDriver driver = inProcesses().click("PID", "USER");
        assertEquals(ProcessColumns.PID, driver.state().processSort());
        assertFalse(driver.state().processReversed());
        driver.click("PID", "USER");
        assertTrue(driver.state().processReversed());
    }

    @Test
    void layoutKeysAreSavedAndSessionKeysAreNot() {
        ScreenDriver driver = ScreenDriver.lab(120, 40);
        driver.keys("v", "d", "s", "f", "g", "u", "t", "p");
        List<ViewSettings> saved = driver.saved;
        assertEquals(8, saved.size());
        ViewSettings last = saved.get(saved.size() - 1);
        assertEquals(ViewMode.UNIFIED, last.mode());
        assertTrue(last.detail());
        assertEquals(GpuOrder.AVAILABLE, last.sort());
        assertEquals(GpuFilter.AVAILABLE, last.filter());
        assertFalse(last.group());
        assertTrue(last.showUnsupported());
        assertTrue(last.history());
        assertTrue(last.processPane());
        driver.keys("o", "O", "+", "/", "x", Input.Kind.ENTER, "?");
        assertEquals(8, driver.saved.size(), "sort, rows, filter and help are the session's own");
    }

    @Test
    void qQuitsButClosesHelpFirst() {
        ScreenDriver driver = ScreenDriver.lab(80, 24).keys("?");
        assertTrue(driver.state().help());
        driver.keys("q");
        assertTrue(driver.running, "q closes help without quitting");
        assertFalse(driver.state().help());
        driver.keys("?").click("help:");
        assertFalse(driver.state().help(), "a click inside the panel closes it");
        driver.keys("q");
        assertFalse(driver.running);
    }

    @Test
    void theSelectionFollowsItsGpuWhenTheOrderChanges() {
        ScreenDriver driver = new ScreenDriver(MonitorSamples.lab(),
                ViewSettings.defaults().withMode(ViewMode.UNIFIED).withSort(GpuOrder.UTIL), 120, 40);
        driver.keys("j");
        assertEquals("gpu-b#0", driver.screen.state().view().mode() == ViewMode.UNIFIED
                ? selectedKey(driver) : null);
        List<NodeFeed> nodes = new ArrayList<>(MonitorSamples.lab());
        nodes.set(1, MonitorSamples.node("gpu-b", MonitorSamples.gpu(0, "NVIDIA RTX A6000", 49140, 2048, 99, 40)));
        driver.source.nodes = nodes;
        driver.keys(Input.Kind.RESIZE);
        assertEquals("gpu-b#0", selectedKey(driver));
        assertTrue(driver.text().lines().anyMatch(line -> line.startsWith("›") && line.contains("RTX A6000")),
                driver.text());
    }

    @Test
    void perNodeEnterTogglesANodeAndAExpandsEverything() {
        ScreenDriver driver = ScreenDriver.lab(120, 40);
        assertTrue(driver.text().contains("NVIDIA H100"));
        driver.keys(Input.Kind.ENTER);
        assertFalse(driver.text().contains("NVIDIA H100"), driver.text());
        driver.keys("a");
        assertTrue(driver.text().contains("NVIDIA H100"));
        driver.keys("c");
        assertFalse(driver.text().contains("NVIDIA H100"));
    }

    @Test
    void nodesWithoutGpusAreHiddenUntilU() {
        List<NodeFeed> nodes = new ArrayList<>(MonitorSamples.lab());
        nodes.add(MonitorSamples.withoutGpus("laptop"));
        ScreenDriver driver = new ScreenDriver(nodes, ViewSettings.defaults(), 120, 40);
        assertFalse(driver.text().contains("laptop"), driver.text());
        assertTrue(driver.text().contains("1 node without GPUs hidden"), driver.text());
        driver.keys("u");
        assertTrue(driver.text().contains("laptop  NO GPU"), driver.text());
    }

    @Test
    void theErrorFilterListsOnlyFailedNodesAndSaysWhatItHides() {
        ScreenDriver driver = new ScreenDriver(MonitorSamples.lab(),
                ViewSettings.defaults().withMode(ViewMode.UNIFIED).withFilter(GpuFilter.ERRORS), 120, 40);
        String text = driver.text();
        assertTrue(text.contains("gpu-c  DOWN"), text);
        assertFalse(text.contains("H100"), text);
        assertTrue(text.contains("hiding 4 of 4 GPUs"), text);
    }

    @Test
    void theWheelOverTheProcessPaneMovesTheProcessSelection() {
        ScreenDriver driver = inProcesses();
        int row = driver.text().lines().toList().indexOf(driver.text().lines()
                .filter(line -> line.contains("4343")).findFirst().orElseThrow());
        driver.keys(Input.mouse(Input.Kind.WHEEL_DOWN, 10, row));
        assertTrue(driver.text().contains("pid 4343"), driver.text());
    }

    private static String selectedKey(ScreenDriver driver) {
        MonitorModel model = MonitorModel.of(driver.source.nodes(), driver.state());
        return model.selectedItem().key();
    }
}
