package dev.nvidb.tui.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.JobState;
import dev.nvidb.queue.FakeNodeQueue;
import dev.nvidb.queue.JobView;
import dev.nvidb.tui.Frame;
import dev.nvidb.tui.Input;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys and clicks on the queue screen against a real queue (SQLite file, the real tick, the
 * in-process fake node and clock): every action goes through the worker's threads and is
 * checked in the database.
 */
class QueueScreenTest {

    @TempDir
    Path dir;
    private FakeNodeQueue fixture;
    private QueueWorker worker;
    private QueueScreen screen;

    @BeforeEach
    void open() {
        fixture = new FakeNodeQueue(dir, dir.resolve("queue.db"));
        worker = new QueueWorker(fixture.queue, () -> null, fixture.clock, Duration.ofSeconds(2), false);
        screen = new QueueScreen(worker, fixture.clock);
    }

    @AfterEach
    void close() {
        worker.close();
        fixture.close();
    }

    private Frame frame() {
        worker.read();
        return screen.render(120, 40);
    }

    private boolean press(Frame shown, Input... inputs) {
        boolean going = true;
        for (Input input : inputs) {
            going = screen.handle(input, shown);
        }
        return going;
    }

    private boolean press(char... keys) {
        Frame shown = frame();
        boolean going = true;
        for (char key : keys) {
            going = screen.handle(Input.character(key), shown);
        }
        return going;
    }

    private JobState state(long id) {
        return fixture.queue.reading().getJob(id).job().state();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(20);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("gave up waiting for " + what);
            }
            Thread.sleep(20); // a poll with a deadline
        }
    }

    private String statusLine() {
        return frame().lines().get(38).toString();
    }

    @Test
    void cancelNeedsASecondPressOnTheSameJobWithinFiveSeconds() throws Exception {
        long id = fixture.submit("train");
        fixture.queue.ticking().now();
        assertEquals(JobState.RUNNING, state(id));
        press('c');
        assertTrue(statusLine().contains("press c again within 5 s to cancel job " + id), statusLine());
        assertTrue(frame().lines().get(39).toString().contains("c again: cancel job " + id));

        fixture.clock.advance(Duration.ofSeconds(6));
        frame();  // the armed cancel expires
        press('c');
        assertEquals(JobState.RUNNING, state(id), "a press after the window only arms again");

        press('c');
        await("the cancel", () -> state(id) == JobState.CANCELLED);
        await("its line", () -> statusLine().contains("cancelled job " + id));
    }

    @Test
    void anyOtherKeyBetweenTheTwoPressesDisarms() {
        long id = fixture.submit("train");
        fixture.queue.ticking().now();
        press('c', 'f', 'c');
        assertEquals(JobState.RUNNING, state(id));
        assertTrue(screen.state().armedCancel != null, "the last c armed it again");
    }

    @Test
    void kAndJMoveAPendingJobInTheDispatchOrderAndTheTableFollows() throws Exception {
        long a = fixture.submit("a");
        long b = fixture.submit("b");
        long c = fixture.submit("c");
        press('j', 'j');
        assertEquals(c, screen.state().selectedJob);
        press('K');
        await("c to pass b", () -> order().equals(List.of(a, c, b)));
        assertEquals(c, screen.state().selectedJob, "the selection stays on the moved job");
        press('J', 'J');
        await("the moves to finish", () -> worker.message() != null && worker.message().text().contains("moved down"));
        await("c to be last again", () -> order().equals(List.of(a, b, c)));
    }

    private List<Long> order() {
        worker.read();
        return QueueRenderer.visibleJobs(screen.state(), worker.data().status(), fixture.clock.instant()).stream()
                .map(JobView::id).toList();
    }

    @Test
    void plusAndMinusChangeThePriorityAndAFinishedJobIsRequeued() throws Exception {
        long id = fixture.submit("train");
        press('+', '+', '+', '-');
        await("the presses to add up", () -> worker.actionsWaiting() == 0);
        assertEquals(2, fixture.queue.reading().getJob(id).job().priority());
        press('c');
        press('c');
        await("the cancel", () -> state(id) == JobState.CANCELLED);
        press('r');
        await("the requeue", () -> state(id) == JobState.PENDING);
    }

    @Test
    void helpOpensWithQuestionMarkAndQClosesItWithoutQuitting() {
        assertTrue(press('?'));
        assertTrue(frame().text().contains("this help"));
        assertTrue(press('q'), "q closes the help");
        assertFalse(screen.state().help);
        assertFalse(press('q'), "q quits");
    }

    @Test
    void clicksSelectFilterAndSort() {
        long a = fixture.submit("a");
        long b = fixture.submit("b");
        fixture.queue.ticking().now();  // both run on gpu1's two GPUs
        fixture.submit("c");
        Frame shown = frame();
        int row = rowOf(shown, "    " + b + " running");
        press(shown, Input.mouse(Input.Kind.CLICK, 30, row));
        assertEquals(b, screen.state().selectedJob);
        press(shown, Input.mouse(Input.Kind.CLICK, 30, row));
        assertEquals(QueueScreenState.Pane.DETAIL, screen.state().pane, "a click on the selected row opens its detail");

        shown = frame();
        int pending = shown.lines().get(1).toString().indexOf("pending");
        press(shown, Input.mouse(Input.Kind.CLICK, pending, 1));
        assertEquals(StateFilter.PENDING, screen.state().filter);
        press(shown, Input.mouse(Input.Kind.CLICK, pending, 1));
        assertEquals(StateFilter.ALL, screen.state().filter, "a second click clears the filter");

        shown = frame();
        int header = rowOf(shown, "   ID STATE");
        int name = shown.lines().get(header).toString().indexOf("NAME");
        press(shown, Input.mouse(Input.Kind.CLICK, name, header));
        assertEquals(JobSort.NAME, screen.state().sort);
        press(shown, Input.mouse(Input.Kind.CLICK, name, header));
        assertTrue(screen.state().descending, "a second click flips the order");
        assertEquals(List.of(3L, b, a), order());
    }

    @Test
    void drainFromTheNodesPaneStopsPlacementsThere() throws Exception {
        frame();
        Frame shown = frame();
        press(shown, Input.key(Input.Kind.TAB));
        assertEquals(QueueScreenState.Focus.NODES, screen.state().focus);
        press('d');
        await("the drain", () -> {
            worker.read();
            return worker.data().status().nodes().get(0).drained();
        });
        long id = fixture.submit("waits");
        fixture.queue.ticking().now();
        assertEquals(JobState.PENDING, state(id), "no placement on a drained node");
        press('d');
        await("the resume", () -> {
            worker.read();
            return !worker.data().status().nodes().get(0).drained();
        });
    }

    private static int rowOf(Frame frame, String start) {
        for (int i = 0; i < frame.lines().size(); i++) {
            if (frame.lines().get(i).toString().startsWith(start)) {
                return i;
            }
        }
        throw new AssertionError("no row starting '" + start + "' in\n" + frame.text());
    }
}
