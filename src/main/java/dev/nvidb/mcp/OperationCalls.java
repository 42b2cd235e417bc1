package dev.nvidb.mcp;

import dev.nvidb.error.UsageException;
import dev.nvidb.mcp.QueueTool.Answer;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Operations;
import dev.nvidb.queue.Queue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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
        Operations operations = queue.operations();
        Operations.Begin begin = operations.begin(opId, digest(request), "mcp " + request);
        if (begin.kind() == Operations.Kind.REPLAY) {
            return new Answer(begin.stdout().strip(), false, true);
        }
        Answer answer;
        try {
            answer = call.get();
        } catch (UsageException e) {
            operations.forget(opId);
            throw e;
        }
        operations.finish(opId, 0, answer.json());
        return answer;
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

    private static String digest(String request) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(("mcp\0" + request).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
