package dev.nvidb.mcp;

import dev.nvidb.mcp.QueueTool.Answer;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Operations;
import dev.nvidb.queue.Queue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code op_id} on a tool that changes the queue, as {@code --op-id} on the CLI
 * (docs/sweeps.md): the same id with the same tool and arguments answers the first call's
 * document again and changes nothing; the same id with another request is a usage error; a usage
 * error frees the id. A call that failed otherwise (a database or node error) records nothing, so
 * its retry runs again, and a submit's retry finds the jobs the first run stored under the id.
 */
final class OperationCalls {

    /** The argument every writing tool takes. */
    static final String OP_ID = "op_id";

    private OperationCalls() {
    }

    static Answer run(Queue queue, String tool, Arguments arguments, Supplier<Answer> call) {
        String opId = arguments.string(OP_ID);
        if (opId == null) {
            return call.get();
        }
        Operations.check(opId);
        String request = canonical(tool, arguments.asGiven());
        Answer[] ran = new Answer[1];
        Operations.Answer answer = Operations.once(step -> step.accept(queue.operations()), opId,
                Operations.digest(("mcp\0" + request).getBytes(StandardCharsets.UTF_8)), "mcp " + request, () -> {
                    ran[0] = call.get();
                    return new Operations.Answer(ran[0].json(), 0, false);
                });
        return answer.replayed() ? new Answer(answer.stdout().strip(), false, true) : ran[0];
    }

    /** The tool and its arguments less the op id, keys sorted at every level: equal requests are equal text. */
    static String canonical(String tool, Map<String, Object> arguments) {
        Map<String, Object> rest = new TreeMap<>(arguments);
        rest.remove(OP_ID);
        return tool + " " + Json.compact(sorted(rest));
    }

    private static Object sorted(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> ordered = new TreeMap<>();
            map.forEach((key, item) -> ordered.put(String.valueOf(key), sorted(item)));
            return ordered;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(OperationCalls::sorted).toList();
        }
        return value;
    }
}
