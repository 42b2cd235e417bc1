package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code job priority ID --up N / --down N} moves a pending job past exactly N jobs in dispatch
 * order (priority descending, then id), ties included, and no other job changes place.
 */
class PriorityMoveTest {

    /**
     * @param pending "id:priority" in any order
     * @param id      the job moved
     * @param places  positive: up, negative: down
     * @param order   the dispatch order wanted afterwards
     */
    static Stream<Arguments> moves() {
        return Stream.of(
                Arguments.of("up 1 among ties", "1:0 2:0 3:0", 3, 1, "1 3 2"),
                Arguments.of("up 2 among ties", "1:0 2:0 3:0", 3, 2, "3 1 2"),
                Arguments.of("up 1 from the middle of ties", "1:0 2:0 3:0 4:0", 3, 1, "1 3 2 4"),
                Arguments.of("down 1 among ties", "1:0 2:0 3:0", 1, -1, "2 1 3"),
                Arguments.of("down 2 among ties", "1:0 2:0 3:0", 1, -2, "2 3 1"),
                Arguments.of("down 1 from the middle of ties", "1:0 2:0 3:0 4:0", 2, -1, "1 3 2 4"),
                Arguments.of("up more than available goes first", "1:0 2:0 3:0", 3, 10, "3 1 2"),
                Arguments.of("down more than available goes last", "1:0 2:0 3:0", 1, 10 * -1, "2 3 1"),
                Arguments.of("the first cannot move up", "1:0 2:0", 1, 1, "1 2"),
                Arguments.of("the last cannot move down", "1:0 2:0", 2, -3, "1 2"),
                Arguments.of("up 1 across a gap", "1:5 2:1 3:0", 3, 1, "1 3 2"),
                Arguments.of("up 1 into a tie above", "1:5 2:3 3:3 4:0", 4, 1, "1 2 4 3"),
                Arguments.of("up 2 into a tie above", "1:5 2:3 3:3 4:0", 4, 2, "1 4 2 3"),
                Arguments.of("up past a higher priority with a lower id", "1:2 2:1 3:1", 3, 1, "1 3 2"),
                Arguments.of("down 1 into a tie below", "1:9 2:3 3:3 4:0", 1, -1, "2 1 3 4"),
                Arguments.of("down 3 with mixed priorities", "1:9 2:3 3:3 4:0 5:-2", 1, -3, "2 3 4 1 5"),
                Arguments.of("negative priorities", "1:-1 2:-1 3:-5", 3, 1, "1 3 2"),
                Arguments.of("the lower id keeps its place when raised", "5:0 6:0 7:0", 7, 1, "5 7 6"),
                Arguments.of("given out of order", "3:0 1:0 2:0", 3, 1, "1 3 2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("moves")
    void movesPastExactlyThatManyJobs(String name, String pending, long id, int places, String order) {
        List<PriorityMove.Slot> before = slots(pending);
        Map<Long, Integer> changes = PriorityMove.plan(before, id, places);
        List<PriorityMove.Slot> after = new ArrayList<>();
        for (PriorityMove.Slot slot : before) {
            after.add(new PriorityMove.Slot(slot.id(), changes.getOrDefault(slot.id(), slot.priority())));
        }
        after.sort(PriorityMove.DISPATCH);
        assertEquals(order, String.join(" ", after.stream().map(slot -> Long.toString(slot.id())).toList()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("moves")
    void everyOtherJobKeepsItsPlaceRelativeToTheOthers(String name, String pending, long id, int places, String order) {
        List<PriorityMove.Slot> before = slots(pending);
        Map<Long, Integer> changes = PriorityMove.plan(before, id, places);
        List<PriorityMove.Slot> after = new ArrayList<>();
        for (PriorityMove.Slot slot : before) {
            after.add(new PriorityMove.Slot(slot.id(), changes.getOrDefault(slot.id(), slot.priority())));
        }
        List<PriorityMove.Slot> sortedBefore = new ArrayList<>(before);
        sortedBefore.sort(PriorityMove.DISPATCH);
        after.sort(PriorityMove.DISPATCH);
        assertEquals(sortedBefore.stream().map(PriorityMove.Slot::id).filter(other -> other != id).toList(),
                after.stream().map(PriorityMove.Slot::id).filter(other -> other != id).toList());
    }

    @org.junit.jupiter.api.Test
    void tiesAtTheDefaultPriorityRaiseTheMovedJobAndTheOneAheadOfIt() {
        assertEquals(Map.of(3L, 1, 1L, 1), PriorityMove.plan(slots("1:0 2:0 3:0"), 3, 1));
        assertEquals(Map.of(1L, -1, 3L, -1), PriorityMove.plan(slots("1:0 2:0 3:0"), 1, -1));
        assertEquals(Map.of(3L, 2), PriorityMove.plan(slots("1:5 2:1 3:0"), 3, 1), "a gap needs no other change");
    }

    private static List<PriorityMove.Slot> slots(String text) {
        List<PriorityMove.Slot> slots = new ArrayList<>();
        for (String pair : text.split(" ")) {
            String[] parts = pair.split(":");
            slots.add(new PriorityMove.Slot(Long.parseLong(parts[0]), Integer.parseInt(parts[1])));
        }
        return slots;
    }
}
